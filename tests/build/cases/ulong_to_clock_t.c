/*
 * A plain number where USER_HZ ticks are expected: the unit must be said.
 *
 * expect: incompatible type for argument 1 of 'clock_t_to_jiffies'
 * fails in: variable debug hz250 m32 m32-hz250
 */
#include <dynhz/jiffies.h>

unsigned long from_user(void);

#ifdef DZ_CONTROL
unsigned long from_user(void)
{
	return clock_t_to_jiffies(DZ_UCLOCK(5));
}
#else
unsigned long from_user(void)
{
	return clock_t_to_jiffies(5UL); /* HERE */
}
#endif
