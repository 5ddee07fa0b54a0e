// SPDX-License-Identifier: MIT
/*
 * bench/syscall: the round trip of a system call, measured by an ordinary
 * static Linux program with the TSC (run.sh boots it as init on the
 * reference kernel under QEMU -icount, and runs the same source, built for
 * x86-64, on the host).
 *
 * Each case is a loop of calls between two reads of the TSC, once of N
 * calls and once of 2N: the difference is what N calls cost, the loop's
 * fixed part (the call to it, the TSC reads) cancelled. The cases take
 * turns, ROUNDS times, and the empty loop (the same loop with no call) is
 * subtracted. Per case one line, in TSC counts per call:
 *
 *	sysbench: case=getpid-libc nr=20 min=420.00 median=420.00 mean=420.41
 *
 * min is from the quickest batches (under -icount the exact cost when the
 * batches are shorter than a tick: 2N calls within 100 us at HZ 10000),
 * median from the middle ones, mean adds to min what all the batches took
 * beyond the quickest, per call: the share of the interrupts. Then the TSC's rate against CLOCK_MONOTONIC over
 * the run (tsc_per_us=) and "sysbench: done". Every call's result is
 * checked; a wrong one is a "sysbench: FAIL" line and exit status 1.
 *
 *	sysbench [N [ROUNDS]]		the benchmark (default 16 calls, 400 rounds)
 *	sysbench wall CALLS		per case, CALLS calls between two lines (run.sh
 *					stamps them with the host's clock)
 *	sysbench count CASE CALLS	CALLS calls of one case, nothing printed (perf stat)
 *	sysbench exit			nothing: exit at once (for the boot time)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

#ifdef __GLIBC__
#define LIBC "glibc"
#else
#define LIBC "musl" /* the one other libc this is built with */
#endif

typedef unsigned long long u64;

#define MAX_ROUNDS 100000

static int failed;
static long want_pid;

static inline u64 tsc(void)
{
	unsigned int lo, hi;

	/* lfence: the calls before it are done before the TSC is read */
	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return ((u64)hi << 32) | lo;
}

#if defined(__i386__)
#define ARCH	   "i386"
#define NR_GETPID  20
#define NR_CLOCK   265
#define NR_CLOCK64 403
#define RAW_INSN   "int80"
/* The raw gate: what libc's wrapper comes down to, without the wrapper. */
static inline long raw2(long nr, long a, long b)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "0"(nr), "b"(a), "c"(b) : "memory");
	return r;
}
#elif defined(__x86_64__)
#define ARCH	  "x86_64"
#define NR_GETPID 39
#define NR_CLOCK  228
#define RAW_INSN  "syscall"
static inline long raw2(long nr, long a, long b)
{
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "0"(nr), "D"(a), "S"(b) : "rcx", "r11", "memory");
	return r;
}
#else
#error "i386 or x86-64 only"
#endif

/* Linux's struct __kernel_timespec (clock_gettime64) and old i386 timespec. */
struct ts64 {
	long long sec;
	long long nsec;
};
struct tsl {
	long sec;
	long nsec;
};

static void fail(const char *what, long got)
{
	if (failed++ < 10)
		printf("sysbench: FAIL %s returned %ld\n", what, got);
}

/* A loop of n; `bad` collects wrong results, checked once per batch. */
#define LOOP(name, decl, body)                                     \
	static __attribute__((noinline)) void name(unsigned int n) \
	{                                                          \
		long bad = 0;                                      \
		decl;                                              \
		for (unsigned int i = 0; i < n; i++) {             \
			body;                                      \
			__asm__ volatile("" ::: "memory");         \
		}                                                  \
		if (bad)                                           \
			fail(#name, bad);                          \
	}

LOOP(loop_empty, , )
LOOP(loop_getpid_libc, long r, r = getpid(); bad |= r != want_pid ? r | 0x10000 : 0)
LOOP(loop_getpid_raw, long r, r = raw2(NR_GETPID, 0, 0); bad |= r != want_pid ? r | 0x10000 : 0)
LOOP(loop_clock_libc, struct timespec ts, bad |= clock_gettime(CLOCK_MONOTONIC, &ts) ? 1 : 0)
#ifdef NR_CLOCK64
LOOP(loop_clock_raw, struct tsl ts, bad |= raw2(NR_CLOCK, CLOCK_MONOTONIC, (long)&ts))
LOOP(loop_clock64_raw, struct ts64 ts, bad |= raw2(NR_CLOCK64, CLOCK_MONOTONIC, (long)&ts))
#else
LOOP(loop_clock_raw, struct timespec ts, bad |= raw2(NR_CLOCK, CLOCK_MONOTONIC, (long)&ts))
#endif

struct bcase {
	const char *name;
	int nr; /* the system call it makes; -1: none (libc's clock_gettime with a vDSO) */
	void (*loop)(unsigned int n);
	u64 *t1, *t2; /* per round: the TSC counts of a batch of n and of 2n calls */
};

static struct bcase cases[] = {
	{ "empty", 0, loop_empty, NULL, NULL },
	{ "getpid-libc", NR_GETPID, loop_getpid_libc, NULL, NULL },
	{ "getpid-" RAW_INSN, NR_GETPID, loop_getpid_raw, NULL, NULL },
#ifdef NR_CLOCK64
	/* glibc and musl both try clock_gettime64 first; it exists here */
	{ "clock_gettime-libc", NR_CLOCK64, loop_clock_libc, NULL, NULL },
	{ "clock_gettime-" RAW_INSN, NR_CLOCK, loop_clock_raw, NULL, NULL },
	{ "clock_gettime64-" RAW_INSN, NR_CLOCK64, loop_clock64_raw, NULL, NULL },
#else
	{ "clock_gettime-libc", NR_CLOCK, loop_clock_libc, NULL, NULL },
	{ "clock_gettime-" RAW_INSN, NR_CLOCK, loop_clock_raw, NULL, NULL },
#endif
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

struct stat3 {
	double min, median, mean;
};

static struct stat3 stats(u64 *t, unsigned int rounds)
{
	struct stat3 s;
	double sum = 0;

	for (unsigned int i = 0; i < rounds; i++)
		sum += (double)t[i];
	qsort(t, rounds, sizeof(*t), cmp_u64);
	s.min = (double)t[0];
	s.median = rounds % 2 ? (double)t[rounds / 2] : (t[rounds / 2 - 1] + t[rounds / 2]) / 2.0;
	s.mean = sum / rounds;
	return s;
}

/*
 * What n more iterations cost: batches of 2n against batches of n. mean:
 * the quickest cost plus what the pairs of batches took beyond their
 * quickest, per call (the interrupts' share).
 */
static struct stat3 per_iter(struct bcase *c, unsigned int n, unsigned int rounds)
{
	u64 *sum = calloc(rounds, sizeof(u64));
	struct stat3 a, b, p, d = { 0, 0, 0 };

	if (!sum)
		return d;
	for (unsigned int i = 0; i < rounds; i++)
		sum[i] = c->t1[i] + c->t2[i];
	p = stats(sum, rounds);
	free(sum);
	a = stats(c->t1, rounds);
	b = stats(c->t2, rounds);
	d.min = (b.min - a.min) / n;
	d.median = (b.median - a.median) / n;
	d.mean = d.min + (p.mean - p.min) / (3.0 * n);
	return d;
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static unsigned int arg(int argc, char **argv, int i, unsigned int def, unsigned int max)
{
	char *end;
	unsigned long v;

	if (argc <= i)
		return def;
	v = strtoul(argv[i], &end, 10);
	if (*end || !v || v > max) {
		printf("sysbench: bad argument %s (1..%u), using %u\n", argv[i], max, def);
		return def;
	}
	return (unsigned int)v;
}

static struct bcase *find_case(const char *name)
{
	for (unsigned int c = 0; c < NCASES; c++)
		if (!strcmp(cases[c].name, name))
			return &cases[c];
	printf("sysbench: no case %s\n", name);
	return NULL;
}

/*
 * sysbench wall CALLS: each case in one loop of CALLS calls between two
 * lines, for a reader that stamps the console's lines with the host's
 * clock (the guest's own clock is not the host's under -icount).
 */
static int wall(unsigned int calls)
{
	for (unsigned int c = 0; c < NCASES; c++) {
		printf("sysbench: wall case=%s nr=%d calls=%u begin\n", cases[c].name, cases[c].nr,
		       calls);
		cases[c].loop(calls);
		printf("sysbench: wall case=%s end\n", cases[c].name);
	}
	printf("sysbench: %s\n", failed ? "FAILED" : "done");
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned int n, rounds;
	struct stat3 empty;
	u64 ns0, tsc0, ns1, tsc1;

	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 0;
	setvbuf(stdout, NULL, _IOLBF, 0);
	want_pid = getpid();
	/* With a vDSO (on Linux), libc's clock_gettime makes no system call. */
	if (getauxval(AT_SYSINFO_EHDR))
		find_case("clock_gettime-libc")->nr = -1;
	if (argc > 1 && !strcmp(argv[1], "wall"))
		return wall(arg(argc, argv, 2, 20000, 100000000));
	if (argc > 2 && !strcmp(argv[1], "count")) {
		/* sysbench count CASE CALLS: for perf stat -e instructions */
		struct bcase *c = find_case(argv[2]);

		if (c)
			c->loop(arg(argc, argv, 3, 100000, 100000000));
		return c && !failed ? 0 : 1;
	}
	n = arg(argc, argv, 1, 16, 100000);
	rounds = arg(argc, argv, 2, 400, MAX_ROUNDS);
	for (unsigned int c = 0; c < NCASES; c++) {
		cases[c].t1 = calloc(rounds, sizeof(u64));
		cases[c].t2 = calloc(rounds, sizeof(u64));
		if (!cases[c].t1 || !cases[c].t2) {
			printf("sysbench: FAIL out of memory\n");
			return 1;
		}
		cases[c].loop(2 * n); /* warm: the pages and the caches */
	}
	printf("sysbench: start libc=%s arch=%s batch=%u rounds=%u\n", LIBC, ARCH, n, rounds);

	ns0 = now_ns();
	tsc0 = tsc();
	for (unsigned int r = 0; r < rounds; r++) {
		for (unsigned int c = 0; c < NCASES; c++) {
			u64 a = tsc(), b, d;

			cases[c].loop(n);
			b = tsc();
			cases[c].loop(2 * n);
			d = tsc();
			cases[c].t1[r] = b - a;
			cases[c].t2[r] = d - b;
		}
	}
	tsc1 = tsc();
	ns1 = now_ns();

	empty = per_iter(&cases[0], n, rounds);
	printf("sysbench: case=empty nr=0 min=%.2f median=%.2f mean=%.2f\n", empty.min,
	       empty.median, empty.mean);
	for (unsigned int c = 1; c < NCASES; c++) {
		struct stat3 s = per_iter(&cases[c], n, rounds);

		printf("sysbench: case=%s nr=%d min=%.2f median=%.2f mean=%.2f\n", cases[c].name,
		       cases[c].nr, s.min - empty.min, s.median - empty.median, s.mean - empty.min);
	}
	printf("sysbench: tsc_per_us=%.3f\n",
	       ns1 > ns0 ? (double)(tsc1 - tsc0) * 1000.0 / (double)(ns1 - ns0) : 0.0);
	printf("sysbench: %s\n", failed ? "FAILED" : "done");
	return failed ? 1 : 0;
}
