// SPDX-License-Identifier: MIT
/*
 * timers-bench: dynhz timers against libev, libevent and libuv, and the
 * tick, lateness and drift figures of dynhz alone.
 *
 *	timers-bench info		the libraries: object sizes, structures
 *	timers-bench cmp R O N...	ns per add, re-arm, cancel and expired timer,
 *					each library at each N: median of R runs;
 *					order O: random (each phase touches the
 *					timers in its own random permutation) or
 *					seq (the i-th operation touches timer i)
 *	timers-bench ir N		the same in random order, to run under
 *					callgrind (--instr-atstart=no): a warm-up
 *					run, then one dump per phase
 *	timers-bench empty R		ns per tick with nothing due, 1 to 1M pending
 *	timers-bench empty-ir		the same once, under callgrind
 *	timers-bench lateness		ticks late over a random workload
 *	timers-bench drift		ktime_get_ns after a simulated day, per HZ
 *
 * Output is one comma-separated record a line; bench/timers/run.sh makes
 * the tables from it (report.awk).
 *
 * dynhz boots with highres=off here: its figures are the jiffies wheel's
 * and the periodic tick's (bench/hrtimer measures hrtimers).
 *
 * The workload of the comparison, the same for every library (same seed,
 * same order): n timers; add all (timeouts uniform in 1..1000 ms); re-arm
 * all while pending (new timeouts); cancel all; add all again as the first
 * time (untimed);
 * then expiry. An event loop reads the OS clock, so for expiry the driver
 * sleeps past the horizon and times one non-blocking pass of the loop, which
 * runs every timer. dynhz gets the same pass as simulated PIT ticks at HZ
 * 1000 up to the horizon, one interrupt each (dynhz_host_run_ticks). Within
 * a run the libraries take turns, in an order that rotates from run to run.
 */
#define _GNU_SOURCE /* sched_getcpu, sched_setaffinity */
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <valgrind/callgrind.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>
#define PIT_FREQ DYNHZ_HOST_CLOCK_HZ

#include "../rng.h"
#include "timers_bench.h"

#define SEED	   0x74696d657273ULL
#define MAX_REPS   101
#define MARGIN_MS  20 /* slept past the horizon: covers a coarse OS clock */
#define MAX_TIMERS 10000000

enum { OP_ADD, OP_REARM, OP_CANCEL, OP_EXPIRE, OP_COUNT };
static const char *const op_name[OP_COUNT] = { "add", "rearm", "cancel", "expire" };

static const struct tb_lib *const libs[] = { &tb_dynhz, &tb_libev, &tb_libevent, &tb_libuv };
#define NLIB ((int)ARRAY_SIZE(libs))

static bool ir_mode; /* running under callgrind */
static bool collect; /* this run is measured by callgrind: one dump per phase */
static volatile u64 sink;

void tb_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "timers-bench: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *tb_alloc(size_t bytes)
{
	size_t size = (bytes + 63) & ~(size_t)63;
	void *p = aligned_alloc(64, size ? size : 64);

	if (!p)
		tb_die("out of memory (%zu bytes)", bytes);
	memset(p, 0, size ? size : 64);
	return p;
}

static u64 clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static void sleep_until(u64 ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL),
			       .tv_nsec = (long)(ns % 1000000000ULL) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

/* Stay on one CPU: no migration in the middle of a timed phase. */
static void pin(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Under callgrind (--instr-atstart=no): one dump per measured part, with
 * nothing else instrumented. (Toggling collection instead would leave the
 * call counts of the unmeasured code in the dumps.)
 */
static void cg_begin(void)
{
	CALLGRIND_START_INSTRUMENTATION;
	CALLGRIND_ZERO_STATS;
}

static void cg_end(const char *label)
{
	CALLGRIND_DUMP_STATS_AT(label);
	CALLGRIND_STOP_INSTRUMENTATION;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median and quartiles (nearest rank) of v[0..n-1], which gets sorted. */
static void quartiles(double *v, int n, double *q1, double *med, double *q3)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	*q1 = v[(n - 1) / 4];
	*q3 = v[n - 1 - (n - 1) / 4];
}

/*
 * highres=off: these figures are the wheel's and the periodic tick's
 * (an hrtimer's and the one-shot tick's are bench/hrtimer's).
 */
static void boot_hz(unsigned int hz)
{
	char cmd[32];

	snprintf(cmd, sizeof(cmd), "hz=%u highres=off", hz);
	if (dynhz_boot_quiet(cmd) != 0 || HZ != hz)
		tb_die("dynhz: cannot boot with %s", cmd);
}

/* ---- the comparison ---- */

struct work_mem {
	struct tb_work w;
	uint32_t *order[3], *ms[2];
};

static bool seq_order; /* every phase touches timer i at step i */

static void shuffle(uint32_t *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = (uint32_t)i;
	if (seq_order)
		return;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rng_upto(i);
		uint32_t t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
}

static void work_make(struct work_mem *m, size_t n)
{
	rng_seed(SEED ^ (u64)n);
	for (int k = 0; k < 3; k++) {
		m->order[k] = tb_alloc(n * sizeof(uint32_t));
		shuffle(m->order[k], n);
	}
	for (int k = 0; k < 2; k++) {
		m->ms[k] = tb_alloc(n * sizeof(uint32_t));
		for (size_t i = 0; i < n; i++)
			m->ms[k][i] = 1 + (uint32_t)rng_upto(TB_HORIZON_MS - 1);
	}
	m->w = (struct tb_work){ .n = n,
				 .add_order = m->order[0],
				 .rearm_order = m->order[1],
				 .cancel_order = m->order[2],
				 .add_ms = m->ms[0],
				 .rearm_ms = m->ms[1] };
}

static void work_free(struct work_mem *m)
{
	for (int k = 0; k < 3; k++)
		free(m->order[k]);
	for (int k = 0; k < 2; k++)
		free(m->ms[k]);
}

static size_t run_op(const struct tb_lib *lib, int op)
{
	switch (op) {
	case OP_ADD:
		lib->add();
		return 0;
	case OP_REARM:
		lib->rearm();
		return 0;
	case OP_CANCEL:
		lib->cancel();
		return 0;
	default:
		return lib->expire();
	}
}

/* One phase: ns per operation, or under callgrind one dump of its own. */
static double phase(const struct tb_lib *lib, int op, size_t n)
{
	size_t fired;
	u64 t0, t1;

	if (collect) {
		char label[96];

		snprintf(label, sizeof(label), "cmp %s %zu %s %zu", lib->name, n, op_name[op], n);
		cg_begin();
		fired = run_op(lib, op);
		cg_end(label);
		t0 = t1 = 0;
	} else {
		t0 = clock_ns();
		fired = run_op(lib, op);
		t1 = clock_ns();
	}
	if (op == OP_EXPIRE && fired != n)
		tb_die("%s: %zu of %zu timers expired in one pass", lib->name, fired, n);
	return (double)(t1 - t0) / (double)n;
}

/* Under callgrind: the driving loop of an add phase with no timer call in it. */
static void loop_alone(const struct tb_work *w)
{
	const uint32_t *ord = w->add_order;
	char label[64];

	snprintf(label, sizeof(label), "cmp loop %zu add %zu", w->n, w->n);
	cg_begin();
	for (size_t i = 0; i < w->n; i++)
		sink = (u64)ord[i] * 40 + w->add_ms[i];
	cg_end(label);
}

static void compare(size_t n, int reps, const char *order)
{
	static double ns[NLIB][OP_COUNT][MAX_REPS];
	struct work_mem m;

	work_make(&m, n);
	for (int l = 0; l < NLIB; l++)
		libs[l]->init(&m.w);
	for (int rep = 0; rep < reps; rep++) {
		collect = ir_mode && rep == reps - 1;
		for (int k = 0; k < NLIB; k++) {
			int l = (k + rep) % NLIB;
			const struct tb_lib *lib = libs[l];

			lib->now();
			ns[l][OP_ADD][rep] = phase(lib, OP_ADD, n);
			ns[l][OP_REARM][rep] = phase(lib, OP_REARM, n);
			ns[l][OP_CANCEL][rep] = phase(lib, OP_CANCEL, n);
			lib->now();
			lib->add(); /* again, for expiry */
		}
		sleep_until(clock_ns() + (TB_HORIZON_MS + MARGIN_MS) * 1000000ULL);
		for (int k = 0; k < NLIB; k++) {
			int l = (k + rep) % NLIB;

			ns[l][OP_EXPIRE][rep] = phase(libs[l], OP_EXPIRE, n);
		}
	}
	if (ir_mode)
		loop_alone(&m.w);
	for (int l = 0; l < NLIB; l++)
		libs[l]->fini();
	work_free(&m);

	if (ir_mode)
		return;
	for (int l = 0; l < NLIB; l++) {
		for (int op = 0; op < OP_COUNT; op++) {
			double q1, med, q3;

			quartiles(ns[l][op], reps, &q1, &med, &q3);
			printf("ns,%s,%s,%zu,%s,%.2f,%.2f,%.2f,%d\n", order, libs[l]->name, n,
			       op_name[op], med, q1, q3, reps);
		}
	}
	fflush(stdout);
}

static void info(void)
{
	struct timespec res;

	printf("info,hz,%u\n", TB_HZ);
	printf("info,horizon_ms,%u\n", TB_HORIZON_MS);
	printf("info,margin_ms,%u\n", MARGIN_MS);
	boot_hz(TB_HZ);
	printf("info,jiffy_ps,%llu\n", (unsigned long long)dz_tick_ps(dz_hz_period()));
	printf("info,horizon_j,%lu\n", msecs_to_jiffies(TB_HORIZON_MS));
	if (!clock_getres(CLOCK_MONOTONIC_COARSE, &res))
		printf("info,coarse_res_ns,%ld\n", (long)res.tv_sec * 1000000000L + res.tv_nsec);
	for (int l = 0; l < NLIB; l++)
		printf("lib,%s,%s,%s,%zu,%s\n", libs[l]->name, libs[l]->version(), libs[l]->object,
		       libs[l]->object_size, libs[l]->structure);
}

/* ---- the empty tick ---- */

#define EMPTY_TICKS    (1UL << 18) /* per timed sample */
#define EMPTY_TICKS_IR (1UL << 16)
/* Pending timers expire 2^22..2^23 jiffies ahead: none is due, none cascades. */
#define EMPTY_FAR (1UL << 22)

static void empty_fire(struct timer_list *t)
{
	tb_die("empty: timer %p ran in the quiet window", (void *)t);
}

/*
 * One interrupt of the tick device, delivered as a driver delivers it.
 * report.awk measures the tick handler as what this function calls,
 * whatever the core names its handler (it is the bench's own name, and
 * the report fails when it is not in the dump).
 */
__attribute__((noinline)) void tb_tick_interrupt(struct clock_event_device *dev);
__attribute__((noinline)) void tb_tick_interrupt(struct clock_event_device *dev)
{
	dev->event_handler(dev);
}

static void empty(int reps)
{
	static const size_t pending[] = { 1, 1000, 100000, 1000000 };
	static double ns[MAX_REPS];

	if ((u64)reps * EMPTY_TICKS + 1024 >= EMPTY_FAR - (1UL << 18))
		tb_die("empty: too many samples for the quiet window");
	for (size_t k = 0; k < ARRAY_SIZE(pending); k++) {
		size_t p = pending[k];
		struct timer_list *t;
		struct dz_timer_stats a, b;
		double q1, med, q3;

		boot_hz(TB_HZ);
		rng_seed(SEED + p);
		t = tb_alloc(p * sizeof(*t));
		for (size_t i = 0; i < p; i++) {
			timer_setup(&t[i], empty_fire, 0);
			t[i].expires = jiffies + EMPTY_FAR + rng_upto(EMPTY_FAR - 1);
			add_timer(&t[i]);
		}
		dz_timer_stats(&a);
		dynhz_host_run_ticks(1024); /* warm up */
		if (ir_mode) {
			char label[64];

			struct clock_event_device *dev = dz_tick_device();

			snprintf(label, sizeof(label), "empty %zu tick %lu", p, EMPTY_TICKS_IR);
			cg_begin();
			dynhz_host_run_ticks(EMPTY_TICKS_IR);
			cg_end(label);
			/* The handler alone (the simulated clock stands still meanwhile). */
			snprintf(label, sizeof(label), "handler %zu tick %lu", p, EMPTY_TICKS_IR);
			cg_begin();
			for (unsigned long i = 0; i < EMPTY_TICKS_IR; i++)
				tb_tick_interrupt(dev);
			cg_end(label);
		} else {
			for (int r = 0; r < reps; r++) {
				u64 t0 = clock_ns();

				dynhz_host_run_ticks(EMPTY_TICKS);
				ns[r] = (double)(clock_ns() - t0) / (double)EMPTY_TICKS;
			}
		}
		dz_timer_stats(&b);
		if (b.expired != a.expired || b.cascaded != a.cascaded || b.pending != p)
			tb_die("empty: the wheel had work during the quiet window");
		if (!ir_mode) {
			quartiles(ns, reps, &q1, &med, &q3);
			printf("empty,%zu,%.3f,%.3f,%.3f,%lu,%d\n", p, med, q1, q3, EMPTY_TICKS,
			       reps);
			fflush(stdout);
		}
		boot_hz(TB_HZ); /* forgets the pending timers */
		free(t);
	}
}

/* ---- lateness ---- */

#define LATE_TIMERS	 200000
#define LATE_TICKED	 (1UL << 25) /* ticked one by one; then fast-forwarded */
#define LATE_REARM_UNTIL (1UL << 24) /* callbacks re-arm until then */

/* Timeout classes: one per wheel level, beyond the wheel, and 0 (due now). */
static const struct {
	unsigned long lo, hi; /* jiffies, lo..hi-1 */
	unsigned int weight;  /* per mille */
	const char *name;
} late_class[] = {
	{ 1, 1UL << 6, 390, "1..63 (level 0)" },
	{ 1UL << 6, 1UL << 12, 250, "64..4095 (level 1)" },
	{ 1UL << 12, 1UL << 18, 150, "2^12..2^18-1 (level 2)" },
	{ 1UL << 18, 1UL << 24, 100, "2^18..2^24-1 (level 3)" },
	{ 1UL << 24, 1UL << 30, 70, "2^24..2^30-1 (level 4)" },
	{ 1UL << 30, 1UL << 32, 20, "2^30..2^32-1 (beyond the wheel)" },
	{ 0, 1, 20, "0 (due now: runs at the next tick)" },
};
#define NCLASS ((int)ARRAY_SIZE(late_class))

struct late_timer {
	struct timer_list t;
	int cls;
};

static struct late_timer *late_t;
static struct {
	long *v;
	size_t n, cap;
} late_rec[NCLASS];
static unsigned long late_start;

static void late_record(int cls, long late)
{
	if (late_rec[cls].n == late_rec[cls].cap) {
		late_rec[cls].cap = late_rec[cls].cap ? 2 * late_rec[cls].cap : 4096;
		late_rec[cls].v = realloc(late_rec[cls].v, late_rec[cls].cap * sizeof(long));
		if (!late_rec[cls].v)
			tb_die("out of memory");
	}
	late_rec[cls].v[late_rec[cls].n++] = late;
}

static void late_arm(struct late_timer *x)
{
	unsigned int w = (unsigned int)rng_upto(999);
	int c = 0;

	while (c < NCLASS - 1 && w >= late_class[c].weight) {
		w -= late_class[c].weight;
		c++;
	}
	x->cls = c;
	mod_timer(&x->t,
		  jiffies + late_class[c].lo + rng_upto(late_class[c].hi - late_class[c].lo - 1));
}

static void late_fire(struct timer_list *t)
{
	struct late_timer *x = from_timer(x, t, t);
	u64 r;

	late_record(x->cls, (long)(jiffies - t->expires));
	if (jiffies - late_start >= LATE_REARM_UNTIL)
		return;
	r = rng_next();
	if (r & 1)
		late_arm(x); /* itself */
	switch ((r >> 1) & 7) {
	case 0:
		del_timer(&late_t[rng_upto(LATE_TIMERS - 1)].t);
		break;
	case 1:
		late_arm(&late_t[rng_upto(LATE_TIMERS - 1)]);
		break;
	}
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void lateness(void)
{
	struct dz_timer_stats st;
	u64 adds = 0, t0 = clock_ns();
	size_t all_n = 0, all_early = 0;
	long *all;

	boot_hz(TB_HZ);
	rng_seed(SEED * 3);
	late_t = tb_alloc(LATE_TIMERS * sizeof(*late_t));
	late_start = jiffies;
	for (size_t i = 0; i < LATE_TIMERS; i++) {
		timer_setup(&late_t[i].t, late_fire, 0);
		late_arm(&late_t[i]);
		adds++;
	}
	for (unsigned long done = 0; done < LATE_TICKED; done += 1UL << 20)
		dynhz_host_run_ticks(1UL << 20);
	do {
		dynhz_host_advance_ticks(1ULL << 28);
		dz_timer_stats(&st);
	} while (st.pending);

	for (int c = 0; c < NCLASS; c++)
		all_n += late_rec[c].n;
	all = malloc((all_n + 1) * sizeof(long));
	all_n = 0;
	for (int c = 0; c < NCLASS; c++) {
		size_t n = late_rec[c].n, early = 0;
		long *v = late_rec[c].v;

		if (!n) {
			printf("late,%d,%s,0,,,,0\n", c, late_class[c].name);
			continue;
		}
		qsort(v, n, sizeof(long), cmp_long);
		for (size_t i = 0; i < n; i++) {
			early += v[i] < 0;
			if (late_class[c].lo) {
				all[all_n++] = v[i];
				all_early += v[i] < 0;
			}
		}
		printf("late,%d,%s,%zu,%ld,%ld,%ld,%zu\n", c, late_class[c].name, n, v[0], v[n / 2],
		       v[n - 1], early);
	}
	qsort(all, all_n, sizeof(long), cmp_long);
	printf("late,all,timeouts >= 1,%zu,%ld,%ld,%ld,%zu\n", all_n, all_n ? all[0] : 0,
	       all_n ? all[all_n / 2] : 0, all_n ? all[all_n - 1] : 0, all_early);
	printf("lateinfo,%u,%d,%lu,%llu,%.2f\n", TB_HZ, LATE_TIMERS, LATE_TICKED,
	       (unsigned long long)(jiffies - late_start), (double)(clock_ns() - t0) * 1e-9);
	free(all);
	free(late_t);
	for (int c = 0; c < NCLASS; c++)
		free(late_rec[c].v);
}

/* ---- drift ---- */

static const unsigned int drift_hz[] = {
	19, 24, 100, 250, 300, 333, 1000, 1024, 1200, 2000, 10000
};

/* n * divisor * 10^9 / PIT_FREQ, rounded down: the oscillator's own time. */
static u64 exact_ns(u64 ticks, u64 divisor)
{
	return (u64)((unsigned __int128)ticks * divisor * 1000000000U / PIT_FREQ);
}

static double ppm(double got, double want)
{
	return (got - want) / want * 1e6;
}

static void drift(void)
{
	for (size_t k = 0; k < ARRAY_SIZE(drift_hz); k++) {
		unsigned int hz = drift_hz[k];
		u64 divisor, ticks, want, kt_cs, kt_tick, plain, t0;
		double rate, secs;

		boot_hz(hz);
		if (dz_hz_period().den != PIT_FREQ)
			tb_die("drift: hz=%u: the period is not a PIT period", hz);
		divisor = dz_hz_period().num;
		rate = (double)PIT_FREQ / (double)divisor;
		ticks = 86400ULL * PIT_FREQ / divisor; /* whole ticks in a day */
		want = exact_ns(ticks, divisor);

		/* The host's clocksource (the PIT input clock), tick by tick. */
		t0 = clock_ns();
		dynhz_host_run_ticks((unsigned long)ticks);
		secs = (double)(clock_ns() - t0) * 1e-9;
		kt_cs = ktime_get_ns();
		if (dz_tick_count() != ticks)
			tb_die("drift: hz=%u: %llu ticks counted, %llu delivered", hz,
			       (unsigned long long)dz_tick_count(), (unsigned long long)ticks);

		/* No clocksource: time from ticks times the exact tick period. */
		boot_hz(hz);
		clocksource_unregister(dz_clocksource_current());
		dynhz_host_run_ticks((unsigned long)ticks);
		kt_tick = ktime_get_ns();

		/* 1/HZ per tick, as plain HZ arithmetic assumes. */
		plain = (u64)((unsigned __int128)ticks * 1000000000U / hz);

		printf("drift,%u,%llu,%.3f,%.3f,%llu,%llu,%llu,%lld,%.6f,%llu,%lld,%.6f,%.3f,%."
		       "2f\n",
		       hz, (unsigned long long)divisor, rate, ppm(rate, hz),
		       (unsigned long long)ticks, (unsigned long long)want,
		       (unsigned long long)kt_cs, (long long)(kt_cs - want),
		       ppm((double)kt_cs, (double)want), (unsigned long long)kt_tick,
		       (long long)(kt_tick - want), ppm((double)kt_tick, (double)want),
		       ppm((double)plain, (double)want), secs);
		fflush(stdout);
	}
}

static long arg_num(const char *s, long lo, long hi)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || v < lo || v > hi)
		tb_die("bad number: %s", s);
	return v;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	pin();
	dynhz_host_set_quiet(true);
	if (!strcmp(mode, "info")) {
		info();
	} else if (!strcmp(mode, "cmp") && argc > 4) {
		int reps = (int)arg_num(argv[2], 1, MAX_REPS);

		if (strcmp(argv[3], "random") && strcmp(argv[3], "seq"))
			tb_die("order: random or seq, not %s", argv[3]);
		seq_order = !strcmp(argv[3], "seq");
		for (int i = 4; i < argc; i++)
			compare((size_t)arg_num(argv[i], 1, MAX_TIMERS), reps, argv[3]);
	} else if (!strcmp(mode, "ir") && argc > 2) {
		ir_mode = true;
		for (int i = 2; i < argc; i++)
			compare((size_t)arg_num(argv[i], 1, MAX_TIMERS), 2, "random");
	} else if (!strcmp(mode, "empty") && argc > 2) {
		empty((int)arg_num(argv[2], 1, MAX_REPS));
	} else if (!strcmp(mode, "empty-ir")) {
		ir_mode = true;
		empty(1);
	} else if (!strcmp(mode, "lateness")) {
		lateness();
	} else if (!strcmp(mode, "drift")) {
		drift();
	} else {
		fprintf(stderr, "usage: timers-bench info | cmp REPS random|seq N... | ir N... | "
				"empty REPS |"
				" empty-ir | lateness | drift\n");
		return 2;
	}
	return 0;
}
