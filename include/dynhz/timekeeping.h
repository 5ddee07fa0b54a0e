/* SPDX-License-Identifier: MIT */
/*
 * The clocks: monotonic time and the clocks derived from it.
 *
 * Monotonic time is nanoseconds since the timekeeping epoch
 * (dz_time_init()). With a clocksource, it is the exact floor of the cycles
 * counted since the epoch (or since the switch to that clocksource) times
 * 10^9 / freq. Without one, it is the exact floor of ticks times the tick
 * period: on the PIT, after n ticks, floor(n * divisor * 10^9 / 1193182)
 * ns. Both are computed from a 64-bit total, never from a sum of rounded
 * steps, so no remainder is ever dropped and the time cannot drift from
 * the oscillator, whatever HZ was chosen.
 *
 * The others, with Linux's clock ids (the macros carry the core's prefix,
 * so that this header and <time.h> mix in a hosted program):
 *
 *	clock			is				resolution
 *	MONOTONIC, _RAW		monotonic time			1 ns (*)
 *	BOOTTIME		monotonic (no suspend here)	1 ns (*)
 *	REALTIME		monotonic + a settable offset	1 ns (*)
 *	TAI			realtime + the TAI offset (0)	1 ns (*)
 *	MONOTONIC_COARSE	monotonic at the last jiffy	a tick
 *	REALTIME_COARSE		that + the realtime offset	a tick
 *
 * (*) The resolution of hrtimers on that clock, as Linux reports it: 1 ns
 * when they run from a one-shot device (high resolution), a tick when they
 * run from the tick. The coarse clocks are where the tick's length is
 * visible: they only move at jiffy boundaries (as CLOCK_*_COARSE on Linux).
 */
#ifndef DYNHZ_TIMEKEEPING_H
#define DYNHZ_TIMEKEEPING_H

#include <dynhz/types.h>
#include <dynhz/hz.h>
#include <dynhz/ktime.h>

#define DZ_CLOCK_REALTIME	  0
#define DZ_CLOCK_MONOTONIC	  1
#define DZ_CLOCK_MONOTONIC_RAW	  4
#define DZ_CLOCK_REALTIME_COARSE  5
#define DZ_CLOCK_MONOTONIC_COARSE 6
#define DZ_CLOCK_BOOTTIME	  7
#define DZ_CLOCK_TAI		  11

/* Monotonic nanoseconds since the epoch; 0 before dz_time_init(). */
u64 ktime_get_ns(void);

static inline ktime_t ktime_get(void)
{
	return ns_to_ktime(ktime_get_ns());
}

/* Monotonic time not slewed by NTP: the same clock here (nothing slews it). */
static inline u64 ktime_get_raw_ns(void)
{
	return ktime_get_ns();
}

/* Monotonic time including suspend: the same clock here (nothing suspends). */
static inline u64 ktime_get_boottime_ns(void)
{
	return ktime_get_ns();
}

static inline ktime_t ktime_get_boottime(void)
{
	return ktime_get();
}

/*
 * Realtime (CLOCK_REALTIME): nanoseconds since the Unix epoch, monotonic
 * time plus an offset that dz_timekeeping_set_real_ns() sets (0 until
 * then: realtime starts at the epoch, 1970, as on a machine without a
 * clock). ktime_get_real() is negative if the clock was set before 1970.
 */
ktime_t ktime_get_real(void);

static inline u64 ktime_get_real_ns(void)
{
	return (u64)ktime_get_real();
}

/* International Atomic Time: realtime plus the TAI offset. */
ktime_t ktime_get_clocktai(void);

static inline u64 ktime_get_clocktai_ns(void)
{
	return (u64)ktime_get_clocktai();
}

/*
 * The coarse clocks: monotonic time at the start of the current jiffy
 * (the tick count times the exact tick period), never ahead of
 * ktime_get_ns(), so they never run backwards and never pass the fine
 * clock; and the same plus the realtime offset.
 */
u64 ktime_get_coarse_ns(void);
u64 ktime_get_coarse_real_ns(void);

/*
 * Sets realtime to real_ns now (clock_settime(CLOCK_REALTIME)): only the
 * offset to monotonic time changes; monotonic time does not jump. Every
 * pending hrtimer with an absolute expiry on the realtime or TAI clock is
 * re-evaluated at once (Linux's clock_was_set): one now due fires at the
 * next event of the tick device, one moved further waits. Callable with
 * interrupts on or off, from a callback too.
 */
void dz_timekeeping_set_real_ns(s64 real_ns);

/* Realtime minus monotonic time, in ns (what realtime adds). */
s64 dz_timekeeping_real_offset_ns(void);

/*
 * The TAI offset in seconds (TAI - UTC: 37 since 2017; 0 until set, as on
 * Linux). Setting it re-evaluates the pending TAI hrtimers as a realtime
 * change does.
 */
void dz_timekeeping_set_tai_offset(s32 seconds);
s32 dz_timekeeping_tai_offset(void);

/*
 * A clock's time in ns: *ns and 0, or -DZ_EINVAL for a clock id the core
 * does not keep (the CPU-time clocks are the kernel's).
 */
int dz_clock_get_ns(int clock_id, s64 *ns);

/*
 * A clock's resolution, exactly: 1/10^9 s, or the tick period (num/den
 * seconds) for the coarse clocks and, without high resolution, for the
 * others. 0 or -DZ_EINVAL. dz_clock_getres_ns() is the same rounded to
 * the nearest ns (Linux's TICK_NSEC for a tick), or -DZ_EINVAL.
 */
int dz_clock_getres(int clock_id, struct dz_tick_period *res);
s64 dz_clock_getres_ns(int clock_id);

#endif
