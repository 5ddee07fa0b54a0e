/*
 * A USER_HZ tick count is not jiffies: time_after() refuses it.
 *
 * expect: static assertion failed: "time_after: not jiffies"
 * fails in: variable debug hz250 m32 m32-hz250
 */
#include <stdbool.h>
#include <dynhz/jiffies.h>

bool expired(unsigned long deadline);

#ifdef DZ_CONTROL
bool expired(unsigned long deadline)
{
	return time_after(jiffies, deadline);
}
#else
bool expired(unsigned long deadline)
{
	return time_after(jiffies_to_clock_t(jiffies), deadline); /* HERE */
}
#endif
