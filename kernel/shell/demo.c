// SPDX-License-Identifier: MIT
/*
 * The boot demonstration: what the tick rate means for sleeping and
 * timers, with the duration asked for beside the one measured on the TSC.
 * Every request goes through the exact conversions, so none is short,
 * whatever HZ the command line chose.
 */
#include <kernel/kernel.h>
#include <kernel/shell.h>
#include <kernel/sched.h>
#include <kernel/wait.h>
#include <kernel/clock.h>
#include <dynhz/timer.h>
#include <dynhz/jiffies.h>
#include <dynhz/printk.h>
#include <dynhz/port.h>

/* "12.345 ms": nanoseconds as milliseconds with three decimals. */
static const char *fmt_ms(char *buf, size_t n, u64 ns)
{
	dz_snprintf(buf, n, "%llu.%03llu ms", (unsigned long long)(ns / NSEC_PER_MSEC),
		    (unsigned long long)(ns % NSEC_PER_MSEC / 1000));
	return buf;
}

static DECLARE_WAIT_QUEUE_HEAD(demo_wq);
static int demo_left;

static void done_one(void)
{
	unsigned long flags = dz_irq_save();

	demo_left--;
	dz_irq_restore(flags);
	wake_up(&demo_wq);
}

/* Three threads sleeping side by side with the classic schedule_timeout(HZ / 10). */
static void sleeper(void *arg)
{
	char a[32], b[32];

	(void)arg;
	for (int i = 0; i < 2; i++) {
		long n = HZ / 10;
		u64 t0 = tsc_now_ns(), ns;

		thread_doing("schedule_timeout(HZ / 10)");
		schedule_timeout_uninterruptible(n);
		ns = tsc_now_ns() - t0;
		dz_printk("demo:   %s: schedule_timeout(HZ / 10 = %ld jiffies = %s)  slept %s\n",
			  current->name, n,
			  fmt_ms(a, sizeof(a), jiffies_to_nsecs((unsigned long)n)),
			  fmt_ms(b, sizeof(b), ns));
	}
	done_one();
}

static void demo_sleepers(void)
{
	static const char *const names[] = { "sleeper-1", "sleeper-2", "sleeper-3" };

	dz_printk("demo: three threads sleep twice each with schedule_timeout(HZ / 10): the\n"
		  "demo: timeout ends at a tick, so the first sleep (begun mid-tick) is up to a "
		  "tick shorter\n");
	demo_left = 3;
	for (int i = 0; i < 3; i++)
		kthread_run(sleeper, NULL, names[i]);
	wait_event(demo_wq, demo_left == 0);
}

static void demo_msleep(void)
{
	static const unsigned int ms[] = { 1, 5, 20, 100, 250 };
	char a[32], b[32];

	dz_printk(
		"demo: msleep(ms) sleeps msecs_to_jiffies(ms) ticks, and one more if the TSC says\n"
		"demo: ms have not passed yet: never less than ms, at most a tick more\n");
	for (unsigned int i = 0; i < ARRAY_SIZE(ms); i++) {
		unsigned long j = msecs_to_jiffies(ms[i]), j0 = jiffies;
		u64 t0 = tsc_now_ns(), ns;

		msleep(ms[i]);
		ns = tsc_now_ns() - t0;
		dz_printk("demo:   msleep(%3u): msecs_to_jiffies = %3lu (%s), slept %3lu ticks, "
			  "measured %s\n",
			  ms[i], j, fmt_ms(a, sizeof(a), jiffies_to_nsecs(j)), jiffies - j0,
			  fmt_ms(b, sizeof(b), ns));
	}
}

struct demo_timer {
	struct timer_list timer;
	unsigned int ms;
	u64 armed_ns, fired_ns;
};

static void demo_timer_fn(struct timer_list *t)
{
	struct demo_timer *d = from_timer(d, t, timer);

	d->fired_ns = tsc_now_ns();
	demo_left--;
	wake_up(&demo_wq);
}

/* A burst of timers armed at once, each reported against its request. */
static void demo_timers(void)
{
	static const unsigned int ms[] = { 1, 2, 3, 5, 10, 50, 100, 333 };
	static struct demo_timer d[ARRAY_SIZE(ms)];
	unsigned long now;
	char a[32], b[32], c[32];

	dz_printk(
		"demo: a burst of %u timers, mod_timer(jiffies + msecs_to_jiffies(ms)), armed at\n"
		"demo: once: each runs at its tick, after j - 1 to j ticks\n",
		(unsigned int)ARRAY_SIZE(ms));
	demo_left = ARRAY_SIZE(ms);
	now = jiffies;
	for (unsigned int i = 0; i < ARRAY_SIZE(ms); i++) {
		d[i].ms = ms[i];
		timer_setup(&d[i].timer, demo_timer_fn, 0);
		d[i].armed_ns = tsc_now_ns();
		mod_timer(&d[i].timer, now + msecs_to_jiffies(ms[i]));
	}
	wait_event(demo_wq, demo_left == 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(ms); i++) {
		unsigned long j = msecs_to_jiffies(d[i].ms);

		dz_printk("demo:   timer %3u ms: j = %3lu jiffies, due after %s to %s; fired after "
			  "%s\n",
			  d[i].ms, j, fmt_ms(a, sizeof(a), jiffies_to_nsecs(j - 1)),
			  fmt_ms(b, sizeof(b), jiffies_to_nsecs(j)),
			  fmt_ms(c, sizeof(c), d[i].fired_ns - d[i].armed_ns));
	}
}

static volatile unsigned long spin_until;

static void spinner(void *arg)
{
	u64 *loops = arg;

	thread_doing("spinning");
	while (time_before((unsigned long)jiffies, spin_until))
		(*loops)++;
	done_one();
}

/* Round robin: two busy threads share the CPU in timeslices. */
static void demo_preemption(void)
{
	static u64 loops[2];
	struct thread *t[2];
	unsigned long slice = sched_timeslice();

	dz_printk("demo: two busy threads for 2.5 timeslices of %lu jiffies (timeslice=%lu)\n",
		  slice, dz_uclock_ticks(jiffies_to_clock_t(slice)));
	demo_left = 2;
	spin_until = jiffies + slice * 5 / 2;
	t[0] = kthread_run(spinner, &loops[0], "busy-a");
	t[1] = kthread_run(spinner, &loops[1], "busy-b");
	wait_event(demo_wq, demo_left == 0);
	for (int i = 0; i < 2; i++)
		dz_printk(
			"demo:   %s ran %llu ticks, switched in %llu times, preempted %llu times\n",
			t[i]->name, (unsigned long long)t[i]->ticks,
			(unsigned long long)t[i]->switches, (unsigned long long)t[i]->preemptions);
}

void demo_run(void)
{
	thread_doing("the boot demonstration");
	demo_sleepers();
	demo_msleep();
	demo_timers();
	demo_preemption();
	clock_report_wakeups("demo");
	dz_printk("demo: done\n");
}
