// SPDX-License-Identifier: MIT
/*
 * In-kernel tests (the `selftest` boot parameter): real sleeps and timers
 * measured against the TSC, the tick rate against the exact rate, timers
 * across the jiffies wrap, conversions against exact arithmetic, and the
 * scheduler. Ends with "selftest: N passed, M failed"; the caller turns M
 * into QEMU's exit status.
 */
#include <kernel/kernel.h>
#include <kernel/test.h>
#include <kernel/clock.h>
#include <kernel/sched.h>
#include <kernel/wait.h>
#include <dynhz/timer.h>
#include <dynhz/jiffies.h>
#include <dynhz/hz.h>
#include <dynhz/timekeeping.h>
#include <dynhz/tick.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include <dynhz/conv.h>
#include <stdarg.h>
#include <kernel/arch.h>

static int passed, failed;

static void check(bool ok, const char *fmt, ...) DZ_PRINTF(2, 3);
static void check(bool ok, const char *fmt, ...)
{
	char buf[160];
	va_list ap;

	va_start(ap, fmt);
	dz_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	dz_printk("selftest: %s %s\n", ok ? "ok  " : "FAIL", buf);
	ok ? passed++ : failed++;
}

static struct dz_tick_period period(void)
{
	return dz_hz_period();
}

/* ceil(a * b / c) and floor, for operands whose product fits in 64 bits. */
static u64 div_up(u64 a, u64 b, u64 c)
{
	return (a * b + c - 1) / c;
}

/* The exact length of n ticks in ns, rounded up. */
static u64 ticks_ns_up(u64 n)
{
	return div_up(n * period().num, NSEC_PER_SEC, period().den);
}

/* Conversions against the exact tick period, by plain long division. */
static void test_conversions(void)
{
	static const unsigned int ms[] = {
		0, 1, 2, 3, 7, 10, 100, 999, 1000, 1001, 65535, 3600000
	};
	const u64 num = period().num, den = period().den;
	unsigned int bad = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(ms); i++) {
		u64 want = div_up(ms[i], den, num * MSEC_PER_SEC);

		if (want > MAX_JIFFY_OFFSET)
			want = MAX_JIFFY_OFFSET;
		if (msecs_to_jiffies(ms[i]) != want) {
			dz_printk("selftest: msecs_to_jiffies(%u) = %lu, exact %llu\n", ms[i],
				  msecs_to_jiffies(ms[i]), (unsigned long long)want);
			bad++;
		}
	}
	check(!bad, "msecs_to_jiffies on %u values (1000 ms -> %lu jiffies)",
	      (unsigned int)ARRAY_SIZE(ms), msecs_to_jiffies(1000));
	check(jiffies_to_msecs(HZ) == div_up(HZ, num * MSEC_PER_SEC, den),
	      "jiffies_to_msecs(HZ) = %u", jiffies_to_msecs(HZ));
	check(jiffies_to_nsecs(1) == num * NSEC_PER_SEC / den, "jiffies_to_nsecs(1) = %llu",
	      (unsigned long long)jiffies_to_nsecs(1));
	check(dz_uclock_ticks(jiffies_to_clock_t(HZ)) == HZ * num * USER_HZ / den,
	      "jiffies_to_clock_t(HZ) = %lu", dz_uclock_ticks(jiffies_to_clock_t(HZ)));
	check(user_to_kernel_hz(DZ_UCLOCK(10)) == div_up(10, den, USER_HZ * num),
	      "user_to_kernel_hz(10) = %lu", user_to_kernel_hz(DZ_UCLOCK(10)));
	check(usecs_to_jiffies(1) == 1 && nsecs_to_jiffies(0) == 0,
	      "usecs_to_jiffies(1) = 1, nsecs_to_jiffies(0) = 0");
}

/* Sleeps never end early, and end at most 2 ticks late, on the TSC. */
static void test_sleep(unsigned int ms)
{
	unsigned long j0 = jiffies;
	u64 t0 = tsc_now_ns(), ns;
	unsigned long j;

	msleep(ms);
	ns = tsc_now_ns() - t0;
	j = jiffies - j0;
	dz_printk("sleep: ms=%u jiffies=%lu tsc_ns=%llu\n", ms, j, (unsigned long long)ns);
	check(ns >= (u64)ms * NSEC_PER_MSEC && ns <= (u64)ms * NSEC_PER_MSEC + ticks_ns_up(2),
	      "msleep(%u) took %llu ns (allowed %llu..%llu)", ms, (unsigned long long)ns,
	      (unsigned long long)ms * NSEC_PER_MSEC,
	      (unsigned long long)((u64)ms * NSEC_PER_MSEC + ticks_ns_up(2)));
}

/* schedule_timeout(HZ / 10): HZ/10 - 1 to HZ/10 whole ticks, plus the wake-up. */
static void test_schedule_timeout(void)
{
	long n = HZ / 10;
	u64 t0, ns;

	schedule_timeout_uninterruptible(1); /* start just after a tick */
	t0 = tsc_now_ns();
	schedule_timeout_uninterruptible(n);
	ns = tsc_now_ns() - t0;
	check(ns + ticks_ns_up(1) >= ticks_ns_up((u64)n) && ns <= ticks_ns_up((u64)n + 1),
	      "schedule_timeout(HZ / 10 = %ld) took %llu ns, %ld ticks are %llu ns", n,
	      (unsigned long long)ns, n, (unsigned long long)ticks_ns_up((u64)n));
}

/* Ticks over one second of guest time, timed by the TSC, against den/num Hz. */
static void test_tick_rate(void)
{
	unsigned long j0, ticks;
	u64 t0, ns, lhs, rhs, hi;

	schedule_timeout_uninterruptible(1); /* start just after a tick */
	j0 = jiffies;
	t0 = tsc_now_ns();
	schedule_timeout_uninterruptible((long)msecs_to_jiffies(1000));
	ticks = jiffies - j0;
	ns = tsc_now_ns() - t0;
	/* measured rate ticks / ns against den / (num * 1e9): cross-multiplied */
	lhs = dz_mul64((u64)ticks * period().num, NSEC_PER_SEC, &hi);
	rhs = ns * period().den;
	{
		u64 diff = lhs > rhs ? lhs - rhs : rhs - lhs;
		u64 ppm = hi ? U64_MAX : diff / (rhs / 1000000 ? rhs / 1000000 : 1);
		u64 mhz = (u64)ticks * NSEC_PER_SEC * 1000 / ns;

		dz_printk("tickrate: ticks=%lu tsc_ns=%llu rate=%llu.%03llu Hz exact=%llu/%llu Hz "
			  "error=%llu ppm\n",
			  ticks, (unsigned long long)ns, (unsigned long long)(mhz / 1000),
			  (unsigned long long)(mhz % 1000), (unsigned long long)period().den,
			  (unsigned long long)period().num, (unsigned long long)ppm);
		check(!hi && diff * 1000 <= rhs,
		      "tick rate within 0.1%% of the exact rate (%llu ppm)",
		      (unsigned long long)ppm);
	}
}

/* A timer that notes the jiffy it ran at. */
struct probe {
	struct timer_list timer;
	unsigned long want, got;
	int runs, rearm;
};

static DECLARE_WAIT_QUEUE_HEAD(probe_wq);
static int probes_left;

static void probe_fn(struct timer_list *t)
{
	struct probe *p = from_timer(p, t, timer);

	p->got = jiffies;
	p->runs++;
	if (p->rearm-- > 0) {
		p->want = jiffies + (unsigned long)p->runs;
		mod_timer(&p->timer, p->want); /* a callback re-arming itself */
		return;
	}
	probes_left--;
	wake_up(&probe_wq);
}

static void probe_arm(struct probe *p, unsigned long expires, int rearm)
{
	timer_setup(&p->timer, probe_fn, 0);
	p->timer.expires = expires;
	p->want = expires;
	p->got = 0;
	p->runs = 0;
	p->rearm = rearm;
	probes_left++;
	add_timer(&p->timer);
}

/* Waits for every armed probe; false if they do not all run in time. */
static bool probes_wait(unsigned long timeout)
{
	return wait_event_timeout(probe_wq, probes_left == 0, (long)timeout) != 0;
}

/* Timers run at the very tick their expiry names, never before, never after. */
static void test_timer_burst(void)
{
	static const unsigned long delta[] = { 1, 2, 3, 5, 8, 13, 21, 63, 64, 65, 100, 4095, 4096 };
	static struct probe p[ARRAY_SIZE(delta)], gone, self;
	unsigned long now, far = 0, flags;
	unsigned int late = 0, early = 0;
	bool ok;

	probes_left = 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(delta); i++) {
		/* a burst within msecs_to_jiffies(2000): longer ones cost too much guest time */
		unsigned long d = delta[i] <= msecs_to_jiffies(2000) ? delta[i] : delta[i] % 97 + 1;
		/* each expiry counts from the jiffies it was armed at, a tick may pass meanwhile */
		flags = dz_irq_save();
		probe_arm(&p[i], jiffies + d, 0);
		dz_irq_restore(flags);
		far = d > far ? d : far;
	}
	flags = dz_irq_save();
	probe_arm(&self, jiffies + 1, 4);
	now = jiffies;
	timer_setup(&gone.timer, probe_fn, 0);
	ok = mod_timer(&gone.timer, now + 2) == 0 && mod_timer(&gone.timer, now + 3) == 1 &&
	     del_timer(&gone.timer) == 1 && del_timer(&gone.timer) == 0 &&
	     !timer_pending(&gone.timer);
	dz_irq_restore(flags);
	check(ok, "mod_timer/del_timer return whether the timer was pending");
	check(probes_wait(far + 20), "a burst of %u timers and a self re-arming one all ran",
	      (unsigned int)ARRAY_SIZE(delta));
	for (unsigned int i = 0; i < ARRAY_SIZE(delta); i++) {
		late += time_after(p[i].got, p[i].want);
		early += time_before(p[i].got, p[i].want);
	}
	check(!late && !early && self.runs == 5 && self.got == self.want && gone.runs == 0,
	      "every timer ran at its expiry tick (early %u, late %u, re-armed %d times)", early,
	      late, self.runs - 1);
}

/*
 * The 32-bit jiffies starts 300 s before it wraps (INITIAL_JIFFIES): wait
 * until just before the wrap, arm timers on both sides of it, and check
 * that each runs at its tick and that comparisons and jiffies_64 carry on.
 */
static void test_wrap(void)
{
	static struct probe p[6];
	const unsigned long margin = 3;
	unsigned long left = 0UL - (unsigned long)jiffies, now;
	unsigned int bad = 0;
	u64 j64_before;

	dz_printk("selftest: jiffies %lu wraps in %lu ticks (%u ms): sleeping until just before\n",
		  (unsigned long)jiffies, left, jiffies_to_msecs(left));
	thread_doing("selftest: waiting for the jiffies wrap");
	if (left > margin + 1)
		schedule_timeout_uninterruptible((long)(left - margin - 1));
	now = jiffies;
	j64_before = get_jiffies_64();
	probes_left = 0;
	/* expiries from 2 ticks before the wrap to 3 ticks after, and one far after */
	for (unsigned int i = 0; i < 5; i++)
		probe_arm(&p[i], (unsigned long)-2 + i, 0);
	probe_arm(&p[5], HZ, 0);
	check(time_after(p[4].timer.expires, now) && time_before(now, p[2].timer.expires),
	      "time_after/time_before across the wrap (jiffies %lu, expiry %lu)", now,
	      p[4].timer.expires);
	check(probes_wait(HZ + 2 * margin + 10), "timers across the wrap all ran");
	for (unsigned int i = 0; i < 6; i++)
		bad += p[i].got != p[i].want;
	check(!bad, "timers across the wrap ran at their ticks (%u off); jiffies now %lu", bad,
	      (unsigned long)jiffies);
	check(get_jiffies_64() > j64_before && (u32)get_jiffies_64() == (u32)jiffies &&
		      get_jiffies_64() >> 32 == (u64)(j64_before >> 32) + (BITS_PER_LONG == 32),
	      "jiffies_64 carries on past the wrap (%llu)", (unsigned long long)get_jiffies_64());
}

/* Round robin: two busy threads share the CPU in timeslices. */
struct spinner {
	unsigned long until;
	u64 loops;
	struct thread *t;
	bool done;
};

static DECLARE_WAIT_QUEUE_HEAD(spin_wq);

static void spin_fn(void *arg)
{
	struct spinner *s = arg;

	thread_doing("spinning (preemption test)");
	while (time_before((unsigned long)jiffies, s->until))
		s->loops++;
	s->done = true;
	wake_up(&spin_wq);
}

static void test_round_robin(void)
{
	static struct spinner s[2];
	unsigned long slice = sched_timeslice();
	u64 pre;

	for (int i = 0; i < 2; i++) {
		s[i] = (struct spinner){ .until = jiffies + 3 * slice };
		s[i].t = kthread_run(spin_fn, &s[i], i ? "spin-b" : "spin-a");
	}
	wait_event(spin_wq, s[0].done && s[1].done);
	pre = s[0].t->preemptions + s[1].t->preemptions;
	check(s[0].loops && s[1].loops && pre >= 2,
	      "two busy threads both ran for 3 timeslices of %lu jiffies: %llu preemptions, "
	      "ticks %llu + %llu",
	      slice, (unsigned long long)pre, (unsigned long long)s[0].t->ticks,
	      (unsigned long long)s[1].t->ticks);
}

/* Wait queues: woken by another thread, or the timeout runs out. */
static DECLARE_WAIT_QUEUE_HEAD(flag_wq);
static volatile bool flag;

static void flagger(void *arg)
{
	(void)arg;
	schedule_timeout_uninterruptible(3);
	flag = true;
	wake_up(&flag_wq);
}

static void test_waitqueue(void)
{
	unsigned long j0 = jiffies;
	long left;

	flag = false;
	kthread_run(flagger, NULL, "flagger");
	left = wait_event_timeout(flag_wq, flag, HZ);
	check(left > 0 && flag, "wait_event_timeout woken by another thread after %lu ticks",
	      (unsigned long)(jiffies - j0));
	j0 = jiffies;
	left = wait_event_timeout(flag_wq, !flag, 5);
	check(left == 0 && jiffies - j0 >= 4, "wait_event_timeout times out after %lu ticks (5)",
	      (unsigned long)(jiffies - j0));
}

/* Whole tick periods of the device between its start and a TSC value. */
static u64 periods_at(u64 tsc)
{
	u64 ns = tsc_to_ns(tsc - arch_tick_start_tsc);

	return ns * period().den / (period().num * NSEC_PER_SEC);
}

/*
 * No tick lost since the first one: just after a tick, the ticks counted
 * since then must be the device's periods since then, on the TSC.
 */
static void test_no_lost_ticks(void)
{
	struct clock_tick_ref ref = clock_first_tick();
	unsigned long flags;
	u64 ticks, periods;

	schedule_timeout_uninterruptible(1); /* just after a tick */
	flags = dz_irq_save();
	ticks = dz_tick_count() - ref.ticks;
	periods = periods_at(rdtsc()) - periods_at(ref.tsc);
	dz_irq_restore(flags);
	check(ticks == periods,
	      "no tick lost: %llu ticks counted, %llu periods on the TSC (%lu merged interrupts "
	      "on the PIT)",
	      (unsigned long long)ticks, (unsigned long long)periods, pit_lost_ticks());
}

int selftest_run(void)
{
	static const unsigned int sleeps[] = { 1, 10, 100, 1000 };

	thread_doing("selftest");
	dz_printk("selftest: starting at HZ=%u, tick %llu/%llu s\n", HZ,
		  (unsigned long long)period().num, (unsigned long long)period().den);
	test_conversions();
	for (unsigned int i = 0; i < ARRAY_SIZE(sleeps); i++)
		test_sleep(sleeps[i]);
	test_schedule_timeout();
	test_tick_rate();
	test_timer_burst();
	test_waitqueue();
	test_round_robin();
	if (!cmdline_has("nowrap"))
		test_wrap();
	test_no_lost_ticks();
	dz_printk("selftest: %d passed, %d failed\n", passed, failed);
	return failed;
}
