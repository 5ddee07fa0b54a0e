// SPDX-License-Identifier: MIT
/*
 * idletest=<seconds>, the idle check of tests/nohz: one 1 Hz timer and
 * nothing else while the CPU idles, then the timer interrupts counted,
 * and jiffies against the ticks the TSC says passed.
 */
#include <kernel/kernel.h>
#include <kernel/test.h>
#include <kernel/clock.h>
#include <kernel/sched.h>
#include <kernel/arch.h>
#include <dynhz/bootparam.h>
#include <dynhz/timer.h>
#include <dynhz/tick.h>
#include <dynhz/timekeeping.h>
#include <dynhz/jiffies.h>
#include <dynhz/hz.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

#define IDLETEST_DEFAULT 10 /* seconds */
#define IDLETEST_MAX	 3600

/* Per second over ns, in thousandths. */
static u64 per_sec_milli(u64 n, u64 ns)
{
	return ns ? n * 1000 * NSEC_PER_SEC / ns : 0;
}

/* Whole tick periods between the device's start and a TSC value. */
static u64 periods_at(u64 tsc)
{
	struct dz_tick_period p = dz_hz_period();
	u64 ns = tsc_to_ns(tsc - arch_tick_start_tsc);

	return ns * p.den / (p.num * NSEC_PER_SEC);
}

static struct timer_list beat;
static unsigned long beat_jiffies; /* the timer's period: msecs_to_jiffies(1000) */
static unsigned int beats;
static unsigned long idle_secs = IDLETEST_DEFAULT;

static void beat_fn(struct timer_list *t)
{
	beats++;
	mod_timer(t, t->expires + beat_jiffies);
}

/* idletest=<s>, read at boot so that a bad value is reported whatever runs. */
void idletest_setup(const char *cmdline)
{
	static const char *const names[] = { "idletest", NULL };
	struct dz_param p;

	if (dz_cmdline_find(cmdline, names, &p) && p.val)
		dz_param_uint(&p, 1, IDLETEST_MAX, IDLETEST_DEFAULT, &idle_secs);
}

/*
 * The beats the timer owes after `elapsed` jiffies: one at each multiple
 * of its period. Not one a second: the period is msecs_to_jiffies(1000),
 * a whole number of jiffies of the device's real tick (1001 at hz=1000 on
 * the PIT, whose tick is 1193/1193182 s), so an hour holds 3596 beats.
 */
static u64 beats_due(u64 elapsed)
{
	return elapsed / beat_jiffies;
}

int idletest_run(void)
{
	struct clock_tick_ref ref;
	struct dz_tick_stats a, b;
	unsigned long secs = idle_secs, flags;
	u64 ticks, periods, ns, t0, r, j0, slept, due;
	bool ok;

	thread_doing("idletest");
	timer_setup(&beat, beat_fn, 0);
	schedule_timeout_uninterruptible(1); /* start just after a tick */
	ref = clock_first_tick();
	beat_jiffies = msecs_to_jiffies(1000);
	flags = dz_irq_save();
	j0 = get_jiffies_64();
	mod_timer(&beat, (unsigned long)j0 + beat_jiffies);
	dz_irq_restore(flags);
	dz_tick_stats(&a);
	t0 = rdtsc();
	msleep((unsigned int)(secs * 1000));
	/*
	 * All at one moment, the timer stopped in it: a timer runs in the
	 * interrupt that makes its jiffy, so beats and jiffies agree here.
	 */
	flags = dz_irq_save();
	dz_tick_stats(&b);
	ns = tsc_to_ns(rdtsc() - t0);
	ticks = dz_tick_count() - ref.ticks;
	periods = periods_at(rdtsc()) - periods_at(ref.tsc);
	slept = get_jiffies_64() - j0;
	del_timer(&beat);
	dz_irq_restore(flags);
	due = beats_due(slept);
	r = per_sec_milli(b.interrupts - a.interrupts, ns);
	dz_printk("idletest: hz=%u nohz=%s seconds=%lu timer_irqs=%llu idle_entries=%llu "
		  "wakeups_per_s=%llu.%03llu beats=%u beats_due=%llu period=%lu jiffies=%llu "
		  "tsc_jiffies=%llu\n",
		  HZ, dz_tick_nohz_active() ? "on" : "off", secs,
		  (unsigned long long)(b.interrupts - a.interrupts),
		  (unsigned long long)(b.idle_entries - a.idle_entries),
		  (unsigned long long)(r / 1000), (unsigned long long)(r % 1000), beats,
		  (unsigned long long)due, beat_jiffies, (unsigned long long)ticks,
		  (unsigned long long)periods);
	clock_report_wakeups("idletest");
	/*
	 * Jiffies agree with the TSC (to a tick either way), the sleep lasted
	 * its jiffies, and the timer ran at every multiple of its period in
	 * the jiffies that passed, no more and no fewer.
	 */
	ok = ticks + 1 >= periods && ticks <= periods + 1 &&
	     slept >= msecs_to_jiffies((unsigned int)(secs * 1000)) && beats == due;
	dz_printk("idletest: %s\n", ok ? "ok" : "FAILED");
	return !ok;
}
