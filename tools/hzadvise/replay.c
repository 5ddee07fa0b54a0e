// SPDX-License-Identifier: MIT
/*
 * One CPU of the trace at one setting, through the real dynhz core (the
 * hosted library): booted at hz=H nohz=on|off on a simulated device whose
 * clock counts 10 ns steps (100 MHz: the finest clock for which the core
 * has exact conversions at every HZ), so that its tick is Linux's
 * TICK_NSEC to 10 ns (exactly so where HZ divides 10^8: 100, 250, 1000)
 * and the grid of the recorded HZ falls on the recorded machine's own
 * jiffy boundaries.
 *
 * Time: simulated ns are CLOCK_MONOTONIC's, from boot: an event at trace
 * time t happens at t - mono_offset; the core boots at 0 and leaps to the
 * trace's first tick.
 * Between two events the CPU is busy if both were logged by a task (not
 * the idle task) less than 1.5 recorded ticks apart (a busy CPU's tick
 * logs an event every tick), idle otherwise; busy, the core's tick runs;
 * idle, the idle loop halts and, with nohz=on, the tick stops.
 *
 * Timers: each timer_start asks for the start of the jiffy it names on
 * the recorded grid (a jiffies timer is due when jiffies reaches its
 * expiry); the replay starts a core timer for the first jiffy of H that
 * begins then or later (nsecs_to_jiffies, which rounds up) or, "as Linux
 * would", for the bucket Linux's wheel files that jiffy in. A restart of a
 * pending timer is mod_timer; a cancel is del_timer; a recorded expiry
 * lets the replayed timer go on to fire when the core says, apart from
 * the timer's next start. hrtimers are not the tick's business: each
 * recorded hrtimer expiry (the tick's own excepted) is an interrupt at
 * its recorded time, whatever H.
 *
 * As Linux would, with nohz: a deferrable timer (flags=D) never wakes an
 * idle CPU; it waits, outside the core's wheel, for the first interrupt of
 * the tick at or after its bucket's jiffy. And the idle loop keeps the
 * tick running where the recorded CPU kept it, or where Linux's idle
 * governor would (it expects to sleep less than a tick).
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

#define WAKE_NS	       30000ULL /* interrupts this close are one wakeup (as source.c) */
#define READ_RECS      8192
#define LOOKAHEAD_RECS 1024
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
	u64 id;
	bool pre;    /* pending before the trace: no lateness to measure */
	bool mapped; /* still the timer's current start */
	size_t hidx; /* 1 + its place in the deferred heap, 0 if not there */
	u64 due;     /* deferred: the start of its jiffy, simulated ns */
	struct inst *prev, *next;
	struct ctx *ctx;
};

struct ctx {
	const struct source *s;
	const struct options *o;
	struct result *r;
	struct map live; /* timer -> struct inst * of its current start */
	struct inst *all;
	u64 win_lo, win_hi; /* the trace's span, simulated ns */
	u64 now;
	bool idle;
	bool retain; /* idle, but the tick kept: Linux's idle governor expects a short sleep */
	u64 idle_from;
	bool any_wake;
	u64 last_wake;
	struct inst **heap; /* deferred timers, soonest first */
	size_t nheap, capheap;
	u64 last_run; /* the last tick that ran timers */
	bool any_run;
	unsigned int hz;	 /* now */
	u64 anchor_j, anchor_ns; /* jiffy anchor_j + k begins at anchor_ns + k periods */
	unsigned int step;	 /* the next --retune change */
	u64 next_window;	 /* --retune-auto: the end of this second */
	double window_busy;	 /* busy_ns when it began */
};

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
	c->r->energy_j += idle_energy(o, len, &st);
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
		map_del(&c->live, in->id);
	if (in->hidx)
		heap_remove(c, in);
	free(in);
}

static void finish(struct ctx *c, struct inst *in, u64 now)
{
	if (!c->any_run || c->last_run != now)
		c->r->timer_ticks++;
	c->any_run = true;
	c->last_run = now;
	c->r->fired++;
	if (!in->pre) {
		if (now < in->treq)
			c->r->early++;
		else
			hist_add(&c->r->late, now - in->treq, 1);
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
	wake(c, cycles);
	while (c->nheap && c->heap[0]->due <= cycles) {
		struct inst *in = c->heap[0];

		heap_remove(c, in);
		if (cycles > in->due)
			c->r->deferred++;
		finish(c, in, cycles);
	}
}

/* From simulated ns from to t: busy time, if busy, within the trace's span. */
static void account(struct ctx *c, u64 from, u64 t)
{
	u64 a = from > c->win_lo ? from : c->win_lo, b = t < c->win_hi ? t : c->win_hi;

	if (!c->idle && b > a)
		c->r->busy_ns += (double)(b - a);
}

/* Time passes to simulated ns t, busy or idle as decided at the last local event. */
static void advance(struct ctx *c, u64 t)
{
	u64 from = c->now;

	/* Whole cycles from the core's own count: rounding never accumulates. */
	t -= t % NS_PER_CYC;
	if (t <= c->now)
		return;
	dynhz_host_pass(t - dynhz_host_cycles() * NS_PER_CYC, c->idle && !c->retain);
	c->now = t;
	account(c, from, t);
}

/* The length of a jiffy at the current HZ, in simulated ns (whole cycles). */
static u64 period_ns(const struct ctx *c)
{
	return dynhz_host_period(c->hz).num * NS_PER_CYC;
}

/*
 * The next change of the schedule, at simulated ns t: the core waits for
 * its next tick (the time moves to it), changes HZ there and re-expresses
 * every pending timer. That tick began jiffy J, the last of the old rate;
 * J + k begins k new periods after it.
 */
static void retune_at(struct ctx *c, u64 t, unsigned int hz)
{
	u64 from;
	int err;

	advance(c, t);
	from = c->now;
	err = dynhz_host_retune(hz);
	if (err)
		fprintf(stderr, "hzadvise: retune to hz=%u: %s\n", hz, dynhz_host_last_line());
	c->now = dynhz_host_cycles() * NS_PER_CYC;
	account(c, from, c->now);
	/* The current HZ: the core changed nothing, nor waited for a tick. */
	if (err || hz == c->hz)
		return;
	c->hz = hz;
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
		busy = (r->busy_ns - c->window_busy) / AUTO_WINDOW_NS;
		hz = busy * 100 > AUTO_BUSY_PCT ? r->auto_busy : r->auto_idle;
		auto_log(r, busy, at - c->win_lo, hz, hz != c->hz);
		if (hz != c->hz)
			retune_at(c, at, hz);
		/* The time the change waited for its tick counts in the next second. */
		c->window_busy = r->busy_ns;
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

static void start(struct ctx *c, const struct rec *r)
{
	s64 want = source_jiffy_mono(c->s, r->expires);
	u64 treq = want > (s64)c->now ? (u64)want : c->now;
	unsigned long exp = jiffy_at(c, treq);
	uint64_t *v = map_get(&c->live, r->id);
	struct inst *in;

	if (c->o->wheel_linux && !(r->flags & RF_PRE))
		exp = (unsigned long)linux_bucket_expiry(exp, jiffies, c->hz);
	if (v) {
		in = (struct inst *)(uintptr_t)*v;
	} else {
		in = calloc(1, sizeof(*in));
		if (!in)
			abort();
		timer_setup(&in->t, fire, 0);
		in->id = r->id;
		in->ctx = c;
		in->next = c->all;
		if (c->all)
			c->all->prev = in;
		c->all = in;
		in->mapped = true;
		map_put(&c->live, r->id, (uint64_t)(uintptr_t)in);
	}
	in->treq = treq;
	in->pre = r->flags & RF_PRE;
	if (in->hidx)
		heap_remove(c, in);
	if (c->o->wheel_linux && c->r->nohz && (r->flags & RF_DEFER)) {
		del_timer(&in->t);
		in->due = c->anchor_ns + (u64)(exp - (unsigned long)c->anchor_j) * period_ns(c);
		heap_push(c, in);
	} else {
		mod_timer(&in->t, exp);
	}
	if (!in->pre)
		c->r->started++;
}

static void cancel(struct ctx *c, const struct rec *r)
{
	uint64_t *v = map_get(&c->live, r->id);
	struct inst *in;

	if (!v)
		return;
	in = (struct inst *)(uintptr_t)*v;
	del_timer(&in->t);
	unlink_inst(c, in);
}

/* Recorded: it fired. The replayed one fires when the core says; a new start is a new timer. */
static void expired(struct ctx *c, const struct rec *r)
{
	uint64_t *v = map_get(&c->live, r->id);

	if (!v)
		return;
	((struct inst *)(uintptr_t)*v)->mapped = false;
	map_del(&c->live, r->id);
}

static u64 sim_time(const struct ctx *c, u64 ts)
{
	s64 t = (s64)(ts - c->s->mono_offset);

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
	u64 period = (1000000000ULL + c->hz / 2) / c->hz;

	for (n = r + 1; n < end; n++)
		if ((n->flags & RF_LOCAL) && !(n->flags & RF_TICK))
			return n->ts - r->ts < period;
	return false; /* nothing more: a long sleep */
}

static void one(struct ctx *c, const struct rec *r, const struct rec *end)
{
	retune_due(c, sim_time(c, r->ts));
	auto_due(c, sim_time(c, r->ts));
	advance(c, sim_time(c, r->ts));
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
		break;
	default:
		break;
	}
	if (r->flags & RF_LOCAL) {
		set_busy(c, (r->flags & RF_BUSY_ON) &&
				    r->next_ts - r->ts <= c->s->tick_nsec + c->s->tick_nsec / 2);
		/* As Linux would: the tick stays where the recorded one stayed, or the governor keeps it. */
		if (c->idle && c->o->wheel_linux && c->r->nohz)
			c->retain = (r->flags & RF_TICK_ON) ||
				    (!(r->flags & RF_TICK) && governor_keeps_tick(c, r, end));
	}
	c->r->events++;
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

void replay_cpu(const struct source *s, unsigned int cpu, const struct options *o, struct result *r)
{
	struct ctx c = { .s = s, .o = o, .r = r, .idle = true, .hz = r->hz };
	struct rec buf[READ_RECS];
	size_t n;

	c.win_lo = sim_time(&c, s->first_ts);
	c.win_hi = sim_time(&c, s->last_ts);
	c.next_window = c.win_lo + AUTO_WINDOW_NS;
	map_init(&c.live);
	boot(&c);
	c.anchor_j = jiffies_64 - dz_tick_count(); /* jiffies at boot, time 0 */
	fast_forward(&c);
	dynhz_host_set_irq_hook(on_irq, &c);
	for (size_t i = 0; i < s->npre; i++)
		if (s->pre_cpu[i] == cpu)
			start(&c, &s->pre[i]);
	if (s->spool[cpu]) {
		size_t have = 0, at = 0;
		bool eof = false;

		rewind(s->spool[cpu]);
		/* A window of records: each sees up to LOOKAHEAD_RECS after it. */
		for (;;) {
			if (!eof && have - at < LOOKAHEAD_RECS) {
				memmove(buf, buf + at, (have - at) * sizeof(buf[0]));
				have -= at;
				at = 0;
				n = fread(buf + have, sizeof(buf[0]), READ_RECS - have,
					  s->spool[cpu]);
				have += n;
				eof = n == 0;
			}
			if (at == have)
				break;
			one(&c, &buf[at], buf + have);
			at++;
		}
	}
	retune_due(&c, c.win_hi);
	auto_due(&c, c.win_hi);
	advance(&c, c.win_hi);
	if (c.idle)
		close_idle(&c, c.win_hi);
	dynhz_host_set_irq_hook(NULL, NULL);
	r->tick_cpu_ns = (double)r->interrupts * o->tick_ns + (double)r->fired * o->timer_ns +
			 (double)r->timer_ticks * o->run_ns;
	r->energy_j += o->busy_w * (r->busy_ns + r->tick_cpu_ns) / 1e9;
	while (c.all) {
		del_timer(&c.all->t);
		unlink_inst(&c, c.all);
	}
	map_free(&c.live);
	free(c.heap);
}

void result_init(struct result *r, unsigned int hz, bool nohz)
{
	memset(r, 0, sizeof(*r));
	r->hz = hz;
	r->nohz = nohz;
	hist_init(&r->late);
	hist_init(&r->idle);
}

const char *result_hz(const struct result *r, char *buf, size_t len)
{
	size_t at;

	if (r->auto_busy) {
		snprintf(buf, len, "auto:%u:%u", r->auto_busy, r->auto_idle);
		return buf;
	}
	at = (size_t)snprintf(buf, len, r->retune ? "%u@0" : "%u", r->hz);

	for (unsigned int i = 0; i < r->nretune && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, ">%u@%.9g", r->retune[i].hz,
				       (double)r->retune[i].at_ns / 1e9);
	return buf;
}

void result_free(struct result *r)
{
	free(r->chosen);
	free(r->window_busy);
	hist_free(&r->late);
	hist_free(&r->idle);
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
}
