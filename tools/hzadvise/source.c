// SPDX-License-Identifier: MIT
/*
 * The first pass: reads the trace once, as a stream, and
 *  - infers the recording machine's HZ (its jiffies against the
 *    timestamps) and tick mode (tick_stop, and gaps in its tick);
 *  - counts the wakeups it shows: interrupts of the hrtimer hardware, each
 *    a run of hrtimer expiries on one CPU (the tick's included) closer
 *    together than WAKE_NS;
 *  - measures the lateness of its jiffies timers (timer_expire_entry now=
 *    against the expires= they were started with);
 *  - spools each CPU's events, as struct rec, for the replays: timers go
 *    to the CPU whose wheel holds them (timer_start cpu=), and every event
 *    marks the CPU that logged it busy (a task ran) or idle (pid 0).
 * Memory follows the timers pending, not the trace.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hzadvise.h"
#include "map.h"
#include "trace.h"

#define WAKE_NS	  30000ULL /* expiries this close are one interrupt */
#define MAX_PAIRS 512	   /* (time, jiffies) pairs kept to place the jiffy grid */
#define MAX_CPUS  4096

struct cpu1 {
	FILE *spool;
	bool held;
	struct rec last;   /* the last local record, waiting for the next one's time */
	struct rec *queue; /* records from other CPUs after it */
	size_t nq, capq;
	bool cancel_held;
	struct rec cancel; /* a timer_cancel, until we know it is not an expiry's */
	unsigned int cancel_owner;
	u64 last_hr; /* the last hrtimer expiry, for wakeups */
	bool any_hr;
	u64 last_tick_exp;   /* the tick's last expiry (trace clock) */
	u64 last_tick_start; /* the tick's last programmed expiry */
	bool any_tick_exp, any_tick_start;
	u64 wakeups, recs;
};

struct pass {
	struct source *s;
	struct cpu1 *cpu;
	unsigned int ncpu;
	struct map owner;   /* timer -> (owner cpu << 48) ... see put_owner */
	struct map expires; /* timer -> expires of its last start */
	struct hist late_j; /* observed lateness in jiffies */
	struct hist tick_gap;
	u64 pair_t[MAX_PAIRS], pair_j[MAX_PAIRS];
	unsigned int npairs;
	bool have_first_pair;
	u64 first_pair_t, first_pair_j, last_pair_t, last_pair_j;
	u64 min_tick_step; /* smallest step between two programmed tick expiries */
	u64 first_tick_expires;
	u64 tick_gcd; /* of the tick's programmed expiries: TICK_NSEC, or a multiple */
	bool any_tick_start;
	u64 off_tick, off_any; /* min(trace clock - now) */
	bool have_off_tick, have_off_any;
	struct rec *pre; /* timers that fired with no start in the trace */
	unsigned int *pre_cpu;
	size_t npre, cappre;
	char *err;
	size_t errlen;
	int failed;
};

static struct cpu1 *cpu_of(struct pass *p, unsigned int c)
{
	if (c >= p->ncpu) {
		unsigned int n = c + 1;

		p->cpu = realloc(p->cpu, n * sizeof(*p->cpu));
		if (!p->cpu)
			abort();
		memset(p->cpu + p->ncpu, 0, (n - p->ncpu) * sizeof(*p->cpu));
		p->ncpu = n;
	}
	return &p->cpu[c];
}

static void spool_write(struct pass *p, struct cpu1 *k, const struct rec *r)
{
	if (!k->spool) {
		k->spool = tmpfile();
		if (!k->spool) {
			if (!p->failed)
				snprintf(p->err, p->errlen, "cannot create a spool file: %s",
					 strerror(errno));
			p->failed = 1;
			return;
		}
	}
	if (fwrite(r, sizeof(*r), 1, k->spool) != 1 && !p->failed) {
		snprintf(p->err, p->errlen, "cannot write a spool file: %s", strerror(errno));
		p->failed = 1;
	}
	k->recs++;
}

/* The held local record learns its successor's time; it and its queue go out. */
static void flush_held(struct pass *p, struct cpu1 *k, const struct rec *next)
{
	if (!k->held)
		return;
	k->last.next_ts = next ? next->ts : UINT64_MAX;
	if (next && (k->last.flags & RF_BUSY) && (next->flags & RF_BUSY))
		k->last.flags |= RF_BUSY_ON;
	/* Idle, and the recorded tick came a period later: it was kept running. */
	if (next && (next->flags & RF_TICK) && next->type == REC_MARK &&
	    (next->flags & RF_IDLE_TICK) && p->min_tick_step &&
	    next->ts - k->last.ts <= p->min_tick_step + p->min_tick_step / 2)
		k->last.flags |= RF_TICK_ON;
	spool_write(p, k, &k->last);
	for (size_t i = 0; i < k->nq; i++)
		spool_write(p, k, &k->queue[i]);
	k->nq = 0;
	k->held = false;
}

static void emit_local(struct pass *p, unsigned int c, const struct rec *r)
{
	struct cpu1 *k = cpu_of(p, c);

	flush_held(p, k, r);
	k->last = *r;
	k->last.flags |= RF_LOCAL;
	k->held = true;
}

static void emit_remote(struct pass *p, unsigned int c, const struct rec *r)
{
	struct cpu1 *k = cpu_of(p, c);

	if (!k->held) {
		spool_write(p, k, r);
		return;
	}
	if (k->nq == k->capq) {
		k->capq = k->capq ? 2 * k->capq : 16;
		k->queue = realloc(k->queue, k->capq * sizeof(*k->queue));
		if (!k->queue)
			abort();
	}
	k->queue[k->nq++] = *r;
}

/* A record for CPU owner, logged on CPU c: where c is not the owner, c gets a mark. */
static void route(struct pass *p, unsigned int c, unsigned int owner, struct rec *r)
{
	if (owner == c) {
		emit_local(p, c, r);
		return;
	}
	emit_remote(p, owner, r);
	r->type = REC_MARK;
	emit_local(p, c, r);
}

static unsigned int owner_of(struct pass *p, u64 id, unsigned int dflt)
{
	u64 *o = map_get(&p->owner, id);

	return o ? (unsigned int)*o : dflt;
}

/* A copy goes out: routing may grow p->cpu, and k with it. */
static void release_cancel(struct pass *p, struct cpu1 *k, unsigned int c)
{
	struct rec r = k->cancel;

	if (!k->cancel_held)
		return;
	k->cancel_held = false;
	map_del(&p->owner, r.id);
	map_del(&p->expires, r.id);
	route(p, c, k->cancel_owner, &r);
}

static void add_pair(struct pass *p, u64 t, u64 j)
{
	if (!p->have_first_pair) {
		p->have_first_pair = true;
		p->first_pair_t = t;
		p->first_pair_j = j;
	}
	p->last_pair_t = t;
	p->last_pair_j = j;
	if (p->npairs < MAX_PAIRS) {
		p->pair_t[p->npairs] = t;
		p->pair_j[p->npairs++] = j;
	}
}

static void observe_hrtimer_expiry(struct pass *p, struct cpu1 *k, const struct hz_event *e)
{
	u64 off = e->ts_ns - e->now;

	if (!k->any_hr || e->ts_ns - k->last_hr > WAKE_NS)
		k->wakeups++;
	k->any_hr = true;
	k->last_hr = e->ts_ns;
	if (e->ts_ns < e->now || off > 100000000000ULL)
		return; /* another clock's base (realtime) */
	if (e->tick && (!p->have_off_tick || off < p->off_tick)) {
		p->off_tick = off;
		p->have_off_tick = true;
	}
	if (!p->have_off_any || off < p->off_any) {
		p->off_any = off;
		p->have_off_any = true;
	}
}

static u64 gcd(u64 a, u64 b)
{
	while (b) {
		u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static void observe_tick(struct pass *p, struct cpu1 *k, const struct hz_event *e)
{
	if (e->type == HZ_EV_HRTIMER_EXPIRE) {
		if (k->any_tick_exp && e->ts_ns > k->last_tick_exp)
			hist_add(&p->tick_gap, e->ts_ns - k->last_tick_exp, 1);
		k->last_tick_exp = e->ts_ns;
		k->any_tick_exp = true;
		p->s->tick_expiries++;
	} else if (e->type == HZ_EV_HRTIMER_START) {
		if (!p->any_tick_start) {
			p->first_tick_expires = e->expires;
			p->any_tick_start = true;
		}
		if (k->any_tick_start && e->expires > k->last_tick_start &&
		    (!p->min_tick_step || e->expires - k->last_tick_start < p->min_tick_step))
			p->min_tick_step = e->expires - k->last_tick_start;
		k->last_tick_start = e->expires;
		k->any_tick_start = true;
		p->tick_gcd = gcd(p->tick_gcd, e->expires);
	}
}

static void add_pre(struct pass *p, unsigned int c, const struct rec *r)
{
	if (p->npre == p->cappre) {
		p->cappre = p->cappre ? 2 * p->cappre : 64;
		p->pre = realloc(p->pre, p->cappre * sizeof(*p->pre));
		p->pre_cpu = realloc(p->pre_cpu, p->cappre * sizeof(*p->pre_cpu));
		if (!p->pre || !p->pre_cpu)
			abort();
	}
	p->pre[p->npre] = *r;
	p->pre_cpu[p->npre++] = c;
}

static void check_bucket(struct source *s, const struct hz_event *e)
{
	u64 clk = e->expires - (u64)e->timeout;
	u64 b8 = linux_bucket_expiry(e->expires, clk, 100);
	u64 b9 = linux_bucket_expiry(e->expires, clk, 1000);

	if (b8 != b9)
		return; /* depends on HZ, which is not known yet */
	s->bucket_checked++;
	s->bucket_matched += b8 == e->bucket;
}

static void on_timer(struct pass *p, unsigned int c, const struct hz_event *e, struct rec *r)
{
	unsigned int owner;
	u64 *exp;

	switch (e->type) {
	case HZ_EV_TIMER_START:
		owner = (e->has & HZ_HAS_TCPU) && e->tcpu < MAX_CPUS ? e->tcpu : c;
		map_put(&p->owner, e->id, owner);
		map_put(&p->expires, e->id, e->expires);
		if (e->has & HZ_HAS_TIMEOUT) {
			add_pair(p, e->ts_ns, e->expires - (u64)e->timeout);
			if (e->has & HZ_HAS_BUCKET)
				check_bucket(p->s, e);
		}
		r->type = REC_START;
		r->expires = e->expires;
		if (e->tflags & HZ_TF_DEFERRABLE)
			r->flags |= RF_DEFER;
		route(p, c, owner, r);
		break;
	case HZ_EV_TIMER_CANCEL:
		/* Held: Linux logs one just before each expiry too. */
		cpu_of(p, c)->cancel_held = true;
		r->type = REC_CANCEL;
		p->cpu[c].cancel = *r;
		p->cpu[c].cancel_owner = owner_of(p, e->id, c);
		break;
	default: /* HZ_EV_TIMER_EXPIRE */
		add_pair(p, e->ts_ns, e->now);
		exp = map_get(&p->expires, e->id);
		if (exp) {
			hist_add(&p->late_j, e->now > *exp ? e->now - *exp : 0, 1);
			p->s->fired++;
			map_del(&p->expires, e->id);
			map_del(&p->owner, e->id);
		} else {
			struct rec pre = *r;

			pre.type = REC_START;
			pre.flags = RF_PRE;
			pre.expires = e->now;
			add_pre(p, c, &pre);
		}
		r->type = REC_EXPIRE;
		emit_local(p, c, r);
		break;
	}
}

static void on_event(struct pass *p, const struct hz_event *e)
{
	unsigned int c = e->cpu;
	struct cpu1 *k = cpu_of(p, c);
	struct rec r = { .ts = e->ts_ns, .id = e->id, .type = REC_MARK };

	if (!(e->has & HZ_HAS_PID) || e->pid != 0)
		r.flags |= RF_BUSY;
	if (k->cancel_held) {
		if (e->type == HZ_EV_TIMER_EXPIRE && e->id == k->cancel.id)
			k->cancel_held = false; /* the expiry's own */
		else
			release_cancel(p, k, c);
		k = cpu_of(p, c);
	}
	if (!p->s->events++)
		p->s->first_ts = e->ts_ns;
	if (e->ts_ns > p->s->last_ts)
		p->s->last_ts = e->ts_ns;
	switch (e->type) {
	case HZ_EV_TIMER_START:
	case HZ_EV_TIMER_CANCEL:
	case HZ_EV_TIMER_EXPIRE:
		on_timer(p, c, e, &r);
		return;
	case HZ_EV_HRTIMER_EXPIRE:
		observe_hrtimer_expiry(p, k, e);
		if (!e->tick)
			r.type = REC_HRIRQ;
		break;
	case HZ_EV_TICK_STOP:
		p->s->tick_stops += e->success;
		break;
	default:
		break;
	}
	if (e->tick || e->type == HZ_EV_TICK_STOP)
		r.flags |= RF_TICK;
	if (e->tick)
		observe_tick(p, k, e);
	if (e->tick && e->type == HZ_EV_HRTIMER_EXPIRE && !(r.flags & RF_BUSY))
		r.flags |= RF_IDLE_TICK;
	emit_local(p, c, &r);
}

/*
 * HZ from jiffies against time, over 0.2 s or more. A shorter trace
 * gives a rough rate, made exact by the tick's hrtimer, which Linux
 * programs on multiples of TICK_NSEC: their greatest common divisor is
 * TICK_NSEC times a whole number, the one the rough rate says.
 */
static void infer_hz(struct pass *p, const struct options *o)
{
	struct source *s = p->s;
	u64 dt = p->last_pair_t - p->first_pair_t, dj = p->last_pair_j - p->first_pair_j;
	double rough = p->have_first_pair && dt && dj >= 2 ? (double)dj * 1e9 / (double)dt : 0;
	u64 g = p->tick_gcd;
	double hz;

	(void)o;
	if (rough && dt >= 200000000ULL && dj >= 10) {
		hz = rough;
		s->hz_how = "jiffies against timestamps";
	} else if (g >= 50000 && (rough || g <= 1000000000ULL / 19)) {
		double k = rough ? (double)g * rough / 1e9 : 1;

		k = k < 1 ? 1 : (double)(u64)(k + 0.5);
		hz = 1e9 * k / (double)g;
		s->hz_how = "the tick's grid";
	} else if (rough) {
		hz = rough;
		s->hz_how = "jiffies against timestamps, over a short span";
	} else if (p->min_tick_step) {
		hz = 1e9 / (double)p->min_tick_step;
		s->hz_how = "the tick's period";
	} else {
		hz = 250;
		s->hz_how = "a guess: the trace shows neither jiffies nor the tick";
	}
	if (hz < 19)
		hz = 19;
	if (hz > 10000)
		hz = 10000;
	s->hz = (unsigned int)(hz + 0.5);
	s->tick_nsec = (1000000000ULL + s->hz / 2) / s->hz;
}

static void infer_mode(struct pass *p)
{
	struct source *s = p->s;
	u64 long_gaps = 0, step = s->tick_nsec;

	for (unsigned int i = 0; i < HIST_BUCKETS; i++)
		if (hist_bucket_low(i) > 2 * step + step / 2)
			long_gaps += p->tick_gap.count[i];
	if (s->tick_stops) {
		s->nohz = true;
		s->mode_how = "tick_stop events";
	} else if (long_gaps) {
		s->nohz = true;
		s->mode_how = "the tick skipped jiffies";
	} else if (s->tick_expiries) {
		s->nohz = false;
		s->mode_how = "the tick never stopped";
	} else {
		s->nohz = false;
		s->mode_how = "no tick hrtimer: a periodic low-resolution tick";
	}
}

/*
 * The jiffy grid: boundaries at phase + k·tick_nsec in CLOCK_MONOTONIC
 * (the tick's hrtimer is programmed on them), and which jiffy each is:
 * the most common jiffies - k over the (time, jiffies) pairs kept.
 */
static void place_grid(struct pass *p)
{
	struct source *s = p->s;
	s64 cand[16];
	unsigned int votes[16], ncand = 0, best = 0;

	s->mono_offset = p->have_off_tick ? p->off_tick : p->have_off_any ? p->off_any : 0;
	s->phase = p->any_tick_start ? p->first_tick_expires % s->tick_nsec : 0;
	for (unsigned int i = 0; i < p->npairs; i++) {
		s64 mono = (s64)(p->pair_t[i] - s->mono_offset) - (s64)s->phase;
		s64 k = mono >= 0 ? mono / (s64)s->tick_nsec : -1;
		s64 d = (s64)p->pair_j[i] - k;
		unsigned int j;

		for (j = 0; j < ncand && cand[j] != d; j++)
			;
		if (j == ncand && ncand < 16) {
			cand[ncand] = d;
			votes[ncand++] = 0;
		}
		if (j < ncand)
			votes[j]++;
	}
	for (unsigned int j = 1; j < ncand; j++)
		if (votes[j] > votes[best])
			best = j;
	s->jiffy_at_k0 = ncand ? cand[best] : 0;
}

s64 source_jiffy_mono(const struct source *s, u64 j)
{
	return (s64)s->phase + ((s64)j - s->jiffy_at_k0) * (s64)s->tick_nsec;
}

static void finish(struct pass *p, const struct options *o)
{
	struct source *s = p->s;
	double span;

	for (unsigned int c = 0; c < p->ncpu; c++) {
		release_cancel(p, &p->cpu[c], c);
		flush_held(p, &p->cpu[c], NULL);
	}
	infer_hz(p, o);
	infer_mode(p);
	place_grid(p);
	span = (double)(s->last_ts - s->first_ts) / 1e9;
	s->ncpu = p->ncpu;
	s->spool = calloc(p->ncpu, sizeof(*s->spool));
	s->cpu_wakeups = calloc(p->ncpu, sizeof(u64));
	s->cpu_events = calloc(p->ncpu, sizeof(u64));
	if (!s->spool || !s->cpu_wakeups || !s->cpu_events)
		abort();
	for (unsigned int c = 0; c < p->ncpu; c++) {
		s->spool[c] = p->cpu[c].spool;
		s->cpu_events[c] = p->cpu[c].recs;
		s->cpu_wakeups[c] = p->cpu[c].wakeups;
		/* A low-resolution tick shows no hrtimer: it fired HZ times a second. */
		if (!s->tick_expiries)
			s->cpu_wakeups[c] += (u64)(span * s->hz + 0.5);
		s->wakeups += s->cpu_wakeups[c];
		free(p->cpu[c].queue);
	}
	for (unsigned int i = 0; i < HIST_BUCKETS; i++)
		if (p->late_j.count[i])
			hist_add(&s->late, hist_bucket_low(i) * s->tick_nsec, p->late_j.count[i]);
	s->pre = p->pre;
	s->pre_cpu = p->pre_cpu;
	s->npre = p->npre;
}

int source_read(const char *path, const struct options *o, struct source *s, char *err,
		size_t errlen)
{
	struct pass p = { .s = s, .err = err, .errlen = errlen };
	struct hz_reader *r;
	struct hz_event e;
	const struct hz_reader_stats *st;
	int got, rc = 0;

	memset(s, 0, sizeof(*s));
	hist_init(&s->late);
	r = hz_open(path, err, errlen);
	if (!r) {
		hist_free(&s->late);
		return -1;
	}
	map_init(&p.owner);
	map_init(&p.expires);
	hist_init(&p.late_j);
	hist_init(&p.tick_gap);
	while ((got = hz_next(r, &e)) > 0 && !p.failed)
		on_event(&p, &e);
	st = hz_stats(r);
	s->lines = st->lines;
	s->unknown = st->unknown;
	if (got < 0) {
		snprintf(err, errlen, "%s: %s", path, hz_error(r));
		rc = -1;
	}
	if (hz_close(r) && !rc) {
		snprintf(err, errlen, "%s: %s", path, hz_error(r));
		rc = -1;
	}
	if (!rc && p.failed)
		rc = -1;
	if (!rc && !s->events) {
		snprintf(err, errlen,
			 "%s: no timer events in %llu lines (is it an ftrace timer trace?)", path,
			 (unsigned long long)s->lines);
		rc = -1;
	}
	if (!rc)
		finish(&p, o);
	map_free(&p.owner);
	map_free(&p.expires);
	hist_free(&p.late_j);
	hist_free(&p.tick_gap);
	if (rc) {
		for (unsigned int c = 0; c < p.ncpu; c++) {
			if (p.cpu[c].spool)
				fclose(p.cpu[c].spool);
			free(p.cpu[c].queue);
		}
		free(p.pre);
		free(p.pre_cpu);
		hist_free(&s->late);
	}
	free(p.cpu);
	return rc;
}

void source_free(struct source *s)
{
	for (unsigned int c = 0; c < s->ncpu; c++)
		if (s->spool[c])
			fclose(s->spool[c]);
	free(s->spool);
	free(s->cpu_wakeups);
	free(s->cpu_events);
	free(s->pre);
	free(s->pre_cpu);
	hist_free(&s->late);
}
