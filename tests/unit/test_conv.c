// SPDX-License-Identifier: MIT
/*
 * Every conversion of include/dynhz/jiffies.h against the exact reference
 * of ref.c: every HZ in range, on both kinds of tick (the PIT's rounded
 * divisor and an exact 1/HZ), on 0, 1, the largest inputs, each side of
 * rounding boundaries and of saturation, and on random inputs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>
#include "hz-internal.h"

#include "panic.h"
#include "ref.h"

struct conv_case {
	const char *name;
	u64 (*fast)(u64 x);
	u64 (*ref)(u64 x, struct dz_tick_period t);
	u64 in_max;
	/* result ~ x * p / q: where the rounding boundaries lie */
	void (*ratio)(struct dz_tick_period t, u64 *p, u64 *q);
	/* beyond a 64-bit result it wraps (no range check, jiffies.h) */
	bool wraps;
};

static u64 f_ms_to_j(u64 x)
{
	return msecs_to_jiffies((unsigned int)x);
}
static u64 f_us_to_j(u64 x)
{
	return usecs_to_jiffies((unsigned int)x);
}
static u64 f_ns_to_j(u64 x)
{
	return nsecs_to_jiffies(x);
}
static u64 f_j_to_ms(u64 x)
{
	return jiffies_to_msecs((unsigned long)x);
}
static u64 f_j_to_us(u64 x)
{
	return jiffies_to_usecs((unsigned long)x);
}
static u64 f_j_to_ns(u64 x)
{
	return jiffies_to_nsecs((unsigned long)x);
}
static u64 f_j64_to_ns(u64 x)
{
	return jiffies64_to_nsecs(x);
}
static u64 f_j_to_clock(u64 x)
{
	return dz_uclock_ticks(jiffies_to_clock_t((unsigned long)x));
}
static u64 f_clock_to_j(u64 x)
{
	return clock_t_to_jiffies(DZ_UCLOCK((unsigned long)x));
}
static u64 f_user_to_kernel(u64 x)
{
	return user_to_kernel_hz(DZ_UCLOCK((unsigned long)x));
}
static u64 f_ts_to_j(u64 x)
{
	/* x nanoseconds, as a normalised timespec */
	struct timespec64 ts = { (s64)(x / 1000000000), (long)(x % 1000000000) };

	return timespec64_to_jiffies(&ts);
}

static u64 r_j_to_clock(u64 x, struct dz_tick_period t)
{
	return ref_j_to_clock(x, t, USER_HZ);
}
static u64 r_clock_to_j(u64 x, struct dz_tick_period t)
{
	return ref_clock_to_j(x, t, USER_HZ);
}

static void k_ms_to_j(struct dz_tick_period t, u64 *p, u64 *q)
{
	*p = t.den, *q = 1000 * t.num;
}
static void k_us_to_j(struct dz_tick_period t, u64 *p, u64 *q)
{
	*p = t.den, *q = 1000000 * t.num;
}
static void k_ns_to_j(struct dz_tick_period t, u64 *p, u64 *q)
{
	*p = t.den, *q = 1000000000 * t.num;
}
static void k_j_to_ms(struct dz_tick_period t, u64 *p, u64 *q)
{
	*p = 1000 * t.num, *q = t.den;
}
static void k_j_to_us(struct dz_tick_period t, u64 *p, u64 *q)
{
	*p = 1000000 * t.num, *q = t.den;
}
static void k_j_to_ns(struct dz_tick_period t, u64 *p, u64 *q)
{
	*p = 1000000000 * t.num, *q = t.den;
}
static void k_j_to_clock(struct dz_tick_period t, u64 *p, u64 *q)
{
	*p = USER_HZ * t.num, *q = t.den;
}
static void k_clock_to_j(struct dz_tick_period t, u64 *p, u64 *q)
{
	*p = t.den, *q = USER_HZ * t.num;
}

static const struct conv_case cases[] = {
	{ "msecs_to_jiffies", f_ms_to_j, ref_ms_to_j, U32_MAX, k_ms_to_j, false },
	{ "usecs_to_jiffies", f_us_to_j, ref_us_to_j, U32_MAX, k_us_to_j, false },
	{ "nsecs_to_jiffies", f_ns_to_j, ref_ns_to_j, U64_MAX, k_ns_to_j, false },
	{ "timespec64_to_jiffies", f_ts_to_j, ref_ns_to_j, U64_MAX, k_ns_to_j, false },
	{ "jiffies_to_msecs", f_j_to_ms, ref_j_to_ms, ULONG_MAX, k_j_to_ms, false },
	{ "jiffies_to_usecs", f_j_to_us, ref_j_to_us, ULONG_MAX, k_j_to_us, false },
	{ "jiffies_to_nsecs", f_j_to_ns, ref_j_to_ns, ULONG_MAX, k_j_to_ns, false },
	{ "jiffies64_to_nsecs", f_j64_to_ns, ref_j_to_ns, U64_MAX, k_j_to_ns, false },
	{ "jiffies_to_clock_t", f_j_to_clock, r_j_to_clock, ULONG_MAX, k_j_to_clock,
	  BITS_PER_LONG == 64 },
	{ "clock_t_to_jiffies", f_clock_to_j, r_clock_to_j, ULONG_MAX, k_clock_to_j, false },
	{ "user_to_kernel_hz", f_user_to_kernel, r_clock_to_j, ULONG_MAX, k_clock_to_j, false },
};

static unsigned long checks, mismatches;

static void check_one(const struct conv_case *c, struct dz_tick_period t, u64 x)
{
	u64 got, want;

	if (x > c->in_max)
		return;
	want = c->ref(x, t);
	if (c->wraps && want == U64_MAX)
		return; /* the result does not fit: out of the function's range */
	got = c->fast(x);
	checks++;
	if (got != want && mismatches++ < 10)
		print_error("%s(%llu) = %llu, exact %llu (HZ %u, tick %llu/%llu s)\n", c->name,
			    (unsigned long long)x, (unsigned long long)got,
			    (unsigned long long)want, HZ, (unsigned long long)t.num,
			    (unsigned long long)t.den);
}

/* Inputs around x0: x0 - 2 .. x0 + 2, without wrapping. */
static void check_around(const struct conv_case *c, struct dz_tick_period t, u64 x0)
{
	for (int d = -2; d <= 2; d++)
		if ((d >= 0 || x0 >= (u64)-d) && (d <= 0 || x0 <= U64_MAX - (u64)d))
			check_one(c, t, x0 + (u64)(s64)d);
}

/* A random value of random bit length: small and large inputs alike. */
static u64 rand_log(u64 *seed)
{
	unsigned int bits = (unsigned int)(ref_rand(seed) % 65);

	return bits == 64 ? ref_rand(seed) : ref_rand(seed) & ((1ULL << bits) - 1);
}

static void check_case(const struct conv_case *c, struct dz_tick_period t, u64 *seed, int nrand)
{
	static const u64 targets[] = { 1, 2, 3, 10, 1000, 1000000, 1ULL << 31, 1ULL << 32 };
	u64 p, q;

	c->ratio(t, &p, &q);
	check_around(c, t, 0);
	check_around(c, t, c->in_max);
	check_around(c, t, U32_MAX);
	/* Rounding boundaries: where x * p / q crosses an integer y. */
	for (unsigned int i = 0; i < ARRAY_SIZE(targets); i++)
		check_around(c, t, ref_muldiv(targets[i], q, p, REF_DOWN, U64_MAX));
	/* Saturation: where the exact result crosses the largest result. */
	check_around(c, t, ref_muldiv(REF_MAX_JIFFY_OFFSET, q, p, REF_DOWN, U64_MAX));
	check_around(c, t, ref_muldiv(U32_MAX, q, p, REF_DOWN, U64_MAX));
	check_around(c, t, ref_muldiv(ULONG_MAX, q, p, REF_DOWN, U64_MAX));
	check_around(c, t, ref_muldiv(U64_MAX, q, p, REF_DOWN, U64_MAX));
	for (int i = 0; i < nrand; i++) {
		u64 y = rand_log(seed);

		check_one(c, t, rand_log(seed));
		check_around(c, t, ref_muldiv(y, q, p, REF_DOWN, U64_MAX));
	}
}

static void check_period(unsigned int hz, struct dz_tick_period t, u64 *seed, int nrand)
{
	dz_hz_setup(hz, DZ_HZ_SRC_CMDLINE, t, "test");
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++)
		check_case(&cases[i], t, seed, nrand);
}

/* Fewer random inputs where each check is slow (32-bit, debug, sanitizers). */
static int random_per_case(void)
{
	const char *s = getenv("DYNHZ_LONG");

	if (s && *s)
		return 2000;
#if BITS_PER_LONG == 32 || defined(DYNHZ_DEBUG) || defined(__SANITIZE_ADDRESS__)
	return 1;
#else
	return 6;
#endif
}

/* A device that divides an input clock by the nearest whole divisor. */
static struct dz_tick_period clock_period(u64 clock, unsigned int hz)
{
	struct dz_tick_period p = { (clock + hz / 2) / hz, clock };

	if (!p.num)
		p.num = 1;
	return p;
}

static void test_every_hz_pit(void **state)
{
	u64 seed = 0x9e3779b97f4a7c15ULL;
	int nrand = random_per_case();
	unsigned int lo = DZ_HZ_MIN, hi = DZ_HZ_MAX;

	(void)state;
#ifdef CONFIG_HZ
	lo = hi = CONFIG_HZ; /* the constant build can boot only its own HZ */
	nrand = 20000;
#endif
	checks = mismatches = 0;
	for (unsigned int hz = lo; hz <= hi; hz++)
		check_period(hz, clock_period(DYNHZ_HOST_CLOCK_HZ, hz), &seed, nrand);
	print_message("%lu conversions checked on a %u Hz clock, HZ %u..%u\n", checks,
		      (unsigned int)DYNHZ_HOST_CLOCK_HZ, lo, hi);
	assert_int_equal(mismatches, 0);
	assert_true(checks > 100UL * (hi - lo + 1));
}

static void test_every_hz_exact_tick(void **state)
{
#ifdef CONFIG_HZ
	(void)state;
	skip(); /* a constant build's tick is the PIT's, fixed at compile time */
#else
	u64 seed = 0x2545f4914f6cdd1dULL;
	int nrand = random_per_case();

	(void)state;
	checks = mismatches = 0;
	for (unsigned int hz = DZ_HZ_MIN; hz <= DZ_HZ_MAX; hz++) {
		struct dz_tick_period t = { 1, hz };

		check_period(hz, t, &seed, nrand);
	}
	print_message("%lu conversions checked with an exact 1/HZ tick\n", checks);
	assert_int_equal(mismatches, 0);
#endif
}

/* Values anyone can check by hand, from the PIT's divisor. */
static void test_known_values(void **state)
{
	(void)state;
#if defined(CONFIG_HZ) && CONFIG_CLOCK_HZ != 1193182
	skip(); /* these are the PIT's */
#endif
#if !defined(CONFIG_HZ) || CONFIG_HZ == 1000
	dynhz_boot_quiet("hz=1000");
	/* divisor 1193: a jiffy is 0.99985 ms, so 1000 ms need 1001 jiffies */
	assert_int_equal(msecs_to_jiffies(1000), 1001);
	assert_int_equal(msecs_to_jiffies(1), 2);
	assert_int_equal(jiffies_to_msecs(1), 1);
	assert_int_equal(jiffies_to_msecs(1000), 1000);
	/* 1000 jiffies = 10^12 * 1193 / 1193182 ns = 999847466.4 ns, rounded down */
	assert_true(jiffies_to_nsecs(1000) == 999847466ULL);
#endif
#if !defined(CONFIG_HZ) || CONFIG_HZ == 250
	dynhz_boot_quiet("hz=250");
	/* divisor 4773: 10 USER_HZ ticks = 100 ms = 24.9986 jiffies -> 25 */
	if (USER_HZ == 100) {
		assert_int_equal(user_to_kernel_hz(DZ_UCLOCK(10)), 25);
		/* 25 jiffies = 100.0057 ms = 10.0005 USER_HZ ticks -> 10 */
		assert_int_equal(dz_uclock_ticks(jiffies_to_clock_t(25)), 10);
	}
	assert_int_equal(msecs_to_jiffies(0), 0);
	assert_int_equal(msecs_to_jiffies(4), 1);
	assert_int_equal(msecs_to_jiffies(5), 2);
#endif
}

static void test_saturation(void **state)
{
	(void)state;
#if !defined(CONFIG_HZ) || (CONFIG_HZ == 100 && CONFIG_CLOCK_HZ == 1193182)
	dynhz_boot_quiet("hz=100");
	/* INT_MAX ms at HZ 100 is 214 million jiffies: fits everywhere */
	assert_true(msecs_to_jiffies(INT_MAX) == ref_ms_to_j(INT_MAX, ref_pit_period(100)));
	assert_true(msecs_to_jiffies(INT_MAX) < MAX_JIFFY_OFFSET);
	/* a negative int of msecs is forever, as in Linux */
	assert_true(msecs_to_jiffies((unsigned int)INT_MAX + 1) == MAX_JIFFY_OFFSET);
	assert_true(msecs_to_jiffies(U32_MAX) == MAX_JIFFY_OFFSET);
	assert_true(jiffies_to_msecs(ULONG_MAX) == U32_MAX);
	assert_true(jiffies_to_usecs(ULONG_MAX) == U32_MAX);
	assert_true(jiffies64_to_nsecs(U64_MAX) == U64_MAX);
	/* so is a negative clock_t */
	assert_true(clock_t_to_jiffies(DZ_UCLOCK(ULONG_MAX)) == MAX_JIFFY_OFFSET);
	assert_true(clock_t_to_jiffies(DZ_UCLOCK((unsigned long)LONG_MAX + 1)) == MAX_JIFFY_OFFSET);
	assert_true(clock_t_to_jiffies(DZ_UCLOCK(LONG_MAX)) ==
		    ref_clock_to_j(LONG_MAX, ref_pit_period(100), USER_HZ));
#endif
#if !defined(CONFIG_HZ)
	dynhz_boot_quiet("hz=10000");
	/* INT_MAX ms at HZ 10000: 2.1e10 jiffies, beyond a 32-bit offset */
	if (BITS_PER_LONG == 32)
		assert_true(msecs_to_jiffies(INT_MAX) == MAX_JIFFY_OFFSET);
	else
		assert_true(msecs_to_jiffies(INT_MAX) > U32_MAX);
#endif
}

static void test_timespec(void **state)
{
	static const struct {
		s64 sec;
		long nsec;
	} ts[] = {
		{ 0, 0 },
		{ 0, 1 },
		{ 1, 0 },
		{ 0, 999999999 },
		{ -1, 0 },
		{ -1, 999999999 },
		{ -1, 1000000000 },
		{ 0, -1 },
		{ 1, -1 },
		{ 5, 3000000001L },
		{ 0, LONG_MAX },
		{ 0, LONG_MIN },
		{ 1LL << 34, 0 },
		{ (1LL << 34) - 1, 999999999 },
		{ 1LL << 40, 5 },
		{ INT64_MAX, 999999999 },
		{ INT64_MAX, LONG_MAX },
		{ INT64_MIN, 0 },
		{ INT64_MIN, LONG_MAX },
		{ 4611686018LL, 427387904 },
	};
	unsigned int hzs[] = { DZ_HZ_MIN, 100, 250, 333, 1000, 1200, DZ_HZ_MAX };

	(void)state;
	for (unsigned int h = 0; h < ARRAY_SIZE(hzs); h++) {
#ifdef CONFIG_HZ
		if (hzs[h] != CONFIG_HZ)
			continue;
#endif
		struct dz_tick_period t = clock_period(DYNHZ_HOST_CLOCK_HZ, hzs[h]);

		dz_hz_setup(hzs[h], DZ_HZ_SRC_CMDLINE, t, "test");
		for (unsigned int i = 0; i < ARRAY_SIZE(ts); i++) {
			struct timespec64 v = { ts[i].sec, ts[i].nsec };
			u64 want = ref_ts_to_j(v.tv_sec, v.tv_nsec, t);
			u64 got = timespec64_to_jiffies(&v);

			if (got != want)
				fail_msg("timespec64_to_jiffies({%lld, %ld}) = %llu, exact %llu, "
					 "HZ %u",
					 (long long)v.tv_sec, v.tv_nsec, (unsigned long long)got,
					 (unsigned long long)want, hzs[h]);
		}
	}
}

/* The two reference implementations agree with each other. */
static void test_reference_self_check(void **state)
{
	u64 seed = 12345;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		u64 x = rand_log(&seed), p = rand_log(&seed), q = rand_log(&seed) | 1;
		enum ref_round r = (enum ref_round)(i % 3);

		assert_true(ref_muldiv(x, p, q, r, U64_MAX) ==
			    ref_muldiv_limbs(x, p, q, r, U64_MAX));
	}
	/* and with arithmetic done by hand */
	assert_true(ref_muldiv(7, 1, 2, REF_DOWN, U64_MAX) == 3);
	assert_true(ref_muldiv(7, 1, 2, REF_UP, U64_MAX) == 4);
	assert_true(ref_muldiv(7, 1, 2, REF_NEAR, U64_MAX) == 4);
	assert_true(ref_muldiv(5, 1, 3, REF_NEAR, U64_MAX) == 2);
	assert_true(ref_muldiv(U64_MAX, U64_MAX, U64_MAX, REF_DOWN, U64_MAX) == U64_MAX);
	assert_true(ref_muldiv(1ULL << 63, 4, 2, REF_DOWN, U64_MAX) == U64_MAX); /* saturates */
	assert_true(ref_muldiv_limbs(1ULL << 63, 6, 4, REF_DOWN, U64_MAX) == 3ULL << 62);
}

/* round(x p / q) of the reference, for x up to in_max, out_max above. */
static u64 ref_conv(u64 x, u64 p, u64 q, enum dz_round r, u64 in_max, u64 out_max)
{
	return x > in_max ? out_max : ref_muldiv(x, p, q, (enum ref_round)r, out_max);
}

/*
 * The generator on its own, with arbitrary rates, ranges and all three
 * roundings, through every way of using it: dz_conv_make() must never fail
 * on valid rates, and any shape it or a caller picks is exact for every
 * input (fast up to fast_max, the slow path beyond).
 */
static void test_generator_any_rate(void **state)
{
	u64 seed = 777;
	unsigned long n = 0, fast = 0, slow = 0, made = 0, covered = 0;

	(void)state;
	for (int i = 0; i < 6000; i++) {
		/* rates over 1..2^40 per 1..2^20 s: ratios far outside any tick's */
		struct dz_rate from = { rand_log(&seed) % (1ULL << 40) + 1,
					rand_log(&seed) % (1ULL << 20) + 1 };
		struct dz_rate to = { rand_log(&seed) % (1ULL << 40) + 1,
				      rand_log(&seed) % (1ULL << 20) + 1 };
		enum dz_round r = (enum dz_round)(i % 3);
		u64 in_max = rand_log(&seed) | 1, out_max = rand_log(&seed) | 1;
		u64 p = to.num * from.den, q = to.den * from.num;
		struct dz_conv cv;
		int how = i % 4; /* make, or a fixed narrow/wide shape */

		assert_int_equal(dz_conv_make(&cv, from, to, r, in_max, out_max), 0);
		if (how == 1)
			dz_conv_shape(&cv, DZ_SHAPE_NARROW, (unsigned int)(ref_rand(&seed) % 64),
				      r == DZ_ROUND_DOWN ? (unsigned int)(ref_rand(&seed) % 64)
							 : 0);
		else if (how == 2)
			dz_conv_shape(&cv, DZ_SHAPE_WIDE, 0,
				      1 + (unsigned int)(ref_rand(&seed) % 63));
		assert_true(cv.fast_max <= cv.max_in);
		if (how == 0 || how == 3) {
			made++;
			covered += cv.fast_max == cv.max_in;
		}
		for (int j = 0; j < 40; j++) {
			u64 x = j == 0	 ? cv.fast_max
				: j == 1 ? cv.fast_max + 1
				: j == 2 ? cv.max_in
				: j == 3 ? cv.max_in + 1
					 : rand_log(&seed);
			u64 want = ref_conv(x, p, q, r, in_max, out_max);
			u64 got = dz_conv(&cv, x);

			if (got != want)
				fail_msg("%llu * %llu / %llu round %d (in %llu, out %llu, shape %u "
					 "k %u "
					 "t %u fast_max %llu): %llu, exact %llu",
					 (unsigned long long)x, (unsigned long long)p,
					 (unsigned long long)q, r, (unsigned long long)in_max,
					 (unsigned long long)out_max, cv.shape, cv.k, cv.shift,
					 (unsigned long long)cv.fast_max, (unsigned long long)got,
					 (unsigned long long)want);
			assert_true(dz_conv_exact(&cv, x) == want);
			x <= cv.fast_max ? fast++ : slow++;
			n++;
		}
	}
	print_message("%lu conversions of random rates checked (%lu fast, %lu slow path); "
		      "dz_conv_make() covered the whole range %lu times of %lu\n",
		      n, fast, slow, covered, made);
	assert_true(fast > 10000 && slow > 10000);
	assert_true(covered > made * 9 / 10);
	/* and the refusals: a zero rate, products beyond 64 bits */
	{
		struct dz_conv cv;
		struct dz_rate one = { 1, 1 }, zero = { 0, 1 }, big = { 1ULL << 40, 1 };
		struct dz_rate bigden = { 1, 1ULL << 40 };

		assert_int_equal(dz_conv_make(&cv, one, zero, DZ_ROUND_UP, 1, 1), -DZ_ERANGE);
		assert_int_equal(dz_conv_make(&cv, bigden, big, DZ_ROUND_UP, 1, 1), -DZ_ERANGE);
	}
}

/*
 * The clock matrix of issue 23: input clocks from 1 kHz to 2^32 Hz, round
 * and calibrated, times HZ. Every period must build (hz setup never
 * panics) and every conversion be exact; how many periods run a conversion
 * fully on the fast path is reported. make check samples the HZ range;
 * DYNHZ_LONG=1 (make check-long) takes every HZ.
 */
static const u64 matrix_clocks[] = {
	1000,	   32768,      1193182,	   3579545,    14318180,   19200000,   24000000,
	100000000, 1000000000, 2999873000, 3000000000, 2147483647, 4294967291, 4294967295,
};

static void test_clock_matrix(void **state)
{
#ifdef CONFIG_HZ
	(void)state;
	skip(); /* one clock and one HZ, checked by test_every_hz_pit */
#else
	static const unsigned int fixed_hz[] = { 19,  24,   97,	  100,	250,  300,
						 333, 1000, 1200, 4321, 10000 };
	const char *long_run = getenv("DYNHZ_LONG");
	bool every = long_run && *long_run;
	u64 seed = 0x5eed;
	unsigned long periods = 0, convs = 0, full_fast = 0;
	int nrand = every ? 2 : random_per_case();

	(void)state;
	checks = mismatches = 0;
	for (unsigned int c = 0; c < ARRAY_SIZE(matrix_clocks); c++) {
		unsigned int n = every ? DZ_HZ_MAX - DZ_HZ_MIN + 1 : ARRAY_SIZE(fixed_hz) + 24;

		for (unsigned int i = 0; i < n; i++) {
			unsigned int hz =
				every ? DZ_HZ_MIN + i
				: i < ARRAY_SIZE(fixed_hz)
					? fixed_hz[i]
					: DZ_HZ_MIN + (unsigned int)(ref_rand(&seed) %
								     (DZ_HZ_MAX - DZ_HZ_MIN + 1));
			struct dz_tick_period t = clock_period(matrix_clocks[c], hz);
			const struct dz_conv *cv = (const struct dz_conv *)&DZ_TC;

			check_period(hz, t, &seed, nrand);
			for (unsigned int k = 0; k < sizeof(struct dz_timeconst) / sizeof(*cv); k++)
				full_fast += cv[k].fast_max == cv[k].max_in;
			convs += sizeof(struct dz_timeconst) / sizeof(*cv);
			periods++;
		}
	}
	print_message("%lu periods of %zu clocks, %lu conversions checked; %lu of %lu constant "
		      "sets fast over their whole range\n",
		      periods, ARRAY_SIZE(matrix_clocks), checks, full_fast, convs);
	assert_int_equal(mismatches, 0);
	assert_true(checks > 500UL * periods);
#endif
}

/*
 * The shapes' bounds at the corners of the proven domain (jiffies.h): the
 * slowest and fastest jiffy rates on the largest period denominators, with
 * no common factor to reduce q. Every conversion without a range check
 * must cover its whole range there, or dz_timeconst_build() refuses.
 */
static void test_domain_corners(void **state)
{
#ifdef CONFIG_HZ
	(void)state;
	skip();
#else
	static const u64 dens[] = { 4294967291ULL, 4294967295ULL, 2147483647ULL, 999999937ULL,
				    1000 };
	static const u64 rates_x10[] = { 95, 190, 240, 9970, 10030, 150000, 199990 };
	struct dz_timeconst tc;

	(void)state;
	for (unsigned int d = 0; d < ARRAY_SIZE(dens); d++)
		for (unsigned int r = 0; r < ARRAY_SIZE(rates_x10); r++) {
			/* num = den / rate, rounded: rate within 1/num of the corner */
			struct dz_tick_period t = {
				(dens[d] * 10 + rates_x10[r] / 2) / rates_x10[r], dens[d]
			};

			if (!t.num)
				continue; /* a 1 kHz clock cannot tick at 20 kHz */
			if (dz_timeconst_build(&tc, t))
				fail_msg("no conversions for a tick of %llu/%llu s",
					 (unsigned long long)t.num, (unsigned long long)t.den);
		}
	/* Outside it: a jiffy rate over 1 GHz, a 9 Hz tick on a 2^40 Hz clock... */
	assert_int_equal(dz_timeconst_build(&tc, (struct dz_tick_period){ 1, 4000000000ULL }),
			 -DZ_ERANGE);
	assert_int_equal(dz_timeconst_build(&tc, (struct dz_tick_period){ 1099511627689ULL / 9,
									  1099511627689ULL }),
			 -DZ_ERANGE);
	/* ...and hz setup boots on the nearest period it can serve, without a panic */
	dz_hz_setup(19, DZ_HZ_SRC_CMDLINE,
		    (struct dz_tick_period){ 1099511627689ULL / 9, 1099511627689ULL }, "test");
	assert_true(dz_hz_period().den <= 1ULL << 32);
	/* within 1/(den den') of the true period: the same rate to 10^-18 */
	assert_true(ref_muldiv(dz_hz_period().num, 1099511627689ULL, dz_hz_period().den, REF_NEAR,
			       U64_MAX) == 1099511627689ULL / 9);
	assert_true(msecs_to_jiffies(1000) == ref_ms_to_j(1000, dz_hz_period()));
#endif
}

static void test_initial_jiffies_wrap(void **state)
{
	unsigned long start, later;

	(void)state;
	dynhz_boot_quiet(NULL);
	/* five minutes of ticks before the low 32 bits wrap */
	assert_true((u32)INITIAL_JIFFIES == (u32)(0U - 300U * HZ));
	assert_true(jiffies == INITIAL_JIFFIES);
	assert_true(get_jiffies_64() == (u64)INITIAL_JIFFIES);
	start = jiffies;
	later = start + 300UL * HZ + 10;       /* past the wrap */
	assert_true(later < start);	       /* numerically smaller... */
	assert_true(time_after(later, start)); /* ...but after */
	assert_true(time_before(start, later));
	assert_true(time_after_eq(later, later));
	assert_true(!time_after(start, later));
	assert_true(time_in_range(start + 300UL * HZ, start, later));
	assert_true(!time_in_range(later + 1, start, later));
}

#ifdef DYNHZ_DEBUG

static void read_hz_early(void)
{
	dz_hz_forget();
	printf("%u\n", HZ);
}

static void test_debug_hz_before_setup_traps(void **state)
{
	const char *out;

	(void)state;
	out = panic_output(read_hz_early);
	assert_non_null(strstr(out, "HZ read before hz setup"));
	assert_non_null(strstr(out, "test_conv.c:")); /* the file and line of the read */
}

static void convert_early(void)
{
	memset(&DZ_TC, 0, sizeof(DZ_TC));
	printf("%lu\n", msecs_to_jiffies(10));
}

static void test_debug_conversion_before_setup_traps(void **state)
{
	(void)state;
	expect_panic(convert_early, "ms_to_j(10) before hz setup");
}

static void corrupt_and_convert(void)
{
	dynhz_boot_quiet("hz=300");
	/* a constant 0.1 % off: the slow path must notice */
	DZ_TC.ms_to_j.mul_lo += DZ_TC.ms_to_j.mul_lo >> 10;
	printf("%lu\n", msecs_to_jiffies(123456789));
}

static void test_debug_wrong_constant_traps(void **state)
{
	(void)state;
	expect_panic(corrupt_and_convert, "ms_to_j(123456789) = ");
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_self_check),
		cmocka_unit_test(test_known_values),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_timespec),
		cmocka_unit_test(test_initial_jiffies_wrap),
		cmocka_unit_test(test_generator_any_rate),
		cmocka_unit_test(test_clock_matrix),
		cmocka_unit_test(test_domain_corners),
		cmocka_unit_test(test_every_hz_pit),
		cmocka_unit_test(test_every_hz_exact_tick),
#ifdef DYNHZ_DEBUG
		cmocka_unit_test(test_debug_hz_before_setup_traps),
		cmocka_unit_test(test_debug_conversion_before_setup_traps),
		cmocka_unit_test(test_debug_wrong_constant_traps),
#endif
	};

	dynhz_host_set_quiet(true);
	return cmocka_run_group_tests_name("conversions", tests, NULL, NULL);
}
