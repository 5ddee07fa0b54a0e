/* SPDX-License-Identifier: MIT */
/* The hrtimer queue's side of the tick (time/ only). */
#ifndef DYNHZ_HRTIMER_INTERNAL_H
#define DYNHZ_HRTIMER_INTERNAL_H

#include <dynhz/hrtimer.h>

/* Timers queued now (read inline by the periodic tick: one load when none). */
extern unsigned int dz_hrtimer_queued;

/*
 * At boot: forgets the queued timers (they become plain not-queued
 * timers); they run from the tick, with no slack, until
 * dz_hrtimers_set_resolution(true).
 */
void dz_hrtimers_init(void);

/*
 * true: timers run from the one-shot device at their latest expiry; false
 * (high resolution ended: the clocksource changed): from the tick, and
 * the slack of the queued ones goes.
 */
void dz_hrtimers_set_resolution(bool highres);

/*
 * The earliest latest-expiry of the queued timers on the monotonic clock
 * (without high resolution: the earliest expiry), KTIME_MAX when none.
 */
s64 dz_hrtimer_next_key(void);

/*
 * Runs, in order, every queued timer whose expiry is at or before now
 * (monotonic ns), until the first whose expiry is not: from the device's
 * interrupt, interrupts off.
 */
void dz_hrtimer_run(s64 now);

/*
 * The periodic tick's check (its handler checks only while timers are
 * queued: dz_tick_hrtimers_queued()).
 */
void dz_hrtimer_run_tick(void);
static inline void dz_hrtimer_tick(void)
{
	if (unlikely(dz_hrtimer_queued))
		dz_hrtimer_run_tick();
}

/* Tick resolution: hrtimers run from the tick (the core's; read inline). */
extern bool dz_hrtimer_lowres;

/* After the wheel ran callbacks: at tick resolution, the hrtimers they made due. */
static inline void dz_hrtimer_after_wheel(void)
{
	if (unlikely(dz_hrtimer_queued) && dz_hrtimer_lowres)
		dz_hrtimer_run_tick();
}

/* The realtime or TAI offset changed: re-keys the timers of those clocks. */
void dz_hrtimer_clock_was_set(void);

#endif
