/*
 * jiffies_to_clock_t() gives USER_HZ ticks, which do not quietly become an
 * unsigned long: reading the count takes dz_uclock_ticks().
 *
 * expect: incompatible types when initializing type '[a-z ]+' using type 'dz_uclock_t'
 * fails in: variable debug hz250 m32 m32-hz250
 */
#include <dynhz/jiffies.h>

unsigned long user_ticks(unsigned long j);

#ifdef DZ_CONTROL
unsigned long user_ticks(unsigned long j)
{
	unsigned long t = dz_uclock_ticks(jiffies_to_clock_t(j));

	return t;
}
#else
unsigned long user_ticks(unsigned long j)
{
	unsigned long t = jiffies_to_clock_t(j); /* HERE */

	return t;
}
#endif
