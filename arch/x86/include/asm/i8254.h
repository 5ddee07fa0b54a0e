/* SPDX-License-Identifier: MIT */
/*
 * The 8254 PIT driver: channel 0 as a clock-event device (periodic in
 * mode 3, one-shot on the local APIC timer or in mode 0), and a measuring
 * window for calibrating the other clocks against its crystal.
 *
 * In periodic mode it divides its 1193182 Hz input clock by a 16-bit
 * divisor: the tick is exactly divisor / 1193182 s.
 */
#ifndef ASM_I8254_H
#define ASM_I8254_H

#include <dynhz/clockevent.h>

#define PIT_FREQ	1193182U
#define PIT_DIVISOR_MAX 65535U /* a divisor of 0 means 65536; we never use it */

/* The nearest divisor for a rate, (PIT_FREQ + hz / 2) / hz. */
static inline unsigned int pit_divisor(unsigned int hz)
{
	return (PIT_FREQ + hz / 2) / hz;
}

/* The exact jiffy when the PIT ticks at hz: divisor / PIT_FREQ seconds. */
static inline struct dz_tick_period pit_period(unsigned int hz)
{
	struct dz_tick_period p = { pit_divisor(hz), PIT_FREQ };

	return p;
}

extern struct clock_event_device pit_clockevent;

/*
 * Tickless idle on the local APIC timer (lapic_init() done), not mode 0:
 * while idle the PIT stops and the LAPIC timer raises its one-shot event.
 * Called before the PIT becomes the tick device.
 */
void pit_idle_use_lapic(void);
/* Whether pit_idle_use_lapic() was called: the LAPIC timer is the PIT's one-shot. */
bool pit_idle_on_lapic(void);

/*
 * Runs channel 0 periodically at `divisor`, halting, and stores what
 * sample() reads at the first tick and every `ticks` ticks after it, in
 * out[0..windows]. All samples see the same interrupt latency, so it
 * cancels: they are exactly ticks * divisor / PIT_FREQ s apart. Needs
 * interrupts; leaves channel 0 stopped and IRQ 0 masked.
 */
void pit_measure(unsigned int windows, unsigned int ticks, unsigned int divisor,
		 u64 (*sample)(void), u64 *out);

/*
 * The rate in Hz, rounded to kHz, of a counter read by sample() (counting
 * down if `down`): the median over three windows of 20 ms. QEMU's -icount
 * shift=auto may change the guest time of an instruction between two
 * samples, which skews one window by some ppm; the median drops it.
 */
#define PIT_CAL_WINDOWS 3
#define PIT_CAL_TICKS	2
#define PIT_CAL_DIVISOR 11932 /* 10 ms */
u64 pit_calibrate(u64 (*sample)(void), bool down);

#endif
