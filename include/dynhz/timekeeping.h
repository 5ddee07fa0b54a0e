/* SPDX-License-Identifier: MIT */
/*
 * The clocks: monotonic time and the clocks derived from it.
 *
 * Raw time is nanoseconds since the timekeeping epoch (dz_time_init()).
 * With a clocksource, it is the exact floor of the cycles counted since
 * the epoch (or since the switch to that clocksource) times 10^9 / freq.
 * Without one, it is the exact floor of ticks times the tick period: on
 * the PIT, after n ticks, floor(n * divisor * 10^9 / 1193182) ns. Both are
 * computed from a 64-bit total, never from a sum of rounded steps, so no
 * remainder is ever dropped and the time cannot drift from the
 * oscillator, whatever HZ was chosen.
 *
 * Monotonic time is the raw time steered by NTP (include/dynhz/ntp.h):
 * equal to it, to the ns, until NTP first changes the rate; then a
 * continuous, never decreasing, piecewise-linear function of it whose
 * slope is the rate NTP asks for (1 +- its limits). The jiffy grid stays
 * the device's, on the raw time.
 *
 * The others, with Linux's clock ids (the macros carry the core's prefix,
 * so that this header and <time.h> mix in a hosted program):
 *
 *	clock			is				resolution
 *	MONOTONIC		monotonic time			1 ns (*)
 *	MONOTONIC_RAW		raw time			1 ns (*)
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

/**
 * ktime_get_ns() - monotonic time
 *
 * Return: nanoseconds since the epoch (dz_time_init()); 0 before it.
 */
u64 ktime_get_ns(void);

/* ktime_get_ns() as a ktime_t. */
static inline ktime_t ktime_get(void)
{
	return ns_to_ktime(ktime_get_ns());
}

/**
 * ktime_get_raw_ns() - monotonic time not steered by NTP (CLOCK_MONOTONIC_RAW)
 *
 * The oscillator's own time, exactly: ktime_get_ns() until NTP first
 * changes its rate (include/dynhz/ntp.h), apart from it after.
 *
 * Return: nanoseconds since the epoch; 0 before it.
 */
u64 ktime_get_raw_ns(void);

/* Monotonic time including suspend: the same clock here (nothing suspends). */
static inline u64 ktime_get_boottime_ns(void)
{
	return ktime_get_ns();
}

static inline ktime_t ktime_get_boottime(void)
{
	return ktime_get();
}

/**
 * ktime_get_real() - realtime (CLOCK_REALTIME)
 *
 * Monotonic time plus the offset dz_timekeeping_set_real_ns() set (0 until
 * then: realtime starts at the Unix epoch, as on a machine without a clock).
 *
 * Return: nanoseconds since the Unix epoch (negative if set before 1970).
 */
ktime_t ktime_get_real(void);

static inline u64 ktime_get_real_ns(void)
{
	return (u64)ktime_get_real();
}

/**
 * ktime_get_clocktai() - International Atomic Time (CLOCK_TAI)
 *
 * Return: ktime_get_real() plus the TAI offset (dz_timekeeping_tai_offset()).
 */
ktime_t ktime_get_clocktai(void);

static inline u64 ktime_get_clocktai_ns(void)
{
	return (u64)ktime_get_clocktai();
}

/**
 * ktime_get_coarse_ns() - monotonic time at the start of the current jiffy
 *
 * The tick count times the exact tick period (steered: monotonic time at
 * that raw time), never ahead of ktime_get_ns(): it never runs backwards
 * and never passes the fine clock, and moves only at jiffy boundaries
 * (CLOCK_MONOTONIC_COARSE).
 *
 * Return: nanoseconds since the epoch.
 */
u64 ktime_get_coarse_ns(void);

/**
 * ktime_get_coarse_real_ns() - realtime at the start of the current jiffy
 *
 * Return: ktime_get_coarse_ns() plus the realtime offset (CLOCK_REALTIME_COARSE).
 */
u64 ktime_get_coarse_real_ns(void);

/**
 * dz_timekeeping_set_real_ns() - set the realtime clock (clock_settime)
 * @real_ns: realtime now, in ns since the Unix epoch
 *
 * Only the offset to monotonic time changes; monotonic time does not jump.
 * Every queued hrtimer with an absolute expiry on the realtime or TAI clock
 * is re-evaluated at once (Linux's clock_was_set): one now due runs at the
 * next event of the tick device, one moved further waits. Callable with
 * interrupts on or off, from a callback too.
 */
void dz_timekeeping_set_real_ns(s64 real_ns);

/**
 * dz_timekeeping_set_leap() - schedule a leap second (adjtimex STA_INS, STA_DEL)
 * @mono_ns: when, in monotonic time (the realtime second it happens at,
 *	converted by the caller)
 * @seconds: what realtime gains then: -1 inserts a second (23:59:59
 *	repeats), +1 deletes one; 0 cancels
 *
 * At @mono_ns, before any hrtimer due then runs, realtime steps by
 * @seconds and the TAI offset by -@seconds (TAI stays continuous), and the
 * realtime and TAI hrtimers are re-evaluated as for a set clock. The
 * caller arms an hrtimer at @mono_ns so that the hrtimers run then; a
 * clock set does not move the leap (the caller cancels or moves it).
 */
void dz_timekeeping_set_leap(s64 mono_ns, int seconds);

/**
 * dz_timekeeping_real_offset_ns() - what realtime adds to monotonic time
 *
 * Return: realtime minus monotonic time, in ns.
 */
s64 dz_timekeeping_real_offset_ns(void);

/**
 * dz_timekeeping_set_tai_offset() - set TAI - UTC
 * @seconds: the offset (37 since 2017; 0 until set, as on Linux)
 *
 * Re-evaluates the queued TAI hrtimers as a realtime change does.
 */
void dz_timekeeping_set_tai_offset(s32 seconds);

/* The TAI offset in seconds. */
s32 dz_timekeeping_tai_offset(void);

/**
 * dz_clock_get_ns() - a clock's time
 * @clock_id: DZ_CLOCK_*
 * @ns: where the time goes, in ns
 *
 * Return: 0, or -DZ_EINVAL for a clock id the core does not keep (the
 * CPU-time clocks are the kernel's).
 */
int dz_clock_get_ns(int clock_id, s64 *ns);

/**
 * dz_clock_getres() - a clock's resolution, exactly
 * @clock_id: DZ_CLOCK_*
 * @res: 1/10^9 s, or the tick period (num/den s) for the coarse clocks and,
 *	without high resolution, for the others (Linux's hrtimer_resolution)
 *
 * Return: 0 or -DZ_EINVAL.
 */
int dz_clock_getres(int clock_id, struct dz_tick_period *res);

/**
 * dz_clock_getres_ns() - a clock's resolution in ns (clock_getres)
 * @clock_id: DZ_CLOCK_*
 *
 * Return: dz_clock_getres() to the nearest ns (a tick: Linux's TICK_NSEC),
 * or -DZ_EINVAL.
 */
s64 dz_clock_getres_ns(int clock_id);

#endif
