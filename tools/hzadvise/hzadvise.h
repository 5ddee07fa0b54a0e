/* SPDX-License-Identifier: MIT */
/*
 * hzadvise: which HZ and which tick mode suit a machine, from its own
 * timer trace replayed through the dynhz core. The pieces:
 *   trace.c   ftrace text to events
 *   source.c  the first pass: what the trace shows (HZ, mode, wakeups,
 *             lateness) and each CPU's events spooled for the replays
 *   replay.c  one CPU at one setting through the hosted core
 *   wheel.c   Linux's timer-wheel granularity, for replays "as Linux would"
 *   power.c   C-states and the energy model
 *   report.c  the table, the machine-readable lines, CSV, the advice
 *   plot.c    gnuplot figures
 */
#ifndef HZADVISE_H
#define HZADVISE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "map.h"

typedef uint64_t u64;
typedef int64_t s64;

/*
 * A log-linear histogram of ns values: exact below 2^bits, then 2^(bits-1)
 * buckets per power of two (bits 9: 0.2 % wide; bits 5: 6 %, 1 kB).
 */
#define HIST_SUB_BITS	9
#define HIST_BUCKETS	((64 - HIST_SUB_BITS + 1) << (HIST_SUB_BITS - 1))
#define HIST_SMALL_BITS 5
struct hist {
	u64 n, sum, min, max;
	unsigned int bits;
	u64 *count; /* hist_buckets(bits) */
};
void hist_init(struct hist *h);
void hist_init_bits(struct hist *h, unsigned int bits);
unsigned int hist_buckets(const struct hist *h);
void hist_free(struct hist *h);
void hist_add(struct hist *h, u64 v, u64 times);
void hist_merge(struct hist *dst, const struct hist *src);
/* The value at quantile q (0..1): the smallest v with at least q·n samples ≤ v. */
u64 hist_quantile(const struct hist *h, double q);
/* The value of the k-th smallest sample (1..n), as hist_quantile reads it. */
u64 hist_kth(const struct hist *h, u64 k);
/* Buckets: index to the smallest value it holds. */
u64 hist_bucket_low(unsigned int i);
u64 hist_bucket_low_bits(unsigned int i, unsigned int bits);

/* A C-state: what an idle interval needs to be worth entering it. */
struct cstate {
	char name[16];
	double exit_us;	     /* exit latency */
	double residency_us; /* target residency */
	double power_w;	     /* power while in it */
};
#define MAX_CSTATES 8

/* --retune: at at_ns from the trace's start, HZ becomes hz. */
struct retune_step {
	u64 at_ns;
	unsigned int hz;
};
#define MAX_RETUNE 32

/*
 * How the recorded machine's idle loop stops the tick (--idle-loop): as the
 * trace's recorder says (its cpuidle= word), and "hold" when it says
 * nothing; or as the option says.
 */
enum idle_loop { IDLE_LOOP_AUTO, IDLE_LOOP_HOLD, IDLE_LOOP_GOVERNOR };

struct options {
	unsigned int hz[32];
	unsigned int nhz;
	bool hz_given;
	double max_late_us;
	bool wheel_linux;    /* --wheel linux (default) or dynhz */
	double max_late_pct; /* a program's timers may be this % of what they ask for late */
	const char *html;    /* --html FILE */
	bool no_programs;    /* --programs 0: no program: lines */
	struct cstate cs[MAX_CSTATES];
	unsigned int ncs;
	double busy_w;	 /* power of a running CPU */
	double tick_ns;	 /* CPU time of a tick with nothing due */
	double timer_ns; /* CPU time per timer run from the tick */
	double run_ns;	 /* CPU time once per tick that runs any timer */
	const char *csv;
	const char *plot;
	struct retune_step retune[MAX_RETUNE]; /* --retune, times increasing */
	unsigned int nretune;		       /* 0: no --retune */
	unsigned int auto_busy, auto_idle;     /* --retune-auto BUSY_HZ:IDLE_HZ, or 0 */
	bool quiet;			       /* machine-readable lines only */
	bool verbose;
	enum idle_loop idle_loop; /* --idle-loop */
};

/*
 * Programs: whose timers these are. A task's own sleeps (hrtimer_wakeup:
 * nanosleep, poll, epoll_wait, select...; process_timeout:
 * schedule_timeout, SO_RCVTIMEO, msleep) and the user timers it armed
 * (timerfd, POSIX timers, setitimer) count for its comm (for an anonymized
 * trace's "task", comm-PID); every other timer counts for its function, as
 * kernel housekeeping. A kernel thread (by its name: kworker/..., rcu_...)
 * sleeping counts as kernel housekeeping too.
 */
enum prog_kind {
	PK_HRTIMER, /* a task's hrtimers: their wakeups do not depend on HZ */
	PK_JIFFIES, /* a task's jiffies timeouts: rounded to ticks */
	PK_KERNEL,  /* kernel housekeeping: a timer function, or a kernel thread's sleep */
};
#define MAX_PROGS 255 /* [0] is "no program" (the tick), the last "other" */
struct prog {
	char name[48];
	uint8_t kind; /* enum prog_kind */
	bool kthread; /* a kernel thread's sleep (name is its comm) */
	bool jiffies; /* its timers are jiffies timers (else hrtimers) */
	u64 pids;     /* distinct pids seen (at most counted to 2^64) */
	int32_t last_pid;
	u64 fired;	   /* observed */
	struct hist late;  /* observed lateness, ns (jiffies timers: from jiffies, at the end) */
	struct hist req_j; /* jiffies timers: the timeouts asked for, in jiffies */
};

/*
 * What the advice judges (issue 43): one thread's (pid's) own jiffies
 * timeouts of one size, 1, 2-3, 4-7... recorded ticks (budget_class()),
 * so that a server thread's 200 ms never hides a client thread's 1 ms,
 * in one program or not. Past MAX_BUDGETS, a program's timeouts of a size
 * share one (pid -1).
 */
#define MAX_BUDGETS 1024
struct budget {
	int32_t pid;	   /* the thread, or -1: the program's, past MAX_BUDGETS */
	uint8_t prog;	   /* whose (struct prog) */
	uint8_t klass;	   /* budget_class() of its timeouts */
	char call[64];	   /* what it waits in, from the trace's stacks; "" if it has none */
	bool kthread;	   /* its stack shows a kernel thread (a comm the trace printed as <...>) */
	u64 fired;	   /* observed */
	struct hist late;  /* observed lateness, ns (jiffies until the first pass ends) */
	struct hist req_j; /* the timeouts asked for, in recorded jiffies */
};
/* The class of a timeout of T recorded jiffies: 0 for 0 or 1, then floor(log2(T)). */
static inline unsigned int budget_class(uint64_t T)
{
	unsigned int k = 0;

	while (T > 1) {
		T >>= 1;
		k++;
	}
	return k;
}
/* The key of a budget in source.budget_map: the sleep timer (interned per pid) and the class. */
static inline uint64_t budget_key(uint32_t idx, unsigned int klass)
{
	return (uint64_t)idx << 8 | klass;
}

/* Per CPU replay inputs, written by the first pass. */
enum rec_type { REC_START, REC_CANCEL, REC_EXPIRE, REC_HRIRQ, REC_MARK };
#define RF_LOCAL     (1U << 0)	/* logged on this CPU (else a start from another CPU) */
#define RF_BUSY	     (1U << 1)	/* a task, not the idle task, runs after it */
#define RF_BUSY_ON   (1U << 2)	/* busy, and so is this CPU's next local event */
#define RF_PRE	     (1U << 3)	/* REC_START made up for a timer pending before the trace */
#define RF_TICK	     (1U << 4)	/* an event of the tick's own (its hrtimer, tick_stop) */
#define RF_TICK_ON   (1U << 5)	/* idle after it, and the recorded tick kept running */
#define RF_IDLE_TICK (1U << 6)	/* the tick's expiry, on an idle CPU */
#define RF_DEFER     (1U << 7)	/* REC_START of a deferrable timer (flags=D) */
#define RF_SCHED     (1U << 8)	/* RF_BUSY is from sched_switch / cpu_idle, not the rule */
#define RF_SLEEP     (1U << 9)	/* REC_START of a task's schedule_timeout (process_timeout) */
#define RF_CHAIN     (1U << 10) /* RF_SLEEP, gap ns after the same timer's last expiry */
#define GAP_NONE     UINT32_MAX
/* REC_START's val: expires (jiffies, 40 bits) and the timeout= it was started with (24 bits). */
#define VAL_EXP_BITS 40
#define VAL_EXP(v)   ((v) & ((1ULL << VAL_EXP_BITS) - 1))
#define VAL_T(v)     ((v) >> VAL_EXP_BITS)
#define VAL_T_NONE   0xffffffULL /* no timeout= in the trace: from the jiffy grid */
/* RF_CHAIN's gap: ns in the low bits; above, the recorded expiry's jiffies past its bucket. */
#define GAP_NS_BITS    26
#define GAP_NS(g)      ((g) & ((1U << GAP_NS_BITS) - 1))
#define GAP_EXCESS(g)  ((g) >> GAP_NS_BITS)
#define GAP_EXCESS_MAX 63U
struct rec {
	u64 ts;	 /* trace clock, ns */
	u64 val; /* REC_START: VAL_EXP expires, VAL_T timeout; REC_HRIRQ: late ns or UINT64_MAX */
	uint32_t idx; /* the timer, interned: 0, 1, 2... */
	uint32_t aux; /* RF_LOCAL: ns to the next local event, saturated (UINT32_MAX: none) */
	uint32_t
		gap; /* RF_CHAIN: from the timer's last expiry to this start (GAP_NS, GAP_EXCESS) */
	uint8_t prog; /* whose (struct prog), 0: none */
	uint8_t type;
	uint16_t flags;
};

/* What the trace shows, and where its events went. */
struct source {
	unsigned int hz;    /* inferred */
	const char *hz_how; /* how it was inferred */
	bool nohz;	    /* inferred */
	const char *mode_how;
	u64 tick_nsec; /* the recorded tick: Linux's TICK_NSEC at hz */
	u64 events, unknown, lines, bad;
	char first_bad[240];
	bool truncated;
	u64 back, back_cpu_n; /* events whose timestamp went back on their CPU (dropped); CPUs */
	unsigned int back_first_cpu;
	char back_first[160];
	u64 jumps;	   /* events whose timestamp leapt over a minute ahead (dropped) */
	bool has_sched;	   /* sched_switch or cpu_idle: busy and idle are the trace's own */
	u64 sched_missing; /* events whose task column says a sched_switch is missing */
	u64 first_ts, last_ts;
	unsigned int ncpu;
	u64 *cpu_wakeups; /* observed, per CPU */
	u64 wakeups;
	u64 *cpu_events; /* spooled records per CPU */
	u64 *cpu_back;	 /* events dropped per CPU: their timestamp went back */
	FILE **spool;
	uint32_t ntimers; /* distinct timers (rec.idx < ntimers) */
	struct hist late; /* observed lateness of jiffies timers, ns */
	u64 fired;	  /* observed timer_expire_entry of started timers */
	u64 mono_offset;  /* trace clock - CLOCK_MONOTONIC */
	u64 phase;	 /* the jiffy grid in CLOCK_MONOTONIC: boundaries at phase + k·tick_nsec */
	s64 jiffy_at_k0; /* jiffies at the boundary k = 0 */
	u64 bucket_checked, bucket_matched; /* timer_start bucket_expiry= against wheel.c */
	u64 tick_stops, tick_expiries;
	u64 stops_untick; /* tick stops with a task's event since that CPU's last tick */
	struct rec *pre;  /* timers that fired with no start in the trace: pending before it */
	unsigned int *pre_cpu;
	size_t npre;
	struct prog *prog; /* [0..nprog) */
	unsigned int nprog;
	unsigned int nblocks;  /* the trace's span in blocks, for the uncertainties */
	u64 *block_wakeups;    /* observed wakeups per block */
	struct budget *budget; /* [0..nbudget) */
	unsigned int nbudget;
	struct map *budget_map; /* budget_key() -> index in budget */
	u64 stacks;		/* stack traces read (of a task's schedule_timeout) */
	/*
	 * The idle loop keeps the tick after every idle entry until the tick
	 * has run once (Linux's do_idle() without a cpuidle governor: no
	 * driver, or one idle state), or its governor decides (several).
	 */
	bool idle_hold;
	const char *idle_how; /* why: the recorder's cpuidle= word, the option, the default */
	char cpuidle[48];     /* the recorder's cpuidle= word as read ("" if none) */
};

int source_read(const char *path, const struct options *o, struct source *s, char *err,
		size_t errlen);
void source_free(struct source *s);
/* The start of jiffy j of the recorded grid, in CLOCK_MONOTONIC ns. */
s64 source_jiffy_mono(const struct source *s, u64 j);
/* The recorded jiffies at CLOCK_MONOTONIC ns t. */
s64 source_jiffies_at(const struct source *s, s64 mono);
/* The block of trace time ts (0..nblocks-1). */
unsigned int source_block(const struct source *s, u64 ts);
/* Is this comm a kernel thread's? (by the names Linux gives them) */
bool kthread_name(const char *comm);

/* Per setting and program: what the replay found. */
struct presult {
	u64 fired;
	struct hist late; /* small */
	uint32_t *block;  /* fires per block */
};

/* One setting's results, per CPU and summed. */
struct result {
	unsigned int hz; /* at boot */
	bool nohz;
	const struct retune_step *retune; /* changes of HZ mid-replay, or none */
	unsigned int nretune;
	unsigned int auto_busy, auto_idle; /* --retune-auto's policy, or 0 */
	struct retune_step *chosen;	   /* per CPU: the changes the policy made */
	unsigned int nchosen;
	double *window_busy; /* per CPU: busy share of each second, with the policy */
	unsigned int nwindows;
	u64 interrupts; /* of the core's tick device */
	u64 wakeups;	/* timer interrupts: the tick's and hrtimers', coalesced */
	u64 fired, early, started;
	u64 timer_ticks; /* ticks that ran timers */
	u64 deferred;	 /* deferrable timers that waited for a tick */
	u64 restarts;	 /* schedule_timeout loops started again by the replay itself */
	struct hist late;
	struct hist idle; /* idle interval lengths */
	double busy_ns, idle_ns;
	double res_ns[MAX_CSTATES];   /* idle time in intervals long enough for each state */
	u64 deepest[MAX_CSTATES + 1]; /* idle intervals whose deepest state is [i - 1]; [0]: none */
	double energy_j;
	double tick_cpu_ns;
	u64 events; /* records replayed */
	unsigned int nblocks, nprog;
	u64 *block_wakeups;   /* per block */
	double *block_energy; /* per block, J */
	struct presult *prog; /* per program, or NULL */
	unsigned int nbud;
	struct presult *bud; /* per budget (struct budget), or NULL */
};
void result_init(struct result *r, unsigned int hz, bool nohz, const struct source *s);
void result_free(struct result *r);
void result_add(struct result *sum, const struct result *cpu);
/* The setting's HZ as the lines print it: "250"; with --retune, HZ@T from T s on: "1000@0>100@10". */
const char *result_hz(const struct result *r, char *buf, size_t len);

/*
 * What the fixed settings' replays of one CPU share, made by the first of
 * them. The busy time: busy and idle change only at the CPU's own events,
 * so the trace alone decides it, whatever the setting. And the spool
 * without the busy marks the replay only counts busy time at (58 % of the
 * net trace's records), which the other settings read instead of the whole.
 */
struct lean_spool {
	FILE *spool;	     /* the records kept; once set, complete (made in one replay) */
	bool failed;	     /* could not be made: they read the whole spool */
	u64 marks;	     /* records left out, replayed events all the same */
	u64 busy, *busy_blk; /* busy ns, in all and per block */
};
void lean_free(struct lean_spool *l);

/*
 * Replays CPU cpu of s at r->hz / r->nohz into r. l, for a fixed setting
 * (no retune), is the CPU's lean spool: the first such replay makes it,
 * the next read it. NULL: the whole spool, every time.
 */
void replay_cpu(const struct source *s, unsigned int cpu, const struct options *o,
		struct lean_spool *l, struct result *r);

/* Linux's wheel: the jiffy a timer due at expires, filed at clk, really runs. */
u64 linux_bucket_expiry(u64 expires, u64 clk, unsigned int hz);

/* Energy of an idle interval of ns, and the deepest state it reaches (-1: none). */
double idle_energy(const struct options *o, double ns, int *state);
void power_defaults(struct options *o);
int parse_cstates(const char *spec, struct options *o, char *err, size_t errlen);

/* Results to the terminal, lines, CSV; the advice. */
struct advice {
	int pick;   /* index into the results, -1 for none */
	bool noise; /* no setting differs from the recorded one by more than the noise */
	char reason[1536];
	char hurt[1024]; /* which program a low HZ makes late, and by how much */
	/*
	 * The replay's own check (issue 43): at the recorded setting it must
	 * give the wakeups the trace shows. checked: the recorded setting is
	 * among the replays. off_pct: how far it is, signed. bound_pct: what
	 * every setting's wakeups may be off by for the model (busy and idle
	 * guessed without sched events; model_bound()); rerecord: too far to
	 * trust, re-record with sched events.
	 */
	bool checked, rerecord;
	double observed, replayed, off_pct, bound_pct;
};
/* Why the advice asks to re-record, after "busy and idle are guessed, " (text and HTML). */
const char *advice_rerecord_why(const struct advice *a);
/* The model's bound on wakeups, %, for a trace with or without sched events off by off_pct. */
double model_bound(bool sched, double off_pct);
/* A 95 % interval's half width for the per-block values v[0..n) summed: the total's. */
double block_ci(const u64 *v, unsigned int n);
double block_ci_d(const double *v, unsigned int n);
/* The same for the difference of two settings' per-block totals (paired). */
double block_ci_diff(const u64 *a, const u64 *b, unsigned int n);
/* A 95 % interval of the q-quantile from the order statistics: [*lo, *hi]. */
void hist_quantile_ci(const struct hist *h, double q, u64 *lo, u64 *hi);
/*
 * The budgets (struct budget), as the advice judges them: judged at r (it
 * fired 10 times or more there); its p99 lateness at r and what it may be
 * late by (the larger of --max-late-us and --max-late-pct of the least its
 * thread can have asked, budget_asks_ns()); over it? Who it is for people
 * ("udp2 thread 4242") and what it waits in.
 */
bool budget_judged(const struct source *s, const struct result *r, unsigned int b);
double budget_asks_ns(const struct source *s, unsigned int b);
bool budget_hurt(const struct options *o, const struct source *s, const struct result *r,
		 unsigned int b, double *p99_us, double *budget_us);
const char *budget_who(const struct source *s, unsigned int b, char *buf, size_t len);
const char *budget_call(const struct source *s, unsigned int b);
/* Is a thread of program g late past its budget at r? (the "!" of the table, late=yes) */
bool prog_late(const struct options *o, const struct source *s, const struct result *r,
	       unsigned int g);
/* The programs the table shows, most firings first: indexes into s->prog, at most max. */
unsigned int top_progs(const struct source *s, unsigned int *idx, unsigned int max);
int write_html(const char *path, const struct options *o, const struct source *s,
	       const struct result *res, unsigned int n, int recorded, const struct advice *a,
	       char *err, size_t errlen);
void advise(const struct options *o, const struct source *s, const struct result *res,
	    unsigned int n, int recorded, struct advice *a);
void report(FILE *f, const struct options *o, const struct source *s, struct result *const *cpu,
	    const struct result *res, unsigned int n, int recorded, const struct advice *a);
int write_csv(const char *path, const struct source *s, struct result *const *cpu,
	      const struct result *res, unsigned int n, int recorded, char *err, size_t errlen);
int write_plots(const char *dir, const struct options *o, const struct source *s,
		const struct result *res, unsigned int n, int recorded, char *err, size_t errlen);

#define NSEC_PER_SEC_D 1e9

/*
 * x / d for a d used many times, exactly, by a multiply: the replay
 * divides by the jiffy's period two or three times a start, and a 64-bit
 * divide costs as much as the rest of a start's arithmetic on some CPUs.
 * inv = floor((2^64 - 1) / d) puts the estimate at most 2 below x / d
 * (never above); the remainder says by how much.
 */
struct udiv {
	u64 d, inv;
};

static inline void udiv_set(struct udiv *v, u64 d)
{
	v->d = d;
	v->inv = UINT64_MAX / d;
}

static inline u64 udiv_q(const struct udiv *v, u64 x)
{
	u64 q = (u64)(((unsigned __int128)x * v->inv) >> 64), r = x - q * v->d;

	while (r >= v->d) {
		q++;
		r -= v->d;
	}
	return q;
}

#endif
