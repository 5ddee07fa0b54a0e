/* SPDX-License-Identifier: MIT */
/*
 * Clocksources: free-running counters with a known frequency (the TSC on
 * x86, the simulated PIT input clock on the host). Timekeeping reads one to
 * tell the time between ticks, to the nanosecond and without drift.
 *
 * Cycles become nanoseconds exactly, floor(cycles * 10^9 / freq), through
 * the conversion generator (include/dynhz/conv.h): no lossy mult/shift, so
 * a day on a 1193182 Hz counter is a day to the nanosecond. The counter may
 * be narrower than 64 bits (mask): timekeeping folds it into a 64-bit total
 * often enough that a wrap is never missed.
 */
#ifndef DYNHZ_CLOCKSOURCE_H
#define DYNHZ_CLOCKSOURCE_H

#include <dynhz/types.h>
#include <dynhz/conv.h>

struct clocksource {
	const char *name;
	u64 (*read)(struct clocksource *cs);
	u64 mask; /* the counter's width: U64_MAX, 0xffffffff, 0xffffff, ... */

	/* owned by the core, filled in by clocksource_register_hz() */
	u64 freq_hz;
	struct dz_conv cyc2ns; /* cycles -> ns, rounded down */
};

/*
 * Makes cs, counting freq_hz per second, the clocksource of timekeeping
 * (the last one registered is used). Registered before dz_time_init() it
 * starts counting at the timekeeping epoch; registered later, timekeeping
 * switches to it at the current time without a jump. Returns 0, or
 * -DZ_EINVAL for a missing read, a mask that is not 2^n - 1 (all ones
 * from bit 0), or a zero frequency, or
 * -DZ_ERANGE for a frequency the exact conversion cannot serve.
 */
int clocksource_register_hz(struct clocksource *cs, u64 freq_hz);

/* Stops using cs: timekeeping goes on from ticks, without a jump. */
void clocksource_unregister(struct clocksource *cs);

/* The clocksource in use, or NULL when the time comes from ticks. */
struct clocksource *dz_clocksource_current(void);

/* Exact: floor(cycles * 10^9 / freq_hz) (saturating past 2^64 - 1 ns). */
static inline u64 dz_clocksource_cyc2ns(const struct clocksource *cs, u64 cycles)
{
	return dz_conv(&cs->cyc2ns, cycles);
}

#endif
