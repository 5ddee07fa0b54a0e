// SPDX-License-Identifier: MIT
/*
 * retunetest[=<ms>]: HZ changed under sleeping threads and a program
 * (tests/retune). Boot with hz=1000; through the shell's own command
 * (shell_exec("hz 100")) HZ goes 1000 -> 100 -> 333 -> 10000 -> 24, each
 * rate held <ms> (default 1000) of guest time, while
 *  - three threads sleep in turn with schedule_timeout(), msleep() and
 *    wait_event_timeout() (a condition nobody makes true), each sleep
 *    measured on the TSC: never shorter than asked (schedule_timeout and
 *    wait_event_timeout: than asked less the tick in progress at the
 *    start, which they count), never longer than asked plus one tick of
 *    the slowest rate the sleep saw (plus one tick of the start's rate for
 *    the jiffies-counted ones) and a wake-up's latency;
 *  - a fourth waits with wait_event_timeout() and is woken a third of the
 *    way by another thread: the jiffies it returns left, at the HZ it
 *    returns at, against the real time the TSC says was left;
 *  - /sbin/hzwatch (user/hzwatch.c) prints times(), CLOCK_MONOTONIC,
 *    CLOCK_MONOTONIC_COARSE, /proc/uptime and /proc/stat every 100 ms and
 *    checks them continuous, after trying bad values on
 *    /proc/sys/kernel/hz and dynhz_hz(), and changes HZ by both at the end.
 * At each rate: the tick device's interrupts (periodic builds) and jiffies
 * per second of TSC time against the exact rate the device reports, and
 * the scheduler's timeslice against its USER_HZ value. Bad values through
 * the shell change nothing (HZ, generation); the debug build counts no
 * timer re-armed with an expiry from before a change. One line per fact,
 * "retunetest: ok" when all held; the machine exits. The constant build:
 * every door refuses.
 */
#include <kernel/kernel.h>
#include <kernel/test.h>
#include <kernel/shell.h>
#include <kernel/retune.h>
#include <kernel/sched.h>
#include <kernel/wait.h>
#include <kernel/proc.h>
#include <kernel/errno.h>
#include <kernel/syscall.h>
#include <kernel/arch.h>
#include <dynhz/bootparam.h>
#include <dynhz/retune.h>
#include <dynhz/jiffies.h>
#include <dynhz/tick.h>
#include <dynhz/timer.h>
#include <dynhz/hrtimer.h>
#include <dynhz/hz.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include <dynhz/errno.h>

#define DWELL_DEFAULT 1000 /* ms at each rate */
#define DWELL_MIN     200
#define DWELL_MAX     10000
#define GENS	      16	   /* changes remembered for the sleepers' bounds */
#define WAKE_SLACK_NS (300 * 1000) /* a wake-up under -icount, at 10000 Hz */

static unsigned long dwell_ms = DWELL_DEFAULT;
static const unsigned int steps[] = { 100, 333, 10000, 24 };
static const char *const bad_values[] = { "abc", "5", "20000", "1e3", "-100", "100x" };

/* The exact tick period of each generation, in ns rounded up. */
static u64 period_ns[GENS];
static volatile bool stop;
static int failures;

static u64 period_to_ns(struct dz_tick_period p)
{
	return ((u64)p.num * NSEC_PER_SEC + p.den - 1) / p.den;
}

static void remember_period(const struct dz_retune_info *info)
{
	period_ns[info->generation % GENS] = period_to_ns(info->new_period);
}

static u64 slowest(u32 g0, u32 g1)
{
	u64 p = 0;

	for (u32 g = g0; g != g1 + 1; g++)
		p = period_ns[g % GENS] > p ? period_ns[g % GENS] : p;
	return p;
}

enum sleep_kind { SLEEP_TIMEOUT, SLEEP_MSLEEP, SLEEP_WAIT_EVENT, SLEEP_WOKEN, SLEEP_KINDS };

static const char *const kind_names[] = { "schedule_timeout", "msleep", "wait_event_timeout",
					  "wait_event_timeout woken" };

struct sleeper {
	enum sleep_kind kind;
	unsigned int sleeps, short_ones, long_ones, across; /* across: a change during the sleep */
	s64 worst_early_ns, worst_late_ns;		    /* against the bounds: < 0 is within */
	bool done;
};

static struct sleeper sleepers[SLEEP_KINDS];
static DECLARE_WAIT_QUEUE_HEAD(never_wq);
static const unsigned int sleep_ms[] = { 3, 17, 40, 90, 250, 1, 130 };

static long sleep_once(enum sleep_kind kind, unsigned int ms)
{
	long left = 0;

	switch (kind) {
	case SLEEP_TIMEOUT:
		left = schedule_timeout_uninterruptible((long)msecs_to_jiffies(ms));
		break;
	case SLEEP_MSLEEP:
		msleep(ms);
		break;
	default:
		left = wait_event_timeout(never_wq, false, (long)msecs_to_jiffies(ms));
		break;
	}
	return left;
}

/* How far d is outside [lo, hi]: the early and late excess (negative: inside). */
static void judge(struct sleeper *s, u64 d, u64 lo, u64 hi, unsigned int ms, u32 g0, u32 g1)
{
	s64 early = (s64)lo - (s64)d, late = (s64)d - (s64)hi;

	s->sleeps++;
	s->across += g0 != g1;
	if (early > s->worst_early_ns || s->sleeps == 1)
		s->worst_early_ns = early;
	if (late > s->worst_late_ns || s->sleeps == 1)
		s->worst_late_ns = late;
	if (early > 0 && s->short_ones++ < 3)
		dz_printk("retunetest: %s(%u ms): %llu ns, below %llu (generations %u..%u)\n",
			  kind_names[s->kind], ms, (unsigned long long)d, (unsigned long long)lo,
			  g0, g1);
	if (late > 0 && s->long_ones++ < 3)
		dz_printk("retunetest: %s(%u ms): %llu ns, above %llu (generations %u..%u)\n",
			  kind_names[s->kind], ms, (unsigned long long)d, (unsigned long long)hi,
			  g0, g1);
}

static void sleeper_thread(void *arg)
{
	struct sleeper *s = arg;

	for (unsigned int i = 0; !stop; i++) {
		unsigned int ms = sleep_ms[(i + s->kind) % ARRAY_SIZE(sleep_ms)];
		u32 g0 = dz_hz_generation(), g1;
		u64 p0 = period_ns[g0 % GENS], t0 = tsc_now_ns(), d,
		    asked = (u64)ms * NSEC_PER_MSEC;
		long left = sleep_once(s->kind, ms);

		d = tsc_now_ns() - t0;
		g1 = dz_hz_generation();
		if (left)
			dz_printk("retunetest: %s(%u ms) returned %ld jiffies left, not 0\n",
				  kind_names[s->kind], ms, left),
				s->short_ones++;
		/* msleep is exact from the start; the others count the tick in progress. */
		if (s->kind == SLEEP_MSLEEP)
			judge(s, d, asked, asked + slowest(g0, g1) + WAKE_SLACK_NS, ms, g0, g1);
		else
			judge(s, d, asked > p0 ? asked - p0 : 0,
			      asked + p0 + slowest(g0, g1) + WAKE_SLACK_NS, ms, g0, g1);
	}
	s->done = true;
	thread_exit();
}

/* The woken waits' other half: wakes the waiter after the asked ms, with msleep. */
static DECLARE_WAIT_QUEUE_HEAD(request_wq);
static DECLARE_WAIT_QUEUE_HEAD(woken_wq);
static volatile unsigned int request_ms;
static volatile bool woken;

static void waker_thread(void *arg)
{
	(void)arg;
	for (;;) {
		unsigned int ms;

		wait_event(request_wq, request_ms || stop);
		if (stop && !request_ms)
			break;
		ms = request_ms;
		msleep(ms);
		request_ms = 0;
		woken = true;
		wake_up(&woken_wq);
	}
	thread_exit();
}

/*
 * wait_event_timeout() woken a third of the way: what it returns left, in
 * the jiffies of the HZ it returns at, must be the real time left of the
 * time it was given (schedule_timeout() reads it from its re-expressed
 * timer): no less than what the TSC says was left, less the tick in
 * progress at the start; no more than that plus two ticks of the slowest
 * rate (the rounding up of a change, the tick in progress now).
 */
static void woken_thread(void *arg)
{
	static const unsigned int ms_list[] = { 90, 250, 130, 400 };
	struct sleeper *s = arg;

	for (unsigned int i = 0; !stop; i++) {
		unsigned int ms = ms_list[i % ARRAY_SIZE(ms_list)];
		u32 g0 = dz_hz_generation(), g1;
		u64 p0 = period_ns[g0 % GENS], t0 = tsc_now_ns(), d, rem, most;
		u64 asked = (u64)ms * NSEC_PER_MSEC;
		long left;

		woken = false;
		request_ms = ms / 3;
		wake_up(&request_wq);
		left = wait_event_timeout(woken_wq, woken, (long)msecs_to_jiffies(ms));
		d = tsc_now_ns() - t0;
		g1 = dz_hz_generation();
		rem = (u64)left * period_ns[g1 % GENS];
		if (!left) {
			dz_printk("retunetest: woken wait of %u ms timed out\n", ms);
			s->short_ones++;
			wait_event(woken_wq, woken);
			continue;
		}
		most = asked + 2 * slowest(g0, g1) + WAKE_SLACK_NS;
		judge(s, rem, asked > d + p0 ? asked - d - p0 : 0, most > d ? most - d : 0, ms, g0,
		      g1);
	}
	s->done = true;
	thread_exit();
}

static void check(bool ok, const char *fmt, ...) DZ_PRINTF(2, 3);
static void check(bool ok, const char *fmt, ...)
{
	char why[160];
	va_list ap;

	if (ok)
		return;
	failures++;
	va_start(ap, fmt);
	dz_vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	dz_printk("retunetest: FAIL %s\n", why);
}

/* Per second over ns, in thousandths. */
static u64 milli_rate(u64 n, u64 ns)
{
	return n * NSEC_PER_SEC * 1000 / ns;
}

/* A count over a window against the exact rate: within 1 % and a tick at each end. */
static void check_rate(const char *what, u64 n, u64 ns, u64 want_milli)
{
	u64 got = milli_rate(n, ns), slack = want_milli / 100 + milli_rate(2, ns);

	check(got + slack >= want_milli && got <= want_milli + slack,
	      "%s at hz=%u: %u thousandths per second, off the exact rate", what, HZ,
	      (unsigned int)got);
}

/* Interrupts and jiffies per second of TSC time while the rate holds, against the exact rate. */
static void measure_rate(bool periodic)
{
	struct dz_tick_period p = dz_hz_period();
	u64 want = (u64)p.den * 1000 / p.num, t0, ns, j0;
	struct dz_tick_stats a, b;

	dz_tick_stats(&a);
	j0 = get_jiffies_64();
	t0 = tsc_now_ns();
	msleep((unsigned int)dwell_ms);
	ns = tsc_now_ns() - t0;
	dz_tick_stats(&b);
	j0 = get_jiffies_64() - j0;
	b.interrupts -= a.interrupts;
	dz_printk("retunetest: rate hz=%u exact=%llu.%03llu/s over %llu ms: interrupts=%llu "
		  "(%llu/s) jiffies=%llu (%llu/s)\n",
		  HZ, (unsigned long long)(want / 1000), (unsigned long long)(want % 1000),
		  (unsigned long long)(ns / NSEC_PER_MSEC), (unsigned long long)b.interrupts,
		  (unsigned long long)(milli_rate(b.interrupts, ns) / 1000), (unsigned long long)j0,
		  (unsigned long long)(milli_rate(j0, ns) / 1000));
	check_rate("jiffies", j0, ns, want);
	if (periodic)
		check_rate("interrupts", b.interrupts, ns, want);
}

/*
 * The scheduler's timeslice, re-derived from its USER_HZ value at each
 * change: the default 10 ticks, 100 ms, rounded up to whole jiffies.
 */
static void check_timeslice(void)
{
	u64 p = period_to_ns(dz_hz_period()), ns = sched_timeslice() * p;

	check(ns >= 100 * NSEC_PER_MSEC && ns < 100 * NSEC_PER_MSEC + p,
	      "timeslice %lu jiffies at hz=%u: %llu ns, not 100 ms rounded up", sched_timeslice(),
	      HZ, (unsigned long long)ns);
}

/*
 * The shell's own command, as typed; HZ and the generation must end as
 * given, and jiffies go on: never back, and no further than the TSC says
 * ticks of the faster of the two rates passed (the change builds the new
 * constants at the old rate, waits for a tick, then prints).
 */
static void shell_hz(const char *value, unsigned int want_hz, u32 want_gen)
{
	char line[32];
	unsigned long j0 = jiffies, j1;
	u64 t0 = tsc_now_ns(), ns, most, old_tick = period_to_ns(dz_hz_period()), tick;

	dz_snprintf(line, sizeof(line), "hz %s", value);
	dz_printk("retunetest: shell: %s\n", line);
	shell_exec(line);
	j1 = jiffies;
	ns = tsc_now_ns() - t0;
	tick = period_to_ns(dz_hz_period());
	most = ns / (tick < old_tick ? tick : old_tick) + 2;
	check(HZ == want_hz, "HZ is %u, not %u", HZ, want_hz);
	check(dz_hz_generation() == want_gen, "generation %u, not %u", dz_hz_generation(),
	      want_gen);
	check_timeslice();
	check(time_after_eq(j1, j0) && j1 - j0 <= most, "jiffies moved by %u across 'hz %u'",
	      (unsigned int)(j1 - j0), want_hz);
}

static void bad_shell_values(void)
{
	u32 gen = dz_hz_generation();

	for (unsigned int i = 0; i < ARRAY_SIZE(bad_values); i++)
		shell_hz(bad_values[i], HZ, gen);
}

static int spawn_watcher(const char *arg)
{
	const char *const argv[] = { "/sbin/hzwatch", arg, NULL };
	static const char *const envp[] = { "HOME=/", NULL };

	return proc_spawn(argv[0], argv, envp);
}

/* The status of the program spawn_watcher() started: 0. */
static void wait_watcher(int pid)
{
	int status;

	if (pid < 0) {
		check(false, "/sbin/hzwatch: cannot run it (%d)", pid);
		return;
	}
	status = proc_wait(pid);
	check(status == 0, "/sbin/hzwatch: wait status 0x%x", (unsigned int)status);
}

/*
 * The constant build refuses every interface in one line and changes
 * nothing: the shell here, the call from the kernel, and /proc and the
 * call from /sbin/hzwatch's user space.
 */
static int __attribute__((unused)) constant_build(void)
{
	struct syscall_args args = { { 100, 0 }, NULL };
	long r = sys_dynhz_hz(&args);

	shell_hz("100", HZ, 0);
	check(r == -EPERM, "dynhz_hz(100) in the constant build: %ld, not -EPERM", r);
	wait_watcher(spawn_watcher("constant"));
	dz_printk("retunetest: constant build: %s\n", failures ? "FAILED" : "ok");
	return failures;
}

static void stop_sleepers(void)
{
	stop = true;
	wake_up(&request_wq);
	for (unsigned int k = 0; k < SLEEP_KINDS; k++) {
		struct sleeper *s = &sleepers[k];

		while (!s->done)
			msleep(50);
		dz_printk("retunetest: %s: %u sleeps, %u across a change, %u short, %u long; "
			  "worst %lld ns early, %lld ns late against the bounds\n",
			  kind_names[k], s->sleeps, s->across, s->short_ones, s->long_ones,
			  (long long)s->worst_early_ns, (long long)s->worst_late_ns);
		check(!s->short_ones && !s->long_ones, "%s: %u sleeps out of bounds", kind_names[k],
		      s->short_ones + s->long_ones);
	}
}

/* The debug build: no jiffies deadline of the kernel's was carried across a change. */
static void stale_check(void)
{
	struct dz_timer_stats st;

	dz_timer_stats(&st);
	check(!st.stale_expiries, "%llu timers re-armed with an expiry of before a change of HZ",
	      (unsigned long long)st.stale_expiries);
}

void retunetest_setup(const char *cmdline)
{
	static const char *const names[] = { "retunetest", NULL };
	struct dz_param p;

	if (dz_cmdline_find(cmdline, names, &p) && p.val)
		dz_param_uint(&p, DWELL_MIN, DWELL_MAX, DWELL_DEFAULT, &dwell_ms);
}

int retunetest_run(void)
{
	bool periodic = !dz_tick_nohz_active() && !dz_hrtimer_highres();
	int pid;

	dz_printk("retunetest: hz=%u dwell=%lu ms periodic=%s\n", HZ, dwell_ms,
		  periodic ? "yes" : "no");
#ifdef CONFIG_HZ
	return constant_build();
#endif
	period_ns[0] = period_to_ns(dz_hz_period());
	dz_hz_retune_hook(remember_period);
	for (unsigned int k = 0; k < SLEEP_KINDS; k++) {
		sleepers[k].kind = (enum sleep_kind)k;
		if (!kthread_run(k == SLEEP_WOKEN ? woken_thread : sleeper_thread, &sleepers[k],
				 kind_names[k]))
			dz_panic("retunetest: no thread left");
	}
	if (!kthread_run(waker_thread, NULL, "waker"))
		dz_panic("retunetest: no thread left");
	pid = spawn_watcher("7");
	bad_shell_values();
	for (unsigned int i = 0; i < ARRAY_SIZE(steps); i++) {
		char v[8];

		measure_rate(periodic);
		dz_snprintf(v, sizeof(v), "%u", steps[i]);
		shell_hz(v, steps[i], i + 1);
	}
	measure_rate(periodic);
	stop_sleepers();
	wait_watcher(pid);
	stale_check();
	dz_printk("retunetest: %s\n", failures ? "FAILED" : "ok");
	return failures;
}
