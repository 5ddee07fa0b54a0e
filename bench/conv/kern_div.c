// SPDX-License-Identifier: MIT
/*
 * The baseline: the same exact conversions as a kernel without a constant
 * generator would write them with a runtime HZ. At boot it keeps, per
 * conversion, the multiplier and divisor of the exact tick period (num/den
 * seconds) and the largest input that does not saturate; the hot path is
 *
 *	x > lim ? sat : (x * mul + add) / div	(add = div - 1 rounds up)
 *
 * in 64 bits where the product always fits, in unsigned __int128 where the
 * input type allows products beyond 64 bits (gcc calls __udivti3 then).
 * The range check is left out where no input of the type can saturate.
 */
#include <stdio.h>
#include <stdlib.h>

#include <dynhz/hz.h>
#include <dynhz/jiffies.h>

#include "conv_bench.h"

typedef unsigned __int128 u128;

struct div_conv {
	u64 lim; /* inputs above this give sat */
	u64 sat;
	u64 mul;
	u64 add;
	u64 div;
};

/* Written once by conv_div_setup(), as a kernel would at boot. */
static struct div_conv ms_j, us_j, ns_j, j_ms, j_us, j_ns, j64_ns, j_clk, clk_j;

const unsigned char conv_div_bits[CONV_COUNT] = {
	[CONV_msecs_to_jiffies] = 64,	 [CONV_usecs_to_jiffies] = 64,
	[CONV_nsecs_to_jiffies] = 128,	 [CONV_timespec64_to_jiffies] = 128,
	[CONV_jiffies_to_msecs] = 64,	 [CONV_jiffies_to_usecs] = 64,
	[CONV_jiffies_to_nsecs] = 128,	 [CONV_jiffies64_to_nsecs] = 128,
	[CONV_jiffies_to_clock_t] = 128, [CONV_clock_t_to_jiffies] = 128,
};

static inline u64 div64_nocheck(const struct div_conv *c, u64 x)
{
	return (x * c->mul + c->add) / c->div;
}

static inline u64 div64(const struct div_conv *c, u64 x)
{
	if (unlikely(x > c->lim))
		return c->sat;
	return (x * c->mul + c->add) / c->div;
}

static inline u64 div128_nocheck(const struct div_conv *c, u64 x)
{
	return (u64)(((u128)x * c->mul + c->add) / c->div);
}

static inline u64 div128(const struct div_conv *c, u64 x)
{
	if (unlikely(x > c->lim))
		return c->sat;
	return (u64)(((u128)x * c->mul + c->add) / c->div);
}

static unsigned long b_msecs_to_jiffies(unsigned int m)
{
	return div64_nocheck(&ms_j, m);
}

static unsigned long b_usecs_to_jiffies(unsigned int u)
{
	return div64_nocheck(&us_j, u);
}

static unsigned long b_nsecs_to_jiffies(u64 n)
{
	return div128_nocheck(&ns_j, n);
}

static unsigned long b_timespec64_to_jiffies(const struct timespec64 *ts)
{
	if (likely(ts->tv_sec >= 0 && (u64)ts->tv_sec < (1ULL << 34) && ts->tv_nsec >= 0 &&
		   ts->tv_nsec < (long)NSEC_PER_SEC))
		return b_nsecs_to_jiffies((u64)ts->tv_sec * NSEC_PER_SEC + (u64)ts->tv_nsec);
	return dz_timespec64_to_jiffies_slow(ts->tv_sec, ts->tv_nsec);
}

static unsigned int b_jiffies_to_msecs(unsigned long j)
{
	return (unsigned int)div64(&j_ms, j);
}

static unsigned int b_jiffies_to_usecs(unsigned long j)
{
	return (unsigned int)div64(&j_us, j);
}

static u64 b_jiffies_to_nsecs(unsigned long j)
{
	return div128(&j_ns, j);
}

static u64 b_jiffies64_to_nsecs(u64 j)
{
	return div128(&j64_ns, j);
}

static unsigned long b_jiffies_to_clock_t(unsigned long j)
{
	return div128(&j_clk, j);
}

static unsigned long b_clock_t_to_jiffies(unsigned long c)
{
	return div128(&clk_j, c);
}

CONV_BENCH_LOOP(msecs_to_jiffies, unsigned int, b_msecs_to_jiffies(in[i]))
CONV_BENCH_LOOP(usecs_to_jiffies, unsigned int, b_usecs_to_jiffies(in[i]))
CONV_BENCH_LOOP(nsecs_to_jiffies, u64, b_nsecs_to_jiffies(in[i]))
CONV_BENCH_LOOP(timespec64_to_jiffies, struct timespec64, b_timespec64_to_jiffies(&in[i]))
CONV_BENCH_LOOP(jiffies_to_msecs, unsigned long, b_jiffies_to_msecs(in[i]))
CONV_BENCH_LOOP(jiffies_to_usecs, unsigned long, b_jiffies_to_usecs(in[i]))
CONV_BENCH_LOOP(jiffies_to_nsecs, unsigned long, b_jiffies_to_nsecs(in[i]))
CONV_BENCH_LOOP(jiffies64_to_nsecs, u64, b_jiffies64_to_nsecs(in[i]))
CONV_BENCH_LOOP(jiffies_to_clock_t, unsigned long, b_jiffies_to_clock_t(in[i]))
CONV_BENCH_LOOP(clock_t_to_jiffies, unsigned long, b_clock_t_to_jiffies(in[i]))

volatile u64 conv_bench_zero;

/* The loop alone; no hoisted form: without the barrier it would be a vectorized copy. */
CONV_BENCH_LOOP1(loop_only, u64, in[i], bench_barrier(), 0)
CONV_BENCH_LOOP1(loop_only_chain, u64, in[i], bench_barrier(), 1)

const conv_loop_fn conv_loop_only[MODE_COUNT] = {
	[MODE_CALL] = loop_only,
	[MODE_HOISTED] = loop_only,
	[MODE_CHAIN] = loop_only_chain,
};

static void fail(const char *what)
{
	fprintf(stderr, "conv-bench: baseline setup: %s\n", what);
	exit(1);
}

/*
 * y = (x * mul + add) / div, saturated at sat; `wide` says whether the hot
 * path may compute the product in 128 bits; `checked` whether it tests lim.
 */
static void div_init(struct div_conv *c, u64 mul, u64 div, bool up, u64 in_max, u64 sat, bool wide,
		     bool checked)
{
	u128 top;

	c->mul = mul;
	c->div = div;
	c->add = up ? div - 1 : 0;
	c->sat = sat;
	/* The largest x with x * mul + add <= sat * div + div - 1. */
	top = ((u128)sat * div + div - 1 - c->add) / mul;
	c->lim = top < in_max ? (u64)top : in_max;
	if (!checked && c->lim != in_max)
		fail("an unchecked conversion can saturate");
	if (!wide && (u128)c->lim * mul + c->add > U64_MAX)
		fail("a 64-bit conversion overflows");
	if (wide && (u128)c->lim * mul / div > U64_MAX)
		fail("a quotient does not fit 64 bits");
}

void conv_div_setup(void)
{
	u64 num = dz_hz_period().num, den = dz_hz_period().den;

	if (!dz_hz_state_get().ready)
		fail("dynhz_boot() has not run");
	/* A jiffy is num/den s: x units of 1/r s are x * den / (r * num) jiffies. */
	div_init(&ms_j, den, MSEC_PER_SEC * num, true, U32_MAX, MAX_JIFFY_OFFSET, false, false);
	div_init(&us_j, den, USEC_PER_SEC * num, true, U32_MAX, MAX_JIFFY_OFFSET, false, false);
	div_init(&ns_j, den, NSEC_PER_SEC * num, true, U64_MAX, MAX_JIFFY_OFFSET, true, false);
	div_init(&j_ms, MSEC_PER_SEC * num, den, true, ULONG_MAX, U32_MAX, false, true);
	div_init(&j_us, USEC_PER_SEC * num, den, true, ULONG_MAX, U32_MAX, false, true);
	div_init(&j_ns, NSEC_PER_SEC * num, den, false, ULONG_MAX, U64_MAX, true, true);
	div_init(&j64_ns, NSEC_PER_SEC * num, den, false, U64_MAX, U64_MAX, true, true);
	div_init(&j_clk, USER_HZ * num, den, false, ULONG_MAX, ULONG_MAX, true, true);
	div_init(&clk_j, den, USER_HZ * num, true, ULONG_MAX, MAX_JIFFY_OFFSET, true, true);
}

static unsigned int impl_hz(void)
{
	return HZ;
}

static void impl_period(u64 *num, u64 *den)
{
	*num = dz_hz_period().num;
	*den = dz_hz_period().den;
}

const struct conv_impl conv_impl_div = {
	.name = "div",
	.hz = impl_hz,
	.period = impl_period,
	.loop = CONV_BENCH_SLOTS,
};
