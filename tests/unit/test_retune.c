// SPDX-License-Identifier: MIT
/*
 * HZ changed at runtime (include/dynhz/retune.h), against a model in real
 * time.
 *
 * The model knows the simulated PIT as the hardware is: a tick every
 * divisor input clocks, the divisor the nearest to 1193182 / HZ. It keeps
 * the jiffy grid in input clocks (jiffy J_b + k begins at c_b + k * div)
 * and, for every pending jiffies timer, the input clock at which it must
 * run: the start of its jiffy on the grid of its arming; at a change of HZ,
 * the first tick of the new grid at or after that time (never early, at
 * most one new tick late). Random arming, re-arming from callbacks,
 * deletion, hrtimers, busy stretches tick by tick and fast-forwarded, idle
 * gaps with the tick stopped, and changes of HZ to random values 19..10000
 * at random moments, in high resolution, periodic with tickless idle,
 * periodic only, and on a device without one-shot mode. Every timer must
 * run at exactly the model's time, none lost, none twice; hrtimers never
 * early; ktime_get_ns() equal to the input clocks counted, at every step;
 * jiffies_64 on the model's grid and +1 per tick, each tick the divisor of
 * the rate in force. In a constant build every change is refused and
 * nothing moves.
 *
 * DYNHZ_LONG=1 runs 20 times as many operations (100000 per mode); DYNHZ_SEED=n another seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>
#include <dynhz/retune.h>
#include <dynhz/errno.h>

#include "panic.h"
#include "ref.h"
#include "tick-internal.h"

#define F  1193182ULL /* the PIT's input clock */
#define NT 48	      /* jiffies timers */
#define NH 12	      /* hrtimers */

#ifdef DYNHZ_DEBUG
#define IS_DEBUG 1
#else
#define IS_DEBUG 0
#endif

static u64 rng;

static u64 rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static u64 rnd(u64 n)
{
	return n ? rnd64() % n : 0;
}

static u64 seed(void)
{
	const char *s = getenv("DYNHZ_SEED");

	return s ? strtoull(s, NULL, 0) | 1 : 0x9e3779b97f4a7c15ULL;
}

static unsigned long ops_per_mode(void)
{
	const char *s = getenv("DYNHZ_LONG");

	return s && *s == '1' ? 100000 : 5000;
}

/* The 8254's divisor: the nearest count of input clocks to 1/hz s. */
static u64 pit_div(unsigned int hz)
{
	return (F + hz / 2) / hz;
}

static u64 cyc_to_ns(u64 c)
{
	return c / F * 1000000000ULL + c % F * 1000000000ULL / F;
}

/* The grid: jiffy j_b + k begins at input clock c_b + k * div. */
static struct {
	u64 c_b, j_b, div, max_div;
	/*
	 * With tickless idle, the tick resumes one input clock after its jiffy
	 * when idle ended one clock before it (the device's shortest delay is
	 * 2 clocks: a property of the tick, not of changes of HZ).
	 */
	u64 slip;
	unsigned int hz;
	unsigned int retunes;
	u64 last_jiffies, last_coarse;
} g;

static u64 grid_start(u64 j)
{
	return g.c_b + (j - g.j_b) * g.div;
}

static u64 grid_jiffy(u64 c)
{
	return g.j_b + (c - g.c_b) / g.div;
}

static struct jt {
	struct timer_list t;
	bool pending;
	u64 due;      /* input clock at which it must run */
	u64 deadline; /* ... as armed, before any change of HZ */
	u64 slack;    /* the new ticks of the changes it lived through */
	bool asap;    /* armed with an expiry not after jiffies: due at the next tick */
	u64 armed_at, armed_j;
	long armed_delta;
	unsigned int runs;
} jt[NT];

static struct ht {
	struct hrtimer h;
	bool pending;
	u64 expiry; /* ns */
} ht[NH];

static struct {
	unsigned long jruns, hruns, early, wrong, hr_late_max_ns;
	u64 late_max; /* of a jiffies timer against its deadline as armed, in input clocks */
	char first[200];
} res;

#define FAIL(...)                                                            \
	do {                                                                 \
		if (!res.first[0])                                           \
			snprintf(res.first, sizeof(res.first), __VA_ARGS__); \
	} while (0)

static void jt_arm(struct jt *x, long delta)
{
	u64 j = jiffies_64;

	mod_timer(&x->t, jiffies + (unsigned long)delta);
	x->due = grid_start(j + (u64)(delta > 0 ? delta : 1));
	/* Not after jiffies: no deadline but the next tick, whatever its rate. */
	x->deadline = delta > 0 ? x->due : dynhz_host_cycles();
	x->slack = x->due - x->deadline;
	x->asap = delta <= 0;
	x->armed_at = dynhz_host_cycles();
	x->armed_j = j;
	x->armed_delta = delta;
	x->pending = true;
}

/* A delay mostly within 2 s, sometimes up to 20 s, sometimes none. */
static long rand_delta(void)
{
	u64 r = rnd(100);

	if (r < 5)
		return -(long)rnd(3);
	if (r < 15)
		return (long)rnd(4);
	if (r < 90)
		return (long)rnd(2 * g.hz + 1);
	return (long)rnd(20 * g.hz + 1);
}

static void jt_fire(struct timer_list *t)
{
	struct jt *x = dz_container_of(t, struct jt, t);
	u64 now = dynhz_host_cycles();

	res.jruns++;
	x->runs++;
	if (!x->pending)
		FAIL("timer %td ran while not pending", x - jt);
	if (now < x->deadline) {
		res.early++;
		FAIL("timer %td ran at %llu, before its deadline %llu", x - jt,
		     (unsigned long long)now, (unsigned long long)x->deadline);
	}
	if (now < x->due || now > x->due + g.slip) {
		res.wrong++;
		FAIL("timer %td ran at %llu, model %llu (deadline %llu, HZ %u; armed at %llu, "
		     "jiffy %llu, +%ld; grid %llu at %llu)",
		     x - jt, (unsigned long long)now, (unsigned long long)x->due,
		     (unsigned long long)x->deadline, g.hz, (unsigned long long)x->armed_at,
		     (unsigned long long)x->armed_j, x->armed_delta, (unsigned long long)g.j_b,
		     (unsigned long long)g.c_b);
	}
	if (now > x->deadline && now - x->deadline > res.late_max)
		res.late_max = now - x->deadline;
	if (now >= x->deadline && now - x->deadline > x->slack + g.slip)
		FAIL("timer %td late by %llu input clocks, more than the %llu of its changes",
		     x - jt, (unsigned long long)(now - x->deadline), (unsigned long long)x->slack);
	x->pending = false;
	if (rnd(3) == 0)
		jt_arm(x, rand_delta() % (long)(g.hz + 1));
}

static enum hrtimer_restart ht_fire(struct hrtimer *h)
{
	struct ht *x = dz_container_of(h, struct ht, h);
	u64 now = cyc_to_ns(dynhz_host_cycles());
	/*
	 * At tick resolution: by the next tick of any rate it lived through;
	 * else within the device's shortest delay (2 input clocks) and rounding.
	 */
	u64 bound = cyc_to_ns(dz_hrtimer_highres() ? 3 : g.max_div + 3);

	res.hruns++;
	if (!x->pending)
		FAIL("hrtimer %td ran while not queued", x - ht);
	if (now < x->expiry) {
		res.early++;
		FAIL("hrtimer %td ran at %llu ns, before %llu", x - ht, (unsigned long long)now,
		     (unsigned long long)x->expiry);
	} else if (now - x->expiry > bound) {
		FAIL("hrtimer %td late by %llu ns", x - ht, (unsigned long long)(now - x->expiry));
	}
	if (now - x->expiry > res.hr_late_max_ns)
		res.hr_late_max_ns = now - x->expiry;
	x->pending = false;
	return HRTIMER_NORESTART;
}

/* What must hold whenever the CPU is busy: time, jiffies and the coarse clock. */
static void check_clocks(const char *where)
{
	u64 c = dynhz_host_cycles(), ns = ktime_get_ns(), coarse = ktime_get_coarse_ns();
	u64 want_coarse = cyc_to_ns(grid_start(jiffies_64));

	if (ns != cyc_to_ns(c))
		FAIL("%s: ktime %llu ns, the clock says %llu", where, (unsigned long long)ns,
		     (unsigned long long)cyc_to_ns(c));
	if ((jiffies_64 != grid_jiffy(c) && jiffies_64 != grid_jiffy(c - g.slip)) ||
	    jiffies != (unsigned long)jiffies_64)
		FAIL("%s: jiffies_64 %llu, the grid says %llu at %llu", where,
		     (unsigned long long)jiffies_64, (unsigned long long)grid_jiffy(c),
		     (unsigned long long)c);
	if ((s64)(jiffies_64 - g.last_jiffies) < 0)
		FAIL("%s: jiffies went back", where);
	/*
	 * The coarse clock: the jiffy's start, to a ns per change (each rounds
	 * down), and an input clock per change where the tick slips (the
	 * coarse clock counts periods, the changes start from the device's tick).
	 */
	u64 tol = g.retunes * (1 + cyc_to_ns(g.slip) + 1);

	if (coarse > ns || coarse + tol < want_coarse || coarse > want_coarse ||
	    coarse < g.last_coarse)
		FAIL("%s: coarse %llu ns, jiffy start %llu, fine %llu", where,
		     (unsigned long long)coarse, (unsigned long long)want_coarse,
		     (unsigned long long)ns);
	/* In high resolution the core's grid is the tick: it must be the model's. */
	if (dz_hrtimer_highres() && dz_tick_grid_cycles(jiffies_64) != grid_start(jiffies_64))
		FAIL("%s: the core's jiffy %llu begins at %llu, the model's at %llu", where,
		     (unsigned long long)jiffies_64,
		     (unsigned long long)dz_tick_grid_cycles(jiffies_64),
		     (unsigned long long)grid_start(jiffies_64));
	g.last_jiffies = jiffies_64;
	g.last_coarse = coarse;
}

static void model_boot(const char *cmdline, unsigned int hz)
{
	memset(&g, 0, sizeof(g));
	dynhz_boot_quiet(cmdline);
	g.hz = HZ;
	assert_int_equal(g.hz, hz);
	g.div = pit_div(hz);
	g.max_div = g.div;
	g.c_b = 0;
	g.j_b = jiffies_64;
	g.last_jiffies = jiffies_64;
	for (unsigned int i = 0; i < NT; i++) {
		timer_setup(&jt[i].t, jt_fire, 0);
		jt[i].pending = false;
		jt[i].runs = 0;
	}
	for (unsigned int i = 0; i < NH; i++) {
		hrtimer_setup(&ht[i].h, ht_fire, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		ht[i].pending = false;
	}
}

static void model_retune(unsigned int hz)
{
	u64 asked = dynhz_host_cycles(), old_div = g.div, j0 = jiffies_64;
	u32 gen = dz_hz_generation();
	int err = dynhz_host_retune(hz);
	u64 c = dynhz_host_cycles();

#ifdef CONFIG_HZ
	if (err != (hz == g.hz ? 0 : -DZ_EPERM) || HZ != g.hz || dz_hz_generation() != gen)
		FAIL("constant build: HZ %u -> %u gave %d", g.hz, hz, err);
	return;
#endif
	if (err) {
		FAIL("HZ %u -> %u: error %d", g.hz, hz, err);
		return;
	}
	if (hz == g.hz) {
		if (dz_hz_generation() != gen || c != asked)
			FAIL("HZ %u -> %u: not a no-op", g.hz, hz);
		return;
	}
	/* The boundary: a tick of the old grid, the first or second after the request. */
	if (c < grid_start(jiffies_64) || c > grid_start(jiffies_64) + g.slip ||
	    c - asked > old_div + g.slip || jiffies_64 - j0 > 2)
		FAIL("HZ %u -> %u applied at %llu (jiffy %llu), asked at %llu, grid start %llu",
		     g.hz, hz, (unsigned long long)c, (unsigned long long)jiffies_64,
		     (unsigned long long)asked, (unsigned long long)grid_start(jiffies_64));
	if (dz_hz_generation() != gen + 1 || HZ != hz)
		FAIL("HZ %u -> %u: generation %u, HZ %u", g.hz, hz, dz_hz_generation(), HZ);
	/*
	 * The new grid starts where jiffy J began: in high resolution on the
	 * old grid (the device has none of its own), else where the device
	 * restarted, at the tick.
	 */
	g.c_b = dz_hrtimer_highres() ? grid_start(jiffies_64) : c;
	g.j_b = jiffies_64;
	g.div = pit_div(hz);
	g.hz = hz;
	g.retunes++;
	if (g.div > g.max_div)
		g.max_div = g.div;
	/* Every pending timer: the first new tick at or after its time. */
	for (unsigned int i = 0; i < NT; i++) {
		struct jt *x = &jt[i];

		if (!x->pending || !timer_pending(&x->t))
			continue;
		if (x->asap)
			x->due = g.c_b + g.div; /* due at the next tick: still is */
		else
			x->due = g.c_b + (x->due - g.c_b + g.div - 1) / g.div * g.div;
		x->slack += g.div;
	}
}

static void busy_ticks(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		u64 j = jiffies_64;

		dynhz_host_run_ticks(1);
		/* A tick (not an hrtimer's interrupt) moved jiffies by one, on the grid. */
		if (jiffies_64 != j + 1 || dynhz_host_cycles() < grid_start(j + 1) ||
		    dynhz_host_cycles() > grid_start(j + 1) + g.slip)
			FAIL("tick: jiffies %llu -> %llu at %llu, the grid says %llu",
			     (unsigned long long)j, (unsigned long long)jiffies_64,
			     (unsigned long long)dynhz_host_cycles(),
			     (unsigned long long)grid_start(j + 1));
	}
}

static unsigned int rand_hz(void)
{
	static const unsigned int common[] = { 19, 24, 100, 250, 300, 333, 1000, 10000 };

	if (rnd(3) == 0)
		return common[rnd(ARRAY_SIZE(common))];
	return DZ_HZ_MIN + (unsigned int)rnd(DZ_HZ_MAX - DZ_HZ_MIN + 1);
}

static char trail[16][96];
static unsigned int trail_n;

#define TRAIL(...)                                                                      \
	snprintf(trail[trail_n++ % 16], sizeof(trail[0]),                               \
		 "%llu j%llu: ", (unsigned long long)dynhz_host_cycles(),               \
		 (unsigned long long)jiffies_64),                                       \
		snprintf(trail[(trail_n - 1) % 16] + strlen(trail[(trail_n - 1) % 16]), \
			 sizeof(trail[0]) - strlen(trail[(trail_n - 1) % 16]), __VA_ARGS__)

static void step(void)
{
	u64 r = rnd(100);

	if (r < 30) {
		struct jt *x = &jt[rnd(NT)];

		if (rnd(8) == 0) {
			del_timer(&x->t);
			x->pending = false;
		} else {
			jt_arm(x, rand_delta());
		}
	} else if (r < 42) {
		struct ht *x = &ht[rnd(NH)];
		u64 rel = rnd(4) == 0 ? rnd(100000) : rnd(2000000000);

		if (rnd(6) == 0) {
			hrtimer_cancel(&x->h);
			x->pending = false;
		} else {
			x->expiry = ktime_get_ns() + rel;
			x->pending = true;
			hrtimer_start(&x->h, (ktime_t)rel, HRTIMER_MODE_REL);
		}
	} else if (r < 60) {
		u64 ns = rnd(50000000);

		TRAIL("pass %llu", (unsigned long long)ns);
		dynhz_host_pass(ns, false);
	} else if (r < 70) {
		u64 n = 1 + rnd(20);

		TRAIL("ticks %llu", (unsigned long long)n);
		busy_ticks(n);
	} else if (r < 82) {
		u64 ns = rnd(10) == 0 ? rnd(3000000000ULL) : rnd(300000000);

		TRAIL("idle %llu", (unsigned long long)ns);
		dynhz_host_idle(ns);
	} else if (r < 92) {
		unsigned int hz = rand_hz();

		TRAIL("retune %u", hz);
		model_retune(hz);
	} else {
		u64 n = 1 + rnd(2 * g.hz);

		TRAIL("advance %llu", (unsigned long long)n);
		dynhz_host_advance_ticks(n);
	}
	check_clocks("step");
}

static void run_mode(const char *opts, bool oneshot, u64 slip)
{
	char cmdline[96];
	unsigned int hz;
	unsigned long n = ops_per_mode();

#ifdef CONFIG_HZ
	hz = CONFIG_HZ;
#else
	hz = rand_hz();
#endif
	memset(&res, 0, sizeof(res));
	trail_n = 0;
	snprintf(cmdline, sizeof(cmdline), "hz=%u %s", hz, opts);
	dynhz_host_set_oneshot(oneshot);
	model_boot(cmdline, hz);
	g.slip = slip;
	for (unsigned long i = 0; i < n && !res.first[0]; i++)
		step();
	/* Everything armed must run: let 25 s pass, busy. */
	dynhz_host_pass(25000000000ULL, false);
	for (unsigned int i = 0; i < NT; i++)
		if (jt[i].pending)
			FAIL("timer %u lost: due at %llu, now %llu", i,
			     (unsigned long long)jt[i].due,
			     (unsigned long long)dynhz_host_cycles());
	for (unsigned int i = 0; i < NH; i++)
		if (ht[i].pending)
			FAIL("hrtimer %u lost", i);
	print_message("retune [%s%s]: %lu ops, %u changes, %lu timer runs (latest %.3f ms after "
		      "its deadline as armed), %lu hrtimer runs (latest %lu ns), %lu early\n",
		      opts, oneshot ? "" : " no one-shot", n, g.retunes, res.jruns,
		      (double)res.late_max * 1e3 / (double)F, res.hruns, res.hr_late_max_ns,
		      res.early);
	dynhz_host_set_oneshot(true);
	if (res.first[0]) {
		for (unsigned int i = trail_n > 16 ? trail_n - 16 : 0; i < trail_n; i++)
			print_message("  %s\n", trail[i % 16]);
		fail_msg("%s (seed %llu)", res.first, (unsigned long long)seed());
	}
	assert_int_equal(res.early, 0);
	assert_int_equal(res.wrong, 0);
	assert_true(res.jruns > n / 20);
#ifndef CONFIG_HZ
	assert_true(g.retunes > n / 30);
#endif
}

static void test_differential_highres(void **state)
{
	(void)state;
	rng = seed();
	run_mode("", true, 1);
}

static void test_differential_nohz_periodic(void **state)
{
	(void)state;
	rng = seed() + 2;
	run_mode("highres=off", true, 1);
}

static void test_differential_periodic(void **state)
{
	(void)state;
	rng = seed() + 4;
	run_mode("highres=off nohz=off", true, 0);
}

static void test_differential_no_oneshot(void **state)
{
	(void)state;
	rng = seed() + 6;
	run_mode("", false, 0);
}

/* Console output of fn, as printed (the host keeps only the last line). */
static char captured[4096];

static void capture(void (*fn)(void))
{
	FILE *f = tmpfile();
	int saved = dup(1);
	size_t n;

	assert_non_null(f);
	fflush(stdout);
	dup2(fileno(f), 1);
	dynhz_host_set_quiet(false);
	fn();
	fflush(stdout);
	dynhz_host_set_quiet(true);
	dup2(saved, 1);
	close(saved);
	rewind(f);
	n = fread(captured, 1, sizeof(captured) - 1, f);
	captured[n] = '\0';
	fclose(f);
}

static int bad_err;
static const char *bad_text;

static void call_bad(void)
{
	bad_err = dz_hz_retune_str(bad_text);
}

static char boot_cmdline[64];

static void call_boot(void)
{
	dynhz_boot_quiet(boot_cmdline);
}

/*
 * Bad values: the hz= boot parameter's own message (what it says of the
 * same text at boot, "using N" replaced by "HZ stays N"), an error, and
 * nothing changed.
 */
static void test_bad_values(void **state)
{
	static const struct {
		const char *s;
		int err;
	} cases[] = {
		{ "5", -DZ_ERANGE },   { "10001", -DZ_ERANGE }, { "0", -DZ_ERANGE },
		{ "abc", -DZ_EINVAL }, { "300x", -DZ_EINVAL },	{ "-3", -DZ_EINVAL },
		{ "", -DZ_EINVAL },
	};
	char want[ARRAY_SIZE(cases)][160];

	(void)state;
#ifdef CONFIG_HZ
	skip();
#endif
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		char *using;

		snprintf(boot_cmdline, sizeof(boot_cmdline), "hz=%s", cases[i].s);
		capture(call_boot);
		using = strstr(captured, ", using ");
		assert_non_null(using);
		snprintf(want[i], sizeof(want[i]), "%.*s, HZ stays 1000\n", (int)(using - captured),
			 captured);
	}
	dynhz_boot_quiet("hz=1000");
	dynhz_host_run_ticks(3);
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 c = dynhz_host_cycles(), j = jiffies_64;
		u32 gen = dz_hz_generation();

		bad_text = cases[i].s;
		capture(call_bad);
		assert_int_equal(bad_err, cases[i].err);
		assert_string_equal(captured, want[i]);
		assert_int_equal(HZ, 1000);
		assert_int_equal(dz_hz_generation(), gen);
		assert_true(dynhz_host_cycles() == c && jiffies_64 == j); /* no tick waited for */
	}
	/* The number itself, too; and a value with the newline echo adds is fine. */
	assert_int_equal(dz_hz_retune(DZ_HZ_MAX + 1), -DZ_ERANGE);
	assert_int_equal(dz_hz_retune(DZ_HZ_MIN - 1), -DZ_ERANGE);
	assert_int_equal(HZ, 1000);
	assert_int_equal(dz_hz_retune_str("1000\n"), 0); /* the HZ in force: nothing to do */
	assert_int_equal(dz_hz_generation(), 0);
}

static void call_retune_100(void)
{
	bad_err = dynhz_host_retune(100);
}

/* The constant build refuses with one line; the variable one logs two. */
static void test_log_or_refusal(void **state)
{
	char want[160];

	(void)state;
#ifdef CONFIG_HZ
	dynhz_boot_quiet(NULL);
	dynhz_host_run_ticks(2);
	capture(call_retune_100);
	snprintf(want, sizeof(want), "hz: constant build, HZ is %u\n", (unsigned int)CONFIG_HZ);
	assert_int_equal(bad_err, CONFIG_HZ == 100 ? 0 : -DZ_EPERM);
	if (CONFIG_HZ != 100)
		assert_string_equal(captured, want);
	assert_int_equal(HZ, CONFIG_HZ);
	assert_int_equal(dz_hz_generation(), 0);
	/* Bad values get their own message first, as anywhere. */
	assert_int_equal(dz_hz_retune_str("abc"), -DZ_EINVAL);
	assert_int_equal(dz_hz_retune_str(CONFIG_HZ == 250 ? "250" : "x"),
			 CONFIG_HZ == 250 ? 0 : -DZ_EINVAL);
#else
	static struct timer_list t[3];
	unsigned long j;

	dynhz_boot_quiet("hz=1000");
	dynhz_host_run_ticks(5);
	for (unsigned int i = 0; i < ARRAY_SIZE(t); i++) {
		timer_setup(&t[i], NULL, 0);
		t[i].function = (void (*)(struct timer_list *))abort;
		mod_timer(&t[i], jiffies + 1000 * (i + 1));
	}
	capture(call_retune_100);
	assert_int_equal(bad_err, 0);
	j = jiffies;
	snprintf(want, sizeof(want),
		 "hz: 1000 -> 100 at jiffies %lu, 3 timers re-expressed\n"
		 "time: hz=100 source=runtime clockevent=pit tick_ns=10000150.857 user_hz=%u\n",
		 j, (unsigned int)USER_HZ);
	assert_string_equal(captured, want);
	/* 1000 ticks of 1193 clocks, remaining from the boundary, in ticks of 11932: up. */
	for (unsigned int i = 0; i < ARRAY_SIZE(t); i++) {
		u64 left_old = 1000 * (i + 1) - 1; /* one old jiffy has passed */

		assert_true(t[i].expires - j == ref_muldiv(left_old, 1193, 11932, REF_UP, ~0ULL));
		del_timer(&t[i]);
	}
	assert_int_equal(HZ, 100);
	assert_int_equal(dz_hz_state_get().source, DZ_HZ_SRC_RUNTIME);
#endif
}

/* After a change every conversion is that of the new period, exactly. */
static void test_conversions_follow(void **state)
{
	static const unsigned int rates[] = { 19, 24, 100, 250, 300, 333, 1000, 1200, 9999, 10000 };
	u64 seed_state = 12345;

	(void)state;
#ifdef CONFIG_HZ
	skip();
#endif
	dynhz_boot_quiet("hz=250");
	dynhz_host_run_ticks(1);
	for (unsigned int i = 0; i < ARRAY_SIZE(rates); i++) {
		struct dz_tick_period p = ref_pit_period(rates[i]);

		assert_int_equal(dynhz_host_retune(rates[i]), 0);
		assert_int_equal(HZ, rates[i]);
		assert_true(dz_hz_period().num == p.num && dz_hz_period().den == p.den);
		for (unsigned int k = 0; k < 2000; k++) {
			u64 x = ref_rand(&seed_state) >> (ref_rand(&seed_state) % 64);
			unsigned int x32 = (unsigned int)x;
			unsigned long xl = (unsigned long)x;

			assert_true(msecs_to_jiffies(x32) == ref_ms_to_j(x32, p));
			assert_true(usecs_to_jiffies(x32) == ref_us_to_j(x32, p));
			assert_true(nsecs_to_jiffies(x) == ref_ns_to_j(x, p));
			assert_true(jiffies_to_msecs(xl) == ref_j_to_ms(xl, p));
			assert_true(jiffies_to_usecs(xl) == ref_j_to_us(xl, p));
			assert_true(jiffies_to_nsecs(xl) == ref_j_to_ns(xl, p));
			/* beyond a 64-bit result jiffies_to_clock_t wraps (jiffies.h) */
			if (BITS_PER_LONG == 32 || ref_j_to_clock(xl, p, USER_HZ) != ULONG_MAX)
				assert_true(dz_uclock_ticks(jiffies_to_clock_t(xl)) ==
					    ref_j_to_clock(xl, p, USER_HZ));
			assert_true(clock_t_to_jiffies(DZ_UCLOCK(xl)) ==
				    ref_clock_to_j(xl, p, USER_HZ));
		}
		dynhz_host_run_ticks(1 + i);
	}
}

#ifndef CONFIG_HZ
/*
 * A reader holding the constants of one generation (interrupted between
 * reading the pointer and the fields) still reads them, whole, after the
 * change: the new generation was built in the other block.
 */
static void test_generation_block_kept(void **state)
{
	struct dz_timeconst *held, copy;

	(void)state;
	dynhz_boot_quiet("hz=1000");
	dynhz_host_run_ticks(1);
	held = dz_tc_cur;
	copy = *held;
	assert_int_equal(dynhz_host_retune(100), 0);
	assert_ptr_not_equal(dz_tc_cur, held);
	assert_memory_equal(held, &copy, sizeof(copy));
	assert_true(msecs_to_jiffies(1000) == 100);
	assert_true(dz_conv_narrow_fixed(&held->ms_to_j, 1000, DZ_K_ms_to_j, DZ_SHIFT_ms_to_j,
					 DZ_CHECK_ms_to_j, DZ_ADD_ms_to_j) == 1001);
}
#endif

static struct dz_retune_info seen;
static unsigned int hook_calls;
static unsigned long hook_map[4];

static void hook(const struct dz_retune_info *info)
{
	seen = *info;
	hook_calls++;
	/* The kernel's own state: old jiffies remaining, as new ones. */
	for (unsigned int i = 0; i < ARRAY_SIZE(hook_map); i++)
		hook_map[i] = dz_retune_jiffies(info, (unsigned long)(i * 777 + 1));
}

static void nop_hook(const struct dz_retune_info *info)
{
	(void)info;
}

/* The hooks see the change as it was made; dz_retune_jiffies() rounds up exactly. */
static void test_hooks(void **state)
{
	u64 st = 99;

	(void)state;
#ifdef CONFIG_HZ
	skip();
#endif
	dynhz_boot_quiet("hz=300");
	assert_int_equal(dz_hz_retune_hook(hook), 0);
	for (unsigned int k = 0; k < 40; k++) {
		unsigned int old = HZ, hz = DZ_HZ_MIN + (unsigned int)(ref_rand(&st) % 9982);
		u32 gen = dz_hz_generation();
		static struct timer_list t;

		if (hz == old)
			continue;
		timer_setup(&t, (void (*)(struct timer_list *))abort, 0);
		mod_timer(&t, jiffies + 10000);
		dynhz_host_run_ticks(1 + k);
		hook_calls = 0;
		assert_int_equal(dynhz_host_retune(hz), 0);
		assert_int_equal(hook_calls, 1);
		assert_int_equal(seen.old_hz, old);
		assert_int_equal(seen.new_hz, hz);
		assert_true(seen.old_period.num == ref_pit_divisor(old) &&
			    seen.old_period.den == REF_PIT_HZ);
		assert_true(seen.new_period.num == ref_pit_divisor(hz) &&
			    seen.new_period.den == REF_PIT_HZ);
		assert_true(seen.jiffies == jiffies);
		assert_int_equal(seen.timers, 1);
		assert_int_equal(seen.generation, gen + 1);
		assert_int_equal(dz_hz_generation(), gen + 1);
		for (unsigned int i = 0; i < ARRAY_SIZE(hook_map); i++)
			assert_true(hook_map[i] == ref_muldiv(i * 777 + 1, ref_pit_divisor(old),
							      ref_pit_divisor(hz), REF_UP,
							      REF_MAX_JIFFY_OFFSET));
		/* Outside the hook, from an older change's info: the same arithmetic. */
		assert_true(dz_retune_jiffies(&seen, 123456) ==
			    ref_muldiv(123456, ref_pit_divisor(old), ref_pit_divisor(hz), REF_UP,
				       REF_MAX_JIFFY_OFFSET));
		del_timer(&t);
	}
	/* At most DZ_RETUNE_HOOKS_MAX: the test's one, then 7 more, then no more. */
	for (unsigned int i = 1; i < DZ_RETUNE_HOOKS_MAX; i++)
		assert_int_equal(dz_hz_retune_hook(nop_hook), 0);
	assert_int_equal(dz_hz_retune_hook(nop_hook), -DZ_EBUSY);
}

static struct timer_list stale_t;
static u64 stale_ran;

static void stale_fire(struct timer_list *t)
{
	(void)t;
	stale_ran = dynhz_host_cycles();
}

/*
 * The common bug: a deadline computed as jiffies + x at the old rate, kept,
 * and used to arm the timer again after the change. The debug build reports
 * it; every build runs the timer 10 times too late, which is the harm.
 */
static void test_stale_deadline(void **state)
{
	struct dz_timer_stats st;
	unsigned long deadline;
	u64 armed;

	(void)state;
#ifdef CONFIG_HZ
	skip();
#endif
	dynhz_boot_quiet("hz=1000");
	dynhz_host_run_ticks(1);
	timer_setup(&stale_t, stale_fire, 0);
	armed = dynhz_host_cycles();
	deadline = jiffies + 500; /* 0.5 s at 1000 Hz */
	mod_timer(&stale_t, deadline);
	assert_int_equal(dynhz_host_retune(100), 0);
	assert_true(stale_t.expires - jiffies == 50); /* re-expressed: 499 * 1193 / 11932, up */
	mod_timer(&stale_t, deadline);		      /* the bug */
	dz_timer_stats(&st);
#ifdef DYNHZ_DEBUG
	assert_int_equal(st.stale_expiries, 1);
	assert_non_null(strstr(dynhz_host_last_line(), "deadline carried across the change"));
#else
	assert_int_equal(st.stale_expiries, 0);
#endif
	/* A fresh deadline is not reported. */
	mod_timer(&stale_t, jiffies + 49);
	mod_timer(&stale_t, deadline);
	dz_timer_stats(&st);
	assert_int_equal(st.stale_expiries, IS_DEBUG);
	dynhz_host_advance_ticks(600);
	/* 499 old jiffies of 1193 clocks were left: it ran 10 times later. */
	assert_true(stale_ran - armed > 9 * 500 * 1193ULL);
}

static struct timer_list refused_t;
static u64 refused_ran;

static void refused_fire(struct timer_list *t)
{
	(void)t;
	refused_ran = dynhz_host_cycles();
}

/*
 * A rate whose tick the core cannot convert exactly (on a 10^9 Hz clock,
 * HZ 24 or 300 with USER_HZ 100) is refused with a line; HZ, the
 * constants and the timers stay, only the tick's phase moved.
 */
static void test_refused_period(void **state)
{
	u64 armed, deadline_ns;
	unsigned long ms;

	struct dz_timeconst tc;
	unsigned int bad = 0;
	char want[120];

	(void)state;
#ifdef CONFIG_HZ
	skip();
#endif
	/* Which rate has no exact conversions depends on USER_HZ and the word size. */
	for (unsigned int hz = DZ_HZ_MIN; hz <= DZ_HZ_MAX && !bad; hz++) {
		struct dz_tick_period p = { (1000000000U + hz / 2) / hz, 1000000000U };

		if (dz_timeconst_build(&tc, p))
			bad = hz;
	}
	if (!bad)
		skip();
	dynhz_host_set_clock_hz(1000000000);
	dynhz_boot_quiet("hz=1000 highres=off nohz=off");
	dynhz_host_run_ticks(3);
	timer_setup(&refused_t, refused_fire, 0);
	armed = ktime_get_ns();
	mod_timer(&refused_t, jiffies + 100);
	deadline_ns = armed + 100 * 1000000ULL; /* armed at a tick: 100 ticks of 1 ms */
	refused_ran = 0;
	assert_int_equal(dynhz_host_retune(bad), -DZ_EINVAL);
	snprintf(want, sizeof(want),
		 "hz: clockevent pit gives no exactly convertible tick at HZ %u, HZ stays 1000",
		 bad);
	assert_string_equal(dynhz_host_last_line(), want);
	assert_int_equal(HZ, 1000);
	assert_int_equal(dz_hz_generation(), 0);
	ms = jiffies_to_msecs(1000);
	assert_int_equal(ms, 1000);
	dynhz_host_run_ticks(200);
	assert_true(refused_ran != 0);
	/* The clock is 1 GHz: cycles are ns. Never early, and late only by the phase moved. */
	assert_true(refused_ran >= deadline_ns && refused_ran < deadline_ns + 1000000);
	/* A rate it can convert still works. */
	assert_int_equal(dynhz_host_retune(250), 0);
	assert_int_equal(HZ, 250);
}

static int clock_back(void **state)
{
	(void)state;
	dynhz_host_set_clock_hz(DYNHZ_HOST_CLOCK_HZ);
	return 0;
}

/*
 * Without a clocksource time is counted in ticks: across changes it goes
 * on from each boundary, one exact period per tick, so it stays the
 * simulated clock's time to within a ns per change (each rounds down).
 */
static void test_time_from_ticks(void **state)
{
	u64 st = 7, last = 0;
	unsigned int changes = 0;

	(void)state;
	dynhz_boot_quiet("hz=250");
	clocksource_unregister(dz_clocksource_current());
	for (unsigned int k = 0; k < 60; k++) {
		unsigned int hz = DZ_HZ_MIN + (unsigned int)(ref_rand(&st) % 9982);
		u64 n = 1 + ref_rand(&st) % 300;

		for (u64 i = 0; i < n; i++) {
			u64 want, ns;

			dynhz_host_run_ticks(1);
			want = cyc_to_ns(dynhz_host_cycles());
			ns = ktime_get_ns();
			assert_true(ns <= want && ns + changes >= want);
			assert_true(ns > last);
			assert_true(ktime_get_coarse_ns() == ns); /* at a tick both are its time */
			last = ns;
		}
#ifndef CONFIG_HZ
		if (hz != HZ) {
			assert_int_equal(dynhz_host_retune(hz), 0);
			changes++;
		}
#else
		(void)hz;
#endif
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_differential_highres),
		cmocka_unit_test(test_differential_nohz_periodic),
		cmocka_unit_test(test_differential_periodic),
		cmocka_unit_test(test_differential_no_oneshot),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_log_or_refusal),
		cmocka_unit_test(test_conversions_follow),
#ifndef CONFIG_HZ
		cmocka_unit_test(test_generation_block_kept),
#endif
		cmocka_unit_test(test_stale_deadline),
		cmocka_unit_test_teardown(test_refused_period, clock_back),
		cmocka_unit_test(test_time_from_ticks),
		cmocka_unit_test(test_hooks),
	};

	dynhz_host_set_quiet(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
