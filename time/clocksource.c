// SPDX-License-Identifier: MIT
/*
 * Clocksources: checks a counter's description and prepares its exact
 * cycles-to-nanoseconds conversion; timekeeping does the reading.
 */
#include <dynhz/clocksource.h>
#include "timekeeping-internal.h"
#include <dynhz/time64.h>
#include <dynhz/errno.h>
#include <dynhz/port.h>

int clocksource_register_hz(struct clocksource *cs, u64 freq_hz)
{
	const struct dz_rate ns = { NSEC_PER_SEC, 1 };
	struct dz_rate cycles = { freq_hz, 1 };
	struct dz_conv cv;
	unsigned long flags;

	/* The mask must be all ones up from bit 0: the fold relies on it. */
	if (!cs || !cs->read || !cs->mask || (cs->mask & (cs->mask + 1)) || !freq_hz)
		return -DZ_EINVAL;
	/* Every 64-bit cycle count, exactly, saturating at the top. */
	if (dz_conv_make(&cv, cycles, ns, DZ_ROUND_DOWN, U64_MAX, U64_MAX))
		return -DZ_ERANGE;
	flags = dz_irq_save();
	/* cs may be in use (registered again): hand over from its old state. */
	if (dz_timekeeping_clocksource() == cs)
		dz_timekeeping_set_clocksource(NULL);
	cs->cyc2ns = cv;
	cs->freq_hz = freq_hz;
	dz_timekeeping_set_clocksource(cs);
	dz_irq_restore(flags);
	return 0;
}

void clocksource_unregister(struct clocksource *cs)
{
	unsigned long flags = dz_irq_save();

	if (dz_timekeeping_clocksource() == cs)
		dz_timekeeping_set_clocksource(NULL);
	dz_irq_restore(flags);
}

struct clocksource *dz_clocksource_current(void)
{
	return dz_timekeeping_clocksource();
}
