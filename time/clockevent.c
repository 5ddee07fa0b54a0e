// SPDX-License-Identifier: MIT
/*
 * Clock-event devices: registration, and the checked way to program them.
 * The drivers (arch/x86, host) do the hardware; the core decides when.
 */
#include <dynhz/clockevent.h>
#include <dynhz/conv.h>
#include <dynhz/time64.h>
#include <dynhz/errno.h>
#include <dynhz/port.h>
#include "clockevent-internal.h"

static struct clock_event_device *devices;

void clockevents_handle_noop(struct clock_event_device *dev)
{
	(void)dev;
}

static bool registered(const struct clock_event_device *dev)
{
	for (const struct clock_event_device *d = devices; d; d = d->next_dev)
		if (d == dev)
			return true;
	return false;
}

/* Counter ticks to ns, exactly, rounded as asked: 0 if it cannot be done. */
static u64 ticks_to_ns(u64 freq, u64 ticks, enum dz_round round)
{
	const struct dz_rate ns = { NSEC_PER_SEC, 1 };
	struct dz_rate counts = { freq, 1 };
	struct dz_conv cv;

	if (dz_conv_make(&cv, counts, ns, round, U64_MAX, U64_MAX))
		return 0;
	return dz_conv(&cv, ticks);
}

/*
 * The one-shot limits in ns: the shortest rounded up (a shorter count
 * would be lost), the longest rounded down (a longer one would wrap and
 * come early).
 */
static int derive_limits(struct clock_event_device *dev)
{
	dev->min_delta_ns = 0;
	dev->max_delta_ns = 0;
	if (!(dev->features & CLOCK_EVT_FEAT_ONESHOT))
		return 0;
	if (!dev->freq_hz || !dev->max_delta_ticks || dev->min_delta_ticks > dev->max_delta_ticks)
		return -DZ_EINVAL;
	dev->min_delta_ns = ticks_to_ns(dev->freq_hz, dev->min_delta_ticks, DZ_ROUND_UP);
	dev->max_delta_ns = ticks_to_ns(dev->freq_hz, dev->max_delta_ticks, DZ_ROUND_DOWN);
	if (!dev->max_delta_ns || dev->min_delta_ns > dev->max_delta_ns) {
		dev->min_delta_ns = dev->max_delta_ns = 0;
		return -DZ_EINVAL;
	}
	return 0;
}

int clockevents_register_device(struct clock_event_device *dev)
{
	unsigned long flags = dz_irq_save();
	int err = derive_limits(dev);

	if (!registered(dev)) {
		dev->next_dev = devices;
		devices = dev;
		dev->state = CLOCK_EVT_STATE_SHUTDOWN;
		/* Until the tick takes it over, an interrupt does nothing. */
		dev->event_handler = clockevents_handle_noop;
	}
	dz_irq_restore(flags);
	return err;
}

struct clock_event_device *dz_clockevents_devices(void)
{
	return devices;
}

bool dz_clockevents_oneshot(const struct clock_event_device *dev)
{
	return (dev->features & CLOCK_EVT_FEAT_ONESHOT) && dev->set_next_event_ns &&
	       dev->max_delta_ns;
}

int dz_clockevents_set_periodic(struct clock_event_device *dev, unsigned int hz,
				struct dz_tick_period *period)
{
	int err;

	if (!(dev->features & CLOCK_EVT_FEAT_PERIODIC) || !dev->set_state_periodic)
		return -DZ_ENOSYS;
	period->num = 0;
	period->den = 0;
	err = dev->set_state_periodic(dev, hz, period);
	if (err)
		return err;
	/* A tick of no length (or of a zero rate) is a driver bug: say so. */
	if (!period->num || !period->den)
		return -DZ_EINVAL;
	dev->state = CLOCK_EVT_STATE_PERIODIC;
	return 0;
}

int dz_clockevents_program_ns(struct clock_event_device *dev, u64 delta_ns)
{
	int err;

	if (!dz_clockevents_oneshot(dev))
		return -DZ_ENOSYS;
	/* Too short for the device would be lost; too long, it comes back early. */
	if (delta_ns < dev->min_delta_ns)
		delta_ns = dev->min_delta_ns;
	if (delta_ns > dev->max_delta_ns)
		delta_ns = dev->max_delta_ns;
	err = dev->set_next_event_ns(dev, delta_ns);
	if (!err)
		dev->state = CLOCK_EVT_STATE_ONESHOT;
	return err;
}

int clockevents_shutdown(struct clock_event_device *dev)
{
	int err = dev->set_state_shutdown ? dev->set_state_shutdown(dev) : 0;

	if (!err)
		dev->state = CLOCK_EVT_STATE_SHUTDOWN;
	return err;
}
