/* SPDX-License-Identifier: MIT */
/*
 * CLOCK_REALTIME (kernel/time/realtime.c): the CMOS clock's time at boot, kept
 * from then on by the core's timekeeping (the monotonic clock plus an
 * offset, <dynhz/timekeeping.h>), so that it never drifts from the
 * clocksource. Only dz_timekeeping_set_real_ns() steps it (clock_settime).
 */
#ifndef KERNEL_REALTIME_H
#define KERNEL_REALTIME_H

#include <dynhz/types.h>

/* Reads the RTC and prints its boot line. Once, after clock_init(). */
void realtime_init(void);

/* Nanoseconds since the Unix epoch now. */
u64 realtime_get_ns(void);

/*
 * The realtime clock minus the monotonic one, in ns: CLOCK_REALTIME is
 * CLOCK_MONOTONIC plus this (changes only when the clock is set).
 */
u64 realtime_offset_ns(void);

/*
 * Can the clock be set to sec.nsec? As Linux's timespec64_valid_settod():
 * sec >= 0, nsec in [0, 10^9), and sec at most 30 years short of ktime's
 * limit (year 2232).
 */
bool realtime_settime_valid(s64 sec, s64 nsec);

/*
 * Sets the clock (clock_settime, settimeofday, stime): 0, or -EINVAL for
 * a time that is not valid or is before the boot (CLOCK_REALTIME below
 * CLOCK_MONOTONIC: Linux refuses it too). Realtime hrtimers follow.
 */
long realtime_settime(s64 sec, s64 nsec);

/*
 * Steps the clock by sec.nsec (adjtimex ADJ_SETOFFSET; nsec in [0, 10^9),
 * sec of either sign): 0, or -EINVAL under the same rules, nothing moved.
 */
long realtime_inject_offset(s64 sec, s64 nsec);

/*
 * The clock was set (kernel/time/adjtimex.c): the NTP state forgets its
 * synchronisation and a pending leap second, as Linux's ntp_clear().
 * Interrupts off.
 */
void ntp_clock_was_set(void);
/*
 * The clock was stepped (clock_settime, settimeofday, stime, adjtimex's
 * ADJ_SETOFFSET, a leap second): calls who asked with
 * clock_was_set_notify(): timerfd (kernel/fs/timerfd.c), whose
 * TFD_TIMER_CANCEL_ON_SET readers wake with ECANCELED, as Linux's
 * timerfd_clock_was_set(). Files sit above time: they are called back,
 * not called. Interrupts off.
 */
void clock_was_set(void);
void clock_was_set_notify(void (*fn)(void));

/* When the monotonic clock was 0 (the boot), in Unix seconds: /proc/stat's btime. */
u64 realtime_boot_seconds(void);

#endif
