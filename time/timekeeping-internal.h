/* SPDX-License-Identifier: MIT */
/* Timekeeping's side of the tick and of clocksources (time/ only). */
#ifndef DYNHZ_TIMEKEEPING_INTERNAL_H
#define DYNHZ_TIMEKEEPING_INTERNAL_H

#include <dynhz/timekeeping.h>
#include <dynhz/hrtimer.h>
#include <dynhz/hz.h>

/*
 * What each hrtimer clock adds to monotonic time: 0, the realtime offset,
 * 0, realtime + TAI. Read inline by the hrtimer queue; written by
 * timekeeping.c alone, interrupts off.
 */
extern s64 dz_timekeeping_offs[DZ_HRTIMER_MAX_CLOCK_BASES];

/* The time now on an hrtimer clock. */
static inline ktime_t dz_timekeeping_base_now(unsigned int base)
{
	return ktime_add_safe(ns_to_ktime(ktime_get_ns()), dz_timekeeping_offs[base]);
}

/*
 * The pending leap second's monotonic time (KTIME_MAX: none), checked by
 * the hrtimer queue; dz_timekeeping_leap() applies it (interrupts off).
 */
extern s64 dz_timekeeping_leap_at;
void dz_timekeeping_leap(void);

/*
 * Starts the epoch: tick 0, time 0 at the clocksource's reading epoch
 * (dz_timekeeping_read(), taken just before the tick device started),
 * keeping any registered clocksource.
 */
void dz_timekeeping_init(struct dz_tick_period period, u64 epoch);

/* The clocksource's counter now, masked (0 without a clocksource). */
u64 dz_timekeeping_read(void);

/*
 * Called once per tick (interrupts off): folds a narrow counter in time.
 * Inline, as it is a decrement on most ticks: dz_timekeeping_countdown is
 * timekeeping.c's count of ticks to the next fold, for this alone.
 */
extern unsigned long dz_timekeeping_countdown;
void dz_timekeeping_fold(void);

static inline void dz_timekeeping_tick(void)
{
	if (unlikely(!--dz_timekeeping_countdown))
		dz_timekeeping_fold();
}

/* After n ticks were accounted at once: folds the counter. */
void dz_timekeeping_skip(u64 n);

/*
 * How many ticks may pass before the clocksource must be read again, or
 * U64_MAX when nothing limits it (a 64-bit counter, or no clocksource).
 */
u64 dz_timekeeping_max_skip(void);

/*
 * Cycles of the clocksource counted since it became the source of time (or
 * since the epoch), exactly, as a 64-bit total; 0 without a clocksource.
 * Interrupts off. Tickless idle finds the jiffy grid on it.
 */
u64 dz_timekeeping_cycles(void);

/*
 * Raw time when the clocksource in use took over: ktime_get_raw_ns() is
 * this plus floor(dz_timekeeping_cycles() * 10^9 / freq).
 */
u64 dz_timekeeping_base_ns(void);

/*
 * NTP's rate (time/ntp.c): monotonic ns per raw second, << 32 (Linux's
 * tick length for a second), kept within (1/2, 3/2) s a second. Applies
 * from the raw time now on, continuously; the one-shot device is
 * programmed afresh for the hrtimers.
 */
void dz_timekeeping_set_rate(u64 length);

/*
 * Monotonic time at a raw time (both ns since the epoch), on the current
 * rate: exact from the last change of rate on (before it, the current
 * rate extended back).
 */
u64 dz_timekeeping_raw_to_mono(u64 raw);

/*
 * The first raw time at which monotonic time reaches mono, at the current
 * rate; a time not after the last change of rate when mono is not after
 * its time (so, for a time passed, a raw time passed); U64_MAX if never.
 */
u64 dz_timekeeping_mono_to_raw(u64 mono);

/* Makes cs (or NULL: ticks) the source of time, without a jump. */
struct clocksource;
void dz_timekeeping_set_clocksource(struct clocksource *cs);
struct clocksource *dz_timekeeping_clocksource(void);

/*
 * HZ changes at this tick (time/retune.c): prepare builds the conversion
 * of the new period (0, or -DZ_ERANGE and nothing changes); retune makes
 * it the tick's, continuing the time and the coarse clock from this jiffy.
 */
int dz_timekeeping_retune_prepare(struct dz_tick_period period);
void dz_timekeeping_retune(struct dz_tick_period period);

#endif
