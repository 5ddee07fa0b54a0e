// SPDX-License-Identifier: MIT
/*
 * hrtimers against a model, on the simulated clock.
 *
 * The model is the definition, kept in a plain list and computed with the
 * tests' own exact arithmetic (ref.c): a timer started on a clock has an
 * expiry (soft) and a latest expiry (hard = soft + slack with high
 * resolution; soft without); on the monotonic clock they are those minus
 * the clock's offset (realtime: what dz_timekeeping_set_real_ns() set,
 * reckoned here from the simulated clock; TAI: plus the TAI offset). At
 * every event of the tick device the core must run, in order of (hard,
 * start), every timer whose soft expiry has passed, up to the first whose
 * has not: so each callback is checked to be the model's first, not early
 * (soft <= the time of the event, exactly), and after each event the
 * model's first must not be due. Not late:
 *  - high resolution: at the latest at the first cycle of the simulated
 *    clock at which the clock reaches hard (or, started or made due by a
 *    clock change later than that, then), plus the device's shortest delay
 *    (min_delta_ns rounded up to the counter: 2 cycles of the PIT clock);
 *  - tick resolution: at the first tick at or after soft (or after the
 *    time it was started or made due, if later), plus the device's
 *    shortest delay when the tick is one-shot (idle, resuming).
 * None lost (a timer past its latest allowed time still pending is an
 * error), none run twice (a callback of a timer the model has not pending).
 * Jiffies timers run among them, each at its exact jiffy, and jiffies in
 * every callback are those the clock says (the tick's grid: jiffy n begins
 * at n * divisor cycles). With nohz=on every wakeup of an idle CPU must
 * run a callback (the device's wakeups are the distinct instants at which
 * something expires), but for the folds of the simulated 32-bit clock.
 *
 * Random walks: starts (REL and ABS, the four clocks, with and without
 * slack), cancels, callbacks that forward and restart themselves, start
 * and cancel others, set the realtime clock (both ways) and the TAI
 * offset; busy ticks, fast-forward, idle gaps; at HZ 24, 333, 10000 (and
 * 100, 1000), tickless and periodic, with high resolution, with highres=off
 * and on a device without one-shot mode, and at a 100 MHz and a 2 GHz
 * clock. Each walk has its own seed, printed on a failure with the
 * DYNHZ_WALK=... that runs it alone; DYNHZ_SEED=n changes the first,
 * DYNHZ_LONG=1 runs ten times as many.
 */
#define DYNHZ_KERNEL_API 1
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <dynhz/dynhz.h>
#include <dynhz/hrtimer.h>
#include <dynhz/host.h>

#include "hrtimer-internal.h" /* dz_hrtimer_next_key() */
#include "panic.h"
#include "ref.h"

static bool long_run(void)
{
	const char *s = getenv("DYNHZ_LONG");

	return s && *s && strcmp(s, "0");
}

static u64 seed_base(void)
{
	const char *s = getenv("DYNHZ_SEED");

	return s ? strtoull(s, NULL, 0) : 0x68727431u;
}

static u64 rng;

static u64 rnd(u64 n)
{
	return n ? ref_rand(&rng) % n : 0;
}

/* ---- the configuration of a walk ---- */

enum mode { HIGHRES, HIGHRES_OFF, NO_ONESHOT };
static const char *const mode_name[] = { "highres", "highres=off", "no one-shot" };

static struct {
	unsigned int hz;
	enum mode mode;
	bool nohz;
	u64 freq;    /* the simulated clock */
	u64 div;     /* its cycles per jiffy */
	u64 slop;    /* high resolution: the device's shortest delay, in cycles */
	s64 tick_ns; /* the tick's length to the nearest ns: the tick mode's resolution */
	u64 seed;
} cfg;

static void boot(void)
{
	char cl[96];

	snprintf(cl, sizeof(cl), "hz=%u nohz=%s highres=%s", cfg.hz, cfg.nohz ? "on" : "off",
		 cfg.mode == HIGHRES_OFF ? "off" : "on");
	dynhz_host_set_quiet(true);
	dynhz_host_set_oneshot(cfg.mode != NO_ONESHOT);
	assert_int_equal(dynhz_host_set_clock_hz((u32)cfg.freq), 0);
	assert_int_equal(dynhz_boot_quiet(cl), 0);
	dynhz_host_set_oneshot(true);
	assert_int_equal(dynhz_host_set_clock_hz(DYNHZ_HOST_CLOCK_HZ), 0);
	assert_int_equal(HZ, cfg.hz);
	assert_int_equal(dz_hrtimer_highres(), cfg.mode == HIGHRES);
	assert_int_equal(dz_tick_nohz_active(), cfg.nohz && cfg.mode != NO_ONESHOT);
	cfg.div = (cfg.freq + cfg.hz / 2) / cfg.hz;
	/* min_delta_ns = ceil(10^9 / freq), which the device rounds up to its counter. */
	cfg.slop = ref_muldiv(ref_muldiv(1, NSEC_PER_SEC, cfg.freq, REF_UP, U64_MAX), cfg.freq,
			      NSEC_PER_SEC, REF_UP, U64_MAX);
	if (cfg.freq > NSEC_PER_SEC)
		cfg.slop += (cfg.freq + NSEC_PER_SEC - 1) / NSEC_PER_SEC;
	cfg.tick_ns = (s64)ref_muldiv(cfg.div, NSEC_PER_SEC, cfg.freq, REF_NEAR, U64_MAX);
}

/* ---- the model ---- */

#define NT 40 /* hrtimers */
#define NJ 12 /* jiffies timers */

enum base { B_MONO, B_REAL, B_BOOT, B_TAI };

struct ht {
	struct hrtimer t;
	int clock;	/* set up on */
	enum base base; /* the model's own idea of its clock */
	bool pending;
	s64 soft, hard; /* on its clock */
	u64 seq;
	u64 due_since; /* the cycle it was started or made due by a clock change */
};

static struct {
	struct ht h[NT];
	struct timer_list j[NJ];
	bool jpending[NJ];
	u64 jdue[NJ];
	unsigned long jexpires[NJ];
	s64 real_off, tai_off;
	u64 seq;
	int budget; /* actions callbacks may still take in this step */
	/* the callback running, and what it did to itself */
	struct ht *running;
	bool running_cancelled;
	/* events */
	u64 event_cycles; /* the last event's time */
	u64 pass_events;  /* events since the test last changed anything itself */
	bool virtual;	  /* the last "event" is the idle loop's catch-up, not an interrupt */
	bool in_event;	  /* callbacks ran since the last event began */
	unsigned int event_runs;
	bool idle;
	u64 idle_events, idle_empty;
	/* totals */
	u64 runs, jruns, events, restarts, jumps, step;
	u64 errors;
} M;

#define ERR(...)                                                                                   \
	do {                                                                                       \
		if (M.errors++ < 10) {                                                             \
			printf("seed %#llx, HZ %u, %s, nohz=%s, %llu Hz, step %llu, cycle %llu: ", \
			       (unsigned long long)cfg.seed, cfg.hz, mode_name[cfg.mode],          \
			       cfg.nohz ? "on" : "off", (unsigned long long)cfg.freq,              \
			       (unsigned long long)M.step,                                         \
			       (unsigned long long)dynhz_host_cycles());                           \
			printf(__VA_ARGS__);                                                       \
			printf("\n");                                                              \
		}                                                                                  \
	} while (0)

/* The true monotonic time at cycle c, as the clock reads it: floor(c * 10^9 / f). */
static s64 ns_at(u64 c)
{
	return (s64)ref_muldiv(c, NSEC_PER_SEC, cfg.freq, REF_DOWN, U64_MAX);
}

/* The first cycle at which the clock reads ns or more. */
static u64 cycle_of(s64 ns)
{
	return ns <= 0 ? 0 : ref_muldiv((u64)ns, cfg.freq, NSEC_PER_SEC, REF_UP, U64_MAX);
}

/* The first tick (jiffy boundary) at or after cycle c. */
static u64 tick_at_or_after(u64 c)
{
	u64 t = (c + cfg.div - 1) / cfg.div * cfg.div;

	return t < cfg.div ? cfg.div : t;
}

static s64 offset(enum base b)
{
	return b == B_REAL ? M.real_off : b == B_TAI ? M.real_off + M.tai_off : 0;
}

static s64 soft_mono(const struct ht *h)
{
	return h->soft - offset(h->base);
}

static s64 hard_mono(const struct ht *h)
{
	return h->hard - offset(h->base);
}

/* The latest cycle at which h may run. */
static u64 allowed(const struct ht *h)
{
	if (cfg.mode == HIGHRES) {
		u64 d = cycle_of(hard_mono(h));

		return (d > h->due_since ? d : h->due_since) + cfg.slop;
	} else {
		u64 d = cycle_of(soft_mono(h)), s = h->due_since + 1;

		/* A one-shot device that resumes or wakes the tick rounds as well. */
		return tick_at_or_after(d > s ? d : s) + (cfg.mode == HIGHRES_OFF ? cfg.slop : 0);
	}
}

/* The model's first: the least (hard on the monotonic clock, start). */
static struct ht *model_first(void)
{
	struct ht *best = NULL;

	for (int i = 0; i < NT; i++) {
		struct ht *h = &M.h[i];

		if (!h->pending)
			continue;
		if (!best || hard_mono(h) < hard_mono(best) ||
		    (hard_mono(h) == hard_mono(best) && h->seq < best->seq))
			best = h;
	}
	return best;
}

/* After an event at cycle c, nothing due may be left first. */
static void check_left(u64 c)
{
	struct ht *f = model_first();

	if (f && soft_mono(f) <= ns_at(c))
		ERR("after the event at %llu, timer %d is first and due (soft %lld, clock %lld)",
		    (unsigned long long)c, (int)(f - M.h), (long long)soft_mono(f),
		    (long long)ns_at(c));
}

/* None past its latest time still pending. */
static void check_lost(u64 now)
{
	for (int i = 0; i < NT; i++)
		if (M.h[i].pending && allowed(&M.h[i]) < now)
			ERR("timer %d (soft %lld hard %lld mono, due since %llu) not run by %llu",
			    i, (long long)soft_mono(&M.h[i]), (long long)hard_mono(&M.h[i]),
			    (unsigned long long)M.h[i].due_since,
			    (unsigned long long)allowed(&M.h[i]));
	for (int i = 0; i < NJ; i++)
		if (M.jpending[i] && M.jdue[i] * cfg.div < now)
			ERR("jiffies timer %d due at tick %llu did not run", i,
			    (unsigned long long)M.jdue[i]);
}

/* Every interrupt of the simulated device, before the core's handler. */
static void irq_hook(u64 cycles, void *arg)
{
	(void)arg;
	/* The idle loop runs the hrtimers due only now and then: no check there. */
	if (M.pass_events && !M.virtual) {
		check_left(M.event_cycles);
		if (M.idle && !M.event_runs)
			M.idle_empty++;
	}
	check_lost(cycles);
	M.events++;
	M.pass_events++;
	M.virtual = false;
	M.idle_events += M.idle;
	M.event_cycles = cycles;
	M.event_runs = 0;
}

/* ---- operations, on the core and the model alike ---- */

static void model_queue(struct ht *h)
{
	h->pending = true;
	h->seq = ++M.seq;
	h->due_since = dynhz_host_cycles();
}

static s64 clock_now(enum base b)
{
	return ns_at(dynhz_host_cycles()) + offset(b);
}

static void op_start(struct ht *h)
{
	bool rel = rnd(2);
	u64 r = rnd(100), slack = 0;
	s64 v;

	/* Mostly soon, some later, some passed. */
	if (r < 10)
		v = -(s64)rnd(2 * NSEC_PER_MSEC);
	else if (r < 15)
		v = (s64)rnd(3);
	else if (r < 60)
		v = (s64)rnd(3 * NSEC_PER_MSEC);
	else if (r < 90)
		v = (s64)rnd(200 * NSEC_PER_MSEC);
	else
		v = (s64)rnd(20 * NSEC_PER_SEC);
	r = rnd(100);
	if (r < 30)
		slack = rnd(50 * NSEC_PER_USEC);
	else if (r < 40)
		slack = rnd(30 * NSEC_PER_MSEC);
	if (!rel)
		v += clock_now(h->base);
	/* Some share another's expiry: equal expiries run in start order. */
	if (!rel && rnd(100) < 15) {
		struct ht *o = &M.h[rnd(NT)];

		if (o->pending && o->base == h->base && o->hard == o->soft) {
			v = o->soft;
			slack = 0;
		}
	}
	if (slack)
		hrtimer_start_range_ns(&h->t, v, slack, rel ? HRTIMER_MODE_REL : HRTIMER_MODE_ABS);
	else
		hrtimer_start(&h->t, v, rel ? HRTIMER_MODE_REL : HRTIMER_MODE_ABS_PINNED);
	if (rel)
		v += clock_now(h->base);
	h->soft = v;
	h->hard = cfg.mode == HIGHRES ? v + (s64)slack : v;
	if (h == M.running)
		M.running_cancelled = false;
	model_queue(h);
	if (!hrtimer_is_queued(&h->t))
		ERR("timer %d not queued after a start", (int)(h - M.h));
}

static void op_cancel(struct ht *h, bool try)
{
	int want = h == M.running ? (try ? -1 : 1) : h->pending;
	int ret;

	if (try && h == M.running) {
		ret = hrtimer_try_to_cancel(&h->t);
	} else {
		ret = try ? hrtimer_try_to_cancel(&h->t) : hrtimer_cancel(&h->t);
		if (h == M.running && h->pending)
			want = 1;
		h->pending = false;
		if (h == M.running)
			M.running_cancelled = true;
	}
	if (ret != want)
		ERR("cancel (try %d) of timer %d returned %d, not %d", try, (int)(h - M.h), ret,
		    want);
}

/* Sets the realtime clock (or the TAI offset) by some seconds either way. */
static void op_jump(void)
{
	s64 now = ns_at(dynhz_host_cycles());

	if (rnd(5)) {
		s64 real = now + M.real_off + (s64)rnd(20 * NSEC_PER_SEC) - 10 * (s64)NSEC_PER_SEC;

		dz_timekeeping_set_real_ns(real);
		M.real_off = real - now;
		if (ktime_get_real() != real)
			ERR("realtime %lld after setting it to %lld", (long long)ktime_get_real(),
			    (long long)real);
	} else {
		s32 tai = (s32)rnd(80) - 20;

		dz_timekeeping_set_tai_offset(tai);
		M.tai_off = (s64)tai * (s64)NSEC_PER_SEC;
	}
	/* What the jump made due is due from now. */
	for (int i = 0; i < NT; i++)
		if (M.h[i].pending && (M.h[i].base == B_REAL || M.h[i].base == B_TAI))
			M.h[i].due_since = dynhz_host_cycles();
	M.jumps++;
}

/* Jiffies timers, as in test_nohz.c: the tick at which one must run. */
static u64 jdue_of(unsigned long expires)
{
	unsigned long x = expires - ((unsigned long)jiffies + 1);

	return dz_tick_count() + 1 + (x <= (unsigned long)LONG_MAX + 1 ? (u64)x : 0);
}

static void op_jmod(unsigned int id)
{
	unsigned long expires = jiffies + (unsigned long)rnd(cfg.hz / 2 + 2) - 1;
	int was = M.jpending[id];

	if (mod_timer(&M.j[id], expires) != was)
		ERR("mod_timer(%u) did not return %d", id, was);
	if (was && M.jexpires[id] == expires)
		return;
	M.jpending[id] = true;
	M.jdue[id] = jdue_of(expires);
	M.jexpires[id] = expires;
}

static void op_jdel(unsigned int id)
{
	if (del_timer(&M.j[id]) != M.jpending[id])
		ERR("del_timer(%u) did not return %d", id, M.jpending[id]);
	M.jpending[id] = false;
}

static void random_action(void)
{
	unsigned int r = (unsigned int)rnd(100);
	struct ht *h = &M.h[rnd(NT)];

	if (r < 40)
		op_start(h);
	else if (r < 55)
		op_cancel(h, rnd(2));
	else if (r < 75)
		op_jmod((unsigned int)rnd(NJ));
	else if (r < 85)
		op_jdel((unsigned int)rnd(NJ));
	else if (r < 88)
		op_jump();
}

/* ---- callbacks ---- */

/* In every callback: the jiffy is the one the clock shows (grid: n * div). */
static void check_jiffies(const char *who, int id)
{
	u64 c = dynhz_host_cycles();

	if (dz_tick_count() != c / cfg.div)
		ERR("%s %d runs at jiffy %llu, the clock says %llu", who, id,
		    (unsigned long long)dz_tick_count(), (unsigned long long)(c / cfg.div));
}

static void check_run(struct ht *h)
{
	u64 c = dynhz_host_cycles();
	s64 now = ns_at(c);
	struct ht *f = model_first();
	int id = (int)(h - M.h);

	if (!h->pending) {
		ERR("timer %d ran but was not pending (twice?)", id);
		return;
	}
	if (c != M.event_cycles)
		ERR("timer %d ran outside an event", id);
	if (f != h)
		ERR("timer %d (hard %lld, start %llu) ran before timer %d (hard %lld, start %llu)",
		    id, (long long)hard_mono(h), (unsigned long long)h->seq, (int)(f - M.h),
		    (long long)hard_mono(f), (unsigned long long)f->seq);
	if (soft_mono(h) > now)
		ERR("timer %d ran early: clock %lld on its clock, expiry %lld", id,
		    (long long)(now + offset(h->base)), (long long)h->soft);
	if (c > allowed(h))
		ERR("timer %d ran late: cycle %llu, at the latest %llu (soft %lld hard %lld mono)",
		    id, (unsigned long long)c, (unsigned long long)allowed(h),
		    (long long)soft_mono(h), (long long)hard_mono(h));
	check_jiffies("timer", id);
	if (!hrtimer_active(&h->t) || hrtimer_is_queued(&h->t) || !hrtimer_callback_running(&h->t))
		ERR("timer %d in its callback: active %d queued %d running %d", id,
		    hrtimer_active(&h->t), hrtimer_is_queued(&h->t),
		    hrtimer_callback_running(&h->t));
}

static enum hrtimer_restart hcb(struct hrtimer *t)
{
	struct ht *h = dz_container_of(t, struct ht, t);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	unsigned int r = (unsigned int)rnd(100);

	check_run(h);
	h->pending = false;
	M.runs++;
	M.event_runs++;
	M.running = h;
	M.running_cancelled = false;
	if (r < 30) {
		/* Periodic: forward past now, RESTART (the model's own arithmetic). */
		s64 iv = 1 + (s64)rnd(r < 10 ? 100 * NSEC_PER_USEC : 40 * NSEC_PER_MSEC);
		s64 now = clock_now(h->base), res = cfg.mode == HIGHRES ? 1 : cfg.tick_ns;
		s64 eff = iv < res ? res : iv;
		u64 want = now < h->hard ? 0 : (u64)((now - h->hard) / eff) + 1;
		u64 n = hrtimer_forward_now(t, iv);

		if (n != want)
			ERR("hrtimer_forward_now(%lld) gave %llu, not %llu", (long long)iv,
			    (unsigned long long)n, (unsigned long long)want);
		h->soft += (s64)want * eff;
		h->hard += (s64)want * eff;
		if (hrtimer_get_expires(t) != h->hard || hrtimer_get_softexpires(t) != h->soft)
			ERR("timer %d forwarded to %lld/%lld, not %lld/%lld", (int)(h - M.h),
			    (long long)hrtimer_get_softexpires(t),
			    (long long)hrtimer_get_expires(t), (long long)h->soft,
			    (long long)h->hard);
		ret = HRTIMER_RESTART;
	} else if (r < 40) {
		op_start(h); /* itself, from its callback */
		ret = rnd(2) ? HRTIMER_RESTART : HRTIMER_NORESTART;
	} else if (r < 45) {
		op_cancel(h, true); /* -1: its callback runs */
		op_cancel(h, false);
		ret = HRTIMER_RESTART; /* the cancel wins */
	}
	while (M.budget > 0 && rnd(100) < 40) {
		M.budget--;
		random_action();
	}
	M.running = NULL;
	if (ret == HRTIMER_RESTART && !h->pending && !M.running_cancelled) {
		model_queue(h);
		M.restarts++;
	}
	return ret;
}

static void jcb(struct timer_list *t)
{
	unsigned int id = (unsigned int)(t - M.j);

	if (!M.jpending[id])
		ERR("jiffies timer %u ran but was not pending", id);
	else if (M.jdue[id] != dz_tick_count())
		ERR("jiffies timer %u ran at tick %llu, due at %llu", id,
		    (unsigned long long)dz_tick_count(), (unsigned long long)M.jdue[id]);
	check_jiffies("jiffies timer", (int)id);
	M.jpending[id] = false;
	M.jruns++;
	M.event_runs++;
	while (M.budget > 0 && rnd(100) < 30) {
		M.budget--;
		random_action();
	}
}

/* ---- time ---- */

static u64 folds(u64 cycles)
{
	return cycles / (1ULL << 31) + 1;
}

/*
 * Before time passes: the events from now on are checked against each
 * other. The idle loop's calls at the start (tick_nohz_idle_enter() or
 * _exit()) catch jiffies up and, at tick resolution, run the hrtimers due
 * as a tick would, at the time now: a first event of its own.
 */
static void before_pass(void)
{
	M.event_cycles = dynhz_host_cycles();
	M.pass_events = 1;
	M.virtual = true;
	M.event_runs = 0;
}

static void after_pass(void)
{
	if (M.pass_events && !M.virtual)
		check_left(M.event_cycles);
	M.pass_events = 0;
	check_lost(dynhz_host_cycles() + 1);
}

static void busy_ticks(void)
{
	u64 n = 1 + rnd(rnd(4) ? 3 : 60), t0 = dz_tick_count();

	M.budget = 3;
	before_pass();
	if (rnd(3))
		dynhz_host_run_ticks((unsigned long)n);
	else
		dynhz_host_advance_ticks(n);
	if (dz_tick_count() != t0 + n)
		ERR("%llu busy ticks moved jiffies by %llu", (unsigned long long)n,
		    (unsigned long long)(dz_tick_count() - t0));
	after_pass();
}

static void busy_pass(void)
{
	M.budget = 3;
	before_pass();
	dynhz_host_pass(rnd(rnd(2) ? 3 * NSEC_PER_MSEC : 300 * NSEC_PER_MSEC), false);
	after_pass();
}

static void idle_gap(void)
{
	u64 r = rnd(100), ns, c0 = dynhz_host_cycles(), e0 = M.idle_events, z0 = M.idle_empty;

	ns = r < 50   ? rnd(5 * NSEC_PER_MSEC)
	     : r < 95 ? rnd(400 * NSEC_PER_MSEC)
		      : rnd(30 * NSEC_PER_SEC);
	M.budget = 3;
	before_pass();
	M.idle = true;
	dynhz_host_pass(ns, true);
	if (M.pass_events && !M.event_runs && !M.virtual)
		M.idle_empty++; /* the gap's last event */
	M.idle = false;
	after_pass();
	before_pass();
	dynhz_host_idle(0); /* leaves idle: the tick resumes */
	after_pass();
	if (cfg.nohz && cfg.mode != NO_ONESHOT &&
	    M.idle_empty - z0 > folds(dynhz_host_cycles() - c0))
		ERR("%llu of %llu idle wakeups ran nothing in %llu cycles",
		    (unsigned long long)(M.idle_empty - z0),
		    (unsigned long long)(M.idle_events - e0),
		    (unsigned long long)(dynhz_host_cycles() - c0));
}

static void random_step(void)
{
	unsigned int r = (unsigned int)rnd(100);

	M.step++;
	M.budget = 2;
	if (r < 30)
		op_start(&M.h[rnd(NT)]);
	else if (r < 38)
		op_cancel(&M.h[rnd(NT)], rnd(2));
	else if (r < 44)
		op_jmod((unsigned int)rnd(NJ));
	else if (r < 46)
		op_jdel((unsigned int)rnd(NJ));
	else if (r < 48)
		op_jump();
	else if (r < 65)
		busy_ticks();
	else if (r < 75)
		busy_pass();
	else
		idle_gap();
}

static const int clocks[] = { DZ_CLOCK_MONOTONIC, DZ_CLOCK_REALTIME, DZ_CLOCK_BOOTTIME,
			      DZ_CLOCK_TAI };

static void walk(unsigned int steps)
{
	memset(&M, 0, sizeof(M));
	boot();
	dynhz_host_set_irq_hook(irq_hook, NULL);
	for (int i = 0; i < NT; i++) {
		struct ht *h = &M.h[i];
		bool rel = rnd(2);

		h->clock = clocks[rnd(4)];
		hrtimer_setup(&h->t, hcb, h->clock, rel ? HRTIMER_MODE_REL : HRTIMER_MODE_ABS);
		/* Realtime set up relative is monotonic (POSIX); the others are their clock. */
		h->base = h->clock == DZ_CLOCK_REALTIME	  ? (rel ? B_MONO : B_REAL)
			  : h->clock == DZ_CLOCK_TAI	  ? B_TAI
			  : h->clock == DZ_CLOCK_BOOTTIME ? B_BOOT
							  : B_MONO;
	}
	for (int i = 0; i < NJ; i++)
		timer_setup(&M.j[i], jcb, 0);
	for (unsigned int i = 0; i < steps && !M.errors; i++)
		random_step();
	for (int i = 0; i < NT; i++)
		op_cancel(&M.h[i], false);
	for (int i = 0; i < NJ; i++)
		op_jdel((unsigned int)i);
	dynhz_host_set_irq_hook(NULL, NULL);
	if (M.errors)
		printf("to run this walk alone: DYNHZ_WALK='%d %u %d %llu %#llx' %s\n",
		       (int)cfg.mode, cfg.hz, (int)cfg.nohz, (unsigned long long)cfg.freq,
		       (unsigned long long)cfg.seed, "test_hrtimer");
	assert_int_equal(M.errors, 0);
}

struct totals {
	u64 walks, runs, jruns, events, restarts, jumps, idle_events;
};

static void walks(unsigned int hz, enum mode mode, bool nohz, u64 freq, unsigned int n,
		  unsigned int steps, struct totals *tot)
{
	cfg.hz = hz;
	cfg.mode = mode;
	cfg.nohz = nohz;
	cfg.freq = freq;
	for (unsigned int i = 0; i < n; i++) {
		cfg.seed = seed_base() + tot->walks;
		rng = cfg.seed * 0x9e3779b97f4a7c15ULL + 1;
		walk(steps);
		tot->walks++;
		tot->runs += M.runs;
		tot->jruns += M.jruns;
		tot->events += M.events;
		tot->restarts += M.restarts;
		tot->jumps += M.jumps;
		tot->idle_events += M.idle_events;
	}
}

#ifdef CONFIG_HZ
static const unsigned int hz_list[] = { CONFIG_HZ };
#else
static const unsigned int hz_list[] = { 24, 333, 10000, 100, 1000 };
#endif

/* DYNHZ_WALK="mode hz nohz freq seed" (as a failure prints it): that walk alone. */
static bool one_walk(void)
{
	const char *s = getenv("DYNHZ_WALK");
	unsigned long long freq, seed;
	int mode, nohz;

	if (!s || sscanf(s, "%d %u %d %llu %llx", &mode, &cfg.hz, &nohz, &freq, &seed) != 5)
		return false;
	cfg.mode = (enum mode)mode;
	cfg.nohz = nohz;
	cfg.freq = freq;
	cfg.seed = seed;
	rng = cfg.seed * 0x9e3779b97f4a7c15ULL + 1;
	walk(150);
	return true;
}

static void test_differential(void **state)
{
	unsigned int per = long_run() ? 400 : 40, steps = 150;

	(void)state;
	if (one_walk())
		return;
	for (int m = 0; m < 3; m++) {
		struct totals tot = { 0 };

		for (size_t i = 0; i < ARRAY_SIZE(hz_list); i++)
			for (int nohz = 0; nohz < 2; nohz++)
				walks(hz_list[i], (enum mode)m, nohz, DYNHZ_HOST_CLOCK_HZ,
				      hz_list[i] >= 5000 ? per / 4 : per, steps, &tot);
		printf("%-12s %llu walks: %llu callbacks (%llu restarts), %llu jiffies timers, "
		       "%llu events (%llu idle), %llu clock changes\n",
		       mode_name[m], (unsigned long long)tot.walks, (unsigned long long)tot.runs,
		       (unsigned long long)tot.restarts, (unsigned long long)tot.jruns,
		       (unsigned long long)tot.events, (unsigned long long)tot.idle_events,
		       (unsigned long long)tot.jumps);
	}
}

/* Other clock rates: 100 MHz (a cycle is 10 ns) and 2 GHz (several cycles a ns). */
static void test_differential_clocks(void **state)
{
	static const u64 freqs[] = { 100000000, 2000000000 };
	unsigned int per = long_run() ? 200 : 20;

	(void)state;
#ifdef CONFIG_HZ
	/* The constant build's conversions are the PIT's: its clock only. */
	skip();
#endif
	for (size_t f = 0; f < ARRAY_SIZE(freqs); f++) {
		struct totals tot = { 0 };

		for (int nohz = 0; nohz < 2; nohz++)
			walks(1000, HIGHRES, nohz, freqs[f], per, 150, &tot);
		walks(250, HIGHRES_OFF, true, freqs[f], per, 150, &tot);
		printf("%llu Hz: %llu walks, %llu callbacks, %llu events\n",
		       (unsigned long long)freqs[f], (unsigned long long)tot.walks,
		       (unsigned long long)tot.runs, (unsigned long long)tot.events);
	}
}

/* ---- the API, case by case ---- */

static unsigned int api_runs;
static u64 api_at; /* cycle of the last run */

static enum hrtimer_restart api_fn(struct hrtimer *t)
{
	(void)t;
	api_runs++;
	api_at = dynhz_host_cycles();
	return HRTIMER_NORESTART;
}

static void boot_cl(const char *cl)
{
	dynhz_host_set_quiet(true);
	assert_int_equal(dynhz_boot_quiet(cl), 0);
}

/* The clock's reading at cycle c of the PIT's clock. */
static s64 ns_at_pit(u64 c)
{
	return (s64)ref_muldiv(c, NSEC_PER_SEC, REF_PIT_HZ, REF_DOWN, U64_MAX);
}

/* ns of simulated time to the cycle, on the PIT's clock. */
static u64 pit_cycle_of(s64 ns)
{
	return ref_muldiv((u64)ns, REF_PIT_HZ, NSEC_PER_SEC, REF_UP, U64_MAX);
}

static void test_api(void **state)
{
	struct hrtimer t, u;
	ktime_t e;

	(void)state;
	boot_cl("hz=100");
	assert_true(dz_hrtimer_highres());
	hrtimer_setup(&t, api_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	assert_false(hrtimer_is_queued(&t));
	assert_false(hrtimer_active(&t));
	assert_int_equal(hrtimer_try_to_cancel(&t), 0);
	assert_int_equal(hrtimer_cancel(&t), 0);

	/*
	 * Relative, 1 ms: runs at the first cycle the clock reaches it (or one
	 * later if a tick came the cycle before: the device's shortest delay
	 * is 2 cycles; so at HZ 1000, whose first jiffy ends 1 cycle before).
	 */
	api_runs = 0;
	e = ktime_get() + (ktime_t)NSEC_PER_MSEC;
	hrtimer_start(&t, NSEC_PER_MSEC, HRTIMER_MODE_REL);
	assert_true(hrtimer_is_queued(&t) && hrtimer_active(&t));
	assert_true(hrtimer_get_expires(&t) == e && hrtimer_get_softexpires(&t) == e);
	assert_true(hrtimer_get_remaining(&t) == (ktime_t)NSEC_PER_MSEC);
	dynhz_host_pass(2 * NSEC_PER_MSEC, false);
	assert_int_equal(api_runs, 1);
	assert_true(api_at >= pit_cycle_of(e) && api_at <= pit_cycle_of(e) + 1);
	assert_true(HZ == 1000 || api_at == pit_cycle_of(e));
	assert_false(hrtimer_active(&t));

	/* Restarting a queued timer moves it; cancelling stops it. */
	hrtimer_start(&t, 5 * NSEC_PER_MSEC, HRTIMER_MODE_REL);
	hrtimer_start(&t, 7 * NSEC_PER_MSEC, HRTIMER_MODE_REL);
	dynhz_host_pass(6 * NSEC_PER_MSEC, false);
	assert_int_equal(api_runs, 1);
	assert_int_equal(hrtimer_try_to_cancel(&t), 1);
	assert_int_equal(hrtimer_cancel(&t), 0);
	dynhz_host_pass(10 * NSEC_PER_MSEC, false);
	assert_int_equal(api_runs, 1);

	/* Linux's older form, and hrtimer_start_expires() after setting the expiry. */
	hrtimer_init(&u, DZ_CLOCK_BOOTTIME, HRTIMER_MODE_ABS);
	u.function = api_fn;
	hrtimer_set_expires_range_ns(&u, ktime_get_boottime() + 300000, 50000);
	assert_true(hrtimer_get_expires(&u) - hrtimer_get_softexpires(&u) == 50000);
	hrtimer_start_expires(&u, HRTIMER_MODE_ABS);
	assert_true(hrtimer_get_expires(&u) - hrtimer_get_softexpires(&u) == 50000);
	dynhz_host_pass(NSEC_PER_MSEC, false);
	assert_int_equal(api_runs, 2);

	/* Passed already: it runs at the device's shortest delay, not at the next tick. */
	e = ktime_get();
	hrtimer_start(&t, e - 1000, HRTIMER_MODE_ABS);
	dynhz_host_pass(NSEC_PER_MSEC, false);
	assert_int_equal(api_runs, 3);
	assert_true(api_at - pit_cycle_of(e) <= 2);

	/* Never: KTIME_MAX, and relative times that saturate. */
	hrtimer_start(&t, KTIME_MAX, HRTIMER_MODE_ABS);
	hrtimer_start(&u, KTIME_MAX, HRTIMER_MODE_REL);
	assert_true(hrtimer_get_expires(&u) == KTIME_MAX);
	dynhz_host_idle(3600 * NSEC_PER_SEC);
	assert_int_equal(api_runs, 3);
	assert_int_equal(hrtimer_cancel(&t) + hrtimer_cancel(&u), 2);
}

/* hrtimer_forward(): the intervals added, Linux's count. */
static void test_forward(void **state)
{
	struct hrtimer t;
	s64 res;

	(void)state;
	boot_cl("hz=250");
	hrtimer_setup(&t, api_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	hrtimer_set_expires(&t, 1000);
	assert_true(hrtimer_forward(&t, 999, 100) == 0); /* not passed */
	assert_true(hrtimer_get_expires(&t) == 1000);
	assert_true(hrtimer_forward(&t, 1000, 100) == 1); /* exactly now: one */
	assert_true(hrtimer_get_expires(&t) == 1100);
	assert_true(hrtimer_forward(&t, 1399, 100) == 3);
	assert_true(hrtimer_get_expires(&t) == 1400);
	assert_true(hrtimer_forward(&t, 1400, 100) == 1);
	assert_true(hrtimer_get_expires(&t) == 1500);
	hrtimer_set_expires_range_ns(&t, 0, 10);
	/* (1000000 - 10) / 7 + 1 intervals: the latest expiry passes now */
	assert_true(hrtimer_forward(&t, 1000000, 7) == 142856);
	assert_true(hrtimer_get_softexpires(&t) == 999992 && hrtimer_get_expires(&t) == 1000002);
	/* Without high resolution the interval is at least a tick (Linux's hrtimer_resolution). */
	boot_cl("hz=250 highres=off");
	hrtimer_setup(&t, api_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	hrtimer_set_expires(&t, 0);
	res = dz_clock_getres_ns(DZ_CLOCK_MONOTONIC);
	assert_true(res > 1000);
	assert_true(hrtimer_forward(&t, 10000000, 1) == (u64)(10000000 / res + 1));
	assert_true(hrtimer_get_expires(&t) == (10000000 / res + 1) * res);
}

/* Callbacks: restart, restart after starting itself, cancel itself, try_to_cancel -1. */
static struct hrtimer cb_t;
static unsigned int cb_runs;
static int cb_what, cb_try;

static enum hrtimer_restart cb_fn(struct hrtimer *t)
{
	cb_runs++;
	assert_true(hrtimer_callback_running(t) && hrtimer_active(t) && !hrtimer_is_queued(t));
	cb_try = hrtimer_try_to_cancel(t);
	switch (cb_what) {
	case 0: /* periodic, 1 ms */
		hrtimer_forward_now(t, NSEC_PER_MSEC);
		return HRTIMER_RESTART;
	case 1: /* started itself 5 ms on, then RESTART: that start stands, queued once */
		hrtimer_start(t, 5 * NSEC_PER_MSEC, HRTIMER_MODE_REL);
		hrtimer_forward_now(t, NSEC_PER_MSEC);
		return HRTIMER_RESTART;
	default: /* cancelled itself: RESTART does nothing */
		assert_int_equal(hrtimer_cancel(t), 1);
		hrtimer_forward_now(t, NSEC_PER_MSEC);
		return HRTIMER_RESTART;
	}
}

static void test_callbacks(void **state)
{
	(void)state;
	boot_cl("hz=100");
	hrtimer_setup(&cb_t, cb_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	cb_what = 0;
	cb_runs = 0;
	hrtimer_start(&cb_t, NSEC_PER_MSEC, HRTIMER_MODE_REL);
	dynhz_host_idle(10 * NSEC_PER_MSEC + NSEC_PER_MSEC / 2);
	assert_int_equal(cb_runs, 10);
	assert_int_equal(cb_try, -1);
	assert_true(hrtimer_is_queued(&cb_t));
	cb_what = 1;
	dynhz_host_idle(NSEC_PER_MSEC);
	assert_int_equal(cb_runs, 11);
	dynhz_host_idle(4 * NSEC_PER_MSEC + NSEC_PER_MSEC / 2);
	assert_int_equal(cb_runs, 11);
	cb_what = 2;
	dynhz_host_idle(NSEC_PER_MSEC);
	assert_int_equal(cb_runs, 12);
	assert_false(hrtimer_active(&cb_t));
	dynhz_host_idle(NSEC_PER_SEC);
	assert_int_equal(cb_runs, 12);
}

/*
 * A realtime timer follows the clock: set forward past its expiry it runs
 * at once; set back it waits the longer. Relative realtime (monotonic, as
 * POSIX) and TAI alike.
 */
static struct hrtimer rt_abs, rt_rel, rt_tai, rt_back;
static u64 rt_at[4];

static enum hrtimer_restart rt_fn(struct hrtimer *t)
{
	int i = t == &rt_abs ? 0 : t == &rt_rel ? 1 : t == &rt_tai ? 2 : 3;

	rt_at[i] = dynhz_host_cycles();
	return HRTIMER_NORESTART;
}

static void test_realtime(void **state)
{
	s64 real = 1700000000LL * (s64)NSEC_PER_SEC, mono;
	u64 c;

	(void)state;
	boot_cl("hz=100");
	memset(rt_at, 0, sizeof(rt_at));
	dz_timekeeping_set_real_ns(real);
	mono = ktime_get();
	assert_true(ktime_get_real() == real);
	assert_true(dz_timekeeping_real_offset_ns() == real - mono);
	assert_true(ktime_get_clocktai() == real);
	hrtimer_setup(&rt_abs, rt_fn, DZ_CLOCK_REALTIME, HRTIMER_MODE_ABS);
	hrtimer_setup(&rt_rel, rt_fn, DZ_CLOCK_REALTIME, HRTIMER_MODE_REL);
	hrtimer_setup(&rt_tai, rt_fn, DZ_CLOCK_TAI, HRTIMER_MODE_ABS);
	hrtimer_setup(&rt_back, rt_fn, DZ_CLOCK_REALTIME, HRTIMER_MODE_ABS);
	hrtimer_start(&rt_abs, real + 10 * (s64)NSEC_PER_SEC, HRTIMER_MODE_ABS);
	hrtimer_start(&rt_rel, 10 * NSEC_PER_SEC, HRTIMER_MODE_REL);
	hrtimer_start(&rt_tai, real + 37 * (s64)NSEC_PER_SEC + 10 * (s64)NSEC_PER_SEC,
		      HRTIMER_MODE_ABS);
	hrtimer_start(&rt_back, real + 2 * (s64)NSEC_PER_SEC, HRTIMER_MODE_ABS);
	dz_timekeeping_set_tai_offset(37); /* TAI is 37 s ahead: rt_tai is due in 10 s */
	assert_int_equal(dz_timekeeping_tai_offset(), 37);
	assert_true(ktime_get_clocktai() == ktime_get_real() + 37 * (s64)NSEC_PER_SEC);
	dynhz_host_idle(NSEC_PER_SEC);
	/* Forward 20 s: the absolute realtime and TAI timers are past, the relative one is not. */
	c = dynhz_host_cycles();
	dz_timekeeping_set_real_ns(ktime_get_real() + 20 * (s64)NSEC_PER_SEC);
	dynhz_host_idle(NSEC_PER_MSEC);
	assert_true(rt_at[0] && rt_at[0] - c <= 2);
	assert_true(rt_at[2] && rt_at[2] - c <= 2);
	assert_true(rt_at[3] && rt_at[3] - c <= 2);
	assert_true(!rt_at[1]);
	/* rt_rel is due 10 s after its start, on the monotonic clock. */
	dynhz_host_idle(10 * NSEC_PER_SEC);
	assert_true(rt_at[1] == pit_cycle_of(mono + 10 * (s64)NSEC_PER_SEC));
	/* Back: a timer moved further waits. */
	real = ktime_get_real();
	hrtimer_start(&rt_back, real + NSEC_PER_SEC, HRTIMER_MODE_ABS);
	dz_timekeeping_set_real_ns(real - 5 * (s64)NSEC_PER_SEC);
	mono = ktime_get();
	rt_at[3] = 0;
	dynhz_host_idle(5 * NSEC_PER_SEC);
	assert_true(!rt_at[3]);
	dynhz_host_idle(2 * NSEC_PER_SEC);
	assert_true(rt_at[3] == pit_cycle_of(mono + 6 * (s64)NSEC_PER_SEC));
}

/*
 * A leap second at monotonic m (dz_timekeeping_set_leap()): realtime one
 * second back and TAI unmoved from then on, and before any timer due at m
 * runs: a realtime timer for midnight, started before the one that marks
 * m, runs a second later, at midnight's second occurrence, never at m.
 */
static struct hrtimer leap_mark, leap_midnight;
static s64 leap_real_at_mark, leap_tai_at_mark, leap_real_at_midnight;
static u64 leap_midnight_at;

static enum hrtimer_restart leap_mark_fn(struct hrtimer *t)
{
	(void)t;
	leap_real_at_mark = dz_timekeeping_real_offset_ns();
	leap_tai_at_mark = leap_real_at_mark + dz_timekeeping_tai_offset() * (s64)NSEC_PER_SEC;
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart leap_midnight_fn(struct hrtimer *t)
{
	(void)t;
	leap_midnight_at = dynhz_host_cycles();
	leap_real_at_midnight = ktime_get_real();
	return HRTIMER_NORESTART;
}

static void test_leap(void **state)
{
	s64 midnight = 1700006400LL * (s64)NSEC_PER_SEC, off, tai_off, m;

	(void)state;
	boot_cl("hz=100");
	dz_timekeeping_set_real_ns(midnight - 2 * (s64)NSEC_PER_SEC);
	dz_timekeeping_set_tai_offset(37);
	off = dz_timekeeping_real_offset_ns();
	tai_off = off + 37 * (s64)NSEC_PER_SEC;
	m = midnight - off;
	hrtimer_setup(&leap_midnight, leap_midnight_fn, DZ_CLOCK_REALTIME, HRTIMER_MODE_ABS);
	hrtimer_setup(&leap_mark, leap_mark_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	leap_midnight_at = 0;
	leap_real_at_mark = 0;
	hrtimer_start(&leap_midnight, midnight, HRTIMER_MODE_ABS);
	hrtimer_start(&leap_mark, m, HRTIMER_MODE_ABS);
	dz_timekeeping_set_leap(m, -1);
	dynhz_host_idle(5 * NSEC_PER_SEC / 2); /* midnight is 2 s ahead */
	assert_true(leap_real_at_mark == off - (s64)NSEC_PER_SEC);
	assert_true(leap_tai_at_mark == tai_off);
	assert_int_equal(dz_timekeeping_tai_offset(), 38);
	assert_true(!leap_midnight_at);
	dynhz_host_idle(NSEC_PER_SEC);
	assert_true(leap_midnight_at == pit_cycle_of(m + (s64)NSEC_PER_SEC));
	assert_true(leap_real_at_midnight >= midnight);
	/* Cancelled: nothing moves at the next midnight. */
	off = dz_timekeeping_real_offset_ns();
	dz_timekeeping_set_leap(midnight + 86400LL * (s64)NSEC_PER_SEC - off, 1);
	dz_timekeeping_set_leap(KTIME_MAX, 0);
	dynhz_host_idle(86400LL * NSEC_PER_SEC);
	assert_true(dz_timekeeping_real_offset_ns() == off);
	assert_int_equal(dz_timekeeping_tai_offset(), 38);
}

/* The clocks, their resolutions, and the coarse ones at jiffy starts. */
static void test_clocks(void **state)
{
	struct dz_tick_period p, tick;
	s64 ns;

	(void)state;
	boot_cl("hz=1000");
	tick = dz_hz_period();
	dynhz_host_pass(123456789, false);
	assert_int_equal(dz_clock_get_ns(DZ_CLOCK_MONOTONIC, &ns), 0);
	assert_true(ns == ns_at_pit(dynhz_host_cycles()));
	assert_int_equal(dz_clock_get_ns(DZ_CLOCK_BOOTTIME, &ns), 0);
	assert_true(ns == ktime_get());
	assert_int_equal(dz_clock_get_ns(DZ_CLOCK_MONOTONIC_RAW, &ns), 0);
	assert_true(ns == ktime_get());
	/* coarse: the start of the jiffy, exactly count * period, never ahead */
	assert_int_equal(dz_clock_get_ns(DZ_CLOCK_MONOTONIC_COARSE, &ns), 0);
	assert_true((u64)ns == ref_j_to_ns(dz_tick_count(), tick));
	assert_true(ns <= ktime_get() && (u64)(ktime_get() - ns) <= ref_j_to_ns(1, tick));
	dz_timekeeping_set_real_ns(5 * (s64)NSEC_PER_SEC);
	assert_int_equal(dz_clock_get_ns(DZ_CLOCK_REALTIME_COARSE, &ns), 0);
	assert_true(ns == (s64)ktime_get_coarse_ns() + dz_timekeeping_real_offset_ns());
	assert_int_equal(dz_clock_get_ns(2, &ns),
			 -DZ_EINVAL); /* the CPU-time clocks: the kernel's */
	assert_int_equal(dz_clock_get_ns(-1, &ns), -DZ_EINVAL);
	assert_int_equal(dz_clock_getres(DZ_CLOCK_MONOTONIC, &p), 0);
	assert_true(p.num == 1 && p.den == NSEC_PER_SEC);
	assert_true(dz_clock_getres_ns(DZ_CLOCK_REALTIME) == 1);
	assert_int_equal(dz_clock_getres(DZ_CLOCK_MONOTONIC_COARSE, &p), 0);
	assert_true(p.num == tick.num && p.den == tick.den);
	/* at hz=1000, 1193 / 1193182 s = 999847.74 ns: 999848 to the nearest */
	assert_true(dz_clock_getres_ns(DZ_CLOCK_REALTIME_COARSE) ==
		    (s64)ref_muldiv(tick.num, NSEC_PER_SEC, tick.den, REF_NEAR, U64_MAX));
	assert_true(dz_clock_getres_ns(99) == -DZ_EINVAL);
	/* Tick resolution: the hrtimer clocks too. */
	boot_cl("hz=1000 highres=off");
	assert_true(dz_clock_getres_ns(DZ_CLOCK_MONOTONIC) ==
		    dz_clock_getres_ns(DZ_CLOCK_MONOTONIC_COARSE));
	/* A new boot starts realtime again at the epoch. */
	assert_true(dz_timekeeping_real_offset_ns() == 0 && dz_timekeeping_tai_offset() == 0);
}

/* What a boot prints, from a child process (the console is stdout). */
static const char *boot_output(const char *cmdline, bool oneshot, bool clocksource)
{
	static char buf[4096];
	int fds[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		dynhz_host_set_quiet(true);
		dynhz_host_set_oneshot(oneshot);
		dynhz_boot_quiet("");
		if (!clocksource)
			clocksource_unregister(dz_clocksource_current());
		dynhz_host_set_quiet(false);
		dz_time_init(cmdline, dz_tick_device());
		fflush(stdout);
		_exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += n;
	buf[len] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return buf;
}

/* The boot report's line, before the time: line, and highres= on the command line. */
static void test_report(void **state)
{
	static const struct {
		const char *cmdline, *line;
		bool oneshot, clocksource;
	} cases[] = {
		{ "", "\nhrtimer: high resolution on pit\n", true, true },
		{ "highres=on nohz=off", "\nhrtimer: high resolution on pit\n", true, true },
		{ "highres=off", "\nhrtimer: tick resolution (highres=off)\n", true, true },
		{ "", "\nhrtimer: tick resolution (pit has no one-shot)\n", false, true },
		{ "", "\nhrtimer: tick resolution (no clocksource)\n", true, false },
		{ "highres=maybe", "highres=maybe: not on or off, using on\n", true, true },
		{ "highres=", "highres=: empty value, using on\n", true, true },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *out =
			boot_output(cases[i].cmdline, cases[i].oneshot, cases[i].clocksource);
		const char *hr = strstr(out, "\nhrtimer: "), *time = strstr(out, "\ntime: ");

		if (!strstr(out, cases[i].line))
			fail_msg("boot with '%s': no '%s' in:\n%s", cases[i].cmdline, cases[i].line,
				 out);
		assert_true(hr && time && hr < time && !strstr(hr + 1, "\nhrtimer: "));
	}
}
/*
 * The queue's order over the whole range of keys, without letting time
 * pass: the first timer's key (dz_hrtimer_next_key(), which advances the
 * wheel, cascading from any level) must be the model's least at every
 * step, while timers from 1 ns to 200 years ahead (and passed ones) are
 * started and cancelled at random, and the first is taken out.
 */
#define NQ 3000
static struct hrtimer q_t[NQ];
static bool q_on[NQ];
static s64 q_key[NQ];
static u64 q_seq[NQ], q_n;

static void q_start(int i, s64 key)
{
	hrtimer_start(&q_t[i], key, HRTIMER_MODE_ABS);
	q_on[i] = true;
	q_key[i] = key;
	q_seq[i] = ++q_n;
}

static int q_first(void)
{
	int best = -1;

	for (int i = 0; i < NQ; i++)
		if (q_on[i] && (best < 0 || q_key[i] < q_key[best] ||
				(q_key[i] == q_key[best] && q_seq[i] < q_seq[best])))
			best = i;
	return best;
}

static s64 q_rand_key(void)
{
	s64 now = ktime_get();
	unsigned int r = (unsigned int)rnd(100);

	if (r < 3)
		return KTIME_MAX;
	if (r < 8)
		return now - (s64)rnd(NSEC_PER_SEC);
	/* Log-uniform: every level of the wheel, up to 2^62 ns (146 years). */
	return now + (s64)(rnd(1ULL << rnd(63)) + 1);
}

/* dz_hrtimer_for_each_queued(): every queued timer once, and no other. */
static int q_seen[NQ];

static bool q_visit(const struct hrtimer *t, void *arg)
{
	int i = (int)(t - q_t);

	(void)arg;
	assert_true(i >= 0 && i < NQ);
	assert_int_equal(dz_hrtimer_clock(t), DZ_CLOCK_MONOTONIC);
	q_seen[i]++;
	return true;
}

static void q_check_walk(int step)
{
	memset(q_seen, 0, sizeof(q_seen));
	dz_hrtimer_for_each_queued(q_visit, NULL);
	for (int i = 0; i < NQ; i++)
		if (q_seen[i] != (q_on[i] ? 1 : 0))
			fail_msg("step %d: the walk saw timer %d %d times, queued %d", step, i,
				 q_seen[i], q_on[i]);
}

static void test_queue_order(void **state)
{
	(void)state;
	rng = seed_base() ^ 0x71;
	boot_cl("hz=250");
	dynhz_host_pass(rnd(NSEC_PER_SEC), false);
	memset(q_on, 0, sizeof(q_on));
	for (int i = 0; i < NQ; i++)
		hrtimer_setup(&q_t[i], api_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	for (int i = 0; i < NQ; i++)
		q_start(i, q_rand_key());
	for (int step = 0; step < 20000; step++) {
		int f = q_first(), i = (int)rnd(NQ);
		unsigned int r = (unsigned int)rnd(100);

		if (f < 0)
			break;
		if (step % 997 == 0)
			q_check_walk(step);
		if (dz_hrtimer_next_key() != q_key[f])
			fail_msg("step %d: the queue's first key is %lld, the model's %lld (timer "
				 "%d)",
				 step, (long long)dz_hrtimer_next_key(), (long long)q_key[f], f);
		if (r < 50) {
			assert_int_equal(hrtimer_cancel(&q_t[f]), 1);
			q_on[f] = false;
		} else if (r < 70) {
			assert_int_equal(hrtimer_cancel(&q_t[i]), q_on[i]);
			q_on[i] = false;
		} else if (r < 90) {
			q_start(i, q_rand_key());
		} else {
			/* Equal keys: start order. */
			q_start(i, q_key[f]);
		}
	}
	for (int i = 0; i < NQ; i++)
		hrtimer_cancel(&q_t[i]);
	assert_true(dz_hrtimer_next_key() == KTIME_MAX);
}

/*
 * A day idle with timers spread over it (and some beyond): each runs at
 * the very cycle the clock reaches it, in order; the wakeups are those
 * runs, but for the folds of the 32-bit clock.
 */
#define NF 300
static struct hrtimer far_t[NF];
static s64 far_exp[NF];
static u64 far_at[NF];
static int far_last;
static unsigned int far_runs;

static enum hrtimer_restart far_fn(struct hrtimer *t)
{
	int i = (int)(t - far_t);

	far_at[i] = dynhz_host_cycles();
	if (far_last >= 0 && far_exp[far_last] > far_exp[i])
		fail_msg("timer %d (%lld) ran after %d (%lld)", i, (long long)far_exp[i], far_last,
			 (long long)far_exp[far_last]);
	far_last = i;
	far_runs++;
	return HRTIMER_NORESTART;
}

static void test_far_day(void **state)
{
	struct dz_tick_stats a, b;
	const s64 day = 86400 * (s64)NSEC_PER_SEC;
	unsigned int distinct = 0;
	u64 folds_max;

	(void)state;
	rng = seed_base() ^ 0xfa;
	boot_cl("hz=100");
	far_last = -1;
	far_runs = 0;
	for (int i = 0; i < NF; i++) {
		hrtimer_setup(&far_t[i], far_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
		far_exp[i] = ktime_get() + 1 + (s64)rnd(1ULL << rnd(47)); /* up to 1.6 days */
		far_at[i] = 0;
		hrtimer_start(&far_t[i], far_exp[i], HRTIMER_MODE_ABS);
	}
	dz_tick_stats(&a);
	dynhz_host_pass((u64)day, true);
	dz_tick_stats(&b);
	/*
	 * In order of expiry: each runs at the cycle the clock reaches it,
	 * unless that is 1 cycle after the last wakeup: the device's shortest
	 * delay is 2 cycles (then, and from the start at cycle 0, it is late).
	 */
	for (int n = 0, last = -1; n < NF; n++) {
		int i = -1;
		u64 want;

		for (int k = 0; k < NF; k++)
			if (far_exp[k] <= ktime_get() && (i < 0 || far_exp[k] < far_exp[i]))
				i = k;
		if (i < 0)
			break;
		want = pit_cycle_of(far_exp[i]);
		if (last >= 0 && want <= far_at[last])
			want = far_at[last];
		else if (want < (last >= 0 ? far_at[last] : 0) + 2)
			want = (last >= 0 ? far_at[last] : 0) + 2;
		if (far_at[i] != want)
			fail_msg("timer %d due at %lld ns ran at cycle %llu, not %llu", i,
				 (long long)far_exp[i], (unsigned long long)far_at[i],
				 (unsigned long long)want);
		last = i;
		far_exp[i] = KTIME_MAX; /* done */
	}
	for (int i = 0; i < NF; i++) {
		if (far_exp[i] != KTIME_MAX) {
			assert_true(!far_at[i] && hrtimer_is_queued(&far_t[i]));
			hrtimer_cancel(&far_t[i]);
		}
	}
	/* A wakeup per distinct instant; the clock folds every half of 2^32 cycles. */
	for (int i = 0; i < NF; i++) {
		bool first = far_at[i] != 0;

		for (int k = 0; k < i && first; k++)
			first = far_at[k] != far_at[i];
		distinct += first;
	}
	folds_max = dynhz_host_cycles() / (1ULL << 31) + 1;
	printf("a day idle: %u timers ran at %u instants, %llu wakeups\n", far_runs, distinct,
	       (unsigned long long)(b.interrupts - a.interrupts));
	assert_true(b.interrupts - a.interrupts >= distinct);
	assert_true(b.interrupts - a.interrupts <= distinct + folds_max);
	dynhz_host_idle(0);
}

/*
 * The wakeups of a tickless second, counted by hand: distinct expiries one
 * each, equal ones one for all, a slack that reaches a wakeup joins it, a
 * jiffies timer's jiffy is one, an hrtimer on that instant joins it.
 */
static struct hrtimer w_t[8];
static struct timer_list w_j;
static unsigned int w_runs;

static enum hrtimer_restart w_fn(struct hrtimer *t)
{
	(void)t;
	w_runs++;
	return HRTIMER_NORESTART;
}

static void w_jfn(struct timer_list *t)
{
	(void)t;
	w_runs++;
}

static void test_wakeups(void **state)
{
	struct dz_tick_stats a, b;
	s64 t0;
	u64 jiffy_ns;

	(void)state;
	boot_cl("hz=100");
	dynhz_host_run_ticks(3);
	w_runs = 0;
	t0 = ktime_get();
	for (int i = 0; i < 8; i++)
		hrtimer_setup(&w_t[i], w_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	hrtimer_start(&w_t[0], t0 + 100000000, HRTIMER_MODE_ABS); /* 1: 100 ms */
	hrtimer_start(&w_t[1], t0 + 200000000, HRTIMER_MODE_ABS); /* 2: 200 ms ... */
	hrtimer_start(&w_t[2], t0 + 200000000, HRTIMER_MODE_ABS); /* ... with another */
	hrtimer_start(&w_t[3], t0 + 300000000, HRTIMER_MODE_ABS); /* 3: 300 ms */
	/* 290..310 ms: joins the 300 ms wakeup */
	hrtimer_start_range_ns(&w_t[4], t0 + 290000000, 20000000, HRTIMER_MODE_ABS);
	/* 310..320 ms: after it, its own (4) at 320 ms */
	hrtimer_start_range_ns(&w_t[5], t0 + 310000000, 10000000, HRTIMER_MODE_ABS);
	/* A jiffies timer about 500 ms on (5), an hrtimer at that very instant joins it. */
	timer_setup(&w_j, w_jfn, 0);
	mod_timer(&w_j, jiffies + msecs_to_jiffies(500));
	jiffy_ns = ref_j_to_ns(dz_tick_count() + msecs_to_jiffies(500), ref_pit_period(HZ));
	/* The jiffy begins at the cycle the clock reaches its count of periods: that ns. */
	hrtimer_start(&w_t[6], (s64)jiffy_ns, HRTIMER_MODE_ABS);
	hrtimer_start(&w_t[7], t0 + 700000000, HRTIMER_MODE_ABS); /* 6 */
	dz_tick_stats(&a);
	dynhz_host_pass(NSEC_PER_SEC, true);
	dz_tick_stats(&b);
	dynhz_host_idle(0);
	assert_int_equal(w_runs, 9);
	assert_int_equal(b.interrupts - a.interrupts, 6);
}

/* A clocksource change ends high resolution: the tick and the timers go on. */
static void test_fallback(void **state)
{
	struct hrtimer t;
	u64 n;

	(void)state;
	boot_cl("hz=100");
	assert_true(dz_hrtimer_highres());
	hrtimer_setup(&t, api_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	api_runs = 0;
	hrtimer_start_range_ns(&t, 25 * NSEC_PER_MSEC, 50 * NSEC_PER_MSEC, HRTIMER_MODE_REL);
	clocksource_unregister(dz_clocksource_current());
	assert_false(dz_hrtimer_highres());
	/* The slack went: it runs at the first tick at or after 25 ms, periodic from boot. */
	assert_true(hrtimer_get_expires(&t) == hrtimer_get_softexpires(&t));
	n = pit_cycle_of(25 * NSEC_PER_MSEC + 1) / ref_pit_divisor(HZ);
	dynhz_host_run_ticks((unsigned long)n);
	assert_int_equal(api_runs, 0);
	dynhz_host_run_ticks(1);
	assert_int_equal(api_runs, 1);
	assert_true(dynhz_host_cycles() / ref_pit_divisor(HZ) == dz_tick_count());
}

#ifdef DYNHZ_DEBUG
/* ---- the debug build's traps ---- */

static struct hrtimer victim;

static void early_fire(void)
{
	boot_cl("hz=100");
	dynhz_host_set_quiet(false);
	hrtimer_setup(&victim, api_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hrtimer_start(&victim, NSEC_PER_MSEC, HRTIMER_MODE_REL);
	victim._softexpires += NSEC_PER_SEC; /* behind the queue's back */
	dynhz_host_pass(10 * NSEC_PER_MSEC, false);
}

static void setup_queued(void)
{
	boot_cl("hz=100");
	dynhz_host_set_quiet(false);
	hrtimer_setup(&victim, api_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hrtimer_start(&victim, NSEC_PER_SEC, HRTIMER_MODE_REL);
	hrtimer_setup(&victim, api_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}

static void freed_queued(void)
{
	struct hrtimer *t = malloc(sizeof(*t));

	boot_cl("hz=100");
	dynhz_host_set_quiet(false);
	hrtimer_setup(t, api_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hrtimer_start(t, 100 * NSEC_PER_MSEC, HRTIMER_MODE_REL);
	/* Freed and its memory used again: the queue finds out when it reaches it. */
	memset(t, 0, sizeof(*t));
	dynhz_host_pass(NSEC_PER_SEC, false);
}

static void forward_queued(void)
{
	boot_cl("hz=100");
	dynhz_host_set_quiet(false);
	hrtimer_setup(&victim, api_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	hrtimer_start(&victim, 0, HRTIMER_MODE_ABS);
	hrtimer_forward_now(&victim, NSEC_PER_MSEC);
}

static void set_expires_queued(void)
{
	boot_cl("hz=100");
	dynhz_host_set_quiet(false);
	hrtimer_setup(&victim, api_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	hrtimer_start(&victim, NSEC_PER_SEC, HRTIMER_MODE_ABS);
	hrtimer_set_expires(&victim, 2 * NSEC_PER_SEC);
}

static void not_set_up(void)
{
	struct hrtimer t;

	boot_cl("hz=100");
	dynhz_host_set_quiet(false);
	memset(&t, 0xab, sizeof(t));
	hrtimer_start(&t, NSEC_PER_SEC, HRTIMER_MODE_ABS);
}

static void bad_clock(void)
{
	boot_cl("hz=100");
	dynhz_host_set_quiet(false);
	hrtimer_setup(&victim, api_fn, 3 /* CLOCK_THREAD_CPUTIME_ID */, HRTIMER_MODE_ABS);
}

static void test_debug_traps(void **state)
{
	char want[96];

	(void)state;
	/* The file and line of the start that made the timer. */
	snprintf(want, sizeof(want), "started at %s:", __FILE__);
	expect_panic(early_fire, "before its expiry");
	expect_panic(early_fire, want);
	expect_panic(setup_queued, "hrtimer_setup on hrtimer");
	expect_panic(freed_queued, "freed or overwritten while queued");
	expect_panic(forward_queued, "hrtimer_forward on hrtimer");
	expect_panic(set_expires_queued, "hrtimer_set_expires on hrtimer");
	expect_panic(not_set_up, "without hrtimer_setup");
	expect_panic(bad_clock, "clock 3 has no hrtimers");
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api),	     cmocka_unit_test(test_forward),
		cmocka_unit_test(test_callbacks),    cmocka_unit_test(test_realtime),
		cmocka_unit_test(test_leap),	     cmocka_unit_test(test_clocks),
		cmocka_unit_test(test_report),	     cmocka_unit_test(test_queue_order),
		cmocka_unit_test(test_far_day),	     cmocka_unit_test(test_wakeups),
		cmocka_unit_test(test_fallback),
#ifdef DYNHZ_DEBUG
		cmocka_unit_test(test_debug_traps),
#endif
		cmocka_unit_test(test_differential), cmocka_unit_test(test_differential_clocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
