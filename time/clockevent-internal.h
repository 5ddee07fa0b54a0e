/* SPDX-License-Identifier: MIT */
/* Programming a clock-event device: the tick's side (time/ only). */
#ifndef DYNHZ_CLOCKEVENT_INTERNAL_H
#define DYNHZ_CLOCKEVENT_INTERNAL_H

#include <dynhz/clockevent.h>

/* Asks for periodic ticks at hz: the driver's set_state_periodic, checked. */
int dz_clockevents_set_periodic(struct clock_event_device *dev, unsigned int hz,
				struct dz_tick_period *period);

/*
 * The tick set_periodic would make at hz, asked ahead (the driver's
 * optional tick_period): -DZ_ENOSYS when the driver cannot tell.
 */
int dz_clockevents_tick_period(struct clock_event_device *dev, unsigned int hz,
			       struct dz_tick_period *period);

/*
 * One-shot: an interrupt delta_ns from now, clamped into the device's
 * [min_delta_ns, max_delta_ns] (so the event may come later than asked,
 * never earlier). -DZ_ENOSYS if the device has no one-shot mode.
 */
int dz_clockevents_program_ns(struct clock_event_device *dev, u64 delta_ns);

/* Stops the device's interrupts. */
int clockevents_shutdown(struct clock_event_device *dev);

/* Can the device do one-shot events (with the limits the core derived)? */
bool dz_clockevents_oneshot(const struct clock_event_device *dev);

/* The registered devices, most recent first (NULL-terminated via next_dev). */
struct clock_event_device *dz_clockevents_devices(void);

#endif
