/*
 * HZ in a static initializer: nothing is known about HZ before boot, so in
 * the variable and debug builds this must not compile; in the constant
 * build HZ is a literal and it does.
 *
 * expect: initializer element is not constant
 * fails in: variable debug m32
 */
#include <dynhz/jiffies.h>

unsigned long poll_interval(void);

#ifdef DZ_CONTROL
unsigned long poll_interval(void)
{
	return HZ / 10;
}
#else
static unsigned long interval = HZ / 10; /* HERE */

unsigned long poll_interval(void)
{
	return interval;
}
#endif
