/* SPDX-License-Identifier: MIT */
/*
 * The unit-conversion generator.
 *
 * Every conversion between two rates (milliseconds and jiffies, jiffies and
 * USER_HZ ticks, ...) is one rational function
 *
 *	y = floor((x * p + c) / q),  saturated at out_max,
 *
 * where p/q is the ratio of the two rates reduced to lowest terms and c
 * selects the rounding: 0 rounds down, q - 1 rounds up, q / 2 rounds to
 * nearest (halves up). dz_conv_init() turns that into a multiply and shifts
 * that are exact for every input up to the largest one whose result still
 * fits, so the hot path has no division at all:
 *
 *	m = ceil(2^s * p / q),  a = ceil(2^s * c / q),  2^s >= (max_in + 1) * q
 *	y = (x * m + a) >> s
 *
 * (The error of the estimate is below (max_in + 1) / 2^s <= 1/q, and the
 * exact quotient is at least 1/q below the next integer, so it never
 * crosses one.)
 *
 * Two shapes of the same formula exist, fixed per conversion at compile time
 * so that a constant-HZ build runs exactly the same instructions with
 * immediates in place of loads:
 *  - narrow: a 64-bit multiplier. The input is shifted left by k first, so
 *    small inputs (32-bit milliseconds) still get enough fraction bits.
 *  - wide: a 128-bit multiplier, for 64-bit inputs with large ratios
 *    (jiffies to nanoseconds).
 */
#ifndef DYNHZ_CONV_H
#define DYNHZ_CONV_H

#include <dynhz/types.h>
#include <dynhz/wide.h>

/* A rate of num/den counts per second (a jiffy rate is den/num Hz). */
struct dz_rate {
	u64 num;
	u64 den;
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
	u64 max_in;	/* inputs above this give sat */
	u64 sat;	/* == out_max: results saturate instead of wrapping */
	u64 mul_lo;	/* multiplier m (low word) */
	u64 mul_hi;	/* multiplier m (high word; wide shape only) */
	u64 add_lo;	/* a: the rounding offset scaled by 2^s */
	u64 add_hi;
	u32 shift;	/* s - 64 (wide) or s - 64 + k (narrow): always 1..63 */
	/* cold: the exact definition, for the slow path and reports */
	u8 shape;
	u8 k;
	u8 round;
	u64 p, q, c;
};

/*
 * Builds cv for converting counts at rate `from` into counts at rate `to`.
 * in_max is the largest value of the input type, out_max the largest result
 * (larger results saturate to it). Returns 0, or -DZ_ERANGE if the shape
 * cannot be exact for this ratio (a design error: the shapes are chosen so
 * that this never happens for a supported HZ, and the tests check it).
 */
int dz_conv_init(struct dz_conv *cv, struct dz_rate from, struct dz_rate to, enum dz_round round,
		 u64 in_max, u64 out_max, enum dz_shape shape, unsigned int k);

/* The same result by slow long division: the debug build's second opinion. */
u64 dz_conv_exact(const struct dz_conv *cv, u64 x);
/* The same for a 128-bit input x_hi * 2^64 + x_lo. */
u64 dz_conv_exact128(const struct dz_conv *cv, u64 x_hi, u64 x_lo);

/* Fast path, narrow shape: x << k must fit in 64 bits for x <= max_in. */
static inline u64 dz_conv_narrow(const struct dz_conv *cv, u64 x, unsigned int k)
{
	u64 hi, lo, sum;

	if (unlikely(x > cv->max_in))
		return cv->sat;
	lo = dz_mul64(x << k, cv->mul_lo, &hi);
	sum = lo + cv->add_lo;
	hi += cv->add_hi + (sum < lo);
	return hi >> cv->shift;
}

/* Fast path, wide shape: (x * m + a) >> (64 + shift) with a 128-bit m. */
static inline u64 dz_conv_wide(const struct dz_conv *cv, u64 x)
{
	u64 t = cv->shift;

	if (unlikely(x > cv->max_in))
		return cv->sat;
#ifdef DZ_HAVE_INT128
	dz_u128_native p0 = (dz_u128_native)x * cv->mul_lo;
	dz_u128_native p1 = (dz_u128_native)x * cv->mul_hi;
	dz_u128_native carry = ((dz_u128_native)(u64)p0 + cv->add_lo) >> 64;
	dz_u128_native mid = p1 + (p0 >> 64) + cv->add_hi + carry;

	return ((u64)(mid >> 64) << (64 - t)) | ((u64)mid >> t);
#else
	u64 a1, b1, a0, b0, w0, m0, m1;

	a0 = dz_mul64(x, cv->mul_lo, &a1);
	b0 = dz_mul64(x, cv->mul_hi, &b1);
	w0 = a0 + cv->add_lo;
	m1 = b1;
	m0 = b0 + a1;
	m1 += m0 < a1;
	m0 += cv->add_hi;
	m1 += m0 < cv->add_hi;
	m0 += w0 < a0;
	m1 += m0 < (u64)(w0 < a0);
	return (m1 << (64 - t)) | (m0 >> t);
#endif
}

#endif
