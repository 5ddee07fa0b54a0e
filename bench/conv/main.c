// SPDX-License-Identifier: MIT
/*
 * conv-bench: the dynhz conversions in the variable build, the constant
 * build and a plain-division baseline, on the same inputs at the same HZ.
 *
 *	conv-bench check	the three agree on every input (and on HZ)
 *	conv-bench time [S]	check, then ns/op: median of S samples (default 31)
 *	conv-bench ir		under valgrind --tool=callgrind --collect-atstart=no:
 *				one dump per loop, to count instructions per op
 *
 * Each conversion is looped over in three modes (see conv_bench.h): call and
 * hoisted (throughput, constants re-read or kept in registers) and chain
 * (latency).
 *
 * Output is machine-readable, one record a line; bench/conv/run.sh makes the
 * tables from it.
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <valgrind/callgrind.h>

#include <dynhz/host.h>
#include <dynhz/hz.h>
#include <dynhz/jiffies.h>

#include "../rng.h"
#include "conv_bench.h"

/* The HZ and input clock of this build (mk/bench.mk builds the PIT's and 1 GHz). */
#ifndef BENCH_HZ
#define BENCH_HZ 250
#endif
#ifndef BENCH_CLOCK
#define BENCH_CLOCK 1193182
#endif
#define BENCH_STR_(x) #x
#define BENCH_STR(x)  BENCH_STR_(x)
#define N_IN	      2048 /* inputs per array: all of them stay in L1 */
#define PASSES	      64   /* passes over the array per timed sample */
#define MAX_SAMPLES   1001
#define SEED	      0x64796e687aULL

static const struct conv_impl *const impls[] = { &conv_impl_var, &conv_impl_const, &conv_impl_div };
#define N_IMPL ((int)ARRAY_SIZE(impls))

static const char *const mode_name[MODE_COUNT] = {
	[MODE_CALL] = "call",
	[MODE_HOISTED] = "hoisted",
	[MODE_CHAIN] = "chain",
};

static const char *const conv_name[CONV_COUNT] = {
#define CONV_STR(name, type) [CONV_##name] = #name,
	CONV_LIST(CONV_STR)
#undef CONV_STR
};

static const size_t conv_size[CONV_COUNT] = {
#define CONV_SIZE(name, type) [CONV_##name] = sizeof(type),
	CONV_LIST(CONV_SIZE)
#undef CONV_SIZE
};

/* The input domain of each conversion, as the table explains it. */
static const char *const conv_domain[CONV_COUNT] = {
	[CONV_msecs_to_jiffies] = "ms 0..10^6 (up to 1000 s)",
	[CONV_usecs_to_jiffies] = "us 0..10^9 (up to 1000 s)",
	[CONV_nsecs_to_jiffies] = "ns 0..10^13 (up to 2.8 h)",
	[CONV_timespec64_to_jiffies] = "tv_sec 0..10^4, tv_nsec 0..10^9-1",
	[CONV_jiffies_to_msecs] = "jiffies 0..3 days",
	[CONV_jiffies_to_usecs] = "jiffies 0..2^20 (70 min; 2^32 us saturates)",
	[CONV_jiffies_to_nsecs] = "jiffies 0..3 days",
	[CONV_jiffies64_to_nsecs] = "jiffies 0..3 days",
	[CONV_jiffies_to_clock_t] = "jiffies 0..3 days",
	[CONV_clock_t_to_jiffies] = "USER_HZ ticks 0..3 days",
};

static unsigned int in_ms[N_IN], in_us[N_IN];
static u64 in_ns[N_IN], in_j64_ns[N_IN];
static struct timespec64 in_ts[N_IN];
static unsigned long in_j_ms[N_IN], in_j_us[N_IN], in_j_ns[N_IN], in_j_clk[N_IN], in_clk_j[N_IN];

static const void *const inputs[CONV_COUNT] = {
	[CONV_msecs_to_jiffies] = in_ms,      [CONV_usecs_to_jiffies] = in_us,
	[CONV_nsecs_to_jiffies] = in_ns,      [CONV_timespec64_to_jiffies] = in_ts,
	[CONV_jiffies_to_msecs] = in_j_ms,    [CONV_jiffies_to_usecs] = in_j_us,
	[CONV_jiffies_to_nsecs] = in_j_ns,    [CONV_jiffies64_to_nsecs] = in_j64_ns,
	[CONV_jiffies_to_clock_t] = in_j_clk, [CONV_clock_t_to_jiffies] = in_clk_j,
};

/* Results end here, so that no loop is dead code. */
static volatile u64 sink;
static u64 out[N_IN];

static void fill_inputs(void)
{
	const u64 days3_j = 3ULL * 86400 * BENCH_HZ, days3_clk = 3ULL * 86400 * USER_HZ;

	rng_seed(SEED);
	for (int i = 0; i < N_IN; i++) {
		in_ms[i] = (unsigned int)rng_upto(1000000);
		in_us[i] = (unsigned int)rng_upto(1000000000);
		in_ns[i] = rng_upto(10000000000000ULL);
		in_ts[i].tv_sec = (s64)rng_upto(10000);
		in_ts[i].tv_nsec = (long)rng_upto(NSEC_PER_SEC - 1);
		in_j_ms[i] = rng_upto(days3_j);
		in_j_us[i] = rng_upto(1UL << 20);
		in_j_ns[i] = rng_upto(days3_j);
		in_j64_ns[i] = rng_upto(days3_j);
		in_j_clk[i] = rng_upto(days3_j);
		in_clk_j[i] = rng_upto(days3_clk);
	}
}

__attribute__((format(printf, 1, 2))) static _Noreturn void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "conv-bench: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void boot(void)
{
	u64 num0, den0;

	if (dynhz_host_set_clock_hz(BENCH_CLOCK) != 0 ||
	    dynhz_boot_quiet("hz=" BENCH_STR(BENCH_HZ)) != 0)
		die("dynhz_boot(\"hz=%d\") on a %d Hz clock failed", BENCH_HZ, BENCH_CLOCK);
	conv_div_setup();
	impls[0]->period(&num0, &den0);
	for (int k = 0; k < N_IMPL; k++) {
		u64 num, den;

		impls[k]->period(&num, &den);
		if (impls[k]->hz() != BENCH_HZ || num != num0 || den != den0)
			die("%s does not run at HZ %d with the period of %s", impls[k]->name,
			    BENCH_HZ, impls[0]->name);
	}
}

/* Every implementation, in both modes, gives the same result for every input. */
static void check(void)
{
	for (int c = 0; c < CONV_COUNT; c++) {
		for (int i = 0; i < N_IN; i++) {
			const void *x = (const char *)inputs[c] + (size_t)i * conv_size[c];
			u64 want, got;

			impls[0]->loop[MODE_CALL][c](x, &want, 1);

			for (int k = 0; k < N_IMPL; k++) {
				for (int m = 0; m < MODE_COUNT; m++) {
					impls[k]->loop[m][c](x, &got, 1);
					if (got == want)
						continue;
					die("%s: %s (%s) differs from %s on input %d", conv_name[c],
					    impls[k]->name, mode_name[m], impls[0]->name, i);
				}
			}
		}
	}
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* ns per op of PASSES passes of one loop over its array. */
static double time_loop(conv_loop_fn fn, const void *in)
{
	double t0 = now_ns();

	for (int p = 0; p < PASSES; p++) {
		fn(in, out, N_IN);
		sink += out[N_IN - 1];
	}
	return (now_ns() - t0) / ((double)N_IN * PASSES);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Prints median, first and third quartile of v[0..n-1] (sorts v). */
static void print_stats(const char *mode, const char *conv, const char *impl, double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	printf("ns,%s,%s,%s,%.4f,%.4f,%.4f\n", mode, conv, impl, v[n / 2], v[n / 4],
	       v[(3 * n) / 4]);
}

/* [mode][conversion][impl][sample]; the loop alone is conversion CONV_COUNT. */
static double samples[MODE_COUNT][CONV_COUNT + 1][3][MAX_SAMPLES];

/* Keeps the process on the CPU it started on: no migrations mid-sample. */
static void pin_cpu(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void run_time(int nsamples)
{
	u64 num, den;

	conv_impl_var.period(&num, &den);
	printf("info,clock,%d\n", BENCH_CLOCK);
	printf("info,hz,%u\ninfo,period,%llu,%llu\n", conv_impl_var.hz(), (unsigned long long)num,
	       (unsigned long long)den);
	printf("info,inputs,%d\ninfo,passes,%d\ninfo,samples,%d\n", N_IN, PASSES, nsamples);
	for (int c = 0; c < CONV_COUNT; c++) {
		printf("domain,%s,%s\n", conv_name[c], conv_domain[c]);
		printf("bits,%s,%u\n", conv_name[c], conv_div_bits[c]);
	}
	fflush(stdout);

	pin_cpu();
	/* Warm up caches, branch predictors and the clock. */
	for (int m = 0; m < MODE_COUNT; m++)
		for (int c = 0; c < CONV_COUNT; c++)
			for (int k = 0; k < N_IMPL; k++)
				time_loop(impls[k]->loop[m][c], inputs[c]);

	/*
	 * Samples interleave the implementations, in an order that rotates,
	 * so that a noisy moment of a shared machine hits all three alike.
	 */
	for (int s = 0; s < nsamples; s++) {
		for (int m = 0; m < MODE_COUNT; m++) {
			for (int c = 0; c < CONV_COUNT; c++) {
				for (int r = 0; r < N_IMPL; r++) {
					int k = (r + s) % N_IMPL;

					samples[m][c][k][s] =
						time_loop(impls[k]->loop[m][c], inputs[c]);
				}
			}
		}
		for (int m = 0; m < MODE_COUNT; m++)
			samples[m][CONV_COUNT][0][s] = time_loop(conv_loop_only[m], in_ns);
	}
	for (int m = 0; m < MODE_COUNT; m++) {
		for (int c = 0; c < CONV_COUNT; c++)
			for (int k = 0; k < N_IMPL; k++)
				print_stats(mode_name[m], conv_name[c], impls[k]->name,
					    samples[m][c][k], nsamples);
		print_stats(mode_name[m], "loop", "-", samples[m][CONV_COUNT][0], nsamples);
	}
}

/* Counts one loop: a callgrind dump named "<mode> <conv> <impl> <ops>". */
static void count_loop(int m, const char *conv, const char *impl, conv_loop_fn fn, const void *in)
{
	char label[128];

	CALLGRIND_TOGGLE_COLLECT;
	fn(in, out, N_IN);
	CALLGRIND_TOGGLE_COLLECT;
	snprintf(label, sizeof(label), "%s %s %s %d", mode_name[m], conv, impl, N_IN);
	CALLGRIND_DUMP_STATS_AT(label);
	sink += out[N_IN - 1];
}

static void run_ir(void)
{
	if (!RUNNING_ON_VALGRIND)
		die("ir: run it under valgrind --tool=callgrind --collect-atstart=no");
	for (int m = 0; m < MODE_COUNT; m++)
		for (int c = 0; c < CONV_COUNT; c++)
			for (int k = 0; k < N_IMPL; k++)
				count_loop(m, conv_name[c], impls[k]->name, impls[k]->loop[m][c],
					   inputs[c]);
	for (int m = 0; m < MODE_COUNT; m++)
		count_loop(m, "loop", "-", conv_loop_only[m], in_ns);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "time";

	fill_inputs();
	boot();
	if (!strcmp(mode, "check")) {
		check();
		printf("check: %d conversions x %d inputs: %s, %s and %s agree at HZ %d\n",
		       CONV_COUNT, N_IN, impls[0]->name, impls[1]->name, impls[2]->name, BENCH_HZ);
	} else if (!strcmp(mode, "time")) {
		int n = argc > 2 ? atoi(argv[2]) : 31;

		if (n < 1 || n > MAX_SAMPLES)
			die("time: samples must be 1..%d, not %s", MAX_SAMPLES, argv[2]);
		check();
		run_time(n);
	} else if (!strcmp(mode, "ir")) {
		run_ir();
	} else {
		die("usage: conv-bench check | time [samples] | ir");
	}
	return 0;
}
