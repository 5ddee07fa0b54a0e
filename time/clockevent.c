// SPDX-License-Identifier: MIT
/*
 * Clock-event devices: registration, and the checked way to program them.
 * The drivers (arch/x86, host) do the hardware; the core decides when.
 */
#include <dynhz/clockevent.h>
#include <dynhz/errno.h>
#include <dynhz/port.h>

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

void clockevents_register_device(struct clock_event_device *dev)
{
	unsigned long flags = dz_irq_save();

	if (!registered(dev)) {
		dev->next_dev = devices;
		devices = dev;
		dev->state = CLOCK_EVT_STATE_SHUTDOWN;
		/* Until the tick takes it over, an interrupt does nothing. */
		dev->event_handler = clockevents_handle_noop;
	}
	dz_irq_restore(flags);
}

struct clock_event_device *clockevents_devices(void)
{
	return devices;
}

int clockevents_set_periodic(struct clock_event_device *dev, unsigned int hz,
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

int clockevents_program_next_ns(struct clock_event_device *dev, u64 delta_ns)
{
	u64 max = dev->max_delta_ns ? dev->max_delta_ns : U64_MAX;
	int err;

	if (!(dev->features & CLOCK_EVT_FEAT_ONESHOT) || !dev->set_next_event_ns)
		return -DZ_ENOSYS;
	/* Too short for the device would be lost; too long, it comes back early. */
	if (delta_ns < dev->min_delta_ns)
		delta_ns = dev->min_delta_ns;
	if (delta_ns > max)
		delta_ns = max;
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
