// SPDX-License-Identifier: MIT
/*
 * Tickless idle in the simulation, against a reference model.
 *
 * The model is the definition of a timer (as in test_timer.c): armed with
 * expires E while the tick count is J, it runs at the first tick T > J at
 * which time_after_eq(T, E). Time passes in busy ticks and in idle gaps of
 * random length (dynhz_host_idle), across the jiffies wrap, at several HZ.
 * Tickless or not, every timer must run at its very tick (inside a
 * callback the jiffy must also be the one the simulated clock shows), none
 * lost, none twice; after every gap jiffies must equal the ticks the clock
 * has counted, and with nohz=on the device may only have woken the CPU for
 * the distinct ticks at which timers ran (plus the tick resuming, and the
 * folds of the simulated 32-bit clock). The same random walk runs with
 * nohz=on and nohz=off: the two must run the same timers at the same ticks.
 *
 * DYNHZ_SEED=n changes the seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>

#include "ref.h"

#ifdef CONFIG_HZ
static const unsigned int hz_list[] = { CONFIG_HZ };
#else
static const unsigned int hz_list[] = { 19, 100, 250, 1000, 10000 };
#endif

static u64 rng;

static u64 rnd(u64 n)
{
	return ref_rand(&rng) % n;
}

static u64 seed_base(void)
{
	const char *s = getenv("DYNHZ_SEED");

	return s ? strtoull(s, NULL, 0) : 0x71c41e55u;
}

static void boot(unsigned int hz, bool nohz)
{
	char cl[48];

	snprintf(cl, sizeof(cl), "hz=%u nohz=%s", hz, nohz ? "on" : "off");
	dynhz_host_set_quiet(true);
	assert_int_equal(dynhz_boot_quiet(cl), 0);
	assert_int_equal(HZ, hz);
	assert_int_equal(dz_tick_nohz_active(), nohz);
}

/* Ticks the simulated clock has counted: the jiffies due now. */
static u64 clock_ticks(void)
{
	return dynhz_host_cycles() / ref_pit_divisor(HZ);
}

static u64 interrupts(void)
{
	struct dz_tick_stats st;

	dz_tick_stats(&st);
	return st.interrupts;
}

/* ---- the model ---- */

#define NT 256

static struct {
	struct timer_list t[NT];
	bool pending[NT];
	u64 due[NT];
	unsigned long expires[NT];
	unsigned int hz;
	int cb_budget;
	u64 errors, fired, hash, step;
	u64 fire_ticks, last_fire; /* distinct ticks at which timers ran */
	u64 wakeups, gaps, idle_ticks;
} M;

#define ERR(...)                                                                                \
	do {                                                                                    \
		if (M.errors++ < 20) {                                                          \
			printf("HZ %u step %llu tick %llu: ", M.hz, (unsigned long long)M.step, \
			       (unsigned long long)dz_tick_count());                            \
			printf(__VA_ARGS__);                                                    \
			printf("\n");                                                           \
		}                                                                               \
	} while (0)

static u64 due_of(unsigned long expires)
{
	unsigned long x = expires - ((unsigned long)jiffies + 1);

	return dz_tick_count() + 1 + (x <= (unsigned long)LONG_MAX + 1 ? (u64)x : 0);
}

static void op_mod(unsigned int id, unsigned long expires)
{
	int was = M.pending[id], ret;
	u64 due = due_of(expires);

	ret = mod_timer(&M.t[id], expires);
	if (ret != was)
		ERR("mod_timer(%u) returned %d, was pending %d", id, ret, was);
	if (was && M.expires[id] == expires)
		return;
	M.pending[id] = true;
	M.due[id] = due;
	M.expires[id] = expires;
}

static void op_del(unsigned int id)
{
	int ret = del_timer(&M.t[id]);

	if (ret != M.pending[id])
		ERR("del_timer(%u) returned %d, was pending %d", id, ret, M.pending[id]);
	M.pending[id] = false;
}

/* Mostly timeouts an idle CPU sleeps through; some short, past, far. */
static unsigned long rand_expires(void)
{
	unsigned long j = jiffies;
	unsigned int r = (unsigned int)rnd(100);

	if (r < 5)
		return j - (unsigned long)rnd(50);
	if (r < 40)
		return j + 1 + (unsigned long)rnd(64);
	if (r < 80)
		return j + 1 + (unsigned long)rnd(5 * M.hz);
	if (r < 95)
		return j + 1 + (unsigned long)rnd(1UL << 20);
	return j + 1 + (unsigned long)rnd(1UL << 30);
}

static void random_action(unsigned int self)
{
	unsigned int r = (unsigned int)rnd(100), other = (unsigned int)rnd(NT);

	if (r < 50)
		op_mod(self, rand_expires());
	else if (r < 70)
		op_del(other);
	else
		op_mod(other, rand_expires());
}

static void fire(struct timer_list *t)
{
	unsigned int id = (unsigned int)(t - M.t);
	u64 now = dz_tick_count();

	if (!M.pending[id])
		ERR("timer %u ran but was not pending (twice?)", id);
	else if (M.due[id] != now)
		ERR("timer %u ran at tick %llu, due at %llu", id, (unsigned long long)now,
		    (unsigned long long)M.due[id]);
	/* The jiffy it runs in is the one the clock shows: caught up exactly. */
	if (clock_ticks() != now)
		ERR("timer %u runs at jiffy %llu, the clock says %llu", id, (unsigned long long)now,
		    (unsigned long long)clock_ticks());
	M.pending[id] = false;
	M.fired++;
	M.hash = (M.hash ^ (now * 1000003 + id)) * 0x100000001b3ULL;
	if (now != M.last_fire) {
		M.fire_ticks++;
		M.last_fire = now;
	}
	while (M.cb_budget > 0 && rnd(100) < 40) {
		M.cb_budget--;
		random_action(id);
	}
}

static void check_nothing_lost(void)
{
	u64 now = dz_tick_count();

	for (unsigned int i = 0; i < NT; i++)
		if (M.pending[i] && M.due[i] <= now)
			ERR("timer %u due at tick %llu did not run", i,
			    (unsigned long long)M.due[i]);
}

/* ---- time ---- */

static void busy(unsigned long n)
{
	u64 t0 = dz_tick_count();

	dynhz_host_run_ticks(n);
	if (dz_tick_count() != t0 + n)
		ERR("%lu busy ticks moved jiffies by %llu", n,
		    (unsigned long long)(dz_tick_count() - t0));
	check_nothing_lost();
}

/* Folds of the 32-bit simulated clock that an idle gap may need. */
static u64 folds(u64 cycles)
{
	return cycles / (1ULL << 31) + 1;
}

static void idle(u64 ns)
{
	u64 irq0 = interrupts(), fire0 = M.fire_ticks, c0 = dynhz_host_cycles();
	u64 t0 = dz_tick_count(), woke;

	dynhz_host_idle(ns);
	woke = interrupts() - irq0;
	if (dz_tick_count() != clock_ticks())
		ERR("after %llu ns idle: jiffies at tick %llu, the clock says %llu",
		    (unsigned long long)ns, (unsigned long long)dz_tick_count(),
		    (unsigned long long)clock_ticks());
	if (jiffies != (unsigned long)jiffies_64)
		ERR("jiffies %lu, jiffies_64 %llu", jiffies, (unsigned long long)jiffies_64);
	/* With nohz=on: woken only where timers ran (and for the clock's folds). */
	if (dz_tick_nohz_active() && woke > M.fire_ticks - fire0 + folds(dynhz_host_cycles() - c0))
		ERR("%llu wakeups in %llu idle ticks, timers ran at %llu ticks",
		    (unsigned long long)woke, (unsigned long long)(dz_tick_count() - t0),
		    (unsigned long long)(M.fire_ticks - fire0));
	M.wakeups += woke;
	M.idle_ticks += dz_tick_count() - t0;
	M.gaps++;
	check_nothing_lost();
}

/* Idle gaps: mostly short, some seconds, rarely minutes. */
static u64 rand_gap_ns(void)
{
	unsigned int r = (unsigned int)rnd(100);

	if (r < 50)
		return rnd(20 * NSEC_PER_MSEC);
	if (r < 90)
		return rnd(500 * NSEC_PER_MSEC);
	if (r < 99)
		return rnd(5 * NSEC_PER_SEC);
	return rnd(60 * NSEC_PER_SEC);
}

static void random_step(void)
{
	unsigned int r = (unsigned int)rnd(100), id = (unsigned int)rnd(NT);

	M.cb_budget = 3;
	M.step++;
	if (r < 35)
		op_mod(id, rand_expires());
	else if (r < 45)
		op_del(id);
	else if (r < 65)
		busy(1 + (unsigned long)rnd(r < 55 ? 2 : 50));
	else
		idle(rand_gap_ns());
}

struct walk_result {
	u64 hash, fired, wakeups, idle_ticks, ticks;
};

static struct walk_result walk(unsigned int hz, bool nohz, unsigned int steps)
{
	u64 wrap = 300ULL * hz;

	boot(hz, nohz);
	memset(&M, 0, sizeof(M));
	M.hz = hz;
	M.last_fire = U64_MAX;
	for (unsigned int i = 0; i < NT; i++)
		timer_setup(&M.t[i], fire, 0);
	rng = seed_base() ^ ((u64)hz << 32);
	for (unsigned int i = 0; i < steps && !M.errors; i++) {
		/* Halfway, sleep across the jiffies wrap. */
		if (i == steps / 2 && dz_tick_count() < wrap)
			idle(ref_j_to_ns(wrap - dz_tick_count() + 50, ref_pit_period(hz)));
		random_step();
	}
	for (unsigned int i = 0; i < NT; i++)
		op_del(i);
	if (dz_tick_count() < wrap)
		ERR("the walk did not cross the jiffies wrap");
	assert_int_equal(M.errors, 0);
	return (struct walk_result){ M.hash, M.fired, M.wakeups, M.idle_ticks, dz_tick_count() };
}

/* The same workload tickless and periodic: the same timers at the same ticks. */
static void test_differential_idle(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(hz_list); i++) {
		unsigned int hz = hz_list[i];
		unsigned int steps = hz >= 5000 ? 1500 : 6000;
		struct walk_result on = walk(hz, true, steps), off = walk(hz, false, steps);

		printf("HZ %5u: %u steps, %llu runs, %llu ticks (%llu idle): %llu wakeups "
		       "tickless, %llu periodic\n",
		       hz, steps, (unsigned long long)on.fired, (unsigned long long)on.ticks,
		       (unsigned long long)on.idle_ticks, (unsigned long long)on.wakeups,
		       (unsigned long long)off.wakeups);
		assert_true(on.hash == off.hash);
		assert_true(on.fired == off.fired && on.ticks == off.ticks);
		assert_true(off.wakeups == off.idle_ticks);
		assert_true(on.wakeups < off.wakeups);
	}
}

/* ---- the scenario: one 1 Hz timer, ten seconds idle ---- */

static struct timer_list every_second;
static unsigned int second_runs;

static void second(struct timer_list *t)
{
	second_runs++;
	mod_timer(t, jiffies + HZ);
}

static u64 one_hz_idle(unsigned int hz, bool nohz)
{
	u64 irq0;

	boot(hz, nohz);
	second_runs = 0;
	timer_setup(&every_second, second, 0);
	mod_timer(&every_second, jiffies + HZ);
	irq0 = interrupts();
	dynhz_host_idle(10 * NSEC_PER_SEC);
	assert_int_equal(dz_tick_count(), clock_ticks());
	assert_true(second_runs >= 9 && second_runs <= 10);
	del_timer(&every_second);
	return interrupts() - irq0;
}

static void test_one_hz_timer(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(hz_list); i++) {
		unsigned int hz = hz_list[i];
		u64 on = one_hz_idle(hz, true), off = one_hz_idle(hz, false);
		u64 ticks = clock_ticks();

		printf("HZ %5u, 10 s idle with a 1 Hz timer: %llu wakeups tickless, %llu "
		       "periodic\n",
		       hz, (unsigned long long)on, (unsigned long long)off);
		assert_true(on <= 12); /* the first tick anchors the grid */
		assert_true(off == ticks);
	}
}

/* Nothing pending: the CPU sleeps until the clock must be folded. */
static void test_idle_nothing(void **state)
{
	u64 irq0;

	(void)state;
	boot(hz_list[ARRAY_SIZE(hz_list) - 1], true);
	irq0 = interrupts();
	dynhz_host_idle(3600 * NSEC_PER_SEC);
	assert_int_equal(dz_tick_count(), clock_ticks());
	assert_true(interrupts() - irq0 <= 3);
	/* Busy again: one tick per interrupt, from the next jiffy boundary. */
	busy(5);
	assert_int_equal(dz_tick_count(), clock_ticks());
	assert_int_equal(M.errors, 0);
}

/* Monotonic time is the clock's, idle or not. */
static void test_ktime_after_idle(void **state)
{
	(void)state;
	boot(hz_list[0], true);
	for (int i = 0; i < 200; i++) {
		u64 c;

		dynhz_host_idle(rnd(3 * NSEC_PER_SEC));
		dynhz_host_run_ticks((unsigned long)rnd(3));
		c = dynhz_host_cycles();
		assert_true(ktime_get_ns() ==
			    ref_muldiv(c, NSEC_PER_SEC, REF_PIT_HZ, REF_DOWN, U64_MAX));
	}
}

/* Time from ticks alone (no clocksource): nothing to count idle time on. */
static void test_no_clocksource(void **state)
{
	u64 irq0, t0;

	(void)state;
	boot(hz_list[0], true);
	clocksource_unregister(dz_clocksource_current());
	dynhz_host_run_ticks(2);
	irq0 = interrupts();
	t0 = dz_tick_count();
	dynhz_host_idle(NSEC_PER_SEC);
	assert_int_equal(dz_tick_count(), clock_ticks());
	assert_true(interrupts() - irq0 == dz_tick_count() - t0);
}

/* nohz= on the command line. */
static void test_param(void **state)
{
	static const struct {
		const char *cmdline, *msg;
		bool on;
	} cases[] = {
		{ "", NULL, true },
		{ "nohz=on", NULL, true },
		{ "nohz=off", NULL, false },
		{ "nohz=off nohz=on", NULL, true },
		{ "nohz=\"off\"", NULL, false },
		{ "nohz=maybe", "nohz=maybe: not on or off, using on", true },
		{ "nohz=", "nohz=: empty value, using on", true },
		{ "nohz", "nohz=: empty value, using on", true },
		{ "nohz=0", "nohz=0: not on or off, using on", true },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		dynhz_host_set_quiet(true);
		dz_printk("marker\n");
		dynhz_boot_quiet(cases[i].cmdline);
		assert_int_equal(dz_tick_nohz_active(), cases[i].on);
		assert_string_equal(dynhz_host_last_line(), cases[i].msg ? cases[i].msg : "marker");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_param),	       cmocka_unit_test(test_one_hz_timer),
		cmocka_unit_test(test_idle_nothing),   cmocka_unit_test(test_ktime_after_idle),
		cmocka_unit_test(test_no_clocksource), cmocka_unit_test(test_differential_idle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
