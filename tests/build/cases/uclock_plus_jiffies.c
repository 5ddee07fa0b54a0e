/*
 * A timer expiry computed by adding USER_HZ ticks to jiffies.
 *
 * expect: invalid operands to binary \+
 * fails in: variable debug hz250 m32 m32-hz250
 */
#include <dynhz/jiffies.h>

unsigned long expiry(void);

#ifdef DZ_CONTROL
unsigned long expiry(void)
{
	return jiffies + clock_t_to_jiffies(DZ_UCLOCK(5));
}
#else
unsigned long expiry(void)
{
	return jiffies + DZ_UCLOCK(5); /* HERE */
}
#endif
