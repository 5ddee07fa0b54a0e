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
 *    marks the CPU that logged it busy or idle: from sched_switch (a task
 *    or the idle task runs next) or cpu_idle when the trace has them,
 *    else from the task that logged it (the idle task is pid 0);
 *  - says whose each timer is (struct prog), and which schedule_timeout
 *    starts follow their own timer's expiry (a task's loop: RF_CHAIN);
 *  - ends a task's sleep (a process_timeout or hrtimer_wakeup timer it
 *    started itself) where the trace shows the task woken by another
 *    (sched_wakeup or sched_waking before the timer's expiry): a cancel
 *    at that time, and the expiry that may still follow, before the task
 *    ran to cancel it, is no firing. Other wakeups are passed over;
 *  - drops, counts and reports events whose timestamp goes back on their
 *    CPU, or leaps more than a minute ahead of the trace.
 * Memory follows the timers and programs, not the trace.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hzadvise.h"
#include "map.h"
#include "trace.h"

#define WAKE_NS	   30000ULL /* expiries this close are one interrupt */
#define MAX_PAIRS  512	    /* (time, jiffies) pairs kept to place the jiffy grid */
#define MAX_CPUS   4096
#define CHAIN_NS   50000000ULL	  /* a start this soon after its timer's expiry continues a loop */
#define JUMP_NS	   60000000000ULL /* a timestamp this far ahead of the trace is corrupt */
#define OFF_MAX_NS 100000000000LL /* the trace clock and CLOCK_MONOTONIC at most 100 s apart */
#define NBLOCKS	   20		  /* the span's blocks, for the uncertainties */
#define NBINS	   (NBLOCKS * 64) /* observed wakeups' bins, halved in number as needed */

/*
 * Records written to a spool at once, by one write(2) (the spool's stdio
 * is unbuffered): 32 KiB a call, where stdio's 4 KiB a call cost 0.4 s
 * more of system time on 10 M lines (docs/ADVISOR.md).
 */
#define SPOOL_RECS 1024

struct cpu1 {
	FILE *spool;
	struct rec *out; /* [SPOOL_RECS], waiting to be written: one fwrite for many */
	unsigned int nout;
	bool held;
	struct rec last;   /* the last local record, waiting for the next one's time */
	struct rec *queue; /* records from other CPUs after it */
	size_t nq, capq;
	bool cancel_held;
	struct rec cancel; /* a timer_cancel, until we know it is not an expiry's */
	u64 cancel_id;
	unsigned int cancel_owner;
	u64 last_hr; /* the last hrtimer expiry, for wakeups */
	bool any_hr;
	u64 last_ts; /* the last accepted timestamp */
	bool any_ts;
	u64 back;     /* events dropped: they went back */
	int32_t cur;  /* the task running: from sched_switch, -1 unknown */
	bool idle_ev; /* cpu_idle says idle (when there is no sched_switch) */
	bool has_switch, has_idle;
	u64 last_tick_exp;   /* the tick's last expiry (trace clock) */
	u64 last_tick_start; /* the tick's last programmed expiry */
	bool any_tick_exp, any_tick_start;
	bool task_since_tick; /* a task logged an event since the tick's last expiry */
	u64 wakeups, recs;
	uint16_t
		stk_bud; /* a task's sleep of this budget (1 + index) was started: its stack next */
	int32_t stk_pid;
};

/* A stack trace being read (record.sh's trigger on a task's schedule_timeout). */
#define STK_FRAMES 40
struct stack {
	bool in;      /* its frames come now */
	uint16_t bud; /* the budget it tells the call of (1 + index), or 0 */
	unsigned int n;
	char frame[STK_FRAMES][48];
};

/* What the pass knows of each timer, by its interned index. */
struct tinfo {
	u64 expires;	 /* of its last start (jiffies), or softexpires (hrtimers) */
	u64 start_j;	 /* jiffies timers: jiffies at the last start (from [timeout=]), or 0 */
	u64 last_fire;	 /* its last expiry, or a task's sleep's cancel: trace clock */
	u64 bucket;	 /* jiffies timers: the jiffy Linux's wheel filed its last start for */
	u64 excess;	 /* its last expiry came this many jiffies after that one (softirq late) */
	int32_t pid;	 /* who started it last */
	uint8_t prog;	 /* whose */
	bool pending;	 /* started, not yet expired or cancelled */
	bool fired_last; /* its last end was an expiry, or a task's sleep cut short */
	bool sleep;	 /* a task's process_timeout */
	bool own;   /* a task's own sleep (process_timeout, hrtimer_wakeup): a wakeup ends it */
	bool woken; /* its sleep was ended by a wakeup; its expiry may still come */
	bool hr;    /* an hrtimer */
	bool has_start_j;
	uint16_t bud;	   /* 1 + the budget of its last start (a task's jiffies sleep), or 0 */
	unsigned int home; /* a task's loop: 1 + the CPU its records all go to (0: none yet) */
};

struct pass {
	struct source *s;
	struct cpu1 *cpu;
	unsigned int ncpu;
	struct map owner; /* timer -> owner cpu */
	struct map ids;	  /* timer address -> index in t */
	struct tinfo *t;
	uint32_t nt, capt;
	struct map progs;   /* hash of (kind, name) -> index in s->prog */
	struct map sleeper; /* pid -> the address of the timer of its last own sleep */
	struct stack stk;
	u64 last_any; /* the latest accepted timestamp, any CPU */
	bool any_ts;
	u64 jump_ts; /* a leap ahead, waiting to be confirmed */
	unsigned int jump_n;
	u64 bin[NBINS]; /* observed wakeups per bin_ns of trace time from bin0 */
	u64 bin_ns, bin0;
	bool any_bin;
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
	s64 off_tick, off_any; /* min(trace clock - now), either way */
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

/* The records waiting for the CPU's spool go out. */
static void spool_flush(struct pass *p, struct cpu1 *k)
{
	if (!k->nout)
		return;
	if (fwrite(k->out, sizeof(*k->out), k->nout, k->spool) != k->nout && !p->failed) {
		snprintf(p->err, p->errlen, "cannot write a spool file: %s", strerror(errno));
		p->failed = 1;
	}
	k->nout = 0;
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
		k->out = malloc(SPOOL_RECS * sizeof(*k->out));
		if (!k->out || setvbuf(k->spool, NULL, _IONBF, 0))
			abort();
	}
	k->out[k->nout++] = *r;
	if (k->nout == SPOOL_RECS)
		spool_flush(p, k);
	k->recs++;
}

/* The held local record learns its successor's time; it and its queue go out. */
static void flush_held(struct pass *p, struct cpu1 *k, const struct rec *next)
{
	if (!k->held)
		return;
	k->last.aux = UINT32_MAX;
	if (next)
		k->last.aux = next->ts - k->last.ts < UINT32_MAX ? (uint32_t)(next->ts - k->last.ts)
								 : UINT32_MAX - 1;
	if (next && (k->last.flags & RF_BUSY) && (next->flags & RF_BUSY))
		k->last.flags |= RF_BUSY_ON;
	/*
	 * By the rule (no sched events): the tick logged in a task's context
	 * ran on a busy CPU, which had left idle by the local event before it
	 * when that is within the tick's reach. A task's burst between two
	 * events of the idle task (the tick restarted at the idle exit, then
	 * stopped at the next idle entry) logs nothing else, and was taken for
	 * idle: on a machine that idles often, a third of its ticks (issue 43).
	 */
	if (next && (next->flags & (RF_TICK | RF_BUSY | RF_SCHED)) == (RF_TICK | RF_BUSY) &&
	    !(k->last.flags & RF_SCHED) && p->min_tick_step &&
	    next->ts - k->last.ts <= p->min_tick_step + p->min_tick_step / 2)
		k->last.flags |= RF_BUSY | RF_BUSY_ON;
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
	r->flags &= (uint16_t) ~(RF_SLEEP | RF_CHAIN | RF_DEFER);
	emit_local(p, c, r);
}

static unsigned int owner_of(struct pass *p, u64 id, unsigned int dflt)
{
	u64 *o = map_get(&p->owner, id);

	return o ? (unsigned int)*o : dflt;
}

/* The timer's index: the same address is the same timer. */
static uint32_t intern(struct pass *p, u64 id)
{
	u64 *v = map_get(&p->ids, id);

	if (v)
		return (uint32_t)*v;
	if (p->nt == p->capt) {
		p->capt = p->capt ? 2 * p->capt : 256;
		p->t = realloc(p->t, p->capt * sizeof(*p->t));
		if (!p->t)
			abort();
	}
	memset(&p->t[p->nt], 0, sizeof(p->t[0]));
	p->t[p->nt].pid = -1;
	map_put(&p->ids, id, p->nt);
	return p->nt++;
}

/* A task's own sleep is over: only the pending ones are kept, not every task's. */
static void sleep_over(struct pass *p, struct tinfo *t)
{
	if (!t->own)
		return;
	t->own = false;
	map_del(&p->sleeper, (u64)(uint32_t)t->pid);
}

/*
 * The end of a sleep a wakeup already ended (the task's cancel, or its
 * timer's expiry before the task ran): nothing more ends, a mark.
 */
static void woken_end(struct pass *p, struct tinfo *t, unsigned int c, u64 id, struct rec *r)
{
	t->woken = false;
	map_del(&p->owner, id);
	r->type = REC_MARK;
	emit_local(p, c, r);
}

/*
 * Timer id cancelled at r->ts, its cancel r routed to the CPU whose wheel
 * holds it. A task's sleep cut short (the data it waited for came): if it
 * sleeps again soon, its loop goes on, the time it took counted as the gap.
 */
static void cut_short(struct pass *p, struct tinfo *t, unsigned int c, unsigned int owner, u64 id,
		      struct rec *r)
{
	t->fired_last = t->sleep;
	t->last_fire = r->ts;
	t->excess = 0;
	map_del(&p->owner, id);
	route(p, c, owner, r);
}

/* A copy goes out: routing may grow p->cpu, and k with it. */
static void release_cancel(struct pass *p, struct cpu1 *k, unsigned int c)
{
	struct rec r = k->cancel;
	struct tinfo *t = &p->t[r.idx];

	if (!k->cancel_held)
		return;
	k->cancel_held = false;
	if (t->woken) {
		woken_end(p, t, c, k->cancel_id, &r);
		return;
	}
	t->pending = false;
	sleep_over(p, t);
	cut_short(p, t, c, k->cancel_owner, k->cancel_id, &r);
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

/* An observed wakeup at ts into its bin; bins double in width when the trace outgrows them. */
static void bin_add(struct pass *p, u64 ts)
{
	u64 i;

	if (!p->any_bin) {
		p->any_bin = true;
		p->bin0 = ts;
		p->bin_ns = 10000000; /* 10 ms */
	}
	if (ts < p->bin0)
		ts = p->bin0;
	while ((i = (ts - p->bin0) / p->bin_ns) >= NBINS) {
		for (unsigned int j = 0; j < NBINS / 2; j++)
			p->bin[j] = p->bin[2 * j] + p->bin[2 * j + 1];
		memset(p->bin + NBINS / 2, 0, sizeof(p->bin) / 2);
		p->bin_ns *= 2;
	}
	p->bin[i]++;
}

static void observe_hrtimer_expiry(struct pass *p, struct cpu1 *k, const struct hz_event *e)
{
	s64 off = (s64)(e->ts_ns - e->now);

	if (!k->any_hr || e->ts_ns - k->last_hr > WAKE_NS) {
		k->wakeups++;
		bin_add(p, e->ts_ns);
	}
	k->any_hr = true;
	k->last_hr = e->ts_ns;
	/*
	 * The trace clock (sched_clock) and CLOCK_MONOTONIC start apart, either
	 * ahead (105 ms behind on the Linux port under QEMU); an hrtimer on
	 * another clock's base (realtime: decades ahead) is no measure of it.
	 */
	if (off > OFF_MAX_NS || off < -OFF_MAX_NS)
		return;
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
		/* It has mostly converged: a multiple of it leaves it as it is, at one division. */
		if (!p->tick_gcd || e->expires % p->tick_gcd)
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

/* ---- programs ---- */

bool kthread_name(const char *comm)
{
	static const char *const prefix[] = {
		"kworker/", "ksoftirqd/",     "migration/",  "rcu_",
		"rcu/",	    "kcompactd",      "kswapd",	     "khugepaged",
		"kthreadd", "watchdog",	      "jbd2/",	     "writeback",
		"kauditd",  "khungtaskd",     "oom_reaper",  "kblockd",
		"cpuhp/",   "idle_inject/",   "irq/",	     "kdevtmpfs",
		"ksmd",	    "kintegrityd",    "edac-poller", "kstrp",
		"scsi_",    "ext4-",	      "xfs",	     "btrfs",
		"md",	    "card",	      "kthrotld",    "ipv6_addrconf",
		"zswap",    "pool_workqueue", "kswapd",	     "kdamond",
	};

	/* The first letters of the prefixes: most comms (a task's, "task") begin with none. */
	static const bool first[256] = {
		['b'] = true, ['c'] = true, ['e'] = true, ['i'] = true, ['j'] = true,
		['k'] = true, ['m'] = true, ['o'] = true, ['p'] = true, ['r'] = true,
		['s'] = true, ['w'] = true, ['x'] = true, ['z'] = true,
	};

	if (!first[(unsigned char)comm[0]])
		return false;
	for (unsigned int i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (comm[0] == prefix[i][0] && !strncmp(comm, prefix[i], strlen(prefix[i])))
			return true;
	return false;
}

static u64 name_hash(const char *s, unsigned int kind)
{
	u64 h = 1469598103934665603ULL ^ kind;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The programs and the lateness histograms, freed. */
static void progs_free(struct source *s)
{
	for (unsigned int g = 0; g < s->nprog; g++) {
		hist_free(&s->prog[g].late);
		hist_free(&s->prog[g].req_j);
	}
	free(s->prog);
	hist_free(&s->late);
	for (unsigned int b = 0; b < s->nbudget; b++) {
		hist_free(&s->budget[b].late);
		hist_free(&s->budget[b].req_j);
	}
	free(s->budget);
	s->budget = NULL;
	s->nbudget = 0;
	if (s->budget_map) {
		map_free(s->budget_map);
		free(s->budget_map);
		s->budget_map = NULL;
	}
}

/*
 * The budget of a task's jiffies sleep idx (interned per pid) started by
 * pid for T recorded jiffies: made on first sight. Past MAX_BUDGETS, the
 * program's of that class (pid -1), keyed by the program instead.
 */
static uint16_t budget_get(struct pass *p, uint32_t idx, int32_t pid, uint8_t prog, u64 T)
{
	struct source *s = p->s;
	unsigned int k = budget_class(T);
	u64 key = budget_key(idx, k), *v;
	struct budget *b;

	if (!s->budget_map) {
		s->budget_map = calloc(1, sizeof(*s->budget_map));
		if (!s->budget_map)
			abort();
		map_init(s->budget_map);
	}
	v = map_get(s->budget_map, key);
	if (!v && s->nbudget >= MAX_BUDGETS - 1) {
		/* The program's own, past the limit: a key no timer index makes (idx < 2^32). */
		pid = -1;
		key = (u64)1 << 63 | (u64)prog << 8 | k;
		v = map_get(s->budget_map, key);
	}
	if (!v) {
		unsigned int i = s->nbudget;

		s->budget = realloc(s->budget, (i + 1) * sizeof(*s->budget));
		if (!s->budget)
			abort();
		b = &s->budget[i];
		memset(b, 0, sizeof(*b));
		b->pid = pid;
		b->prog = prog;
		b->klass = (uint8_t)k;
		hist_init_bits(&b->late, HIST_SMALL_BITS);
		hist_init_bits(&b->req_j, HIST_SMALL_BITS);
		map_put(s->budget_map, key, i);
		s->nbudget = i + 1;
		v = map_get(s->budget_map, key);
	}
	hist_add(&s->budget[*v].req_j, T, 1);
	return (uint16_t)(*v + 1);
}

/* The program (kind, name), made on first sight; past MAX_PROGS - 1, "other". */
static uint8_t prog_get(struct pass *p, unsigned int kind, const char *name, bool jiffies,
			int32_t pid)
{
	struct source *s = p->s;
	u64 key = name_hash(name, kind * 2 + jiffies), *v = map_get(&p->progs, key);
	struct prog *g;

	if (!v) {
		unsigned int i = s->nprog;

		if (i >= MAX_PROGS - 1) {
			name = "(other)";
			key = name_hash(name, 7);
			v = map_get(&p->progs, key);
		}
		if (!v) {
			s->prog = realloc(s->prog, (i + 1) * sizeof(*s->prog));
			if (!s->prog)
				abort();
			g = &s->prog[i];
			memset(g, 0, sizeof(*g));
			snprintf(g->name, sizeof(g->name), "%s", name);
			g->kind = (uint8_t)kind;
			g->jiffies = jiffies;
			g->last_pid = -2;
			hist_init_bits(&g->late, HIST_SMALL_BITS);
			hist_init_bits(&g->req_j, HIST_SMALL_BITS);
			map_put(&p->progs, key, i);
			s->nprog = i + 1;
			v = map_get(&p->progs, key);
		}
	}
	g = &s->prog[*v];
	if (pid >= 0 && pid != g->last_pid) {
		g->pids++;
		g->last_pid = pid;
	}
	return (uint8_t)*v;
}

static bool user_hrtimer(const char *func)
{
	return !strcmp(func, "hrtimer_wakeup") || !strcmp(func, "posix_timer_fn") ||
	       !strcmp(func, "timerfd_tmrproc") || !strcmp(func, "it_real_fn") ||
	       !strcmp(func, "alarmtimer_fired");
}

/* An anonymized trace's tasks are all "task": "task-PID" tells them apart. */
static void prog_name(char name[48], const struct hz_event *e)
{
	char digits[12];
	unsigned int n = 0, at = 5;
	uint32_t v;

	if (strcmp(e->comm, "task")) {
		memcpy(name, e->comm, sizeof(e->comm)); /* NUL-terminated, shorter than name */
		return;
	}
	/* As snprintf's "task-%d", without its cost on every task's start. */
	memcpy(name, "task-", 5);
	if (e->pid < 0)
		name[at++] = '-';
	v = e->pid < 0 ? 0U - (uint32_t)e->pid : (uint32_t)e->pid;
	do
		digits[n++] = (char)('0' + v % 10);
	while (v /= 10);
	while (n)
		name[at++] = digits[--n];
	name[at] = '\0';
}

/*
 * Whose a timer started by e is: a task's (in process context, one of the
 * functions a task's own sleeps and timers use), or the kernel's (its
 * function). Started again from an interrupt (a timer that re-arms
 * itself), it stays whose it was.
 */
static uint8_t owner_prog(struct pass *p, const struct hz_event *e, const struct tinfo *t,
			  bool *sleep)
{
	bool irq = e->ctx != 0 || e->pid == 0 || !(e->has & HZ_HAS_PID);
	bool jiffies = e->type == HZ_EV_TIMER_START;
	char name[48];

	*sleep = false;
	if (e->tick)
		return 0;
	if (irq && t->prog)
		return t->prog;
	if (!irq && (jiffies ? !strcmp(e->func, "process_timeout") : user_hrtimer(e->func))) {
		bool kt = kthread_name(e->comm);

		*sleep = jiffies && !kt;
		prog_name(name, e);
		if (kt) {
			uint8_t g = prog_get(p, PK_KERNEL, name, jiffies, e->pid);

			p->s->prog[g].kthread = true;
			return g;
		}
		return prog_get(p, jiffies ? PK_JIFFIES : PK_HRTIMER, name, jiffies, e->pid);
	}
	return prog_get(p, PK_KERNEL, e->func[0] ? e->func : "?", jiffies, -1);
}

/*
 * A task's own sleep, started in its context: a process_timeout (any
 * task's, a kernel thread's too) or an hrtimer_wakeup. Its wakeup by
 * another before the timer expires ends it (on_wakeup).
 */
static void own_sleep(struct pass *p, const struct hz_event *e, struct tinfo *t)
{
	bool task = e->ctx == 0 && e->pid > 0 && (e->has & HZ_HAS_PID);

	t->own = task && !strcmp(e->func, e->type == HZ_EV_TIMER_START ? "process_timeout"
								       : "hrtimer_wakeup");
	if (t->own)
		map_put(&p->sleeper, (u64)(uint32_t)e->pid, e->id);
}

/* The timer of a sleep this wakeup ends, or NULL: the woken task's own, pending. */
static const u64 *woken_sleep(struct pass *p, const struct hz_event *e)
{
	const u64 *addr = map_get(&p->sleeper, (u64)(uint32_t)e->woken_pid);
	const u64 *idx = addr ? map_get(&p->ids, *addr) : NULL;
	const struct tinfo *t = idx ? &p->t[*idx] : NULL;

	return t && t->own && t->pending && t->pid == e->woken_pid ? addr : NULL;
}

/*
 * The task woken before its sleep's timer expired: the sleep ends here,
 * as if the task had cancelled it now (release_cancel); a jiffies sleep's
 * cancel goes to the CPU whose wheel holds it.
 */
static void on_wakeup(struct pass *p, unsigned int c, u64 addr, struct rec *r)
{
	struct tinfo *t = &p->t[r->idx];

	if (!t->pending) {
		emit_local(p, c, r);
		return;
	}
	t->pending = false;
	t->woken = true;
	sleep_over(p, t);
	if (t->hr) {
		emit_local(p, c, r);
		return;
	}
	r->type = REC_CANCEL;
	r->prog = t->prog;
	cut_short(p, t, c, owner_of(p, addr, c), addr, r);
}

static void on_timer(struct pass *p, unsigned int c, const struct hz_event *e, struct rec *r)
{
	unsigned int owner;
	struct tinfo *t = &p->t[r->idx];
	bool sleep;

	switch (e->type) {
	case HZ_EV_TIMER_START:
		owner = (e->has & HZ_HAS_TCPU) && e->tcpu < MAX_CPUS ? e->tcpu : c;
		r->prog = owner_prog(p, e, t, &sleep);
		/*
		 * A task's schedule_timeout: its timer is on the task's stack, at an
		 * address that may change from call to call (the kernel stack's offset
		 * is random on many kernels); the task has one at a time, so its
		 * timers are one, by its pid.
		 */
		if (sleep) {
			r->idx = intern(p, 0xf000000000000000ULL | (u64)(uint32_t)e->pid);
			map_put(&p->ids, e->id, r->idx);
		}
		t = &p->t[r->idx];
		/*
		 * A task's loop is replayed on one CPU, whichever the task ran on: the
		 * replay starts it again itself, and one replay must see all of it.
		 */
		if (sleep) {
			if (!t->home)
				t->home = owner + 1;
			owner = t->home - 1;
		}
		map_put(&p->owner, e->id, owner);
		if (sleep) {
			r->flags |= RF_SLEEP;
			/* Its own last expiry, not long ago: the task's loop goes on. */
			if (t->fired_last && !t->pending && t->pid == e->pid &&
			    e->ts_ns - t->last_fire < CHAIN_NS) {
				r->flags |= RF_CHAIN;
				r->gap = (uint32_t)(e->ts_ns - t->last_fire) |
					 (uint32_t)(t->excess < GAP_EXCESS_MAX ? t->excess
									       : GAP_EXCESS_MAX)
						 << GAP_NS_BITS;
			}
		}
		t->bucket = e->has & HZ_HAS_BUCKET ? e->bucket : e->expires + 1;
		t->expires = e->expires;
		t->pid = e->pid;
		t->prog = r->prog;
		t->bud = 0;
		/* A task's own jiffies sleep: judged by what its thread asked. */
		if (sleep && r->prog && p->s->prog[r->prog].kind == PK_JIFFIES &&
		    (e->has & HZ_HAS_TIMEOUT) && e->timeout >= 0 && (u64)e->timeout < VAL_T_NONE)
			t->bud = budget_get(p, r->idx, e->pid, r->prog, (u64)e->timeout);
		/* Its stack, if the recording asked for one, follows on this CPU. */
		cpu_of(p, c)->stk_bud = t->bud && !p->s->budget[t->bud - 1].call[0] ? t->bud : 0;
		cpu_of(p, c)->stk_pid = e->pid;
		t->pending = true;
		t->sleep = sleep;
		t->woken = false;
		t->hr = false;
		own_sleep(p, e, t);
		t->has_start_j = false;
		if (e->has & HZ_HAS_TIMEOUT) {
			add_pair(p, e->ts_ns, e->expires - (u64)e->timeout);
			t->start_j = e->expires - (u64)e->timeout;
			t->has_start_j = true;
			if (e->has & HZ_HAS_BUCKET)
				check_bucket(p->s, e);
			if (r->prog && e->timeout >= 0)
				hist_add(&p->s->prog[r->prog].req_j, (u64)e->timeout, 1);
		}
		r->type = REC_START;
		r->val = VAL_EXP(e->expires) | ((e->has & HZ_HAS_TIMEOUT) && e->timeout >= 0 &&
								(u64)e->timeout < VAL_T_NONE
							? (u64)e->timeout
							: VAL_T_NONE)
						       << VAL_EXP_BITS;
		if (e->tflags & HZ_TF_DEFERRABLE)
			r->flags |= RF_DEFER;
		route(p, c, owner, r);
		break;
	case HZ_EV_TIMER_CANCEL:
		/* Held: Linux logs one just before each expiry too. */
		cpu_of(p, c)->cancel_held = true;
		r->type = REC_CANCEL;
		r->prog = t->prog;
		p->cpu[c].cancel = *r;
		p->cpu[c].cancel_id = e->id;
		p->cpu[c].cancel_owner = owner_of(p, e->id, c);
		break;
	default: /* HZ_EV_TIMER_EXPIRE */
		add_pair(p, e->ts_ns, e->now);
		r->prog = t->prog;
		/* A sleep a wakeup ended: its timer ran before the task did. */
		if (t->woken) {
			woken_end(p, t, c, e->id, r);
			break;
		}
		if (t->pending) {
			u64 late = e->now > t->expires ? e->now - t->expires : 0;

			t->excess = e->now > t->bucket ? e->now - t->bucket : 0;
			hist_add(&p->late_j, late, 1);
			if (t->prog)
				hist_add(&p->s->prog[t->prog].late, late, 1);
			if (t->prog)
				p->s->prog[t->prog].fired++;
			if (t->bud) {
				hist_add(&p->s->budget[t->bud - 1].late, late, 1);
				p->s->budget[t->bud - 1].fired++;
			}
			p->s->fired++;
			map_del(&p->owner, e->id);
			sleep_over(p, t);
		} else {
			struct rec pre = *r;

			pre.type = REC_START;
			pre.flags = RF_PRE;
			pre.val = VAL_EXP(e->now) | VAL_T_NONE << VAL_EXP_BITS;
			add_pre(p, c, &pre);
		}
		t->pending = false;
		t->fired_last = true;
		/*
		 * The loop's gap is counted from the tick that ran it: the timer
		 * softirq's own delay after it is part of what the task waits.
		 */
		t->last_fire = e->ts_ns;
		{
			struct cpu1 *k = &p->cpu[c];

			if (k->any_tick_exp && e->ts_ns >= k->last_tick_exp && p->min_tick_step &&
			    e->ts_ns - k->last_tick_exp < p->min_tick_step)
				t->last_fire = k->last_tick_exp;
		}
		r->type = REC_EXPIRE;
		if (t->home && t->home - 1 != c)
			route(p, c, t->home - 1, r);
		else
			emit_local(p, c, r);
		break;
	}
}

static void on_hrtimer(struct pass *p, const struct hz_event *e, struct rec *r)
{
	struct tinfo *t = &p->t[r->idx];
	bool sleep;

	if (e->type == HZ_EV_HRTIMER_START) {
		r->prog = owner_prog(p, e, t, &sleep);
		t = &p->t[r->idx];
		t->prog = r->prog;
		t->expires = e->has & HZ_HAS_SOFT ? e->softexpires : e->expires;
		t->pending = true;
		t->pid = e->pid;
		t->woken = false;
		t->hr = true;
		own_sleep(p, e, t);
	} else if (e->type == HZ_EV_HRTIMER_CANCEL) {
		t->pending = false;
		sleep_over(p, t);
	} else {
		r->prog = t->prog;
		r->val = UINT64_MAX;
		if (t->pending && !e->tick) {
			u64 late = e->now > t->expires ? e->now - t->expires : 0;

			r->val = late;
			if (t->prog) {
				hist_add(&p->s->prog[t->prog].late, late, 1);
				p->s->prog[t->prog].fired++;
			}
		}
		t->pending = false;
		sleep_over(p, t);
	}
}

/*
 * A timestamp that goes back on its CPU, or leaps more than a minute past
 * every CPU's latest: dropped and counted. A leap that the next events
 * follow (three in a row) was a real gap in the recording, and stands.
 */
static bool ts_ok(struct pass *p, struct cpu1 *k, unsigned int c, const struct hz_event *e)
{
	struct source *s = p->s;

	if (k->any_ts && e->ts_ns < k->last_ts) {
		if (!k->back++)
			s->back_cpu_n++;
		if (!s->back++) {
			s->back_first_cpu = c;
			snprintf(s->back_first, sizeof(s->back_first),
				 "cpu %u: %llu.%09llu after %llu.%09llu", c,
				 (unsigned long long)(e->ts_ns / 1000000000ULL),
				 (unsigned long long)(e->ts_ns % 1000000000ULL),
				 (unsigned long long)(k->last_ts / 1000000000ULL),
				 (unsigned long long)(k->last_ts % 1000000000ULL));
		}
		return false;
	}
	if (p->any_ts && e->ts_ns > p->last_any + JUMP_NS) {
		if (p->jump_n && e->ts_ns >= p->jump_ts && e->ts_ns - p->jump_ts < JUMP_NS) {
			if (++p->jump_n >= 3) {
				p->jump_n = 0;
				goto ok;
			}
		} else {
			p->jump_ts = e->ts_ns;
			p->jump_n = 1;
		}
		s->jumps++;
		return false;
	}
	p->jump_n = 0;
ok:
	k->any_ts = true;
	k->last_ts = e->ts_ns;
	if (!p->any_ts || e->ts_ns > p->last_any)
		p->last_any = e->ts_ns;
	p->any_ts = true;
	return true;
}

/* sched_switch and cpu_idle: whether a task runs on the CPU from now on. */
static void on_sched(struct pass *p, struct cpu1 *k, const struct hz_event *e)
{
	p->s->has_sched = true;
	if (e->type == HZ_EV_SCHED_SWITCH) {
		k->has_switch = true;
		k->cur = e->next_pid;
	} else {
		k->has_idle = true;
		k->idle_ev = e->state != HZ_IDLE_EXIT;
	}
}

/* ---- stack traces: what a thread's schedule_timeout waits in ---- */

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The syscall a frame is the entry of ("__x64_sys_recvfrom": "recvfrom"), or NULL. */
static const char *syscall_of(const char *f)
{
	static const char *const pre[] = {
		"__x64_sys_",	      "__arm64_sys_",	   "__ia32_sys_",  "__se_sys_", "__do_sys_",
		"__ia32_compat_sys_", "__x32_compat_sys_", "__riscv_sys_", "sys_"
	};

	for (unsigned int i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (starts(f, pre[i]) && f[strlen(pre[i])])
			return f + strlen(pre[i]);
	return NULL;
}

/* A frame that says nothing of the caller: the sleep itself and its plumbing. */
static bool plumbing(const char *f)
{
	return starts(f, "schedule_timeout") || !strcmp(f, "wait_woken") ||
	       starts(f, "trace_event_") || !strcmp(f, "enqueue_timer") ||
	       !strcmp(f, "__mod_timer") || !strcmp(f, "mod_timer") || !strcmp(f, "add_timer");
}

/*
 * What the stack says the thread waits in, for people: a socket's receive
 * with SO_RCVTIMEO, a tty's read with VTIME, a send with SO_SNDTIMEO, else
 * the syscall and the kernel function that slept in schedule_timeout.
 */
static void stack_call(const struct stack *st, char *out, size_t len)
{
	const char *sys = NULL, *caller = NULL;
	bool recv = false, send = false, tty = false, after = false;

	for (unsigned int i = 0; i < st->n; i++) {
		const char *f = st->frame[i];

		if (starts(f, "schedule_timeout"))
			after = true;
		else if (after && !caller && !plumbing(f))
			caller = f;
		if (!sys)
			sys = syscall_of(f);
		recv |= !strcmp(f, "sock_recvmsg") || !strcmp(f, "inet_csk_accept") ||
			!strcmp(f, "__skb_wait_for_more_packets") || !strcmp(f, "sk_wait_data") ||
			!strcmp(f, "unix_stream_read_generic");
		send |= !strcmp(f, "sk_stream_wait_memory") || !strcmp(f, "sock_wait_for_wmem");
		tty |= !strcmp(f, "n_tty_read");
	}
	if (tty)
		snprintf(out, len, "%s with tty VTIME", sys ? sys : "read");
	else if (recv)
		snprintf(out, len, "%s with SO_RCVTIMEO", sys ? sys : "recvmsg");
	else if (send)
		snprintf(out, len, "%s with SO_SNDTIMEO", sys ? sys : "sendmsg");
	else if (sys && caller)
		snprintf(out, len, "%s via %s", sys, caller);
	else
		snprintf(out, len, "%s", sys ? sys : caller ? caller : "schedule_timeout");
}

/* The frames are all read: the budget learns its call. */
static void stack_end(struct pass *p)
{
	struct stack *st = &p->stk;

	if (st->bud && st->n && !p->s->budget[st->bud - 1].call[0]) {
		struct budget *d = &p->s->budget[st->bud - 1];

		stack_call(st, d->call, sizeof(d->call));
		/* A kernel thread whose name the trace did not keep ("<...>"): housekeeping. */
		for (unsigned int i = 0; i < st->n; i++)
			if (!strcmp(st->frame[i], "kthread"))
				d->kthread = true;
	}
	p->s->stacks += st->bud != 0;
	st->in = false;
	st->bud = 0;
	st->n = 0;
}

/*
 * A line that is not an event: "comm-PID [CPU] flags ts: <stack trace>"
 * opens a stack, " => function" lines are its frames (innermost first).
 * A stack of a task's schedule_timeout started just before on that CPU
 * tells its budget's call; every other is read and dropped.
 */
static bool on_other(void *arg, const char *line, size_t len)
{
	struct pass *p = arg;
	struct stack *st = &p->stk;
	const char *end = line + len, *q;

	while (end > line && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	for (q = line; q < end && *q == ' '; q++)
		;
	if (end - q > 3 && q[0] == '=' && q[1] == '>' && q[2] == ' ') {
		size_t n;

		if (!st->in)
			return false;
		q += 3;
		n = (size_t)(end - q);
		/* "func+0x1a/0x40 [module]" as some options print it: the name alone. */
		for (size_t i = 0; i < n; i++)
			if (q[i] == '+' || q[i] == ' ') {
				n = i;
				break;
			}
		if (st->n < STK_FRAMES && n) {
			if (n >= sizeof(st->frame[0]))
				n = sizeof(st->frame[0]) - 1;
			memcpy(st->frame[st->n], q, n);
			st->frame[st->n][n] = '\0';
			st->n++;
		}
		return true;
	}
	if ((size_t)(end - line) > 15 && !memcmp(end - 15, ": <stack trace>", 15)) {
		const char *b = memchr(line, '[', (size_t)(end - line)), *d;
		unsigned long cpu = 0, pid = 0;
		bool ok = b != NULL && b > line;

		if (st->in)
			stack_end(p);
		st->in = true;
		/* The pid: the digits after the last '-' before " [". */
		for (d = b ? b - 1 : line; ok && d > line && *d == ' '; d--)
			;
		while (ok && d > line && *d >= '0' && *d <= '9')
			d--;
		ok = ok && *d == '-';
		for (const char *x = d + 1; ok && *x >= '0' && *x <= '9' && pid < 1UL << 31; x++)
			pid = pid * 10 + (unsigned long)(*x - '0');
		for (const char *x = b ? b + 1 : end;
		     ok && x < end && *x >= '0' && *x <= '9' && cpu < 1UL << 20; x++)
			cpu = cpu * 10 + (unsigned long)(*x - '0');
		if (ok && cpu < p->ncpu && p->cpu[cpu].stk_bud &&
		    p->cpu[cpu].stk_pid == (int32_t)pid) {
			st->bud = p->cpu[cpu].stk_bud;
			p->cpu[cpu].stk_bud = 0;
		}
		return true;
	}
	return false;
}

static void stack_end(struct pass *p);

static void on_event(struct pass *p, const struct hz_event *e)
{
	unsigned int c = e->cpu;
	struct cpu1 *k = cpu_of(p, c);

	if (p->stk.in)
		stack_end(p);
	struct rec r = { .ts = e->ts_ns, .type = REC_MARK, .aux = UINT32_MAX, .gap = GAP_NONE };
	const u64 *woke = NULL;
	u64 addr = 0;

	/*
	 * The idle loop's evidence (idle_loop_of()): a tick stopped with no
	 * tick in idle since a task last ran here (an event in its context,
	 * the tick's own included) was stopped at an idle loop's first pass,
	 * which Linux's loop without a governor never does.
	 */
	if (e->tick && e->type == HZ_EV_HRTIMER_EXPIRE) {
		k->task_since_tick = (e->has & HZ_HAS_PID) && e->pid > 0;
	} else if (e->type == HZ_EV_TICK_STOP && e->success) {
		p->s->stops_untick += k->task_since_tick;
	} else if ((e->has & HZ_HAS_PID) && e->pid > 0) {
		k->task_since_tick = true;
	}

	/* Only a wakeup that ends a recorded sleep is an event here. */
	if (e->type == HZ_EV_SCHED_WAKEUP || e->type == HZ_EV_SCHED_WAKING) {
		woke = woken_sleep(p, e);
		if (!woke)
			return;
		addr = *woke;
	}
	if (!ts_ok(p, k, c, e))
		return;
	if (e->type == HZ_EV_SCHED_SWITCH || e->type == HZ_EV_CPU_IDLE) {
		on_sched(p, k, e);
	} else if (k->has_switch && (e->has & HZ_HAS_PID) && (e->pid == 0) != (k->cur == 0)) {
		/*
		 * The task column says who ran when the event was logged: the
		 * idle task while the last sched_switch put a task on the CPU
		 * (or the other way round) means a switch is missing from the
		 * trace. On the project's VM every event the threads of its
		 * init (PID 1) log in their own context is missing, and so every
		 * switch away from them (0 of 57 in the asyncio trace; 18 into
		 * the idle task), while the interrupts that hit them are
		 * logged: the CPU was busy to the replay, its tick running,
		 * while it idled with its tick stopped (+6.4 % wakeups at the
		 * recorded setting; +0.6 % now).
		 */
		k->cur = e->pid;
		p->s->sched_missing++;
	}
	/* After this event: busy or idle, from the trace's own word if it has one. */
	if (k->has_switch) {
		r.flags |= RF_SCHED | (k->cur != 0 ? RF_BUSY : 0);
	} else if (k->has_idle) {
		r.flags |= RF_SCHED | (!k->idle_ev ? RF_BUSY : 0);
	} else if (!(e->has & HZ_HAS_PID) || e->pid != 0) {
		r.flags |= RF_BUSY;
	}
	if (e->type <= HZ_EV_HRTIMER_EXPIRE && e->type != HZ_EV_TICK_STOP)
		r.idx = intern(p, e->id);
	else if (woke)
		r.idx = intern(p, addr);
	if (k->cancel_held) {
		if (e->type == HZ_EV_TIMER_EXPIRE && r.idx == k->cancel.idx)
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
	case HZ_EV_SCHED_WAKEUP:
	case HZ_EV_SCHED_WAKING:
		on_wakeup(p, c, addr, &r);
		return;
	case HZ_EV_HRTIMER_EXPIRE:
		observe_hrtimer_expiry(p, k, e);
		on_hrtimer(p, e, &r);
		if (!e->tick)
			r.type = REC_HRIRQ;
		break;
	case HZ_EV_HRTIMER_START:
	case HZ_EV_HRTIMER_CANCEL:
		on_hrtimer(p, e, &r);
		r.prog = 0;
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

	for (unsigned int i = 0; i < hist_buckets(&p->tick_gap); i++)
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

	s->mono_offset = (u64)(p->have_off_tick ? p->off_tick : p->have_off_any ? p->off_any : 0);
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

s64 source_jiffies_at(const struct source *s, s64 mono)
{
	s64 d = mono - (s64)s->phase;
	s64 k = d >= 0 ? d / (s64)s->tick_nsec
		       : -((-d + (s64)s->tick_nsec - 1) / (s64)s->tick_nsec);

	return s->jiffy_at_k0 + k;
}

unsigned int source_block(const struct source *s, u64 ts)
{
	u64 span = s->last_ts - s->first_ts + 1;
	u64 b;

	if (ts <= s->first_ts)
		return 0;
	b = (ts - s->first_ts) * s->nblocks / span;
	return b < s->nblocks ? (unsigned int)b : s->nblocks - 1;
}

/* Jiffies into ns: the histogram's buckets, scaled. */
static void scale_hist(struct hist *dst, const struct hist *src, u64 mul)
{
	unsigned int n = hist_buckets(src);

	for (unsigned int i = 0; i < n; i++)
		if (src->count[i])
			hist_add(dst, hist_bucket_low_bits(i, src->bits) * mul, src->count[i]);
}

/* At the end of the trace: what each CPU still holds goes to its spool, and to the file. */
static void drain(struct pass *p)
{
	for (unsigned int c = 0; c < p->ncpu; c++) {
		release_cancel(p, &p->cpu[c], c);
		flush_held(p, &p->cpu[c], NULL);
	}
	for (unsigned int c = 0; c < p->ncpu; c++)
		spool_flush(p, &p->cpu[c]);
}

static void finish(struct pass *p, const struct options *o)
{
	struct source *s = p->s;
	double span;

	infer_hz(p, o);
	infer_mode(p);
	place_grid(p);
	span = (double)(s->last_ts - s->first_ts) / 1e9;
	s->ncpu = p->ncpu;
	s->ntimers = p->nt;
	s->spool = calloc(p->ncpu, sizeof(*s->spool));
	s->cpu_wakeups = calloc(p->ncpu, sizeof(u64));
	s->cpu_events = calloc(p->ncpu, sizeof(u64));
	s->cpu_back = calloc(p->ncpu, sizeof(u64));
	if (!s->spool || !s->cpu_wakeups || !s->cpu_events || !s->cpu_back)
		abort();
	for (unsigned int c = 0; c < p->ncpu; c++) {
		s->spool[c] = p->cpu[c].spool;
		s->cpu_events[c] = p->cpu[c].recs;
		s->cpu_back[c] = p->cpu[c].back;
		s->cpu_wakeups[c] = p->cpu[c].wakeups;
		/* A low-resolution tick shows no hrtimer: it fired HZ times a second. */
		if (!s->tick_expiries)
			s->cpu_wakeups[c] += (u64)(span * s->hz + 0.5);
		s->wakeups += s->cpu_wakeups[c];
		free(p->cpu[c].queue);
		free(p->cpu[c].out);
	}
	scale_hist(&s->late, &p->late_j, s->tick_nsec);
	/* Programs' jiffies timers: their lateness in ticks, into ns. */
	for (unsigned int g = 0; g < s->nprog; g++) {
		struct prog *pr = &s->prog[g];

		if (pr->jiffies) {
			struct hist h;

			hist_init_bits(&h, HIST_SMALL_BITS);
			scale_hist(&h, &pr->late, s->tick_nsec);
			hist_free(&pr->late);
			pr->late = h;
		}
	}
	for (unsigned int b = 0; b < s->nbudget; b++) {
		struct hist h;

		hist_init_bits(&h, HIST_SMALL_BITS);
		scale_hist(&h, &s->budget[b].late, s->tick_nsec);
		hist_free(&s->budget[b].late);
		s->budget[b].late = h;
	}
	/* The observed wakeups by block: each bin to the block of its middle. */
	s->nblocks = span >= 2 ? NBLOCKS : span >= 0.2 ? 10 : 1;
	s->block_wakeups = calloc(s->nblocks, sizeof(u64));
	if (!s->block_wakeups)
		abort();
	for (unsigned int i = 0; i < NBINS && p->any_bin; i++)
		s->block_wakeups[source_block(s, p->bin0 + i * p->bin_ns + p->bin_ns / 2)] +=
			p->bin[i];
	s->pre = p->pre;
	s->pre_cpu = p->pre_cpu;
	s->npre = p->npre;
}

/*
 * How the recorded machine's idle loop stops the tick. Linux 6.12's
 * do_idle() (kernel/sched/idle.c) calls cpuidle_idle_call(got_tick): with
 * no cpuidle driver, or a driver of one idle state, it stops the tick only
 * if it is stopped already or the tick handler ran in the loop's previous
 * pass (tick_nohz_idle_got_tick()), so that the first pass after every
 * idle entry keeps it: "hold". With several idle states the governor
 * decides (menu, teo: the sleep it expects against a tick).
 *
 * The recorder says which (record.sh's cpuidle=DRIVER/N). Where it does
 * not, the trace may: a tick stopped while a task has run on the CPU since
 * the tick's last expiry was stopped at a first pass, which "hold" never
 * does; more than one stop in IDLE_EVIDENCE so is taken for a governor. A
 * trace with no such stops (or none at all) is taken for "hold": the QEMU
 * guests and the VM the traces here came from have no cpuidle driver
 * (docs/ADVISOR.md).
 */
#define IDLE_EVIDENCE 20

static void idle_loop_of(struct source *s, const struct hz_reader_stats *st,
			 const struct options *o)
{
	if (st->cpuidle_states >= 0)
		snprintf(s->cpuidle, sizeof(s->cpuidle), "%s/%d", st->cpuidle_driver,
			 st->cpuidle_states);
	if (o->idle_loop != IDLE_LOOP_AUTO) {
		s->idle_hold = o->idle_loop == IDLE_LOOP_HOLD;
		s->idle_how = "--idle-loop";
	} else if (st->cpuidle_states >= 0) {
		s->idle_hold = st->cpuidle_states <= 1;
		s->idle_how = s->idle_hold ? "the recorder: one idle state or none"
					   : "the recorder: several idle states";
	} else if (s->stops_untick * IDLE_EVIDENCE > s->tick_stops) {
		s->idle_hold = false;
		s->idle_how = "the trace: its tick stopped where a task ran since the last tick";
	} else {
		s->idle_hold = true;
		s->idle_how = s->tick_stops
				      ? "the trace: its tick stopped only after it ran in idle"
				      : "the default: the recorder does not say, nor the trace";
	}
}

int source_read(const char *path, const struct options *o, struct source *s, char *err,
		size_t errlen)
{
	struct pass *p = calloc(1, sizeof(*p));
	struct hz_reader *r;
	struct hz_event e;
	const struct hz_reader_stats *st;
	int got, rc = 0;

	if (!p)
		abort();
	p->s = s;
	p->err = err;
	p->errlen = errlen;
	memset(s, 0, sizeof(*s));
	hist_init(&s->late);
	r = hz_open(path, err, errlen);
	if (!r) {
		hist_free(&s->late);
		free(p);
		return -1;
	}
	map_init(&p->owner);
	map_init(&p->ids);
	map_init(&p->progs);
	map_init(&p->sleeper);
	hist_init(&p->late_j);
	hist_init(&p->tick_gap);
	/* Program 0: none (the tick's own timers). */
	s->prog = calloc(1, sizeof(*s->prog));
	if (!s->prog)
		abort();
	snprintf(s->prog[0].name, sizeof(s->prog[0].name), "(tick)");
	s->prog[0].kind = PK_KERNEL;
	hist_init_bits(&s->prog[0].late, HIST_SMALL_BITS);
	hist_init_bits(&s->prog[0].req_j, HIST_SMALL_BITS);
	s->nprog = 1;
	hz_on_other(r, on_other, p);
	while ((got = hz_next(r, &e)) > 0 && !p->failed)
		on_event(p, &e);
	if (p->stk.in)
		stack_end(p);
	st = hz_stats(r);
	idle_loop_of(s, st, o);
	s->lines = st->lines;
	s->unknown = st->unknown;
	s->bad = st->bad;
	s->truncated = st->truncated;
	snprintf(s->first_bad, sizeof(s->first_bad), "%s", st->first_bad);
	if (got < 0) {
		snprintf(err, errlen, "%s: %s", path, hz_error(r));
		rc = -1;
	}
	if (hz_close(r) && !rc) {
		snprintf(err, errlen, "%s: %s", path, hz_error(r));
		rc = -1;
	}
	if (!rc && !p->failed)
		drain(p);
	if (!rc && p->failed)
		rc = -1;
	if (!rc && !s->events) {
		if (s->bad)
			snprintf(err, errlen,
				 "%s: not an ftrace timer trace: no timer events in %llu lines, "
				 "%llu "
				 "of them bad (first: %s)",
				 path, (unsigned long long)s->lines, (unsigned long long)s->bad,
				 s->first_bad);
		else
			snprintf(err, errlen,
				 "%s: not an ftrace timer trace: no timer events in %llu lines%s",
				 path, (unsigned long long)s->lines, s->lines ? "" : " (empty)");
		rc = -1;
	}
	if (!rc)
		finish(p, o);
	map_free(&p->owner);
	map_free(&p->ids);
	map_free(&p->progs);
	map_free(&p->sleeper);
	hist_free(&p->late_j);
	hist_free(&p->tick_gap);
	free(p->t);
	if (rc) {
		for (unsigned int c = 0; c < p->ncpu; c++) {
			if (p->cpu[c].spool)
				fclose(p->cpu[c].spool);
			free(p->cpu[c].queue);
			free(p->cpu[c].out);
		}
		free(p->pre);
		free(p->pre_cpu);
		progs_free(s);
	}
	free(p->cpu);
	free(p);
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
	free(s->cpu_back);
	free(s->pre);
	free(s->pre_cpu);
	progs_free(s);
	free(s->block_wakeups);
}
