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

typedef uint64_t u64;
typedef int64_t s64;

/* A log-linear histogram of ns values: exact below 512, 0.2 % wide above. */
#define HIST_SUB_BITS 9
#define HIST_BUCKETS  ((64 - HIST_SUB_BITS + 1) << (HIST_SUB_BITS - 1))
struct hist {
	u64 n, sum, min, max;
	u64 *count; /* HIST_BUCKETS */
};
void hist_init(struct hist *h);
void hist_free(struct hist *h);
void hist_add(struct hist *h, u64 v, u64 times);
void hist_merge(struct hist *dst, const struct hist *src);
/* The value at quantile q (0..1): the smallest v with at least q·n samples ≤ v. */
u64 hist_quantile(const struct hist *h, double q);
/* Buckets: index to the smallest value it holds, and the number of buckets used. */
u64 hist_bucket_low(unsigned int i);

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

struct options {
	unsigned int hz[32];
	unsigned int nhz;
	bool hz_given;
	double max_late_us;
	bool wheel_linux; /* --wheel linux (default) or dynhz */
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
};

/* Per CPU replay inputs, written by the first pass. */
enum rec_type { REC_START, REC_CANCEL, REC_EXPIRE, REC_HRIRQ, REC_MARK };
#define RF_LOCAL     (1U << 0) /* logged on this CPU (else a start from another CPU) */
#define RF_BUSY	     (1U << 1) /* a task, not the idle task, was running */
#define RF_BUSY_ON   (1U << 2) /* busy, and so is this CPU's next local event */
#define RF_PRE	     (1U << 3) /* REC_START made up for a timer pending before the trace */
#define RF_TICK	     (1U << 4) /* an event of the tick's own (its hrtimer, tick_stop) */
#define RF_TICK_ON   (1U << 5) /* idle after it, and the recorded tick kept running */
#define RF_IDLE_TICK (1U << 6) /* the tick's expiry, on an idle CPU */
#define RF_DEFER     (1U << 7) /* REC_START of a deferrable timer (flags=D) */
struct rec {
	u64 ts;	     /* trace clock, ns */
	u64 id;	     /* timer */
	u64 expires; /* REC_START: jiffies */
	u64 next_ts; /* RF_LOCAL: the next local event's time (UINT64_MAX: none) */
	uint8_t type;
	uint8_t flags;
};

/* What the trace shows, and where its events went. */
struct source {
	unsigned int hz;    /* inferred */
	const char *hz_how; /* how it was inferred */
	bool nohz;	    /* inferred */
	const char *mode_how;
	u64 tick_nsec; /* the recorded tick: Linux's TICK_NSEC at hz */
	u64 events, unknown, lines;
	u64 first_ts, last_ts;
	unsigned int ncpu;
	u64 *cpu_wakeups; /* observed, per CPU */
	u64 wakeups;
	u64 *cpu_events; /* spooled records per CPU */
	FILE **spool;
	struct hist late; /* observed lateness of jiffies timers, ns */
	u64 fired;	  /* observed timer_expire_entry of started timers */
	u64 mono_offset;  /* trace clock - CLOCK_MONOTONIC */
	u64 phase;	 /* the jiffy grid in CLOCK_MONOTONIC: boundaries at phase + k·tick_nsec */
	s64 jiffy_at_k0; /* jiffies at the boundary k = 0 */
	u64 bucket_checked, bucket_matched; /* timer_start bucket_expiry= against wheel.c */
	u64 tick_stops, tick_expiries;
	struct rec *pre; /* timers that fired with no start in the trace: pending before it */
	unsigned int *pre_cpu;
	size_t npre;
};

int source_read(const char *path, const struct options *o, struct source *s, char *err,
		size_t errlen);
void source_free(struct source *s);
/* The start of jiffy j of the recorded grid, in CLOCK_MONOTONIC ns. */
s64 source_jiffy_mono(const struct source *s, u64 j);

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
	struct hist late;
	struct hist idle; /* idle interval lengths */
	double busy_ns, idle_ns;
	double res_ns[MAX_CSTATES];   /* idle time in intervals long enough for each state */
	u64 deepest[MAX_CSTATES + 1]; /* idle intervals whose deepest state is [i - 1]; [0]: none */
	double energy_j;
	double tick_cpu_ns;
	u64 events; /* records replayed */
};
void result_init(struct result *r, unsigned int hz, bool nohz);
void result_free(struct result *r);
void result_add(struct result *sum, const struct result *cpu);
/* The setting's HZ as the lines print it: "250"; with --retune, HZ@T from T s on: "1000@0>100@10". */
const char *result_hz(const struct result *r, char *buf, size_t len);

/* Replays CPU cpu of s at r->hz / r->nohz into r. */
void replay_cpu(const struct source *s, unsigned int cpu, const struct options *o,
		struct result *r);

/* Linux's wheel: the jiffy a timer due at expires, filed at clk, really runs. */
u64 linux_bucket_expiry(u64 expires, u64 clk, unsigned int hz);

/* Energy of an idle interval of ns, and the deepest state it reaches (-1: none). */
double idle_energy(const struct options *o, double ns, int *state);
void power_defaults(struct options *o);
int parse_cstates(const char *spec, struct options *o, char *err, size_t errlen);

/* Results to the terminal, lines, CSV; the advice. */
struct advice {
	int pick; /* index into the results, -1 for none */
	char reason[512];
};
void advise(const struct options *o, const struct result *res, unsigned int n, int recorded,
	    struct advice *a);
void report(FILE *f, const struct options *o, const struct source *s, struct result *const *cpu,
	    const struct result *res, unsigned int n, int recorded, const struct advice *a);
int write_csv(const char *path, const struct source *s, struct result *const *cpu,
	      const struct result *res, unsigned int n, int recorded, char *err, size_t errlen);
int write_plots(const char *dir, const struct options *o, const struct result *res, unsigned int n,
		double span_s, char *err, size_t errlen);

#define NSEC_PER_SEC_D 1e9

#endif
