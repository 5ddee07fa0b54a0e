/*
 * INITIAL_JIFFIES depends on HZ: in the variable and debug builds it is a
 * boot-time value and cannot start a static variable.
 *
 * expect: initializer element is not constant
 * fails in: variable debug m32
 */
#include <dynhz/jiffies.h>

unsigned long boot_stamp(void);

#ifdef DZ_CONTROL
unsigned long boot_stamp(void)
{
	static unsigned long stamp;

	if (!stamp)
		stamp = INITIAL_JIFFIES;
	return stamp;
}
#else
static unsigned long stamp = INITIAL_JIFFIES; /* HERE */

unsigned long boot_stamp(void)
{
	return stamp;
}
#endif
