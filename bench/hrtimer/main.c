// SPDX-License-Identifier: MIT
/*
 * hrtimer-bench: dynhz's hrtimers against dynhz's jiffies wheel and libev's
 * timer heap, at 1k, 100k and 1M pending timers.
 *
 *	hrtimer-bench info			the libraries: object sizes, structures
 *	hrtimer-bench cmp R E random|seq N...	ns per start, re-arm, cancel (median of
 *						R runs) and expired timer (median of E)
 *	hrtimer-bench ir N...			the same once, under callgrind
 *						(--instr-atstart=no): one dump per phase
 *
 * The workload, the same for every library (fixed seed): n timers; start
 * all (expiries uniform in 1 ns .. 1 s from now); re-arm all while pending;
 * cancel all; that R times; then E times: start all again (untimed), let
 * the horizon pass (libev: a real sleep; dynhz: the simulated clock, with
 * interrupts off) and run every timer in one pass (ev_run(EVRUN_NOWAIT);
 * one interrupt of the tick device). Orders: random (each phase touches
 * the timers in its own permutation) or seq (timer i at step i). Output:
 * one comma-separated record a line, for run.sh's report.awk.
 */
#define _GNU_SOURCE /* sched_getcpu, sched_setaffinity */
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <valgrind/callgrind.h>

#include "../rng.h"
#include "hr_bench.h"

#define SEED	   0x6872746d72ULL
#define MAX_REPS   1001
#define MAX_TIMERS 10000000

enum { OP_START, OP_REARM, OP_CANCEL, OP_EXPIRE, OP_COUNT };
static const char *const op_name[OP_COUNT] = { "start", "rearm", "cancel", "expire" };

static const struct hb_lib *const libs[] = { &hb_hrtimer, &hb_wheel, &hb_libev };
#define NLIB ((int)ARRAY_SIZE(libs))

static bool ir_mode; /* running under callgrind */
static bool collect; /* this round is measured by callgrind */
static volatile uint64_t sink;

void hb_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "hrtimer-bench: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *hb_alloc(size_t bytes)
{
	size_t size = (bytes + 63) & ~(size_t)63;
	void *p = aligned_alloc(64, size ? size : 64);

	if (!p)
		hb_die("out of memory (%zu bytes)", bytes);
	memset(p, 0, size ? size : 64);
	return p;
}

static uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void quartiles(double *v, int n, double *q1, double *med, double *q3)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	*q1 = v[(n - 1) / 4];
	*q3 = v[n - 1 - (n - 1) / 4];
}

/* ---- the workload ---- */

struct work_mem {
	struct hb_work w;
	uint32_t *order[3];
	uint64_t *ns[2];
};

static void permutation(uint32_t *a, size_t n, bool seq)
{
	for (size_t i = 0; i < n; i++)
		a[i] = (uint32_t)i;
	if (seq)
		return;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rng_upto(i);
		uint32_t t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
}

static void work_make(struct work_mem *m, size_t n, bool seq)
{
	rng_seed(SEED ^ (uint64_t)n);
	for (int k = 0; k < 3; k++) {
		m->order[k] = hb_alloc(n * sizeof(uint32_t));
		permutation(m->order[k], n, seq);
	}
	for (int k = 0; k < 2; k++) {
		m->ns[k] = hb_alloc(n * sizeof(uint64_t));
		for (size_t i = 0; i < n; i++)
			m->ns[k][i] = 1 + rng_upto(HB_HORIZON_NS - 1);
	}
	m->w = (struct hb_work){ .n = n,
				 .start_order = m->order[0],
				 .rearm_order = m->order[1],
				 .cancel_order = m->order[2],
				 .start_ns = m->ns[0],
				 .rearm_ns = m->ns[1] };
}

static void work_free(struct work_mem *m)
{
	for (int k = 0; k < 3; k++)
		free(m->order[k]);
	for (int k = 0; k < 2; k++)
		free(m->ns[k]);
}

/* ---- one phase ---- */

static size_t run_op(const struct hb_lib *lib, int op)
{
	switch (op) {
	case OP_START:
		lib->start();
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

/* ns per operation; under callgrind, one dump of its own instead. */
static double phase(const struct hb_lib *lib, int op, size_t n)
{
	uint64_t t0 = 0, t1 = 0;
	size_t fired;

	if (collect) {
		char label[64];

		snprintf(label, sizeof(label), "%s %zu %s", lib->name, n, op_name[op]);
		CALLGRIND_START_INSTRUMENTATION;
		CALLGRIND_ZERO_STATS;
		fired = run_op(lib, op);
		CALLGRIND_DUMP_STATS_AT(label);
		CALLGRIND_STOP_INSTRUMENTATION;
	} else {
		t0 = clock_ns();
		fired = run_op(lib, op);
		t1 = clock_ns();
	}
	if (op == OP_EXPIRE && fired != n)
		hb_die("%s: %zu of %zu timers expired in one pass", lib->name, fired, n);
	return (double)(t1 - t0) / (double)n;
}

/* Under callgrind: the driving loop of a phase with no timer call in it. */
static void loop_alone(const struct hb_work *w)
{
	char label[64];

	snprintf(label, sizeof(label), "loop %zu start", w->n);
	CALLGRIND_START_INSTRUMENTATION;
	CALLGRIND_ZERO_STATS;
	for (size_t i = 0; i < w->n; i++)
		sink = (uint64_t)w->start_order[i] * 40 + w->start_ns[i];
	CALLGRIND_DUMP_STATS_AT(label);
	CALLGRIND_STOP_INSTRUMENTATION;
}

static double ns[NLIB][OP_COUNT][MAX_REPS];

static void compare(size_t n, int reps, int ereps, bool seq)
{
	struct work_mem m;

	work_make(&m, n, seq);
	for (int l = 0; l < NLIB; l++)
		libs[l]->init(&m.w);
	/* One warm-up round (not counted), then the measured ones. */
	for (int rep = -1; rep < reps; rep++) {
		collect = ir_mode && rep >= 0;
		for (int k = 0; k < NLIB; k++) {
			int l = (k + rep + 1) % NLIB;
			const struct hb_lib *lib = libs[l];
			double s, r, c;

			lib->now();
			s = phase(lib, OP_START, n);
			lib->now();
			r = phase(lib, OP_REARM, n);
			c = phase(lib, OP_CANCEL, n);
			if (rep >= 0) {
				ns[l][OP_START][rep] = s;
				ns[l][OP_REARM][rep] = r;
				ns[l][OP_CANCEL][rep] = c;
			}
		}
	}
	for (int rep = 0; rep < ereps; rep++) {
		for (int l = 0; l < NLIB; l++) {
			const struct hb_lib *lib = libs[l];

			lib->now();
			lib->start();
			lib->pass();
			ns[l][OP_EXPIRE][rep] = phase(lib, OP_EXPIRE, n);
		}
	}
	if (ir_mode)
		loop_alone(&m.w);
	for (int l = 0; l < NLIB; l++)
		libs[l]->fini();
	work_free(&m);
	if (ir_mode)
		return;
	for (int l = 0; l < NLIB; l++)
		for (int op = 0; op < OP_COUNT; op++) {
			int r = op == OP_EXPIRE ? ereps : reps;
			double q1, med, q3;

			quartiles(ns[l][op], r, &q1, &med, &q3);
			printf("ns,%s,%s,%zu,%s,%.2f,%.2f,%.2f,%d\n", seq ? "seq" : "random",
			       libs[l]->name, n, op_name[op], med, q1, q3, r);
		}
	fflush(stdout);
}

static void info(void)
{
	printf("info,hz,%u\n", HB_HZ);
	printf("info,horizon_ns,%llu\n", (unsigned long long)HB_HORIZON_NS);
	for (int l = 0; l < NLIB; l++)
		printf("lib,%s,%s,%s,%zu,%s\n", libs[l]->name, libs[l]->version(), libs[l]->object,
		       libs[l]->object_size, libs[l]->structure);
}

static long arg_num(const char *s, long lo, long hi)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || v < lo || v > hi)
		hb_die("bad number: %s", s);
	return v;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	pin();
	if (!strcmp(mode, "info")) {
		info();
	} else if (!strcmp(mode, "cmp") && argc > 5) {
		int reps = (int)arg_num(argv[2], 1, MAX_REPS);
		int ereps = (int)arg_num(argv[3], 1, MAX_REPS);

		if (strcmp(argv[4], "random") && strcmp(argv[4], "seq"))
			hb_die("order: random or seq, not %s", argv[4]);
		for (int i = 5; i < argc; i++)
			compare((size_t)arg_num(argv[i], 1, MAX_TIMERS), reps, ereps,
				!strcmp(argv[4], "seq"));
	} else if (!strcmp(mode, "ir") && argc > 2) {
		ir_mode = true;
		for (int i = 2; i < argc; i++)
			compare((size_t)arg_num(argv[i], 1, MAX_TIMERS), 1, 1, false);
	} else {
		fprintf(stderr,
			"usage: hrtimer-bench info | cmp REPS EXPIRE_REPS random|seq N... | "
			"ir N...\n");
		return 2;
	}
	return 0;
}
