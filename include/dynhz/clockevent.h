/* SPDX-License-Identifier: MIT */
/*
 * Clock-event devices: hardware that raises an interrupt after a programmed
 * time (the PIT, the local APIC timer, the host's simulated PIT).
 *
 * The driver contract, three calls and three numbers: the driver fills in
 * set_state_periodic, set_next_event_ns (if it has a one-shot mode) and
 * set_state_shutdown; for one-shot it also gives the rate its counter runs
 * at (freq_hz) and the shortest and longest count it can be programmed
 * with (min_delta_ticks, max_delta_ticks). A fourth call, tick_period, is
 * optional: it lets a change of HZ at runtime do its arithmetic before the
 * tick that applies it, with interrupts on. It registers the device, and its
 * interrupt calls dev->event_handler(dev). The core derives the nanosecond
 * limits at registration, sets event_handler (a no-op until dz_time_init()
 * makes the device the tick device, so an early interrupt is harmless), and
 * decides when to program what.
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
	/*
	 * Optional: stores in *period the exact tick set_state_periodic would
	 * make at hz, without touching the hardware. Returns 0 or a negative
	 * DZ_E* error, as set_state_periodic would.
	 */
	int (*tick_period)(struct clock_event_device *dev, unsigned int hz,
			   struct dz_tick_period *period);
	/*
	 * One interrupt after delta_ns, never earlier: the core keeps delta_ns
	 * within [min_delta_ns, max_delta_ns], the driver rounds it up to its
	 * counter. NULL if there is no one-shot mode.
	 */
	int (*set_next_event_ns)(struct clock_event_device *dev, u64 delta_ns);
	int (*set_state_shutdown)(struct clock_event_device *dev);
	/* Set by the core; the driver's interrupt calls it. */
	void (*event_handler)(struct clock_event_device *dev);
	/* One-shot counter: its rate and the counts it can be programmed with. */
	u64 freq_hz;
	u64 min_delta_ticks, max_delta_ticks;

	/* owned by the core */
	u64 min_delta_ns; /* ceil(min_delta_ticks * 10^9 / freq_hz) */
	u64 max_delta_ns; /* floor(max_delta_ticks * 10^9 / freq_hz) */
	enum clock_event_state state;
	struct clock_event_device *next_dev;
};

/*
 * Makes the device known to the core and derives its nanosecond limits
 * (registering it again, after its one-shot numbers changed, derives them
 * again). Its event_handler becomes a no-op until it is made the tick
 * device. Returns 0, or -DZ_EINVAL for a one-shot device whose numbers
 * give no usable range: no rate, max_delta_ticks of 0, min_delta_ticks
 * above max_delta_ticks, or limits that come out at 0 ns or crossed. The
 * device is registered either way, but is then not one-shot.
 */
int clockevents_register_device(struct clock_event_device *dev);

/* The device's handler until the core takes it over: does nothing. */
void clockevents_handle_noop(struct clock_event_device *dev);

#endif
