// SPDX-License-Identifier: MIT
/*
 * One CPU of the trace at one setting, through the real dynhz core (the
 * hosted library): booted at hz=H nohz=on|off on a simulated device whose
 * clock counts ns (1 GHz), so that its tick is Linux's TICK_NSEC exactly.
 *
 * Time: simulated ns are CLOCK_MONOTONIC's, from boot: an event at trace
 * time t happens at t - mono_offset; the core boots at 0 and leaps to the
 * trace's first tick.
 *
 * Busy and idle: from the trace's own sched_switch (a task or the idle
 * task runs next) or cpu_idle events when it has them; otherwise by the
 * rule that a CPU is busy from an event a task logged until its next
 * event, when that comes within 1.5 recorded ticks (a busy CPU's tick logs
 * an event every tick), idle otherwise. Busy, the core's tick runs; idle,
 * the idle loop halts and, with nohz=on, the tick stops.
 *
 * Timers are replayed from what they asked for in time, not from the
 * jiffy the recording HZ gave them: a start with a timeout of T recorded
 * jiffies asked for more than (T - 1) and at most T recorded ticks (Linux
 * rounds every conversion up), and the replay takes the least of that,
 * (T - 1) ticks and a little: at H it is jiffies + floor((T - 1) ·
 * TICK_a / TICK_H) + 1, which at the recorded HZ is the recorded timeout
 * exactly, and keeps a sub-tick request (SO_RCVTIMEO 1 ms: T = 1 at any
 * HZ) at one tick of H. A timer the recording shows rounded to a whole
 * second (round_jiffies) is rounded again at H. Then Linux's wheel files
 * it (wheel.c: level granularity, level 0's round-up, the last level's
 * reach), or with --wheel dynhz it runs exactly at its jiffy. A restart
 * of a pending timer is mod_timer; a cancel is del_timer.
 *
 * A task's loop of sleeps in jiffies (schedule_timeout: SO_RCVTIMEO,
 * msleep) goes as fast as H lets it: when such a timer fires in the
 * replay and the recording shows the task starting it again (RF_CHAIN),
 * the replay starts it again itself, the recorded gap after the firing
 * (armed from the firing itself, so it goes round between two recorded
 * events however far apart), with the last timeout recorded, for as long
 * as the recorded loop goes on; the recorded starts of the loop then only
 * update its timeout and gap. A recorded cancel (the task woken by
 * something else: a datagram came) stops it, and the task's next sleep
 * soon after starts it again (source.c counts a cut sleep as a loop's
 * end too).
 *
 * hrtimers are not the tick's business: each recorded hrtimer expiry (the
 * tick's own excepted) is an interrupt at its recorded time, late by what
 * the recording shows, whatever H (high resolution: they are hardware
 * timers).
 *
 * As Linux would, with nohz: a deferrable timer (flags=D) never wakes an
 * idle CPU; it waits, outside the core's wheel, for the first interrupt of
 * the tick at or after its bucket's jiffy. And the idle loop keeps the
 * tick as the recorded machine's would (keep_tick()): without a cpuidle
 * governor, after every idle entry until the tick has run once; with one,
 * where the recorded CPU kept it or where the governor would (it expects
 * to sleep less than a tick).
 *
 * With --retune, the core changes HZ itself at each time the schedule
 * gives (dynhz_host_retune(), between two events, as a power daemon's
 * write would): it re-expresses the pending timers, and the replay reads
 * the new jiffy grid from where the change put it (anchor_j, anchor_ns).
 * With --retune-auto, a power daemon's policy picks the times: at the end
 * of each second of the trace, BUSY_HZ for the next one if this CPU was
 * busy more than AUTO_BUSY_PCT % of it, IDLE_HZ if not.
 */
#include <stdlib.h>
#include <string.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>

#include "hzadvise.h"
#include "map.h"
#include "trace.h"

#define WAKE_NS	       30000ULL /* interrupts this close are one wakeup (as source.c) */
#define READ_RECS      8192
#define LOOKAHEAD_RECS 1024
#define LEAN_RECS      1024 /* written at once (as source.c's spools) */
/*
 * The simulated clock: 1 GHz, so that a jiffy is a whole number of ns,
 * round(10^9 / HZ), the tick Linux makes (TICK_NSEC), at every HZ (the
 * traces come from Linux). The generator serves every such period now.
 */
#define SIM_HZ	       1000000000U
#define NS_PER_CYC     (1000000000U / SIM_HZ)
#define AUTO_WINDOW_NS 1000000000ULL
#define AUTO_BUSY_PCT  10

struct inst {
	struct timer_list t;
	u64 treq; /* requested, simulated ns */
	uint32_t idx;
	uint8_t prog;
	uint16_t bud; /* 1 + its budget (a task's jiffies sleep), or 0 */
	bool pre;     /* pending before the trace: no lateness to measure */
	bool mapped;  /* still the timer's current start */
	bool loop;    /* a task's schedule_timeout loop the replay starts again */
	size_t hidx;  /* 1 + its place in the deferred heap, 0 if not there */
	u64 due;      /* deferred: the start of its jiffy, simulated ns */
	u64 T;	      /* the loop's timeout, recorded jiffies */
	u32 gap;      /* the loop's time from a firing to the next start, ns */
	u64 alive;    /* the loop goes on to here at least (simulated ns) */
	struct inst *prev, *next;
	struct ctx *ctx;
};

struct ctx {
	const struct source *s;
	const struct options *o;
	struct result *r;
	struct inst **live; /* idx -> its current start */
	struct inst *all;
	u64 win_lo, win_hi; /* the trace's span, simulated ns */
	u64 now;
	u64 counted; /* busy time is counted to here (ahead of now after a busy mark) */
	bool idle;
	bool retain; /* idle, but the tick kept: Linux's idle governor expects a short sleep */
	bool hold;   /* idle, the tick kept until it runs once: Linux's idle loop, no governor */
	u64 idle_from;
	bool any_wake;
	u64 last_wake;
	struct inst **heap; /* deferred timers, soonest first */
	size_t nheap, capheap;
	u64 last_run; /* the last tick that ran timers */
	bool any_run;
	unsigned int hz;	 /* now */
	struct udiv per;	 /* the period of a jiffy at hz, simulated ns (per.d) */
	u64 tick_nsec;		 /* Linux's TICK_NSEC at hz */
	u64 anchor_j, anchor_ns; /* jiffy anchor_j + k begins at anchor_ns + k periods */
	unsigned int step;	 /* the next --retune change */
	u64 next_window;	 /* --retune-auto: the end of this second */
	u64 window_busy;	 /* busy when it began */
	unsigned int cpu;
	unsigned int blk;    /* the block of [blk_lo, blk_lo + blk_len), simulated ns */
	u64 blk_lo, blk_len; /* (time mostly moves forward: one division per block) */
	struct inst *spare;  /* freed instances, for the next start: no malloc per start */
	/*
	 * Busy ns, in all and per block: whole numbers summed exactly, made
	 * doubles and energy once at the end (a division per event cost a
	 * twentieth of the run, by perf).
	 */
	u64 busy, *busy_blk;
	/* Read for every event, kept here: one load each, not two. */
	u64 mono_offset; /* s->mono_offset */
	u64 busy_gap;	 /* the rule's busy: the next local event within 1.5 recorded ticks */
	bool retune_any; /* --retune or --retune-auto */
	/* The lean spool: this replay makes it, or reads it and its busy time. */
	struct lean_spool *making;
	bool busy_known;
	bool looking;	 /* making: the governor looks ahead for the next local event */
	struct rec *out; /* making: records waiting to be written, LEAN_RECS at most */
	size_t nout;
};

/*
 * The block of simulated ns t, as source_block() says: block b holds the
 * trace times first + d with b·S <= d·N < (b + 1)·S (N blocks over a span
 * of S), d from ceil(b·S / N) on. The one found is kept with its bounds.
 * Out of line: inlined, it made wake() and the others that rarely need it
 * save six registers on every call (2 % of the replay's instructions).
 */
static unsigned int __attribute__((noinline, cold)) block_find(struct ctx *c, u64 t)
{
	const struct source *s = c->s;
	u64 span = s->last_ts - s->first_ts + 1, n = s->nblocks, lo, hi;
	u64 sim_first = s->first_ts - s->mono_offset;

	c->blk = source_block(s, t + s->mono_offset);
	lo = c->blk ? sim_first + (c->blk * span + n - 1) / n : 0;
	hi = c->blk + 1 < n ? sim_first + ((c->blk + 1) * span + n - 1) / n : UINT64_MAX;
	c->blk_lo = lo;
	c->blk_len = hi - lo;
	return c->blk;
}

/* Time mostly moves forward: the block last found, most of the time (inlined). */
static inline unsigned int block_of(struct ctx *c, u64 t)
{
	if (t - c->blk_lo < c->blk_len)
		return c->blk;
	return block_find(c, t);
}

static void heap_swap(struct ctx *c, size_t a, size_t b)
{
	struct inst *t = c->heap[a];

	c->heap[a] = c->heap[b];
	c->heap[b] = t;
	c->heap[a]->hidx = a + 1;
	c->heap[b]->hidx = b + 1;
}

static void heap_fix(struct ctx *c, size_t i)
{
	while (i && c->heap[(i - 1) / 2]->due > c->heap[i]->due) {
		heap_swap(c, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < c->nheap && c->heap[l]->due < c->heap[m]->due)
			m = l;
		if (l + 1 < c->nheap && c->heap[l + 1]->due < c->heap[m]->due)
			m = l + 1;
		if (m == i)
			return;
		heap_swap(c, i, m);
		i = m;
	}
}

static void heap_push(struct ctx *c, struct inst *in)
{
	if (c->nheap == c->capheap) {
		c->capheap = c->capheap ? 2 * c->capheap : 64;
		c->heap = realloc(c->heap, c->capheap * sizeof(*c->heap));
		if (!c->heap)
			abort();
	}
	c->heap[c->nheap] = in;
	in->hidx = ++c->nheap;
	heap_fix(c, c->nheap - 1);
}

static void heap_remove(struct ctx *c, struct inst *in)
{
	size_t i = in->hidx - 1;

	in->hidx = 0;
	if (i != --c->nheap) {
		c->heap[i] = c->heap[c->nheap];
		c->heap[i]->hidx = i + 1;
		heap_fix(c, i);
	}
}

static void close_idle(struct ctx *c, u64 until)
{
	u64 a = c->idle_from > c->win_lo ? c->idle_from : c->win_lo;
	u64 b = until < c->win_hi ? until : c->win_hi;
	const struct options *o = c->o;
	double len;
	int st;

	c->idle_from = until;
	if (b <= a)
		return;
	len = (double)(b - a);
	hist_add(&c->r->idle, b - a, 1);
	c->r->idle_ns += len;
	for (unsigned int i = 0; i < o->ncs; i++)
		if (len >= o->cs[i].residency_us * 1e3)
			c->r->res_ns[i] += len;
	{
		double e = idle_energy(o, len, &st);

		c->r->energy_j += e;
		c->r->block_energy[block_of(c, b)] += e;
	}
	c->r->deepest[st + 1]++;
}

static void wake(struct ctx *c, u64 x)
{
	u64 d = x > c->last_wake ? x - c->last_wake : c->last_wake - x;

	if (x < c->win_lo || x > c->win_hi)
		return;
	if (c->any_wake && d <= WAKE_NS)
		return;
	c->any_wake = true;
	c->last_wake = x;
	c->r->wakeups++;
	c->r->block_wakeups[block_of(c, x)]++;
	if (c->idle)
		close_idle(c, x);
}

static void unlink_inst(struct ctx *c, struct inst *in)
{
	if (in->prev)
		in->prev->next = in->next;
	else
		c->all = in->next;
	if (in->next)
		in->next->prev = in->prev;
	if (in->mapped)
		c->live[in->idx] = NULL;
	if (in->hidx)
		heap_remove(c, in);
	in->next = c->spare;
	c->spare = in;
}

/* A timer of program g ran, late by late ns, at simulated ns at. */
static void prog_fired(struct ctx *c, uint8_t g, u64 late, u64 at)
{
	struct presult *pr;

	if (!g || !c->r->prog)
		return;
	pr = &c->r->prog[g];
	if (!pr->late.count)
		hist_init_bits(&pr->late, HIST_SMALL_BITS);
	pr->fired++;
	hist_add(&pr->late, late, 1);
	pr->block[block_of(c, at)]++;
}

/* A thread's jiffies sleep of budget b (1 + its index) ran, late by late ns. */
static void bud_fired(struct ctx *c, uint16_t b, u64 late, u64 at)
{
	struct presult *pr;

	if (!b || !c->r->bud)
		return;
	pr = &c->r->bud[b - 1];
	if (!pr->late.count)
		hist_init_bits(&pr->late, HIST_SMALL_BITS);
	pr->fired++;
	hist_add(&pr->late, late, 1);
	pr->block[block_of(c, at)]++;
}

/* The budget of a task's jiffies sleep r asking T recorded jiffies: 1 + its index, or 0. */
static uint16_t bud_of(const struct ctx *c, const struct rec *r, u64 T)
{
	const u64 *v;

	if (!(r->flags & RF_SLEEP) || !c->s->budget_map || VAL_T(r->val) == VAL_T_NONE)
		return 0;
	v = map_get(c->s->budget_map, budget_key(r->idx, budget_class(T)));
	return v ? (uint16_t)(*v + 1) : 0;
}

static void rearm_at(struct ctx *c, struct inst *in, u64 s);

static void finish(struct ctx *c, struct inst *in, u64 now)
{
	if (!c->any_run || c->last_run != now)
		c->r->timer_ticks++;
	c->any_run = true;
	c->last_run = now;
	if (now >= c->win_lo && now <= c->win_hi) {
		c->r->fired++;
		if (!in->pre) {
			if (now < in->treq)
				c->r->early++;
			else
				hist_add(&c->r->late, now - in->treq, 1);
			if (now >= in->treq) {
				prog_fired(c, in->prog, now - in->treq, now);
				bud_fired(c, in->bud, now - in->treq, now);
			}
		}
	}
	/*
	 * A loop goes on: the task starts it again, the recorded gap later, and
	 * as late again as the recorded expiry was after its jiffy (a softirq
	 * delayed, a busy machine).
	 */
	if (in->loop && in->mapped &&
	    now + GAP_NS(in->gap) + GAP_EXCESS(in->gap) * c->s->tick_nsec <= in->alive) {
		rearm_at(c, in, now + GAP_NS(in->gap) + GAP_EXCESS(in->gap) * c->s->tick_nsec);
		return;
	}
	unlink_inst(c, in);
}

static void fire(struct timer_list *t)
{
	struct inst *in = from_timer(in, t, t);

	finish(in->ctx, in, dynhz_host_cycles() * NS_PER_CYC);
}

/* An interrupt of the tick: the deferred timers due run with it. */
static void on_irq(u64 cycles, void *arg)
{
	struct ctx *c = arg;

	cycles *= NS_PER_CYC;
	if (cycles >= c->win_lo && cycles <= c->win_hi)
		c->r->interrupts++;
	c->hold = false; /* got_tick: the idle loop may stop it now */
	wake(c, cycles);
	while (c->nheap && c->heap[0]->due <= cycles) {
		struct inst *in = c->heap[0];

		heap_remove(c, in);
		if (cycles > in->due)
			c->r->deferred++;
		finish(c, in, cycles);
	}
}

/* Time passes to simulated ns t: busy time, if busy, within the trace's span. */
static void account(struct ctx *c, u64 t)
{
	u64 a, b, from = c->counted;

	if (t <= from)
		return;
	c->counted = t;
	if (c->idle || c->busy_known)
		return;
	a = from > c->win_lo ? from : c->win_lo;
	b = t < c->win_hi ? t : c->win_hi;
	if (b > a) {
		c->busy += b - a;
		c->busy_blk[block_of(c, b)] += b - a;
	}
}

/* The length of a jiffy at the current HZ, in simulated ns (whole cycles). */
static u64 period_ns(const struct ctx *c)
{
	return c->per.d;
}

/*
 * x / period, exactly, by a multiply (hzadvise.h, struct udiv): the starts'
 * divisions. The core's generator (dz_conv_make() from 1 GHz to the
 * period's rate, rounded down) gives the same, but with its range check
 * and shapes it was no faster here than the divide: the replay of 10 M
 * lines 1.353 s against struct udiv's 1.300 s.
 */
static inline u64 per_div(const struct ctx *c, u64 x)
{
	return udiv_q(&c->per, x);
}

static void set_hz(struct ctx *c, unsigned int hz)
{
	c->hz = hz;
	udiv_set(&c->per, dynhz_host_period(hz).num * NS_PER_CYC);
	c->tick_nsec = (1000000000ULL + hz / 2) / hz;
}

/*
 * The ticks before simulated ns t that have nothing to do, at once: the
 * core skips them (the same jiffies, the same timekeeping), and the replay
 * counts each as the interrupt it would have been. Only where the tick
 * runs in this stretch: periodic, busy, or kept by the idle governor (an
 * idle tickless CPU stops it first); and not past a deferred timer, which
 * runs from an interrupt.
 */
static void skip_ticks(struct ctx *c, u64 t)
{
	u64 per = period_ns(c), first, k;

	/* c->now is the core's clock: cheap tests first, this runs for every event */
	if (t - c->now < 8 * per || (c->r->nohz && c->idle && !c->retain && !c->hold) ||
	    (c->nheap && c->heap[0]->due <= t))
		return;
	k = dynhz_host_skip_ticks(per_div(c, t - c->now) - 1, &first);
	for (u64 i = 0; i < k; i++)
		on_irq(first + i * (per / NS_PER_CYC), c);
}

static unsigned long cur_jiffies(const struct ctx *c);
static u64 jiffy_ns(const struct ctx *c, unsigned long j);

/* Time passes to simulated ns t, busy or idle as decided at the last local event. */
static void advance(struct ctx *c, u64 t)
{
	/* Whole cycles from the core's own count: rounding never accumulates. */
	t -= t % NS_PER_CYC;
	if (t <= c->now)
		return;
	/*
	 * Held (keep_tick()): the tick runs to its next interrupt, which
	 * on_irq() tells, and the idle loop may stop it from there.
	 */
	while (c->hold) {
		u64 nt = jiffy_ns(c, cur_jiffies(c) + 1);

		if (nt > t)
			break;
		dynhz_host_pass(nt - dynhz_host_cycles() * NS_PER_CYC, false);
		c->now = nt;
		account(c, nt);
	}
	skip_ticks(c, t);
	dynhz_host_pass(t - dynhz_host_cycles() * NS_PER_CYC, c->idle && !c->retain && !c->hold);
	c->now = t;
	account(c, t);
}

/*
 * The next change of the schedule, at simulated ns t: the core waits for
 * its next tick (the time moves to it), changes HZ there and re-expresses
 * every pending timer. That tick began jiffy J, the last of the old rate;
 * J + k begins k new periods after it.
 */
static void retune_at(struct ctx *c, u64 t, unsigned int hz)
{
	int err;

	advance(c, t);
	err = dynhz_host_retune(hz);
	if (err)
		fprintf(stderr, "hzadvise: retune to hz=%u: %s\n", hz, dynhz_host_last_line());
	c->now = dynhz_host_cycles() * NS_PER_CYC;
	account(c, c->now);
	/* The current HZ: the core changed nothing, nor waited for a tick. */
	if (err || hz == c->hz)
		return;
	set_hz(c, hz);
	c->anchor_j = jiffies_64;
	c->anchor_ns = c->now;
}

/* Every change of the schedule due by simulated ns t (before the trace's end). */
static void retune_due(struct ctx *c, u64 t)
{
	const struct result *r = c->r;

	while (c->step < r->nretune && c->win_lo + r->retune[c->step].at_ns <= t) {
		retune_at(c, c->win_lo + r->retune[c->step].at_ns, r->retune[c->step].hz);
		c->step++;
	}
}

static void *grow(void *p, unsigned int n, size_t size)
{
	/* Room for n + 1, doubled when n is 0 or a power of two. */
	if (n & (n - 1))
		return p;
	p = realloc(p, (n ? 2 * n : 1) * size);
	if (!p)
		abort();
	return p;
}

/* What the policy saw and did, for -v: the busy share of a second, a change. */
static void auto_log(struct result *r, double busy, u64 at_ns, unsigned int hz, bool change)
{
	r->window_busy = grow(r->window_busy, r->nwindows, sizeof(*r->window_busy));
	r->window_busy[r->nwindows++] = busy;
	if (!change)
		return;
	r->chosen = grow(r->chosen, r->nchosen, sizeof(*r->chosen));
	r->chosen[r->nchosen].at_ns = at_ns;
	r->chosen[r->nchosen++].hz = hz;
}

/* --retune-auto: each second of the trace that ended by simulated ns t. */
static void auto_due(struct ctx *c, u64 t)
{
	struct result *r = c->r;

	while (r->auto_busy && c->next_window <= t && c->next_window < c->win_hi) {
		u64 at = c->next_window;
		double busy;
		unsigned int hz;

		advance(c, at);
		busy = (double)(c->busy - c->window_busy) / AUTO_WINDOW_NS;
		hz = busy * 100 > AUTO_BUSY_PCT ? r->auto_busy : r->auto_idle;
		auto_log(r, busy, at - c->win_lo, hz, hz != c->hz);
		if (hz != c->hz)
			retune_at(c, at, hz);
		/* The time the change waited for its tick counts in the next second. */
		c->window_busy = c->busy;
		c->next_window += AUTO_WINDOW_NS;
	}
}

static void set_busy(struct ctx *c, bool busy)
{
	if (busy == !c->idle)
		return;
	if (busy) {
		close_idle(c, c->now);
		c->idle = false;
	} else {
		c->idle = true;
		c->idle_from = c->now;
	}
}

/* The jiffy of H that begins at simulated ns t or next: expiry as H counts it. */
static unsigned long jiffy_at(const struct ctx *c, u64 t)
{
	return (unsigned long)c->anchor_j + nsecs_to_jiffies(t - c->anchor_ns);
}

/*
 * Jiffies at H now, from the time: what a task that runs now reads (the
 * core's own count waits, on an idle CPU, for its next interrupt).
 */
static unsigned long cur_jiffies(const struct ctx *c)
{
	return (unsigned long)(c->anchor_j + per_div(c, c->now - c->anchor_ns));
}

/* The jiffy at H that is k periods after anchor: its start in simulated ns. */
static u64 jiffy_ns(const struct ctx *c, unsigned long j)
{
	return c->anchor_ns + (u64)(j - (unsigned long)c->anchor_j) * period_ns(c);
}

/*
 * T recorded jiffies at H: the least request that the recording rounds up
 * to T, (T - 1) recorded ticks and a little, rounded up to H's ticks.
 */
static unsigned long timeout_at(const struct ctx *c, u64 T)
{
	u64 ta = c->s->tick_nsec, tb = period_ns(c);

	if (!T)
		return 0;
	if (ta == tb)
		return (unsigned long)T;
	return (unsigned long)(per_div(c, (T - 1) * ta) + 1);
}

/*
 * round_jiffies() at H, as Linux does it for CPU cpu: to the nearest whole
 * second of jiffies (down only when that is still ahead), skewed 3 jiffies
 * a CPU.
 */
static unsigned long round_at(unsigned long j, unsigned long now, unsigned int hz, unsigned int cpu)
{
	unsigned long orig = j, rem;

	j += cpu * 3;
	rem = j % hz;
	j = rem < hz / 4 ? j - rem : j - rem + hz;
	j -= cpu * 3;
	return j <= now ? orig : j;
}

/* Starts (or moves) in at its expiry exp (jiffies at H): as Linux files it, or exactly. */
static void arm(struct ctx *c, struct inst *in, unsigned long exp, bool defer)
{
	/*
	 * Late from the start of the jiffy asked for, or from now when that
	 * began before the start (the recording kernel's jiffies lagged the
	 * grid): no timer can run before it is started.
	 */
	in->treq = jiffy_ns(c, exp);
	if (in->treq < c->now)
		in->treq = c->now;
	if (c->o->wheel_linux && !in->pre)
		exp = (unsigned long)linux_bucket_expiry(exp, cur_jiffies(c), c->hz);
	if (in->hidx)
		heap_remove(c, in);
	if (c->o->wheel_linux && c->r->nohz && defer) {
		del_timer(&in->t);
		in->due = jiffy_ns(c, exp);
		heap_push(c, in);
	} else {
		mod_timer(&in->t, exp);
	}
}

/*
 * A loop's next sleep, as if the task started it at simulated ns s (its
 * gap after the firing): armed at once, from the firing's callback, so
 * that the loop goes round as often as H lets it between two recorded
 * events, however far apart they are (the core's clock is the firing's).
 */
static void rearm_at(struct ctx *c, struct inst *in, u64 s)
{
	unsigned long cur = (unsigned long)(c->anchor_j + per_div(c, s - c->anchor_ns));
	unsigned long exp = cur + timeout_at(c, in->T);

	in->treq = jiffy_ns(c, exp);
	if (in->treq < s)
		in->treq = s;
	if (c->o->wheel_linux)
		exp = (unsigned long)linux_bucket_expiry(exp, cur, c->hz);
	mod_timer(&in->t, exp);
	c->r->started++;
	c->r->restarts++;
}

static struct inst *new_inst(struct ctx *c, uint32_t idx)
{
	struct inst *in = c->spare;

	if (in) {
		c->spare = in->next;
		hz_zero(in, sizeof(*in));
	} else if (!(in = calloc(1, sizeof(*in)))) {
		abort();
	}
	timer_setup(&in->t, fire, 0);
	in->idx = idx;
	in->ctx = c;
	in->next = c->all;
	if (c->all)
		c->all->prev = in;
	c->all = in;
	in->mapped = true;
	c->live[idx] = in;
	return in;
}

/* How long a loop stays alive after a recorded start: two of its recorded periods and 10 ms. */
static u64 loop_alive(const struct ctx *c, const struct inst *in)
{
	return c->now +
	       2 * ((in->T + 2 + GAP_EXCESS(in->gap)) * c->s->tick_nsec + GAP_NS(in->gap)) +
	       10000000ULL;
}

/* The timeout a start recorded: its timeout= or, without one, from the jiffy grid. */
static u64 recorded_timeout(const struct ctx *c, const struct rec *r)
{
	s64 T;

	if (VAL_T(r->val) != VAL_T_NONE)
		return VAL_T(r->val);
	T = (s64)VAL_EXP(r->val) - source_jiffies_at(c->s, (s64)c->now);
	return T > 0 ? (u64)T : 0;
}

static void start(struct ctx *c, const struct rec *r)
{
	struct inst *in = c->live[r->idx];
	unsigned long exp;

	/* A loop the replay runs itself: the recording only says it goes on, and how. */
	if (in && in->loop && (r->flags & RF_CHAIN) && timer_pending(&in->t)) {
		in->T = recorded_timeout(c, r);
		in->bud = bud_of(c, r, in->T);
		in->gap = r->gap;
		in->alive = loop_alive(c, in);
		return;
	}
	if (!in)
		in = new_inst(c, r->idx);
	in->pre = r->flags & RF_PRE;
	in->prog = r->prog;
	in->bud = 0;
	if (in->pre) {
		/* Pending before the trace: due at the jiffy it fired, as the recording placed it. */
		s64 want = source_jiffy_mono(c->s, VAL_EXP(r->val));
		u64 treq = want > (s64)c->now ? (u64)want : c->now;

		exp = jiffy_at(c, treq);
	} else {
		u64 T = recorded_timeout(c, r), E = VAL_EXP(r->val);
		unsigned int hza = c->s->hz;
		/*
		 * The kernel counted from its jiffies at the start, E - T: where the
		 * next one had begun on the grid but the kernel had not yet counted
		 * it, the start is taken to be just before it began.
		 */
		s64 next = source_jiffy_mono(c->s, E - T + 1);
		u64 t = (s64)c->now < next ? c->now : next > 0 ? (u64)next - 1 : 0;
		unsigned long cur =
			(unsigned long)(c->anchor_j +
					(t < c->anchor_ns ? 0 : per_div(c, t - c->anchor_ns)));

		exp = cur + timeout_at(c, T);
		/* round_jiffies: a whole second of the recording's jiffies, half a second or more ahead. */
		if (T >= hza / 2 && (E + 3 * c->cpu) % hza == 0)
			exp = round_at(exp, cur, c->hz, c->cpu);
		in->T = T;
		in->bud = bud_of(c, r, T);
	}
	/* A loop once the recording shows it going round: its first sleep is one sleep. */
	in->loop = (r->flags & RF_CHAIN) != 0;
	if (in->loop) {
		in->gap = r->gap;
		in->alive = loop_alive(c, in);
	}
	arm(c, in, exp, r->flags & RF_DEFER);
	if (!in->pre)
		c->r->started++;
}

static void cancel(struct ctx *c, const struct rec *r)
{
	struct inst *in = c->live[r->idx];

	if (!in)
		return;
	del_timer(&in->t);
	unlink_inst(c, in);
}

/* Recorded: it fired. The replayed one fires when the core says; a new start is a new timer. */
static void expired(struct ctx *c, const struct rec *r)
{
	struct inst *in = c->live[r->idx];

	if (!in || in->loop)
		return;
	in->mapped = false;
	c->live[r->idx] = NULL;
}

static u64 sim_time(const struct ctx *c, u64 ts)
{
	s64 t = (s64)(ts - c->mono_offset);

	return t > 0 ? (u64)t : 0;
}

/*
 * Linux's idle governors (menu, teo) keep the tick when they expect to
 * sleep less than a tick (TICK_NSEC at H); the replay knows how long the
 * CPU will sleep: until the next event on it that is not the tick's own.
 */
static bool governor_keeps_tick(const struct ctx *c, const struct rec *r, const struct rec *end)
{
	const struct rec *n;
	for (n = r + 1; n < end; n++)
		if ((n->flags & RF_LOCAL) && !(n->flags & RF_TICK))
			return n->ts - r->ts < c->tick_nsec;
	return false; /* nothing more: a long sleep */
}

/*
 * Idle after local event r (idle before it too, if was_idle): whether the
 * tick runs on, as Linux's idle loop would run it.
 *
 * Without a cpuidle governor (no driver, or one idle state: QEMU guests,
 * most VMs), do_idle()'s first pass after an idle entry keeps the tick,
 * and a later pass stops it only once the tick handler has run in idle
 * (got_tick; the stop itself then keeps it if a timer is due within the
 * tick, which the core checks as it stops it): the tick is held until its
 * next interrupt at H. Where the recorded CPU kept its tick past that (the
 * recorded tick came again a period later, idle: RCU's callbacks, a timer
 * due, irq_work), it is held to H's next interrupt again: the reason is
 * not in the trace, only that the tick ran once more.
 *
 * With a governor (menu, teo), it keeps the tick when it expects to sleep
 * less than a tick: the replay keeps it where the recorded one ran on, or
 * where the next event it knows of is less than a tick away.
 */
static void keep_tick(struct ctx *c, const struct rec *r, const struct rec *end, bool was_idle)
{
	if (c->s->idle_hold) {
		if (!was_idle || (r->flags & RF_TICK_ON))
			c->hold = true;
		c->retain = false;
		return;
	}
	c->retain = (r->flags & RF_TICK_ON) ||
		    (!(r->flags & RF_TICK) && governor_keeps_tick(c, r, end));
}

/* Whether the CPU is busy after its local event r: the trace's own word, or the rule. */
static bool busy_after(const struct ctx *c, const struct rec *r)
{
	if (r->flags & RF_SCHED)
		return r->flags & RF_BUSY;
	return (r->flags & RF_BUSY_ON) && r->aux <= c->busy_gap;
}

/* Replays r; true if it was a busy mark, which changed nothing but the busy time. */
static bool one(struct ctx *c, const struct rec *r, const struct rec *end)
{
	u64 t = sim_time(c, r->ts);

	/*
	 * A mark on a CPU that is busy and stays busy changes nothing but the
	 * busy time: the core need not be brought to it, as the next event's
	 * pass runs the same interrupts in the same order. Only the time is
	 * counted. Most events of a busy trace are such (57 % of the
	 * bench's). Not with a retune, whose seconds read the busy time.
	 */
	if (r->type == REC_MARK && (r->flags & RF_LOCAL) && !c->idle && !c->retune_any &&
	    busy_after(c, r)) {
		account(c, t);
		c->r->events++;
		return true;
	}
	/*
	 * Another CPU's record can come after this CPU's later ones (source.c
	 * holds it behind the local event it followed): it happens now, at
	 * the last local event, which a skipped mark may be. (With a retune
	 * no mark is skipped, and the time stays the record's for the
	 * schedule's changes due.)
	 */
	if (t < c->counted && !c->retune_any)
		t = c->counted;
	if (c->retune_any) {
		if (c->r->nretune)
			retune_due(c, t);
		if (c->r->auto_busy)
			auto_due(c, t);
	}
	advance(c, t);
	switch (r->type) {
	case REC_START:
		start(c, r);
		break;
	case REC_CANCEL:
		cancel(c, r);
		break;
	case REC_EXPIRE:
		expired(c, r);
		break;
	case REC_HRIRQ:
		wake(c, c->now);
		if (r->val != UINT64_MAX && c->now >= c->win_lo && c->now <= c->win_hi)
			prog_fired(c, r->prog, r->val, c->now);
		break;
	default:
		break;
	}
	if (r->flags & RF_LOCAL) {
		bool was_idle = c->idle;

		set_busy(c, busy_after(c, r));
		if (!c->idle)
			c->hold = false;
		else if (c->o->wheel_linux && c->r->nohz)
			keep_tick(c, r, end, was_idle);
	}
	c->r->events++;
	return false;
}

static void lean_give_up(struct ctx *c)
{
	fclose(c->making->spool);
	c->making->spool = NULL;
	c->making->failed = true;
	c->making = NULL;
}

static void lean_flush(struct ctx *c)
{
	if (c->nout && fwrite(c->out, sizeof(*c->out), c->nout, c->making->spool) != c->nout)
		lean_give_up(c);
	c->nout = 0;
}

/*
 * Replays r and writes what the next settings need of it to the lean
 * spool. A busy mark is left out, unless the idle governor may be looking
 * for it: after a local event that left the CPU idle, governor_keeps_tick()
 * looks past the tick's records for the next local one that is not, and
 * a tick's record may have made the CPU busy again before it.
 *
 * Every record kept has the time this replay gave it: another CPU's record
 * that comes after a later local one happens at the last local event's
 * time, which may be a mark's that is left out. A local record so moved
 * would move the governor's look ahead too; none has been seen, but if one
 * comes the lean spool is given up, and the next replays read the whole.
 *
 * The look ahead sees at least LOOKAHEAD_RECS records in either spool;
 * only a next local event farther than that (more records of other CPUs
 * and of the tick between) could be found in one and not the other, as it
 * could already in one spool at two places of its read window.
 */
static void one_making(struct ctx *c, const struct rec *r, const struct rec *end)
{
	u64 t = sim_time(c, r->ts), counted = c->counted;
	bool looked_for = c->looking && !(r->flags & RF_TICK);

	if (one(c, r, end) && !looked_for) {
		c->making->marks++;
		return;
	}
	if ((r->flags & RF_LOCAL) && !(r->flags & RF_TICK))
		c->looking = c->idle;
	c->out[c->nout] = *r;
	if (t < counted) {
		if (r->flags & RF_LOCAL) {
			lean_give_up(c);
			return;
		}
		c->out[c->nout].ts = counted + c->mono_offset;
	}
	if (++c->nout == LEAN_RECS)
		lean_flush(c);
}

/* This replay makes l, if it is the first to need it; it reads it if made. */
static FILE *lean_open(struct ctx *c, struct lean_spool *l, FILE *whole)
{
	if (!l || c->retune_any || l->failed || !whole)
		return whole;
	if (l->spool) {
		c->busy_known = true;
		return l->spool;
	}
	l->spool = tmpfile();
	c->out = malloc(LEAN_RECS * sizeof(*c->out));
	if (!l->spool || !c->out || setvbuf(l->spool, NULL, _IONBF, 0)) {
		if (l->spool)
			fclose(l->spool);
		l->spool = NULL;
		l->failed = true;
		return whole;
	}
	c->making = l;
	return whole;
}

/* The end of the replay: the lean spool made, or its busy time read. */
static void lean_close(struct ctx *c, struct lean_spool *l)
{
	if (c->busy_known) {
		c->busy = l->busy;
		memcpy(c->busy_blk, l->busy_blk, c->r->nblocks * sizeof(*c->busy_blk));
		c->r->events += l->marks;
	} else if (c->making) {
		lean_flush(c);
	}
	if (c->making) {
		l->busy = c->busy;
		l->busy_blk = malloc((c->r->nblocks ? c->r->nblocks : 1) * sizeof(*l->busy_blk));
		if (!l->busy_blk)
			abort();
		memcpy(l->busy_blk, c->busy_blk, c->r->nblocks * sizeof(*l->busy_blk));
	}
	free(c->out);
}

void lean_free(struct lean_spool *l)
{
	if (l->spool)
		fclose(l->spool);
	free(l->busy_blk);
}

/*
 * To a tick before the trace begins, at once (nothing is pending): as on
 * Linux and in the dynhz kernel, every HZ's jiffies start at boot, so
 * timers due on whole seconds, say, fall on jiffy boundaries of the HZ
 * that divide them, here as there.
 */
static void fast_forward(struct ctx *c)
{
	u64 n = c->win_lo / period_ns(c);

	if (n > 1)
		dynhz_host_advance_ticks(n - 1);
	c->now = dynhz_host_cycles() * NS_PER_CYC;
	c->counted = c->now;
}

static void boot(const struct ctx *c)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "hz=%u nohz=%s", c->r->hz, c->r->nohz ? "on" : "off");
	dynhz_host_set_quiet(true);
	dynhz_host_set_clock_hz(SIM_HZ);
	if (dynhz_boot_quiet(cmd))
		fprintf(stderr, "hzadvise: %s: %s\n", cmd, dynhz_host_last_line());
}

void replay_cpu(const struct source *s, unsigned int cpu, const struct options *o,
		struct lean_spool *l, struct result *r)
{
	struct ctx c = { .s = s, .o = o, .r = r, .idle = true, .hz = r->hz };
	struct rec buf[READ_RECS];
	size_t n;
	FILE *spool;

	c.mono_offset = s->mono_offset;
	c.busy_gap = s->tick_nsec + s->tick_nsec / 2;
	c.retune_any = r->nretune || r->auto_busy;
	c.win_lo = sim_time(&c, s->first_ts);
	c.win_hi = sim_time(&c, s->last_ts);
	c.next_window = c.win_lo + AUTO_WINDOW_NS;
	c.cpu = cpu;
	c.live = calloc(s->ntimers ? s->ntimers : 1, sizeof(*c.live));
	c.busy_blk = calloc(r->nblocks ? r->nblocks : 1, sizeof(*c.busy_blk));
	if (!c.live || !c.busy_blk)
		abort();
	boot(&c);
	set_hz(&c, r->hz);
	c.anchor_j = jiffies_64 - dz_tick_count(); /* jiffies at boot, time 0 */
	fast_forward(&c);
	dynhz_host_set_irq_hook(on_irq, &c);
	for (size_t i = 0; i < s->npre; i++)
		if (s->pre_cpu[i] == cpu)
			start(&c, &s->pre[i]);
	spool = lean_open(&c, l, s->spool[cpu]);
	if (spool) {
		size_t have = 0, at = 0;
		bool eof = false;

		rewind(spool);
		/* A window of records: each sees up to LOOKAHEAD_RECS after it. */
		for (;;) {
			if (!eof && have - at < LOOKAHEAD_RECS) {
				memmove(buf, buf + at, (have - at) * sizeof(buf[0]));
				have -= at;
				at = 0;
				n = fread(buf + have, sizeof(buf[0]), READ_RECS - have, spool);
				have += n;
				eof = n == 0;
			}
			if (at == have)
				break;
			if (c.making)
				one_making(&c, &buf[at], buf + have);
			else
				one(&c, &buf[at], buf + have);
			at++;
		}
	}
	retune_due(&c, c.win_hi);
	auto_due(&c, c.win_hi);
	advance(&c, c.win_hi);
	if (c.idle)
		close_idle(&c, c.win_hi);
	lean_close(&c, l);
	dynhz_host_set_irq_hook(NULL, NULL);
	r->busy_ns += (double)c.busy;
	for (unsigned int b = 0; b < r->nblocks; b++)
		r->block_energy[b] += o->busy_w * (double)c.busy_blk[b] / 1e9;
	r->tick_cpu_ns = (double)r->interrupts * o->tick_ns + (double)r->fired * o->timer_ns +
			 (double)r->timer_ticks * o->run_ns;
	r->energy_j += o->busy_w * (r->busy_ns + r->tick_cpu_ns) / 1e9;
	while (c.all) {
		del_timer(&c.all->t);
		unlink_inst(&c, c.all);
	}
	while (c.spare) {
		struct inst *in = c.spare;

		c.spare = in->next;
		free(in);
	}
	free(c.live);
	free(c.busy_blk);
	free(c.heap);
}

void result_init(struct result *r, unsigned int hz, bool nohz, const struct source *s)
{
	memset(r, 0, sizeof(*r));
	r->hz = hz;
	r->nohz = nohz;
	hist_init(&r->late);
	hist_init(&r->idle);
	r->nblocks = s->nblocks;
	r->nprog = s->nprog;
	r->block_wakeups = calloc(r->nblocks, sizeof(u64));
	r->block_energy = calloc(r->nblocks, sizeof(double));
	r->prog = calloc(r->nprog, sizeof(*r->prog));
	if (!r->block_wakeups || !r->block_energy || !r->prog)
		abort();
	for (unsigned int g = 0; g < r->nprog; g++) {
		r->prog[g].block = calloc(r->nblocks, sizeof(uint32_t));
		if (!r->prog[g].block)
			abort();
	}
	r->nbud = s->nbudget;
	if (r->nbud) {
		r->bud = calloc(r->nbud, sizeof(*r->bud));
		if (!r->bud)
			abort();
		for (unsigned int b = 0; b < r->nbud; b++) {
			r->bud[b].block = calloc(r->nblocks, sizeof(uint32_t));
			if (!r->bud[b].block)
				abort();
		}
	}
}

const char *result_hz(const struct result *r, char *buf, size_t len)
{
	size_t at;

	if (r->auto_busy) {
		snprintf(buf, len, "auto:%u:%u", r->auto_busy, r->auto_idle);
		return buf;
	}
	at = (size_t)snprintf(buf, len, r->retune ? "%u@0" : "%u", r->hz);

	for (unsigned int i = 0; r->retune && i < r->nretune && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, ">%u@%.9g", r->retune[i].hz,
				       (double)r->retune[i].at_ns / 1e9);
	return buf;
}

void result_free(struct result *r)
{
	for (unsigned int g = 0; g < r->nprog; g++) {
		free(r->prog[g].block);
		if (r->prog[g].late.count)
			hist_free(&r->prog[g].late);
	}
	free(r->prog);
	for (unsigned int b = 0; b < r->nbud; b++) {
		free(r->bud[b].block);
		if (r->bud[b].late.count)
			hist_free(&r->bud[b].late);
	}
	free(r->bud);
	free(r->block_wakeups);
	free(r->block_energy);
	free(r->chosen);
	free(r->window_busy);
	hist_free(&r->late);
	hist_free(&r->idle);
}

/* Adds n per-program (or per-budget) results of one CPU into the sum's. */
static void presults_merge(struct presult *sum, const struct presult *cpu, unsigned int n,
			   unsigned int nblocks)
{
	for (unsigned int g = 0; g < n; g++) {
		struct presult *d = &sum[g];
		const struct presult *p = &cpu[g];

		if (!p->fired)
			continue;
		if (!d->late.count)
			hist_init_bits(&d->late, HIST_SMALL_BITS);
		d->fired += p->fired;
		hist_merge(&d->late, &p->late);
		for (unsigned int b = 0; b < nblocks; b++)
			d->block[b] += p->block[b];
	}
}

void result_add(struct result *sum, const struct result *cpu)
{
	sum->interrupts += cpu->interrupts;
	sum->wakeups += cpu->wakeups;
	sum->fired += cpu->fired;
	sum->early += cpu->early;
	sum->started += cpu->started;
	sum->timer_ticks += cpu->timer_ticks;
	sum->deferred += cpu->deferred;
	hist_merge(&sum->late, &cpu->late);
	hist_merge(&sum->idle, &cpu->idle);
	sum->busy_ns += cpu->busy_ns;
	sum->idle_ns += cpu->idle_ns;
	for (unsigned int i = 0; i < MAX_CSTATES; i++)
		sum->res_ns[i] += cpu->res_ns[i];
	for (unsigned int i = 0; i <= MAX_CSTATES; i++)
		sum->deepest[i] += cpu->deepest[i];
	sum->energy_j += cpu->energy_j;
	sum->tick_cpu_ns += cpu->tick_cpu_ns;
	sum->events += cpu->events;
	sum->restarts += cpu->restarts;
	for (unsigned int b = 0; b < sum->nblocks; b++) {
		sum->block_wakeups[b] += cpu->block_wakeups[b];
		sum->block_energy[b] += cpu->block_energy[b];
	}
	presults_merge(sum->prog, cpu->prog, sum->nprog, sum->nblocks);
	presults_merge(sum->bud, cpu->bud, sum->nbud, sum->nblocks);
}
