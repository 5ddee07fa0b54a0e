// SPDX-License-Identifier: MIT
/*
 * Kernel timers against a reference model.
 *
 * The model is the definition, kept in a sorted list: a timer armed with
 * expires E while jiffies is J must run at the first tick T after J at
 * which time_after_eq(T, E): (long)(E - J) ticks later, or at the next
 * tick if E is not after J. Ticks are counted from boot in 64 bits, so the model
 * knows nothing of the jiffies wrap, of wheel levels or of parking. Random
 * add / mod / del, callbacks that re-arm and touch other timers, timeouts
 * from the past to far beyond the wheel, ticks one by one and fast-forward,
 * across the jiffies wrap, at HZ 19 ... 10000: every run must be at the
 * model's tick (lateness 0), none missing, none twice.
 *
 * DYNHZ_LONG=1 runs 10M operations per HZ; DYNHZ_SEED=n changes the seed.
 */
#define DYNHZ_KERNEL_API 1 /* Linux's timer_delete() too: no <time.h> here */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>

#include "panic.h"
#include "ref.h"
#include "timer-internal.h" /* the wheel's geometry */

#ifdef CONFIG_HZ
static const unsigned int hz_list[] = { CONFIG_HZ };
#else
static const unsigned int hz_list[] = { 19, 100, 250, 333, 1000, 1200, 10000 };
#endif

static bool long_run(void)
{
	const char *s = getenv("DYNHZ_LONG");

	return s && *s && strcmp(s, "0");
}

static u64 seed_base(void)
{
	const char *s = getenv("DYNHZ_SEED");

	return s ? strtoull(s, NULL, 0) : 0x5eed7173u;
}

/* ---- random numbers ---- */

static u64 rng;

static u64 rnd64(void)
{
	return ref_rand(&rng);
}

/* 0 .. n - 1 */
static u64 rnd(u64 n)
{
	return rnd64() % n;
}

/* ---- booting ---- */

/* jiffies at boot, computed here: five minutes before the wrap. */
static unsigned long boot_jiffies(unsigned int hz)
{
	return (unsigned long)(0UL - 300UL * hz);
}

static void boot_hz(unsigned int hz)
{
	char cl[32];

	snprintf(cl, sizeof(cl), "hz=%u", hz);
	dynhz_host_set_quiet(true);
	assert_int_equal(dynhz_boot_quiet(cl), 0);
	assert_int_equal(HZ, hz);
	assert_true(jiffies == boot_jiffies(hz));
	assert_true(jiffies_64 == (u64)boot_jiffies(hz));
	/*
	 * Time from ticks alone: the simulated clock's 32-bit counter would
	 * have to be folded every hour of simulated time, which makes years
	 * of fast-forward slow; timers do not need it.
	 */
	clocksource_unregister(dz_clocksource_current());
}

/* ---- the model ---- */

#define NT_MAX 4096

struct tt {
	struct timer_list timer;
	unsigned int id;
};

struct entry {
	u64 due;
	u32 id;
};

static struct {
	struct tt t[NT_MAX];
	bool pending[NT_MAX];
	u64 due[NT_MAX];
	unsigned long expires[NT_MAX];
	struct entry sorted[NT_MAX]; /* pending timers by (due, id) */
	size_t n;
	unsigned int nt; /* timers in play */
	unsigned int hz;
	u64 now;	 /* ticks since boot at the last sync */
	unsigned long j; /* jiffies then */
	int cb_budget;	 /* actions callbacks may still take this step */
	u64 fired, ops, errors, far_fired;
	u64 step;
} M;

#define ERR(...)                                                                                \
	do {                                                                                    \
		if (M.errors++ < 20) {                                                          \
			printf("HZ %u step %llu tick %llu: ", M.hz, (unsigned long long)M.step, \
			       (unsigned long long)M.now);                                      \
			printf(__VA_ARGS__);                                                    \
			printf("\n");                                                           \
		}                                                                               \
	} while (0)

static bool before(struct entry a, struct entry b)
{
	return a.due < b.due || (a.due == b.due && a.id < b.id);
}

/* The first position whose entry is not before e. */
static size_t lower_bound(struct entry e)
{
	size_t lo = 0, hi = M.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (before(M.sorted[mid], e))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void m_insert(unsigned int id, u64 due)
{
	struct entry e = { due, id };
	size_t i = lower_bound(e);

	memmove(&M.sorted[i + 1], &M.sorted[i], (M.n - i) * sizeof(e));
	M.sorted[i] = e;
	M.n++;
	M.pending[id] = true;
	M.due[id] = due;
}

static void m_remove(unsigned int id)
{
	struct entry e = { M.due[id], id };
	size_t i = lower_bound(e);

	assert_true(i < M.n && M.sorted[i].id == id);
	memmove(&M.sorted[i], &M.sorted[i + 1], (M.n - i - 1) * sizeof(e));
	M.n--;
	M.pending[id] = false;
}

/* The tick (since boot) that jiffies shows now, also inside callbacks. */
static u64 cur_tick(void)
{
	return M.now + (unsigned long)(jiffies - M.j);
}

/*
 * The definition: a timer armed now (jiffies J) runs at the first tick
 * T > J with time_after_eq(T, expires), that is (long)(T - expires) >= 0:
 * x = expires - (J + 1) ticks after the next one, when that is at most half
 * the range of unsigned long ahead (T = expires); else at once (the next
 * tick), for such an expiry reads as already past.
 */
static u64 due_of(unsigned long expires)
{
	unsigned long x = expires - ((unsigned long)jiffies + 1);

	return cur_tick() + 1 + (x <= (unsigned long)LONG_MAX + 1 ? (u64)x : 0);
}

/* ---- operations, on the wheel and the model together ---- */

/*
 * mod_timer() of a pending timer to the expiry it has changes nothing (as
 * in Linux): not even when the timer is due in the tick that is running
 * and has yet to run, where re-arming would mean the next tick.
 */
static void op_mod(unsigned int id, unsigned long expires)
{
	int was = M.pending[id];
	u64 due = due_of(expires);
	int ret = mod_timer(&M.t[id].timer, expires);

	if (ret != was)
		ERR("mod_timer(%u) returned %d, was pending %d", id, ret, was);
	if (was && M.expires[id] == expires)
		return;
	if (was)
		m_remove(id);
	m_insert(id, due);
	M.expires[id] = expires;
}

static void op_add(unsigned int id, unsigned long expires)
{
	if (M.pending[id])
		return;
	M.t[id].timer.expires = expires;
	m_insert(id, due_of(expires));
	M.expires[id] = expires;
	add_timer(&M.t[id].timer);
}

static void op_del(unsigned int id)
{
	int was = M.pending[id];
	int ret = del_timer(&M.t[id].timer);

	if (ret != was)
		ERR("del_timer(%u) returned %d, was pending %d", id, ret, was);
	if (was)
		m_remove(id);
}

/* jiffies rounded up to a multiple of g (a power of two), across the wrap */
static unsigned long round_up_j(unsigned long j, unsigned long g)
{
	return j + ((0UL - j) & (g - 1));
}

/*
 * An expiry relative to jiffies: the past, short, medium and long
 * timeouts, each side of the wheel's level sizes (64^k) and of the jiffies
 * at which levels turn, and beyond the wheel (2^30) up to the largest.
 */
static unsigned long rand_expires(void)
{
	unsigned long j = jiffies, d;
	unsigned int r = (unsigned int)rnd(1000);

	if (r < 50)
		return j - (unsigned long)rnd(100); /* now or already past */
	if (r < 350)
		d = 1 + rnd(64);
	else if (r < 550)
		d = 1 + rnd(4096);
	else if (r < 680)
		d = 1 + rnd(1UL << 20);
	else if (r < 780)
		d = (1UL << (6 * (1 + rnd(5)))) + (unsigned long)rnd(5) - 2;
	else if (r < 860)
		return round_up_j(j + 1, 1UL << (6 * (1 + rnd(5)))) + (unsigned long)rnd(3) - 1;
	else if (r < 940)
		d = 1 + rnd(1UL << 30);
	else if (r < 990)
		d = (1UL << 30) - 2 + rnd(1UL << 30); /* beyond the wheel, < 2^31 */
	else if (r < 995)
		d = (unsigned long)rnd64(); /* anything, the far past included */
	else
		d = LONG_MAX - 1 + (unsigned long)rnd(4); /* each side of half the range */
	return j + d;
}

/* ---- the callback ---- */

static void random_action(unsigned int self);

static void fire(struct timer_list *tl)
{
	struct tt *x = from_timer(x, tl, timer);
	unsigned int id = x->id;
	u64 now = cur_tick();

	if (timer_pending(tl))
		ERR("timer %u runs while still pending", id);
	if (!M.pending[id]) {
		ERR("timer %u ran at tick %llu but was not pending (twice?)", id,
		    (unsigned long long)now);
	} else {
		if (M.due[id] != now)
			ERR("timer %u ran at tick %llu, due at %llu (%s by %llu)", id,
			    (unsigned long long)now, (unsigned long long)M.due[id],
			    now < M.due[id] ? "EARLY" : "late",
			    (unsigned long long)(now < M.due[id] ? M.due[id] - now
								 : now - M.due[id]));
		if (M.due[id] - M.now > (1ULL << 30))
			M.far_fired++;
		m_remove(id);
	}
	M.fired++;
	while (M.cb_budget > 0 && rnd(100) < 40) {
		M.cb_budget--;
		random_action(id);
	}
}

static void random_action(unsigned int self)
{
	unsigned int r = (unsigned int)rnd(100), other = (unsigned int)rnd(M.nt);

	if (r < 45)
		op_mod(self, rand_expires()); /* re-arm itself */
	else if (r < 65)
		op_del(other);
	else if (r < 85)
		op_mod(other, rand_expires());
	else if (r < 95)
		op_add(other, rand_expires());
	else
		op_del(self); /* not pending: must say 0 */
}

/* ---- time ---- */

static void check_nothing_lost(void)
{
	if (M.n && M.sorted[0].due <= M.now)
		ERR("timer %u due at tick %llu did not run", M.sorted[0].id,
		    (unsigned long long)M.sorted[0].due);
}

static void advance(u64 n, bool fast)
{
	unsigned long j0 = jiffies;

	if (!n)
		return;
	if (fast)
		dynhz_host_advance_ticks(n);
	else
		dynhz_host_run_ticks((unsigned long)n);
	if (jiffies != j0 + (unsigned long)n)
		ERR("jiffies moved by %lu, not %llu", (unsigned long)(jiffies - j0),
		    (unsigned long long)n);
	M.now += n;
	M.j = jiffies;
	if (dz_tick_count() != M.now)
		ERR("dz_tick_count() %llu", (unsigned long long)dz_tick_count());
	if (jiffies != boot_jiffies(M.hz) + (unsigned long)M.now)
		ERR("jiffies %lu", (unsigned long)jiffies);
	check_nothing_lost();
}

/* Up to the next due timer (or a little past it), quickly. */
static void advance_to_next(u64 cap)
{
	u64 n = M.n ? M.sorted[0].due - M.now : 1 + rnd(1000);

	if (n > cap)
		n = cap;
	advance(n + rnd(3), true);
}

static void full_check(void)
{
	struct dz_timer_stats st;
	unsigned long want, got;

	for (unsigned int i = 0; i < M.nt; i++)
		if (!!timer_pending(&M.t[i].timer) != M.pending[i])
			ERR("timer %u: timer_pending %d, model %d", i, timer_pending(&M.t[i].timer),
			    M.pending[i]);
	dz_timer_stats(&st);
	if (st.pending != M.n)
		ERR("%lu timers pending, model %zu", st.pending, M.n);
	want = M.n ? M.j + (unsigned long)(M.sorted[0].due - M.now)
		   : M.j + (unsigned long)REF_MAX_JIFFY_OFFSET;
	got = dz_timer_next_expiry();
	if (got != want)
		ERR("dz_timer_next_expiry %lu, model %lu (%zu pending)", got, want, M.n);
}

static void model_start(unsigned int hz, unsigned int nt)
{
	boot_hz(hz);
	memset(&M, 0, sizeof(M));
	M.hz = hz;
	M.nt = nt;
	M.j = jiffies;
	for (unsigned int i = 0; i < nt; i++) {
		timer_setup(&M.t[i].timer, fire, 0);
		M.t[i].id = i;
	}
}

/* One step of the random walk: an operation on a timer, or time passing. */
static void random_step(void)
{
	unsigned int r = (unsigned int)rnd(1000), id = (unsigned int)rnd(M.nt);

	M.cb_budget = 3;
	M.step++;
	if (r < 330)
		op_mod(id, rand_expires());
	else if (r < 450)
		op_add(id, rand_expires());
	else if (r < 600)
		op_del(id);
	else if (r < 800)
		advance(1, false);
	else if (r < 900)
		advance(2 + rnd(70), rnd(2));
	else if (r < 960)
		advance(1 + rnd(5000), true);
	else if (r < 995)
		advance_to_next(3UL << 30);
	else
		advance(rnd(1ULL << 31), true); /* a long jump, far timers run */
	M.ops++;
}

static void differential(unsigned int hz, u64 ops, unsigned int nt)
{
	u64 wrap_tick = 300ULL * hz; /* where jiffies wraps */

	model_start(hz, nt);
	rng = seed_base() ^ ((u64)hz << 32);
	for (u64 i = 0; i < ops && M.errors == 0; i++) {
		/* A third in, go to just before the wrap, if the walk did not cross it. */
		if (i == ops / 3 && M.now + 100 < wrap_tick)
			advance(wrap_tick - 100 - M.now, true);
		random_step();
		if ((i & 4095) == 0)
			full_check();
	}
	full_check();
	/* Run out everything due within a few wheel ranges, then delete the rest. */
	for (int k = 0; k < 100000 && M.n && M.sorted[0].due - M.now < (4ULL << 30); k++) {
		M.cb_budget = 0;
		advance_to_next(4ULL << 30);
	}
	full_check();
	for (unsigned int i = 0; i < nt; i++)
		op_del(i);
	full_check();
	printf("HZ %5u: %llu steps, %llu runs (%llu far), %llu ticks, %s the jiffies wrap\n", hz,
	       (unsigned long long)M.ops, (unsigned long long)M.fired,
	       (unsigned long long)M.far_fired, (unsigned long long)M.now,
	       M.now > wrap_tick ? "across" : "NOT across");
	assert_true(M.now > wrap_tick);
	if (M.errors)
		printf("seed %#llx: %llu errors\n", (unsigned long long)seed_base(),
		       (unsigned long long)M.errors);
	assert_int_equal(M.errors, 0);
}

static void test_differential(void **state)
{
	u64 ops = long_run() ? 10000000 : 150000;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(hz_list); i++)
		differential(hz_list[i], ops, long_run() ? 4096 : 1000);
}

/* Few timers, so that callbacks meet each other at the same tick often. */
static void test_differential_crowded(void **state)
{
	u64 ops = long_run() ? 2000000 : 60000;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(hz_list); i++)
		differential(hz_list[i], ops, 8);
}

/* ---- deterministic checks ---- */

static unsigned int runs;
static u64 run_tick;

static void count_run(struct timer_list *t)
{
	(void)t;
	runs++;
	run_tick = dz_tick_count();
}

static void test_api(void **state)
{
	static struct tt x;
	static DEFINE_TIMER(st, count_run);

	(void)state;
	boot_hz(hz_list[0]);
	timer_setup(&x.timer, count_run, TIMER_DEFERRABLE);
	assert_false(timer_pending(&x.timer));
	assert_ptr_equal(x.timer.function, count_run);
	assert_ptr_equal(from_timer(&x, &x.timer, timer), &x);
	assert_int_equal(del_timer(&x.timer), 0);

	runs = 0;
	assert_int_equal(mod_timer(&x.timer, jiffies + 10), 0);
	assert_true(timer_pending(&x.timer));
	assert_true(x.timer.expires == jiffies + 10);
	assert_int_equal(mod_timer(&x.timer, jiffies + 10), 1); /* same expiry */
	assert_int_equal(mod_timer(&x.timer, jiffies + 5), 1);
	dynhz_host_run_ticks(4);
	assert_int_equal(runs, 0);
	dynhz_host_run_ticks(1);
	assert_int_equal(runs, 1);
	assert_false(timer_pending(&x.timer));
	assert_int_equal(del_timer(&x.timer), 0);

	x.timer.expires = jiffies + 3;
	add_timer(&x.timer);
	assert_int_equal(del_timer(&x.timer), 1);
	assert_int_equal(del_timer_sync(&x.timer), 0);
	dynhz_host_run_ticks(10);
	assert_int_equal(runs, 1);

	/* now, and the past: the next tick */
	mod_timer(&x.timer, jiffies);
	st.expires = jiffies - 1000;
	add_timer(&st);
	dynhz_host_run_ticks(1);
	assert_int_equal(runs, 3);
	assert_int_equal(timer_delete(&st), 0);
}

/*
 * One timer per delay, each armed at a jiffy just before, at and after the
 * jiffies at which levels turn: it runs after exactly that many ticks.
 */
static void one_exact(unsigned long delay)
{
	static struct timer_list t; /* static: a failed check leaves it pending */
	unsigned long j0 = jiffies, ticks = delay ? delay : 1;
	u64 start;

	timer_setup(&t, count_run, 0);
	runs = 0;
	start = dz_tick_count();
	mod_timer(&t, j0 + delay);
	dynhz_host_advance_ticks(ticks - 1);
	if (runs != 0 || !timer_pending(&t) || dz_timer_next_expiry() != j0 + ticks)
		fail_msg("delay %lu from jiffies %lu: ran %u, pending %d, next %lu", delay, j0,
			 runs, timer_pending(&t), dz_timer_next_expiry());
	dynhz_host_run_ticks(1);
	if (runs != 1 || run_tick != start + ticks)
		fail_msg("delay %lu from jiffies %lu: ran %u times, at +%llu", delay, j0, runs,
			 (unsigned long long)(run_tick - start));
}

static void test_exact_delays(void **state)
{
	static const unsigned long base[] = {
		0,
		1,
		2,
		3,
		62,
		63,
		64,
		65,
		66,
		127,
		128,
		4095,
		4096,
		4097,
		8191,
		(1UL << 18) - 1,
		1UL << 18,
		(1UL << 18) + 1,
		(1UL << 24) - 1,
		1UL << 24,
		(1UL << 24) + 1,
		(1UL << 30) - 2,
		(1UL << 30) - 1,
		1UL << 30,
		(1UL << 30) + 1,
		(3UL << 29) + 12345,
		(1UL << 31) - 1,
#if BITS_PER_LONG == 64
		(1UL << 36) + 77,
		(1UL << 40) + 1,
#endif
	};
	/* phases of jiffies: levels turn at multiples of 64^n */
	static const unsigned long phase[] = { 1, 2, 63, 64, 65, 4095, 4096, 1UL << 18, 1UL << 24 };

	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hz_list); h++) {
		boot_hz(hz_list[h]);
		for (size_t p = 0; p < ARRAY_SIZE(phase); p++) {
			for (int off = -1; off <= 1; off++) {
				unsigned long target =
					round_up_j(jiffies + 2, phase[p]) + (unsigned long)off;

				dynhz_host_advance_ticks(target - jiffies);
				for (size_t i = 0; i < ARRAY_SIZE(base); i++)
					one_exact(base[i]);
			}
		}
	}
}

/* The largest timeout a conversion gives runs exactly too. */
static void test_max_jiffy_offset(void **state)
{
	(void)state;
	boot_hz(hz_list[0]);
	if (BITS_PER_LONG == 32)
		one_exact(MAX_JIFFY_OFFSET);
	one_exact(msecs_to_jiffies(3600000));
	one_exact(msecs_to_jiffies(86400000));
}

#if BITS_PER_LONG == 32
/*
 * A 32-bit jiffies cannot say more than 2^31 ahead of the next tick: such
 * an expiry reads as the past, and runs at the next tick.
 */
static void test_half_range_is_past(void **state)
{
	static struct timer_list t;

	(void)state;
	boot_hz(hz_list[0]);
	timer_setup(&t, count_run, 0);
	runs = 0;
	mod_timer(&t, jiffies + (1UL << 31) + 2);
	dynhz_host_run_ticks(1);
	assert_int_equal(runs, 1);
	mod_timer(&t, jiffies + ULONG_MAX);
	dynhz_host_run_ticks(1);
	assert_int_equal(runs, 2);
	one_exact(1UL << 31);
	one_exact((1UL << 31) + 1);
}
#endif

/* ---- callbacks acting on timers ---- */

static struct {
	struct timer_list a, b, c;
	unsigned int a_runs, b_runs, c_runs;
	u64 a_at[16];
	unsigned long period;
	int del_b_ret, mod_c_ret;
} cb;

static void periodic_a(struct timer_list *t)
{
	if (cb.a_runs < ARRAY_SIZE(cb.a_at))
		cb.a_at[cb.a_runs] = dz_tick_count();
	cb.a_runs++;
	assert_int_equal(mod_timer(t, t->expires + cb.period), 0);
}

static void test_periodic_rearm(void **state)
{
	(void)state;
	boot_hz(hz_list[0]);
	memset(&cb, 0, sizeof(cb));
	cb.period = 7;
	timer_setup(&cb.a, periodic_a, 0);
	mod_timer(&cb.a, jiffies + 3);
	dynhz_host_run_ticks(3 + 7 * 15);
	assert_int_equal(cb.a_runs, 16);
	for (unsigned int i = 0; i < 16; i++)
		assert_int_equal(cb.a_at[i], 3 + 7 * i);
	del_timer(&cb.a);
}

static void b_run(struct timer_list *t)
{
	(void)t;
	cb.b_runs++;
}

static void c_run(struct timer_list *t)
{
	(void)t;
	cb.c_runs++;
}

/* a runs with b and c due at the same tick: deletes b, moves c on. */
static void a_meddles(struct timer_list *t)
{
	(void)t;
	if (++cb.a_runs == 2)
		return;
	cb.del_b_ret = del_timer(&cb.b);
	cb.mod_c_ret = mod_timer(&cb.c, jiffies + 5);
	/* itself, for now: runs at the next tick, not again in this one */
	assert_int_equal(mod_timer(&cb.a, jiffies), 0);
}

static void test_callback_meddles(void **state)
{
	(void)state;
	boot_hz(hz_list[0]);
	for (int order = 0; order < 2; order++) {
		memset(&cb, 0, sizeof(cb));
		timer_setup(&cb.a, a_meddles, 0);
		timer_setup(&cb.b, b_run, 0);
		timer_setup(&cb.c, c_run, 0);
		/* filing order decides the run order within the slot: try both */
		if (order) {
			mod_timer(&cb.b, jiffies + 70);
			mod_timer(&cb.c, jiffies + 70);
			mod_timer(&cb.a, jiffies + 70);
		} else {
			mod_timer(&cb.a, jiffies + 70);
			mod_timer(&cb.b, jiffies + 70);
			mod_timer(&cb.c, jiffies + 70);
		}
		dynhz_host_run_ticks(70);
		/* b and c either ran before a, or a stopped b and moved c on */
		assert_int_equal(cb.a_runs, 1);
		assert_int_equal(cb.b_runs + cb.del_b_ret, 1);
		assert_int_equal(cb.c_runs + cb.mod_c_ret, 1);
		dynhz_host_run_ticks(1);
		assert_int_equal(cb.a_runs, 2);
		dynhz_host_run_ticks(10);
		assert_int_equal(cb.a_runs, 2);
		assert_int_equal(cb.b_runs, 1 - cb.del_b_ret);
		/* mod_timer arms a timer that already ran: c runs again */
		assert_int_equal(cb.c_runs, 2 - cb.mod_c_ret);
		assert_false(timer_pending(&cb.a) || timer_pending(&cb.b) || timer_pending(&cb.c));
	}
}

/* A new boot forgets the timers of the last one: they are not pending. */
static void test_boot_forgets(void **state)
{
	static struct timer_list t[3];
	struct dz_timer_stats st;

	(void)state;
	boot_hz(hz_list[0]);
	for (int i = 0; i < 3; i++) {
		timer_setup(&t[i], count_run, 0);
		mod_timer(&t[i], jiffies + 1 + (unsigned long)i * 100000);
	}
	boot_hz(hz_list[ARRAY_SIZE(hz_list) - 1]);
	dz_timer_stats(&st);
	assert_int_equal(st.pending, 0);
	for (int i = 0; i < 3; i++) {
		assert_false(timer_pending(&t[i]));
		assert_int_equal(del_timer(&t[i]), 0);
	}
	runs = 0;
	dynhz_host_advance_ticks(300000);
	assert_int_equal(runs, 0);
}

/*
 * The wheel's cost: each timer moves at most once per level above 0 on its
 * way down (plus once per 2^30 - 2^24 jiffies for a parked one), and ticks
 * with nothing due touch no timer at all.
 */
static void test_cascade_bound(void **state)
{
	enum { N = 20000 };
	static struct timer_list t[N];
	struct dz_timer_stats a, b;

	(void)state;
	boot_hz(hz_list[0]);
	rng = seed_base();
	runs = 0;
	for (int i = 0; i < N; i++) {
		timer_setup(&t[i], count_run, 0);
		mod_timer(&t[i],
			  jiffies + 64 * 64 * 64 + (unsigned long)rnd((1UL << 30) - (1UL << 18)));
	}
	/* 63 ticks out of 64 nothing can cascade: nothing moves */
	dynhz_host_run_ticks(64 - (unsigned long)((jiffies + 1) & 63));
	dz_timer_stats(&a);
	dynhz_host_run_ticks(63);
	dz_timer_stats(&b);
	assert_true(a.cascaded == b.cascaded);
	dynhz_host_advance_ticks(1UL << 30);
	dz_timer_stats(&b);
	assert_int_equal(runs, N);
	assert_int_equal(b.pending, 0);
	printf("%d timers, %llu moves (%.2f each, at most %d)\n", N, (unsigned long long)b.cascaded,
	       (double)b.cascaded / N, DZ_TIMER_WHEEL_LEVELS - 1);
	assert_true(b.cascaded <= (u64)N * (DZ_TIMER_WHEEL_LEVELS - 1));
}

/* ---- the debug build's traps ---- */

#ifdef DYNHZ_DEBUG

static struct timer_list victim;

/* A caller that writes expires behind the wheel's back. */
static void early_timer(void)
{
	boot_hz(hz_list[0]);
	dynhz_host_set_quiet(false);
	timer_setup(&victim, count_run, 0);
	mod_timer(&victim, jiffies + 10);
	victim.expires += 100;
	dynhz_host_run_ticks(20);
}

static void jiffies_back(void)
{
	boot_hz(hz_list[0]);
	dynhz_host_set_quiet(false);
	dynhz_host_run_ticks(5);
	jiffies_64 -= 3;
	jiffies -= 3;
	dynhz_host_run_ticks(1);
}

static void test_debug_traps(void **state)
{
	(void)state;
	expect_panic(early_timer, "before its expiry");
	expect_panic(jiffies_back, "jiffies moved outside the tick");
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api),
		cmocka_unit_test(test_exact_delays),
		cmocka_unit_test(test_max_jiffy_offset),
#if BITS_PER_LONG == 32
		cmocka_unit_test(test_half_range_is_past),
#endif
		cmocka_unit_test(test_periodic_rearm),
		cmocka_unit_test(test_callback_meddles),
		cmocka_unit_test(test_boot_forgets),
		cmocka_unit_test(test_cascade_bound),
#ifdef DYNHZ_DEBUG
		cmocka_unit_test(test_debug_traps),
#endif
		cmocka_unit_test(test_differential_crowded),
		cmocka_unit_test(test_differential),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
