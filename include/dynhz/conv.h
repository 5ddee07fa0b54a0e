/* SPDX-License-Identifier: MIT */
/*
 * The unit-conversion generator.
 *
 * Every conversion between two rates (milliseconds and jiffies, jiffies and
 * USER_HZ ticks, ...) is one rational function
 *
 *	y = floor((x * p + c) / q),  for x <= max_in; sat above,
 *
 * where p/q is the ratio of the two rates reduced to lowest terms, c
 * selects the rounding (0 down, q - 1 up, q / 2 to nearest, halves up) and
 * max_in is the largest input whose result still fits out_max. The
 * generator turns it into a multiply and shifts, so the hot path has no
 * division, in one of two shapes, both with a scale S = 64 + t:
 *
 *  - narrow: y = hi64((x << k) * m + a) >> t, a 64-bit multiplier m;
 *	m = ceil(2^(S-k) p / q), a = ceil(2^S c / q), the sum exact in
 *	128 bits (a enters the low word, so a rounding offset needs t = 0);
 *  - wide:   y = (x * m_hi + hi64(x * m_lo) + a) >> t, a 128-bit
 *	multiplier m = m_hi 2^64 + m_lo = ceil(2^S p / q), a = ceil(2^t c / q).
 *
 * Why they are exact, and for which inputs. Let em = m q - 2^(S-k) p and
 * ea = a q - 2^S c (narrow; 2^t c for wide) be what rounding the constants
 * up added, both in 0..q-1. Then the estimate exceeds the true value
 * v = (x p + c) / q by (x 2^k em + ea) / (q 2^S) (narrow; wide: by at most
 * (x em / 2^64 + ea) / (q 2^t), and drops less than one unit of 2^-t, which
 * cannot take it below an integer that v reaches). v is a multiple of 1/q,
 * so floor() is exact as long as the excess stays below 1/q:
 *
 *	narrow:	x 2^k em + ea < 2^S		wide:	x em < (2^t - ea) 2^64
 *
 * That bound is the constants' fast_max, computed exactly at boot from em
 * and ea. Inputs above it (and above max_in) take dz_conv_slow(), out of
 * line: a wide shape chosen for the whole range (almost always possible),
 * else long division. So every conversion is exact for every input and
 * every pair of rates; the shapes only decide how fast.
 *
 * A fixed-shape user (jiffies.h) fixes shape, k and t at compile time, so
 * the constant-HZ build runs the same instructions as the variable build
 * with immediates in place of loads; dz_conv_make() chooses them per pair
 * of rates, by the bounds above, for callers that do not know the rates
 * until boot (timekeeping, clock-event devices, a kernel embedding the
 * generator) and dz_conv() applies whatever was chosen.
 *
 * Everything here has the dz_ prefix and includes nothing outside
 * include/dynhz/: a kernel (Linux, with -nostdinc) can include it beside
 * its own headers and compile time/conv.c as an object of its own.
 */
#ifndef DYNHZ_CONV_H
#define DYNHZ_CONV_H

#include <dynhz/dztypes.h>
#include <dynhz/wide.h>

/* A rate of num/den counts per second (a jiffy rate is den/num Hz). */
struct dz_rate {
	dz_u64 num;
	dz_u64 den;
};

enum dz_round {
	DZ_ROUND_DOWN,
	DZ_ROUND_UP,
	DZ_ROUND_NEAR,
};

enum dz_shape {
	DZ_SHAPE_NARROW,
	DZ_SHAPE_WIDE,
};

struct dz_conv {
	/* hot: what the fast path reads */
	dz_u64 fast_max; /* inputs above this take dz_conv_slow() */
	dz_u64 mul_lo;	 /* multiplier m (low word) */
	dz_u64 mul_hi;	 /* multiplier m (high word; wide shape only) */
	dz_u64 add_lo;	 /* the rounding offset a */
	dz_u8 shift;	 /* t */
	dz_u8 k;	 /* the narrow shape's input shift */
	dz_u8 shape;
	dz_u8 round;
	/* cold: the exact definition, for the slow path and reports */
	dz_u64 max_in; /* inputs above this give sat */
	dz_u64 sat;    /* == out_max */
	dz_u64 p, q, c;
	/* the slow path's wide constants, exact up to max_in (s_shift 0: none) */
	dz_u64 s_mul_lo, s_mul_hi, s_add;
	dz_u8 s_shift;
};

/*
 * Fixes the conversion of counts at rate `from` into counts at rate `to`,
 * rounded as asked, for inputs up to in_max (inputs above it, and inputs
 * whose result exceeds out_max, give out_max), and prepares the slow path.
 * The fast path is left covering input 0 only, until dz_conv_shape() or
 * dz_conv_make() gives it constants. Returns 0, or -DZ_ERANGE when a rate
 * is 0 or num * den of the two overflows 64 bits.
 */
int dz_conv_prepare(struct dz_conv *cv, struct dz_rate from, struct dz_rate to, enum dz_round round,
		    dz_u64 in_max, dz_u64 out_max);

/*
 * Gives a prepared cv the fast constants of one fixed shape (input shift k
 * for narrow, output shift t), and returns the largest input they are
 * exact for (cv->fast_max): max_in when the shape covers the whole range,
 * less when the rates need more precision than it has, 0 when it cannot be
 * made at all (its multiplier does not fit). Never wrong, only slower.
 */
dz_u64 dz_conv_shape(struct dz_conv *cv, enum dz_shape shape, unsigned int k, unsigned int t);

/*
 * dz_conv_prepare() and the cheapest shape that covers the whole range
 * (narrow before wide), or the one that covers most. Returns what
 * dz_conv_prepare() returns.
 */
int dz_conv_make(struct dz_conv *cv, struct dz_rate from, struct dz_rate to, enum dz_round round,
		 dz_u64 in_max, dz_u64 out_max);

/* Inputs above fast_max: the wide constants for the whole range, else division. */
dz_u64 dz_conv_slow(const struct dz_conv *cv, dz_u64 x);

/* The same result by slow long division: the debug build's second opinion. */
dz_u64 dz_conv_exact(const struct dz_conv *cv, dz_u64 x);
/* The same for a 128-bit input x_hi * 2^64 + x_lo. */
dz_u64 dz_conv_exact128(const struct dz_conv *cv, dz_u64 x_hi, dz_u64 x_lo);

/*
 * Fast path, narrow shape. k, t: the shifts (compile-time constants at a
 * fixed-shape call, cv's own otherwise); check: inputs may exceed
 * fast_max; add: the rounding offset may be non-zero.
 */
static inline dz_u64 dz_conv_narrow_fixed(const struct dz_conv *cv, dz_u64 x, unsigned int k,
					  unsigned int t, _Bool check, _Bool add)
{
	dz_u64 lo, hi;

	if (check && __builtin_expect(x > cv->fast_max, 0))
		return dz_conv_slow(cv, x);
	lo = dz_mul64(x << k, cv->mul_lo, &hi);
	if (add)
		hi += __builtin_add_overflow(lo, cv->add_lo, &lo);
	return hi >> t;
}

/* Fast path, wide shape: (x * m_hi + hi64(x * m_lo) + a) >> t, 1 <= t <= 63. */
static inline dz_u64 dz_conv_wide_fixed(const struct dz_conv *cv, dz_u64 x, unsigned int t,
					_Bool check, _Bool add)
{
	if (t < 1 || t > 63)
		__builtin_unreachable(); /* lets the compiler use one double shift */
	if (check && __builtin_expect(x > cv->fast_max, 0))
		return dz_conv_slow(cv, x);
#ifdef DZ_HAVE_INT128
	/* Carries spelled out: compilers then add with immediate-zero carries. */
	dz_u128_native ph = (dz_u128_native)x * cv->mul_hi;
	dz_u64 l1 = (dz_u64)(((dz_u128_native)x * cv->mul_lo) >> 64);
	dz_u64 lo = (dz_u64)ph, hi = (dz_u64)(ph >> 64);

	lo += l1;
	hi += lo < l1;
	if (add) {
		lo += cv->add_lo;
		hi += lo < cv->add_lo;
	}
	return (dz_u64)((((dz_u128_native)hi << 64) | lo) >> t);
#else
	dz_u64 l1, lo, hi;

	dz_mul64(x, cv->mul_lo, &l1);
	lo = dz_mul64(x, cv->mul_hi, &hi);
	lo += l1;
	hi += lo < l1;
	if (add) {
		lo += cv->add_lo;
		hi += lo < cv->add_lo;
	}
	return (hi << (64 - t)) | (lo >> t);
#endif
}

/* Whatever shape cv has: exact for every input. */
static inline dz_u64 dz_conv(const struct dz_conv *cv, dz_u64 x)
{
	if (__builtin_expect(x > cv->fast_max, 0))
		return dz_conv_slow(cv, x);
	if (cv->shape == DZ_SHAPE_NARROW)
		return dz_conv_narrow_fixed(cv, x, cv->k, cv->shift, 0, 1);
	return dz_conv_wide_fixed(cv, x, cv->shift, 0, 1);
}

#endif
