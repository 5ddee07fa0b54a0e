/*
 * time_before_eq() on an unsigned int copy of a jiffies stamp: truncated
 * on a 64-bit machine, and not the type of jiffies on any.
 *
 * expect: static assertion failed: "time_after_eq: not jiffies"
 * fails in: variable debug hz250 m32 m32-hz250
 */
#include <stdbool.h>
#include <dynhz/jiffies.h>

bool due(unsigned int stamp32, unsigned long stamp);

#ifdef DZ_CONTROL
bool due(unsigned int stamp32, unsigned long stamp)
{
	(void)stamp32;
	return time_before_eq(stamp, jiffies);
}
#else
bool due(unsigned int stamp32, unsigned long stamp)
{
	(void)stamp;
	return time_before_eq(stamp32, jiffies); /* HERE */
}
#endif
