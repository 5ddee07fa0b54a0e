// SPDX-License-Identifier: MIT
/*
 * CLOCK_REALTIME (see kernel/realtime.h). The RTC counts whole seconds,
 * so its reading is the second that began at some unknown point of the
 * last one; the monotonic clock is read right after it and the offset
 * between the two fixed once. Waiting for the RTC's next edge would pin
 * the fraction down but cost up to a second of boot.
 */
#include <kernel/realtime.h>
#include <asm/rtc.h>
#include <dynhz/timekeeping.h>
#include <dynhz/time64.h>

static u64 offset_ns;

void realtime_init(void)
{
	u64 secs = rtc_boot_seconds();

	offset_ns = secs * NSEC_PER_SEC - ktime_get_ns();
}

u64 realtime_offset_ns(void)
{
	return offset_ns;
}

u64 realtime_get_ns(void)
{
	return offset_ns + ktime_get_ns();
}

u64 realtime_boot_seconds(void)
{
	return offset_ns / NSEC_PER_SEC;
}
