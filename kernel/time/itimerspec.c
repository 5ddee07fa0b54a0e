// SPDX-License-Identifier: MIT
/*
 * struct itimerspec across the system-call boundary, in both i386 forms
 * (see include/kernel/itimerspec.h).
 */
#include <kernel/itimerspec.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <dynhz/ktime.h>

struct itimerspec32 {
	s32 interval_sec, interval_nsec;
	s32 value_sec, value_nsec;
};

struct itimerspec64 {
	s64 interval_sec, interval_nsec;
	s64 value_sec, value_nsec;
} __attribute__((packed, aligned(4))); /* i386 aligns s64 to 4 */

_Static_assert(sizeof(struct itimerspec64) == 32, "itimerspec64 is 32 bytes");

/* Linux's timespec64_valid() then timespec64_to_ktime(): -1 when invalid. */
static s64 timespec_ns(s64 sec, s32 nsec)
{
	if (sec < 0 || nsec < 0 || nsec >= (s32)NSEC_PER_SEC)
		return -1;
	if (sec >= KTIME_MAX / (s64)NSEC_PER_SEC)
		return KTIME_MAX;
	return sec * (s64)NSEC_PER_SEC + nsec;
}

int itimerspec_get(u32 uaddr, bool time64, struct kitimerspec *its)
{
	s64 isec, vsec, i, v;
	s32 insec, vnsec;

	if (time64) {
		struct itimerspec64 t;

		if (copy_from_user(&t, uaddr, sizeof(t)))
			return -EFAULT;
		/* A 32-bit kernel keeps the low half of tv_nsec only. */
		isec = t.interval_sec;
		insec = (s32)(u32)t.interval_nsec;
		vsec = t.value_sec;
		vnsec = (s32)(u32)t.value_nsec;
	} else {
		struct itimerspec32 t;

		if (copy_from_user(&t, uaddr, sizeof(t)))
			return -EFAULT;
		isec = t.interval_sec;
		insec = t.interval_nsec;
		vsec = t.value_sec;
		vnsec = t.value_nsec;
	}
	i = timespec_ns(isec, insec);
	v = timespec_ns(vsec, vnsec);
	if (i < 0 || v < 0)
		return -EINVAL;
	its->interval = (u64)i;
	its->value = (u64)v;
	return 0;
}

int itimerspec_put(u32 uaddr, bool time64, const struct kitimerspec *its)
{
	u64 isec = its->interval / NSEC_PER_SEC, vsec = its->value / NSEC_PER_SEC;
	u32 insec = (u32)(its->interval % NSEC_PER_SEC), vnsec = (u32)(its->value % NSEC_PER_SEC);

	if (time64) {
		struct itimerspec64 t = { (s64)isec, insec, (s64)vsec, vnsec };

		return copy_to_user(uaddr, &t, sizeof(t)) ? -EFAULT : 0;
	} else {
		struct itimerspec32 t = { (s32)isec, (s32)insec, (s32)vsec, (s32)vnsec };

		return copy_to_user(uaddr, &t, sizeof(t)) ? -EFAULT : 0;
	}
}
