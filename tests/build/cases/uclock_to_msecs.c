/*
 * A USER_HZ tick count handed to a function that takes a time in
 * milliseconds.
 *
 * expect: incompatible type for argument 1 of 'msecs_to_jiffies'
 * fails in: variable debug hz250 m32 m32-hz250
 */
#include <dynhz/jiffies.h>

unsigned long timeout(void);

#ifdef DZ_CONTROL
unsigned long timeout(void)
{
	return msecs_to_jiffies(5);
}
#else
unsigned long timeout(void)
{
	return msecs_to_jiffies(DZ_UCLOCK(5)); /* HERE */
}
#endif
