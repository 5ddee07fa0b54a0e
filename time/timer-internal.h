/* SPDX-License-Identifier: MIT */
/* The timer wheel's side of the tick (time/tick-*.c call these). */
#ifndef DYNHZ_TIMER_INTERNAL_H
#define DYNHZ_TIMER_INTERNAL_H

#include <dynhz/timer.h>

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
 * HZ changed (time/retune.c): every pending timer re-expressed in new
 * jiffies from the boundary info->jiffies. Returns how many; *clamped
 * counts those further ahead than MAX_JIFFY_OFFSET new jiffies (early).
 */
unsigned long dz_timers_retune(const struct dz_retune_info *info, unsigned long *clamped);

#endif
