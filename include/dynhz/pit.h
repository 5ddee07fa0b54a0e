/* SPDX-License-Identifier: MIT */
/*
 * The arithmetic of the Intel 8254 programmable interval timer, shared by
 * the x86 driver and the hosted simulation: in periodic mode (mode 2) it
 * divides a 1193182 Hz input clock by a 16-bit divisor.
 */
#ifndef DYNHZ_PIT_H
#define DYNHZ_PIT_H

#include <dynhz/hz.h>

#define PIT_FREQ	1193182U
#define PIT_DIVISOR_MAX 65535U /* a divisor of 0 means 65536; we never use it */

/* The nearest divisor for a rate, (PIT_FREQ + hz / 2) / hz. */
static inline unsigned int dz_pit_divisor(unsigned int hz)
{
	return (PIT_FREQ + hz / 2) / hz;
}

/* The exact jiffy when the PIT ticks at hz: divisor / PIT_FREQ seconds. */
static inline struct dz_tick_period dz_pit_period(unsigned int hz)
{
	struct dz_tick_period p = { dz_pit_divisor(hz), PIT_FREQ };

	return p;
}

#endif
