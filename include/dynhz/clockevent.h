/* SPDX-License-Identifier: MIT */
/*
 * Clock-event devices: hardware that raises an interrupt after a programmed
 * time (the PIT, the local APIC timer, the host's simulated PIT).
 *
 * A driver fills in the callbacks, registers the device, and calls
 * dev->event_handler(dev) from its interrupt. The core sets event_handler:
 * to the periodic tick once dz_time_init() has made the device the tick
 * device, to a handler that does nothing before that (so an early interrupt
 * is harmless). One-shot programming is here for tickless idle.
 */
#ifndef DYNHZ_CLOCKEVENT_H
#define DYNHZ_CLOCKEVENT_H

#include <dynhz/types.h>
#include <dynhz/hz.h>

#define CLOCK_EVT_FEAT_PERIODIC 0x000001
#define CLOCK_EVT_FEAT_ONESHOT	0x000002

/* What the core last asked the device to do. */
enum clock_event_state {
	CLOCK_EVT_STATE_DETACHED, /* not registered */
	CLOCK_EVT_STATE_SHUTDOWN,
	CLOCK_EVT_STATE_PERIODIC,
	CLOCK_EVT_STATE_ONESHOT,
};

struct clock_event_device {
	const char *name;
	unsigned int features; /* CLOCK_EVT_FEAT_* */
	/*
	 * Starts periodic interrupts as close to hz per second as the device
	 * can, and stores in *period the EXACT length of the tick it achieved
	 * (a PIT: divisor / 1193182 s). Returns 0 or a negative DZ_E* error.
	 */
	int (*set_state_periodic)(struct clock_event_device *dev, unsigned int hz,
				  struct dz_tick_period *period);
	/* One interrupt after delta_ns (never earlier); NULL if not supported. */
	int (*set_next_event_ns)(struct clock_event_device *dev, u64 delta_ns);
	int (*set_state_shutdown)(struct clock_event_device *dev);
	/* Set by the core; the driver's interrupt calls it. */
	void (*event_handler)(struct clock_event_device *dev);
	u64 min_delta_ns, max_delta_ns; /* one-shot limits */
	void *priv;			/* the driver's */

	/* owned by the core */
	enum clock_event_state state;
	struct clock_event_device *next_dev;
};

/*
 * Makes the device known to the core (registering it twice is harmless).
 * Its event_handler becomes a no-op until it is made the tick device.
 */
void clockevents_register_device(struct clock_event_device *dev);

/* Asks for periodic ticks at hz: the driver's set_state_periodic, checked. */
int clockevents_set_periodic(struct clock_event_device *dev, unsigned int hz,
			     struct dz_tick_period *period);

/*
 * One-shot: an interrupt delta_ns from now, clamped into the device's
 * [min_delta_ns, max_delta_ns] (so the event may come later than asked,
 * never earlier). -DZ_ENOSYS if the device has no one-shot mode.
 */
int clockevents_program_next_ns(struct clock_event_device *dev, u64 delta_ns);

/* Stops the device's interrupts. */
int clockevents_shutdown(struct clock_event_device *dev);

/* The device's handler until the core takes it over: does nothing. */
void clockevents_handle_noop(struct clock_event_device *dev);

/* The registered devices, most recent first (NULL-terminated via next_dev). */
struct clock_event_device *clockevents_devices(void);

#endif
