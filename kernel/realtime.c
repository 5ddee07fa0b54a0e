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
#include <asm/rtc.h>
#include <dynhz/timekeeping.h>
#include <dynhz/time64.h>

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
