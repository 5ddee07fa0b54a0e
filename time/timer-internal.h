/* SPDX-License-Identifier: MIT */
/* The timer wheel's side of the tick (time/tick-*.c call these). */
#ifndef DYNHZ_TIMER_INTERNAL_H
#define DYNHZ_TIMER_INTERNAL_H

#include <dynhz/timer.h>

/* The wheel's geometry (include/dynhz/timer.h says what it means for expiries). */
#define DZ_TIMER_WHEEL_LVL_BITS 6
#define DZ_TIMER_WHEEL_LVL_SIZE (1U << DZ_TIMER_WHEEL_LVL_BITS)
#define DZ_TIMER_WHEEL_LEVELS	5
#define DZ_TIMER_WHEEL_RANGE	(1UL << (DZ_TIMER_WHEEL_LEVELS * DZ_TIMER_WHEEL_LVL_BITS))

/* Starts an empty wheel at jiffies; timers still pending are dropped. */
void dz_timers_init(void);

/* From the tick, after jiffies moved: runs what is due, up to jiffies. */
void dz_timer_tick(void);

/* How many coming ticks have no timer work (ULONG_MAX: none pending). */
unsigned long dz_timer_idle_ticks(void);

/* The wheel's side of dz_tick_skip(): n idle ticks pass at once. */
void dz_timer_skip(u64 n);

struct dz_retune_info;
/*
 * HZ changed (time/retune.c), at the boundary info->jiffies, interrupts
 * off: every pending timer is kept, in old jiffies, in a second wheel, in
 * O(slots). The tick moves those that come due; dz_timers_migrate() moves
 * the rest.
 */
void dz_timers_retune_begin(const struct dz_retune_info *info);

/*
 * Moves up to max timers of the old rate into the wheel, each re-expressed
 * from what remained of it at the boundary (in new jiffies, rounded up),
 * with interrupts off for this batch only. Returns whether any remain;
 * *moved and *clamped count, since the boundary, the timers moved and
 * those further ahead than MAX_JIFFY_OFFSET new jiffies (clamped: early).
 */
bool dz_timers_migrate(unsigned int max, unsigned long *moved, unsigned long *clamped);

/* Jiffies timers pending, in either wheel. */
unsigned long dz_timers_pending(void);

#endif
