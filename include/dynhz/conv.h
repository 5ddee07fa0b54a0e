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
 *	m = ceil(2^s * p / q),  a = ceil(2^t * c / q),  s = 64 - k + t
 *	y = (floor((x << k) * m / 2^64) + a) >> t
 *
 * with 2^t >= 2q and 2^s >= 2 (max_in + 1) q. Why that is exact: the
 * multiplier overshoots x * p / q by less than 1/(2q), the rounding offset
 * overshoots c / q by less than 1/(2q), and dropping the low 64 bits of the
 * product undershoots by less than 2^-t, but never below an integer that
 * the exact value reaches (the dropped fraction is at most the overshoot);
 * the exact quotient is either an integer or at least 1/q away from the
 * next one, so the estimate never crosses one.
 *
 * Two shapes of the same formula exist, fixed per conversion at compile time
 * so that a constant-HZ build runs exactly the same instructions with
 * immediates in place of loads:
 *  - narrow: a 64-bit multiplier. The input is shifted left by k first, so
 *    small inputs (32-bit milliseconds) still get enough fraction bits.
 *  - wide: a 128-bit multiplier, for 64-bit inputs with large ratios
 *    (jiffies to nanoseconds); k is 0.
 * For the conversions of jiffies.h the shift t is a compile-time constant
 * too, one value that serves every HZ in range (the tests check it), and
 * conversions that cannot saturate or that round down skip the range check
 * or the add.
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
	u64 max_in; /* inputs above this give sat */
	u64 sat;    /* == out_max: results saturate instead of wrapping */
	u64 mul_lo; /* multiplier m (low word) */
	u64 mul_hi; /* multiplier m (high word; wide shape only) */
	u64 add_lo; /* a: the rounding offset scaled by 2^t */
	u32 shift;  /* t: always 1..63 */
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

/* The same with the shift t fixed by the caller (0: the smallest that works). */
int dz_conv_init_shift(struct dz_conv *cv, struct dz_rate from, struct dz_rate to,
		       enum dz_round round, u64 in_max, u64 out_max, enum dz_shape shape,
		       unsigned int k, unsigned int shift);

/* The same result by slow long division: the debug build's second opinion. */
u64 dz_conv_exact(const struct dz_conv *cv, u64 x);
/* The same for a 128-bit input x_hi * 2^64 + x_lo. */
u64 dz_conv_exact128(const struct dz_conv *cv, u64 x_hi, u64 x_lo);

/*
 * Fast path, narrow shape. check: inputs may exceed max_in; add: the
 * rounding offset is not 0; t: the shift, or 0 to read it from cv. The
 * flags are compile-time constants at every call, so they cost nothing.
 */
static inline u64 dz_conv_narrow_fixed(const struct dz_conv *cv, u64 x, unsigned int k, bool check,
				       bool add, unsigned int t)
{
	u64 hi;

	t = t ? t : cv->shift;
	if (check && unlikely(x > cv->max_in))
		return cv->sat;
	dz_mul64(x << k, cv->mul_lo, &hi);
	if (add)
		hi += cv->add_lo;
	return hi >> t;
}

/* Fast path, wide shape: (x * m_hi + floor(x * m_lo / 2^64) + a) >> t. */
static inline u64 dz_conv_wide_fixed(const struct dz_conv *cv, u64 x, bool check, bool add,
				     unsigned int t)
{
	t = t ? t : cv->shift;
	if (t >= 64)
		__builtin_unreachable(); /* lets gcc use one double shift */
	if (check && unlikely(x > cv->max_in))
		return cv->sat;
#ifdef DZ_HAVE_INT128
	dz_u128_native h = (dz_u128_native)x * cv->mul_hi;

	h += (u64)(((dz_u128_native)x * cv->mul_lo) >> 64);
	if (add)
		h += cv->add_lo;
	return (u64)(h >> t);
#else
	u64 l1, lo, hi;

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

/* The general forms: range check, offset and shift all taken from cv. */
static inline u64 dz_conv_narrow(const struct dz_conv *cv, u64 x, unsigned int k)
{
	return dz_conv_narrow_fixed(cv, x, k, true, true, 0);
}

static inline u64 dz_conv_wide(const struct dz_conv *cv, u64 x)
{
	return dz_conv_wide_fixed(cv, x, true, true, 0);
}

#endif
