// SPDX-License-Identifier: MIT
/*
 * CLOCK_REALTIME (see kernel/realtime.h), kept by the core
 * (dz_timekeeping_set_real_ns(): realtime hrtimers follow it). The RTC
 * counts whole seconds, so its reading is the second that began at some
 * unknown point of the last one; the clock is set from it once, right
 * after reading it. Waiting for the RTC's next edge would pin the
 * fraction down but cost up to a second of boot.
 */
#include <kernel/realtime.h>
#include <kernel/arch.h>
#include <dynhz/timekeeping.h>
#include <dynhz/time64.h>
#include <kernel/errno.h>
#include <dynhz/port.h>

void realtime_init(void)
{
	u64 secs = rtc_boot_seconds();

	dz_timekeeping_set_real_ns((s64)(secs * NSEC_PER_SEC));
}

u64 realtime_offset_ns(void)
{
	return (u64)dz_timekeeping_real_offset_ns();
}

u64 realtime_get_ns(void)
{
	return ktime_get_real_ns();
}

u64 realtime_boot_seconds(void)
{
	return realtime_offset_ns() / NSEC_PER_SEC;
}

static void (*clock_set_fn)(void);

void clock_was_set_notify(void (*fn)(void))
{
	clock_set_fn = fn;
}

void clock_was_set(void)
{
	if (clock_set_fn)
		clock_set_fn();
}

/* KTIME_SEC_MAX minus 30 years of uptime, as Linux's TIME_SETTOD_SEC_MAX. */
#define SETTOD_SEC_MAX (S64_MAX / (s64)NSEC_PER_SEC - 30LL * 365 * 86400)

bool realtime_settime_valid(s64 sec, s64 nsec)
{
	return sec >= 0 && sec <= SETTOD_SEC_MAX && nsec >= 0 && nsec < (s64)NSEC_PER_SEC;
}

/* The new time, if valid and not before the boot; interrupts off (monotonic time read once). */
static long set_checked(s64 sec, s64 nsec)
{
	s64 mono = (s64)ktime_get_ns();

	if (!realtime_settime_valid(sec, nsec) || sec * (s64)NSEC_PER_SEC + nsec < mono)
		return -EINVAL;
	dz_timekeeping_set_real_ns(sec * (s64)NSEC_PER_SEC + nsec);
	clock_was_set();
	ntp_clock_was_set();
	return 0;
}

long realtime_settime(s64 sec, s64 nsec)
{
	unsigned long flags = dz_irq_save();
	long err = set_checked(sec, nsec);

	dz_irq_restore(flags);
	return err;
}

long realtime_inject_offset(s64 sec, s64 nsec)
{
	unsigned long flags = dz_irq_save();
	s64 to, step;
	long err = -EINVAL;

	if (nsec >= 0 && nsec < (s64)NSEC_PER_SEC &&
	    !__builtin_mul_overflow(sec, (s64)NSEC_PER_SEC, &step) &&
	    !__builtin_add_overflow(step, nsec, &step) &&
	    !__builtin_add_overflow((s64)realtime_get_ns(), step, &to) && to >= 0)
		err = set_checked(to / (s64)NSEC_PER_SEC, to % (s64)NSEC_PER_SEC);
	dz_irq_restore(flags);
	return err;
}
