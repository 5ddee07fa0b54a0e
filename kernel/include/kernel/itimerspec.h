/* SPDX-License-Identifier: MIT */
/*
 * struct itimerspec in and out of user space (kernel/time/itimerspec.c), for
 * timer_settime/gettime and timerfd_settime/gettime: the old 32-bit form
 * (two struct old_timespec32) and the _time64 calls' (two struct
 * __kernel_timespec), the interval first in both.
 */
#ifndef KERNEL_ITIMERSPEC_H
#define KERNEL_ITIMERSPEC_H

#include <dynhz/types.h>

/* An itimerspec in ns: value 0 disarms; interval 0 is one-shot. */
struct kitimerspec {
	u64 interval, value;
};

/**
 * itimerspec_get() - read and check an itimerspec
 * @uaddr: its user address
 * @time64: the __kernel_timespec form (else old_timespec32)
 * @its: the result, in ns (saturated at KTIME_MAX, as Linux)
 *
 * Return: 0, -EFAULT, or -EINVAL for a negative second or a nanosecond
 * field outside [0, 999999999] (of the time64 form, the low 32 bits, as
 * Linux on i386).
 */
int itimerspec_get(u32 uaddr, bool time64, struct kitimerspec *its);

/**
 * itimerspec_put() - write an itimerspec
 * @uaddr: its user address
 * @time64: the __kernel_timespec form (else old_timespec32)
 * @its: the values, in ns
 *
 * Return: 0 or -EFAULT.
 */
int itimerspec_put(u32 uaddr, bool time64, const struct kitimerspec *its);

#endif
