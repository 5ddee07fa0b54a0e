// SPDX-License-Identifier: MIT
/*
 * The Linux series' boot-time generator, hz_timeconst_init(),
 * hz_div64_init() and hz_round_up_init() of kernel/time/hz.c, against what stock Linux gets at
 * build time from kernel/time/timeconst.bc and from the compiler's
 * divisions. check.sh takes the functions out of the tree's hz.c
 * (hz-gen.inc) and compiles them with the tree's hz-conv.h and the helpers
 * of shim.h: nothing of the generator is copied here.
 *
 *   timeconst_test table LO HI FILE...  FILE: timeconst.bc's output for
 *       HZ LO to HI, each HZ once, in any order. Every constant it prints
 *       is compared with hz_timeconst_init()'s table at that HZ.
 *   timeconst_test div64 LO HI COUNT    every hz_div64 and hz_round_up
 *       of the table at every HZ from LO to HI against the division it
 *       stands for, on edge dividends and COUNT random ones.
 *
 * Prints the problems (indented, the first 20), then a line of counts
 * (div64: then the members it checked, "members: NAME..."), and exits 1
 * when there was a problem. Built with -DHZ_TEST_WRONG=N (the test
 * of the test) the table at HZ N has MSEC_TO_HZ_ADJ32 and the multiplier
 * of hz_d off by one, and at HZ N - 50 the multiplier of usec_per_jiffy_ru.
 */
#include "shim.h"

#include <inttypes.h>
#include <stdarg.h>

#include "hz-conv.h"

/* kernel/time/hz.c's generator, as check.sh extracted it */
#include "hz-gen.inc"

static long problems;

static void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void problem(const char *fmt, ...)
{
	va_list ap;

	if (problems++ >= 20)
		return;
	printf("  ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void make_table(struct hz_timeconst *tc, int hz)
{
	hz_timeconst_init(tc, hz);
#ifdef HZ_TEST_WRONG
	if (hz == HZ_TEST_WRONG) {
		tc->msec_to_hz.adj++;
		tc->hz_d.m--;
	}
	if (hz == HZ_TEST_WRONG - 50)
		tc->usec_per_jiffy_ru.m--;
#endif
}

/*
 * Each constant timeconst.bc prints and where the table keeps it. Stock's
 * X_TO_HZ_NUM/DEN are HZ_TO_X_DEN/NUM: the one reduced fraction.
 */
#define CONSTANTS(X)                                 \
	X(HZ_TO_MSEC_MUL32, tc->hz_to_msec.mul)      \
	X(HZ_TO_MSEC_ADJ32, tc->hz_to_msec.adj)      \
	X(HZ_TO_MSEC_SHR32, (u64)tc->hz_to_msec.shr) \
	X(MSEC_TO_HZ_MUL32, tc->msec_to_hz.mul)      \
	X(MSEC_TO_HZ_ADJ32, tc->msec_to_hz.adj)      \
	X(MSEC_TO_HZ_SHR32, (u64)tc->msec_to_hz.shr) \
	X(HZ_TO_MSEC_NUM, tc->hz_to_msec_num)        \
	X(HZ_TO_MSEC_DEN, tc->hz_to_msec_den)        \
	X(MSEC_TO_HZ_NUM, tc->hz_to_msec_den)        \
	X(MSEC_TO_HZ_DEN, tc->hz_to_msec_num)        \
	X(HZ_TO_USEC_MUL32, tc->hz_to_usec.mul)      \
	X(HZ_TO_USEC_ADJ32, tc->hz_to_usec.adj)      \
	X(HZ_TO_USEC_SHR32, (u64)tc->hz_to_usec.shr) \
	X(USEC_TO_HZ_MUL32, tc->usec_to_hz.mul)      \
	X(USEC_TO_HZ_ADJ32, tc->usec_to_hz.adj)      \
	X(USEC_TO_HZ_SHR32, (u64)tc->usec_to_hz.shr) \
	X(HZ_TO_USEC_NUM, tc->hz_to_usec_num)        \
	X(HZ_TO_USEC_DEN, tc->hz_to_usec_den)        \
	X(USEC_TO_HZ_NUM, tc->hz_to_usec_den)        \
	X(USEC_TO_HZ_DEN, tc->hz_to_usec_num)        \
	X(HZ_TO_NSEC_NUM, tc->hz_to_nsec_num)        \
	X(HZ_TO_NSEC_DEN, tc->hz_to_nsec_den)        \
	X(NSEC_TO_HZ_NUM, tc->hz_to_nsec_den)        \
	X(NSEC_TO_HZ_DEN, tc->hz_to_nsec_num)

#define AS_ENUM(name, field) C_##name,
#define AS_NAME(name, field) #name,
#define AS_CASE(name, field) \
	case C_##name:       \
		return field;

enum { CONSTANTS(AS_ENUM) NCONST };
static const char *const const_name[NCONST] = { CONSTANTS(AS_NAME) };

static u64 table_value(const struct hz_timeconst *tc, int i)
{
	switch (i) {
		CONSTANTS(AS_CASE)
	}
	abort();
}

/* One HZ's block of timeconst.bc's output, as read so far. */
static int block_hz, blocks_read, hz_lo, hz_hi;
static bool have[NCONST];
static u64 printed[NCONST];
static long compared, differ;
static char *seen; /* seen[hz - hz_lo]: that HZ's block was read */

static void end_block(void)
{
	struct hz_timeconst tc;
	int i;

	if (!block_hz)
		return;
	make_table(&tc, block_hz);
	for (i = 0; i < NCONST; i++) {
		if (!have[i]) {
			problem("HZ %d: timeconst.bc printed no %s", block_hz, const_name[i]);
			continue;
		}
		compared++;
		if (printed[i] == table_value(&tc, i))
			continue;
		differ++;
		problem("HZ %d: %s: timeconst.bc 0x%" PRIx64 ", hz_timeconst_init 0x%" PRIx64,
			block_hz, const_name[i], printed[i], table_value(&tc, i));
	}
	block_hz = 0;
}

static void start_block(int hz)
{
	end_block();
	if (hz < hz_lo || hz > hz_hi) {
		problem("HZ %d: outside %d..%d", hz, hz_lo, hz_hi);
		return;
	}
	if (seen[hz - hz_lo]++)
		problem("HZ %d: printed twice", hz);
	block_hz = hz;
	blocks_read++;
	memset(have, 0, sizeof(have));
}

/* "#define NAME VALUE": VALUE is decimal or U64_C(0xHEX) */
static void define_line(const char *file, long n, const char *line)
{
	char name[64], text[64], *end;
	const char *digits;
	u64 v;
	int i, base = 10;

	if (sscanf(line, "#define %63s %63s", name, text) != 2)
		return; /* the include guard */
	for (i = 0; i < NCONST && strcmp(name, const_name[i]); i++)
		;
	if (i == NCONST) {
		problem("%s:%ld: a constant this test does not know: %s", file, n, name);
		return;
	}
	if (!block_hz) {
		problem("%s:%ld: %s outside an HZ's block", file, n, name);
		return;
	}
	digits = text;
	if (!strncmp(text, "U64_C(0x", 8)) {
		digits = text + 8;
		base = 16;
	}
	v = strtoull(digits, &end, base);
	if (end == digits || strcmp(end, base == 16 ? ")" : "")) {
		problem("%s:%ld: %s: cannot read %s", file, n, name, text);
		return;
	}
	if (have[i])
		problem("HZ %d: %s printed twice", block_hz, name);
	have[i] = true;
	printed[i] = v;
}

static int table(int argc, char **argv)
{
	char line[512];
	int i, hz;

	seen = calloc(hz_hi - hz_lo + 1, 1);
	if (!seen)
		abort();
	for (i = 0; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		long n = 0;

		if (!f) {
			problem("%s: cannot open", argv[i]);
			continue;
		}
		bool guard = false;

		while (fgets(line, sizeof(line), f)) {
			n++;
			/* an #error is timeconst.h's own guard after its #if HZ != N */
			if (!strncmp(line, "#error", 6) && guard) {
				guard = false;
				continue;
			}
			guard = false;
			if (sscanf(line, "/* Time conversion constants for HZ == %d */", &hz) ==
			    1) {
				start_block(hz);
			} else if (sscanf(line, "#if HZ != %d", &hz) == 1) {
				guard = true;
				if (hz != block_hz)
					problem("%s:%ld: #if HZ != %d in HZ %d's block", argv[i], n,
						hz, block_hz);
			} else if (!strncmp(line, "#define ", 8)) {
				define_line(argv[i], n, line);
			} else if (!strncmp(line, "#error", 6) || strchr(line, '\\')) {
				problem("%s:%ld: %s", argv[i], n, strtok(line, "\n"));
			}
		}
		end_block();
		fclose(f);
	}
	for (hz = hz_lo; hz <= hz_hi; hz++)
		if (!seen[hz - hz_lo])
			problem("HZ %d: not in timeconst.bc's output", hz);
	free(seen);
	printf("%d HZ, %ld constants compared, %ld differ, %ld problems%s\n", blocks_read, compared,
	       differ, problems, problems > 20 ? " (the first 20 shown)" : "");
	return problems != 0;
}

/* xorshift64*: the same dividends every run */
static u64 rnd_state = 0x9e3779b97f4a7c15ULL;

static u64 rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dULL;
}

static long divisions, divisors;
/* the members check_divisor() saw, for check.sh to hold against the struct */
static const char *members[32];
static int nmembers;

static void note_member(const char *name)
{
	int k;

	for (k = 0; k < nmembers && strcmp(members[k], name); k++)
		;
	if (k == nmembers && nmembers < 32)
		members[nmembers++] = name;
}

static void divide(int hz, const char *name, const struct hz_div64 *r, u64 d, u64 x)
{
	u64 got = hz_div64(x, r);

	divisions++;
	if (got != x / d)
		problem("HZ %d: %s (d %" PRIu64 "): hz_div64(%" PRIu64 ") = %" PRIu64
			", not %" PRIu64,
			hz, name, d, x, got, x / d);
}

/* x * d + delta when no step wraps, else nothing */
static void near_multiple(int hz, const char *name, const struct hz_div64 *r, u64 d, u64 q)
{
	u64 x = q * d;

	if (q && x / q != d)
		return;
	divide(hz, name, r, d, x);
	if (x)
		divide(hz, name, r, d, x - 1);
	if (x + 1)
		divide(hz, name, r, d, x + 1);
}

/*
 * hz_div64() by d at HZ hz: the quotients 0 to 3, 2^k - 1, 2^k and
 * 2^k + 1 and the largest two, each times d and one either side; the top
 * of the range and the powers of two; count random dividends of every
 * length, count near random multiples.
 */
static void check_divisor(int hz, const char *name, const struct hz_div64 *r, u64 d, long count)
{
	u64 top = UINT64_MAX / d, q;
	int k;
	long i;

	divisors++;
	note_member(name);
	for (q = 0; q <= 3; q++)
		near_multiple(hz, name, r, d, q);
	for (k = 2; k < 64; k++)
		for (q = ((u64)1 << k) - 1; q <= ((u64)1 << k) + 1; q++)
			near_multiple(hz, name, r, d, q);
	near_multiple(hz, name, r, d, top - 1);
	near_multiple(hz, name, r, d, top);
	for (k = 0; k < 16; k++)
		divide(hz, name, r, d, UINT64_MAX - k);
	for (k = 0; k < 64; k++)
		divide(hz, name, r, d, (u64)1 << k);
	for (i = 0; i < count; i++) {
		divide(hz, name, r, d, rnd() >> (rnd() % 64));
		q = rnd() >> (rnd() % 64);
		near_multiple(hz, name, r, d, top == UINT64_MAX ? q : q % (top + 1));
	}
}

static void round_up(int hz, const char *name, const struct hz_round_up *r, u32 d, u32 x)
{
	u64 got = hz_round_up(x, r), want = ((u64)x + d - 1) / d;

	divisions++;
	if (got != want)
		problem("HZ %d: %s (d %" PRIu32 "): hz_round_up(%" PRIu32 ") = %" PRIu64
			", not %" PRIu64,
			hz, name, d, x, got, want);
}

/*
 * hz_round_up() by d at HZ hz, for the 32-bit inputs it takes: 0 to 3,
 * each multiple of d from 1 to 3 and near 2^k and the top with one
 * either side, the top 16, then count random inputs and count near random
 * multiples.
 */
static void check_round_up(int hz, const char *name, const struct hz_round_up *r, u32 d, long count)
{
	u64 top = UINT32_MAX / d, q, x;
	int k;
	long i;

	divisors++;
	note_member(name);
	for (x = 0; x <= 3; x++)
		round_up(hz, name, r, d, x);
	for (k = 0; k < 40; k++) {
		q = k < 4 ? (u64)k : k < 36 ? (u64)1 << (k - 4) : top - (k - 36);
		if (q > top)
			continue;
		for (x = q > 0 ? q * d - 1 : 0; x <= q * d + 1 && x <= UINT32_MAX; x++)
			round_up(hz, name, r, d, x);
	}
	for (k = 0; k < 16; k++)
		round_up(hz, name, r, d, UINT32_MAX - k);
	for (i = 0; i < count; i++) {
		round_up(hz, name, r, d, (u32)rnd() >> (rnd() % 32));
		x = (rnd() % (top + 1)) * d + rnd() % 3;
		round_up(hz, name, r, d, x ? (u32)(x - 1) : 0);
	}
}

/*
 * Every hz_div64 and hz_round_up of the table, each with the divisor
 * stock's formula divides by, worked out here from HZ, not read from the
 * table.
 */
static int div64(long count)
{
	struct hz_timeconst tc;
	int hz, i;

	for (hz = hz_lo; hz <= hz_hi; hz++) {
		make_table(&tc, hz);
		check_divisor(hz, "hz_d", &tc.hz_d, hz, count);
		if (hz > MSEC_PER_SEC && hz % MSEC_PER_SEC == 0)
			check_divisor(hz, "jiffies_per_msec_d", &tc.jiffies_per_msec_d,
				      hz / MSEC_PER_SEC, count);
		if (hz >= USER_HZ)
			check_divisor(hz, "jiffies_per_clock_t_d", &tc.jiffies_per_clock_t_d,
				      hz / USER_HZ, count);
		check_divisor(hz, "hz_to_msec_den_d", &tc.hz_to_msec_den_d,
			      hz / gcd(hz, MSEC_PER_SEC), count);
		check_divisor(hz, "hz_to_usec_den_d", &tc.hz_to_usec_den_d,
			      hz / gcd(hz, USEC_PER_SEC), count);
		check_divisor(hz, "hz_to_nsec_den_d", &tc.hz_to_nsec_den_d,
			      hz / gcd(hz, NSEC_PER_SEC), count);
		if (NSEC_PER_SEC % hz == 0)
			check_divisor(hz, "nsec_per_jiffy_d", &tc.nsec_per_jiffy_d,
				      NSEC_PER_SEC / hz, count);
		check_divisor(hz, "nsec9_den_d", &tc.nsec9_den_d,
			      (9 * (u64)NSEC_PER_SEC + hz / 2) / hz, count);
		if (MSEC_PER_SEC % hz == 0)
			check_round_up(hz, "msec_per_jiffy_ru", &tc.msec_per_jiffy_ru,
				       MSEC_PER_SEC / hz, count);
		if (USEC_PER_SEC % hz == 0)
			check_round_up(hz, "usec_per_jiffy_ru", &tc.usec_per_jiffy_ru,
				       USEC_PER_SEC / hz, count);
	}
	printf("%d HZ, %ld divisors, %ld divisions, %ld wrong%s\n", hz_hi - hz_lo + 1, divisors,
	       divisions, problems, problems > 20 ? " (the first 20 shown)" : "");
	printf("members:");
	for (i = 0; i < nmembers; i++)
		printf(" %s", members[i]);
	printf("\n");
	return problems != 0;
}

int main(int argc, char **argv)
{
	if (argc < 5 || (strcmp(argv[1], "table") && strcmp(argv[1], "div64"))) {
		fprintf(stderr, "usage: %s table LO HI FILE... | div64 LO HI COUNT\n", argv[0]);
		return 2;
	}
	hz_lo = atoi(argv[2]);
	hz_hi = atoi(argv[3]);
	if (hz_lo < 2 || hz_hi < hz_lo) {
		fprintf(stderr, "%s: no HZ in %s..%s\n", argv[0], argv[2], argv[3]);
		return 2;
	}
	if (!strcmp(argv[1], "table"))
		return table(argc - 4, argv + 4);
	return div64(atol(argv[4]));
}
