/* SPDX-License-Identifier: MIT */
/*
 * Monotonic time: nanoseconds since the timekeeping epoch (dz_time_init()).
 *
 * With a clocksource, the time is the exact floor of the cycles counted
 * since the epoch (or since the switch to that clocksource) times 10^9 /
 * freq. Without one, it is the exact floor of ticks times the tick period:
 * on the PIT, after n ticks, floor(n * divisor * 10^9 / 1193182) ns. Both
 * are computed from a 64-bit total, never from a sum of rounded steps, so
 * no remainder is ever dropped and the time cannot drift from the
 * oscillator, whatever HZ was chosen.
 */
#ifndef DYNHZ_TIMEKEEPING_H
#define DYNHZ_TIMEKEEPING_H

#include <dynhz/types.h>
#include <dynhz/hz.h>

/* Monotonic nanoseconds since the epoch; 0 before dz_time_init(). */
u64 ktime_get_ns(void);

/* The core's side (tick.c, clocksource.c): */

/* Starts the epoch: tick 0, time 0, keeping any registered clocksource. */
void dz_timekeeping_init(struct dz_tick_period period);

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

/* Makes cs (or NULL: ticks) the source of time, without a jump. */
struct clocksource;
void dz_timekeeping_set_clocksource(struct clocksource *cs);
struct clocksource *dz_timekeeping_clocksource(void);

#endif
