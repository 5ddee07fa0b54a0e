/* SPDX-License-Identifier: MIT */
/*
 * The local APIC timer as a clock-event device. It has no crystal of its
 * own we know the rate of, so it is calibrated against the PIT, and its
 * periodic ticks are placed on TSC deadlines that advance by exactly one
 * tick period each (the fraction of a TSC count carried from tick to
 * tick), so the tick rate is exactly HZ on average and never drifts.
 */
#ifndef ASM_LAPIC_H
#define ASM_LAPIC_H

#include <dynhz/clockevent.h>

extern struct clock_event_device lapic_clockevent;

/* Enables the local APIC and calibrates its timer; false if there is none. */
bool lapic_init(void);

/*
 * Delivers the timer's interrupts to dev->event_handler instead of
 * lapic_clockevent's: the timer then serves another device (the PIT's
 * tickless idle) through lapic_clockevent's one-shot and shutdown calls.
 */
void lapic_timer_route(struct clock_event_device *dev);

#endif
