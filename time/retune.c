// SPDX-License-Identifier: MIT
/*
 * HZ changed at runtime (DESIGN §12, include/dynhz/retune.h).
 *
 * The caller asks; the next tick that runs applies the change at its
 * boundary, with interrupts off: jiffy J (the tick just counted) is the
 * last of the old rate, the device is asked for the new rate at once, and
 * jiffy J + 1 begins one new period later. Everything that counts in
 * jiffies is re-expressed from J: the wheel's timers (their remaining real
 * time, rounded up in new jiffies), the conversion constants (one
 * generation, published with one pointer store), timekeeping's tick-counted
 * clocks, the tickless grid; then the hooks do the kernel's own state.
 * Nothing here is on the tick's common path.
 */
#include <dynhz/retune.h>
#include <dynhz/jiffies.h>
#include <dynhz/bootparam.h>
#include <dynhz/errno.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include <dynhz/tick.h>
#include "clockevent-internal.h"
#include "hz-internal.h"
#include "tick-internal.h"
#include "timer-internal.h"
#include "timekeeping-internal.h"

static struct {
	void (*hooks[DZ_RETUNE_HOOKS_MAX])(const struct dz_retune_info *info);
	unsigned int nhooks;
	void (*wait)(void);
	volatile unsigned int want; /* the HZ asked for; 0: no change waits */
	volatile bool done;
	int result;
	unsigned long clamped;
	u32 generation;
	struct dz_retune_info last;
	struct dz_conv cv; /* old jiffies -> new jiffies, rounded up, for last */
} rt;

void dz_hz_retune_boot(void)
{
	rt.generation = 0;
	rt.last.generation = 0;
	rt.want = 0;
	rt.done = true;
}

u32 dz_hz_generation(void)
{
	return rt.generation;
}

int dz_hz_retune_hook(void (*hook)(const struct dz_retune_info *info))
{
	unsigned long flags = dz_irq_save();
	int err = -DZ_EBUSY;

	if (rt.nhooks < DZ_RETUNE_HOOKS_MAX) {
		rt.hooks[rt.nhooks++] = hook;
		err = 0;
	}
	dz_irq_restore(flags);
	return err;
}

void dz_hz_retune_set_wait(void (*wait)(void))
{
	rt.wait = wait;
}

/* The remaining time of old jiffies in new ones, rounded up: p/q = old/new period. */
static int retune_conv(struct dz_conv *cv, struct dz_tick_period from, struct dz_tick_period to)
{
	const struct dz_rate old_j = { from.den, from.num }, new_j = { to.den, to.num };

	return dz_conv_make(cv, old_j, new_j, DZ_ROUND_UP, ULONG_MAX, MAX_JIFFY_OFFSET);
}

unsigned long dz_retune_jiffies(const struct dz_retune_info *info, unsigned long old_delta)
{
	struct dz_conv local;
	const struct dz_conv *cv = &rt.cv;
	u64 y;

	if (info->generation != rt.last.generation || info->generation != rt.generation) {
		if (retune_conv(&local, info->old_period, info->new_period))
			return MAX_JIFFY_OFFSET;
		cv = &local;
	}
	y = dz_conv(cv, old_delta);
#ifdef DYNHZ_DEBUG
	if (y != dz_conv_exact(cv, old_delta))
		dz_panic("dz_retune_jiffies(%lu) = %llu, exact %llu", old_delta,
			 (unsigned long long)y, (unsigned long long)dz_conv_exact(cv, old_delta));
#endif
	return (unsigned long)y;
}

static void finish(int result)
{
	rt.result = result;
	rt.want = 0;
	rt.done = true;
}

/*
 * Everything that can fail, before anything changes: the constants of the
 * new period (into the block not in force), timekeeping's and the grid's
 * conversions, the wheel's re-expression.
 */
static int prepare(struct dz_tick_period old_p, struct dz_tick_period p)
{
#ifndef CONFIG_HZ
	if (dz_timeconst_build(dz_timeconst_next(), p))
		return -DZ_EINVAL;
#endif
	if (dz_timekeeping_retune_prepare(p) || dz_tick_sched_retune_prepare(p) ||
	    retune_conv(&rt.cv, old_p, p))
		return -DZ_EINVAL;
	return 0;
}

/* The device is asked again for the rate it had: same period, a new phase. */
static void restore(struct clock_event_device *dev, unsigned int hz, struct dz_tick_period old_p,
		    u64 anchor, bool hres)
{
	struct dz_tick_period p;

	if (dz_clockevents_set_periodic(dev, hz, &p) || p.num != old_p.num || p.den != old_p.den)
		dz_panic("hz: clockevent %s cannot resume HZ %u", dev->name, hz);
	if (!hres)
		anchor = dz_timekeeping_cycles(); /* restarted: a new phase */
	if (!dz_tick_sched_retune_prepare(p))
		dz_tick_sched_retune(anchor, jiffies_64);
	if (hres)
		dz_tick_hres_retune();
}

/* At the boundary, interrupts off: the tick of jiffy J has run. */
void dz_hz_retune_boundary(void)
{
	struct clock_event_device *dev = dz_tick_device();
	struct dz_retune_info info = { 0 };
	bool hres = dz_tick_mode == TICK_HRES;
	unsigned int hz = rt.want;
	u64 anchor;
	int err;

	if (!hz || !dev)
		return;
	info.old_hz = HZ;
	info.new_hz = hz;
	info.old_period = dz_hz_period();
	info.jiffies = jiffies;
	/*
	 * Where the new grid starts: in high resolution where jiffy J began
	 * on the old grid (exact: the device has no grid of its own there);
	 * for a periodic device, just after it restarted (the grid must never
	 * be ahead of its ticks: a jiffy counted early runs timers early).
	 */
	anchor = hres ? dz_tick_grid_cycles(jiffies_64) : 0;
	err = dz_clockevents_set_periodic(dev, hz, &info.new_period);
	if (!hres)
		anchor = dz_timekeeping_cycles();
	if (err) {
		restore(dev, info.old_hz, info.old_period, anchor, hres);
		finish(-DZ_EINVAL);
		return;
	}
	err = prepare(info.old_period, info.new_period);
	if (err) {
		restore(dev, info.old_hz, info.old_period, anchor, hres);
		finish(err);
		return;
	}
	info.generation = rt.generation + 1;
	rt.last = info;
	rt.generation = info.generation;
#ifndef CONFIG_HZ
	dz_timeconst_publish(dz_timeconst_next());
#endif
	dz_hz_set_runtime(hz, info.new_period);
	info.timers = dz_timers_retune(&info, &rt.clamped);
	rt.last = info;
	dz_timekeeping_retune(info.new_period);
	dz_tick_sched_retune(anchor, jiffies_64);
	if (hres)
		dz_tick_hres_retune();
	for (unsigned int i = 0; i < rt.nhooks; i++)
		rt.hooks[i](&info);
	finish(0);
}

/* The hz= parameter's message for a bad value, with what stays instead. */
static int check_value(const struct dz_param *p, unsigned long *hz)
{
	char why[64], msg[96];
	int err = dz_param_uint_check(p, DZ_HZ_MIN, DZ_HZ_MAX, DZ_HZ_DEFAULT, hz, why, sizeof(why));

	if (err) {
		dz_snprintf(msg, sizeof(msg), "%s, HZ stays %u", why, HZ);
		dz_param_report(p, msg, NULL);
	}
	return err;
}

/* The change's line, then the `time:` line again. */
static void report(void)
{
	char clamped[64] = "";

	if (rt.clamped)
		dz_snprintf(clamped, sizeof(clamped), " (%lu beyond %lu new jiffies: clamped)",
			    rt.clamped, (unsigned long)MAX_JIFFY_OFFSET);
	dz_printk("hz: %u -> %u at jiffies %lu, %lu timers re-expressed%s\n", rt.last.old_hz,
		  rt.last.new_hz, rt.last.jiffies, rt.last.timers, clamped);
	dz_hz_report_time_line();
}

static int retune(const struct dz_param *p)
{
	unsigned long hz, flags;
	unsigned int old = HZ;
	int err = check_value(p, &hz);

	if (err)
		return err;
	if (hz == old)
		return 0;
#ifdef CONFIG_HZ
	dz_printk("hz: constant build, HZ is %u\n", old);
	return -DZ_EPERM;
#endif
	flags = dz_irq_save();
	if (rt.want || !dz_tick_device()) {
		dz_irq_restore(flags);
		return -DZ_EBUSY;
	}
	rt.done = false;
	rt.want = (unsigned int)hz;
	dz_tick_retune_arm();
	dz_irq_restore(flags);
	/* At most one tick: the next tick that runs applies it. */
	while (!rt.done) {
		if (rt.wait)
			rt.wait();
		else
			__asm__ volatile("" ::: "memory");
	}
	if (rt.result) {
		dz_printk("hz: clockevent %s gives no exactly convertible tick at HZ %lu, HZ stays "
			  "%u\n",
			  dz_tick_device()->name, hz, old);
		return rt.result;
	}
	report();
	return 0;
}

int dz_hz_retune(unsigned int hz)
{
	char val[16];
	struct dz_param p = { .name = "hz", .name_len = 2, .val = val };

	p.val_len = (size_t)dz_snprintf(val, sizeof(val), "%u", hz);
	return retune(&p);
}

int dz_hz_retune_str(const char *s)
{
	struct dz_param p = { .name = "hz", .name_len = 2, .val = s, .val_len = 0 };

	while (s[p.val_len])
		p.val_len++;
	/* What echo writes to /proc/sys/kernel/hz ends in a newline. */
	while (p.val_len && (s[p.val_len - 1] == '\n' || s[p.val_len - 1] == ' '))
		p.val_len--;
	return retune(&p);
}
