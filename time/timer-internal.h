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

#endif
