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

/* Monotonic nanoseconds since the epoch; 0 before dz_time_init(). */
u64 ktime_get_ns(void);

#endif
