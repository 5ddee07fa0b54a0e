/*
 * A tick-valued parameter read as an unsigned long and converted without
 * saying it is in USER_HZ.
 *
 * expect: incompatible type for argument 1 of 'user_to_kernel_hz'
 * fails in: variable debug hz250 m32 m32-hz250
 */
#include <dynhz/jiffies.h>

unsigned long timeslice(unsigned long param);

#ifdef DZ_CONTROL
unsigned long timeslice(unsigned long param)
{
	return user_to_kernel_hz(DZ_UCLOCK(param));
}
#else
unsigned long timeslice(unsigned long param)
{
	return user_to_kernel_hz(param); /* HERE */
}
#endif
