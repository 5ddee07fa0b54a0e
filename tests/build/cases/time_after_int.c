/*
 * time_after() on ints: jiffies are unsigned long, and a narrower copy
 * compares wrongly across the wrap.
 *
 * expect: static assertion failed: "time_after: not jiffies"
 * fails in: variable debug hz250 m32 m32-hz250
 */
#include <stdbool.h>
#include <dynhz/jiffies.h>

bool later(int a, unsigned long ua, int b, unsigned long ub);

#ifdef DZ_CONTROL
bool later(int a, unsigned long ua, int b, unsigned long ub)
{
	(void)a;
	(void)b;
	return time_after(ua, ub);
}
#else
bool later(int a, unsigned long ua, int b, unsigned long ub)
{
	(void)ua;
	(void)ub;
	return time_after(a, b); /* HERE */
}
#endif
