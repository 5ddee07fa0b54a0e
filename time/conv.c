// SPDX-License-Identifier: MIT
/*
 * The conversion generator: computes the multiply-and-shift constants of
 * include/dynhz/conv.h once, at boot, with plain 192-bit long division.
 * Nothing here is on a hot path; it is written to be obviously right.
 */
#include <dynhz/conv.h>
#include <dynhz/errno.h>

/* A 192-bit unsigned integer, least significant word first. */
struct u192 {
	u64 w[3];
};

static struct u192 u192_of(u64 x)
{
	struct u192 r = { { x, 0, 0 } };

	return r;
}

static struct u192 u192_mul(u64 a, u64 b)
{
	struct u192 r;

	r.w[0] = dz_mul64(a, b, &r.w[1]);
	r.w[2] = 0;
	return r;
}

static struct u192 u192_add(struct u192 a, struct u192 b)
{
	struct u192 r;
	u64 carry = 0;

	for (int i = 0; i < 3; i++) {
		u64 s = a.w[i] + carry;

		carry = s < carry;
		r.w[i] = s + b.w[i];
		carry += r.w[i] < s;
	}
	return r;
}

/* a << n, for n < 192; bits shifted out are lost. */
static struct u192 u192_shl(struct u192 a, unsigned int n)
{
	struct u192 r = { { 0, 0, 0 } };
	unsigned int words = n / 64, bits = n % 64;

	for (int i = 2; i >= (int)words; i--) {
		r.w[i] = a.w[i - words] << bits;
		if (bits && i - (int)words - 1 >= 0)
			r.w[i] |= a.w[i - words - 1] >> (64 - bits);
	}
	return r;
}

static bool u192_bit(const struct u192 *a, unsigned int n)
{
	return (a->w[n / 64] >> (n % 64)) & 1;
}

/*
 * A divisor below 2^32, the common case (a reduced ratio of two rates):
 * six 64-by-32-bit steps on 32-bit limbs instead of 192 one-bit steps.
 * HZ changed at runtime builds constants with interrupts off: this is most
 * of that time.
 */
static struct u192 u192_div_small(struct u192 a, u64 d, u64 *rem)
{
	struct u192 q = { { 0, 0, 0 } };
	u64 r = 0;

	for (int i = 5; i >= 0; i--) {
		unsigned int sh = 32 * (unsigned int)(i % 2);
		u64 cur = (r << 32) | ((a.w[i / 2] >> sh) & 0xffffffffULL);
		u64 qd = cur / d; /* r < d < 2^32: cur < 2^64, qd < 2^32 */

		r = cur - qd * d;
		q.w[i / 2] |= qd << sh;
	}
	if (rem)
		*rem = r;
	return q;
}

/* Quotient of a / d (d != 0); the remainder goes to *rem. */
static struct u192 u192_div(struct u192 a, u64 d, u64 *rem)
{
	if (d <= 0xffffffffULL)
		return u192_div_small(a, d, rem);

	struct u192 q = { { 0, 0, 0 } };
	u64 r = 0;

	int top = 191;

	while (top >= 0 && !u192_bit(&a, (unsigned int)top))
		top--;
	for (int i = top; i >= 0; i--) {
		/* r < d <= 2^64 - 1, so 2r + 1 overflows only when r >= 2^63,
		 * and then it certainly exceeds d: subtracting modulo 2^64 is
		 * still right. */
		bool big = r >> 63;

		r = (r << 1) | u192_bit(&a, (unsigned int)i);
		if (big || r >= d) {
			r -= d;
			q.w[i / 64] |= 1ULL << (i % 64);
		}
	}
	if (rem)
		*rem = r;
	return q;
}

static bool u192_fits64(struct u192 a)
{
	return !a.w[1] && !a.w[2];
}

static bool u192_fits128(struct u192 a)
{
	return !a.w[2];
}

/* ceil(2^s * v / q) */
static struct u192 scaled_ceil(u64 v, unsigned int s, u64 q)
{
	u64 rem;
	struct u192 r = u192_div(u192_shl(u192_of(v), s), q, &rem);

	return rem ? u192_add(r, u192_of(1)) : r;
}

/* Is 2^s >= n? */
static bool pow2_covers(unsigned int s, struct u192 n)
{
	struct u192 p = u192_shl(u192_of(1), s);

	for (int i = 2; i >= 0; i--)
		if (p.w[i] != n.w[i])
			return p.w[i] > n.w[i];
	return true;
}

static u64 gcd64(u64 a, u64 b)
{
	while (b) {
		u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* The largest x <= in_max with floor((x * p + c) / q) <= out_max. */
static u64 largest_input(u64 p, u64 q, u64 c, u64 in_max, u64 out_max)
{
	/* x * p + c <= out_max * q + q - 1 */
	struct u192 lim = u192_add(u192_mul(out_max, q), u192_of(q - 1 - c));
	struct u192 x = u192_div(lim, p, NULL);

	return (u192_fits64(x) && x.w[0] < in_max) ? x.w[0] : in_max;
}

/* Does shift t satisfy every condition of conv.h for cv's ratio and range? */
static bool shift_works(struct dz_conv *cv, unsigned int t)
{
	unsigned int k = cv->k, s = (cv->shape == DZ_SHAPE_WIDE ? 64 : 64 - k) + t;
	struct u192 m, a, top;

	if (t < 1 || t > 63 || !pow2_covers(t, u192_mul(cv->q, 2)))
		return false; /* the offset's error must stay below 1/(2q) */
	/* 2 (max_in + 1) q: the multiplier's error must stay below 1/(2q) */
	if (!pow2_covers(s, u192_shl(u192_add(u192_mul(cv->max_in, cv->q), u192_of(cv->q)), 1)))
		return false;
	m = scaled_ceil(cv->p, s, cv->q);
	a = scaled_ceil(cv->c, t, cv->q); /* < 2^t: one word */
	if (cv->shape == DZ_SHAPE_NARROW) {
		if (!u192_fits64(m))
			return false;
		/* floor((max_in << k) * m / 2^64) + a must fit in 64 bits */
		top = u192_mul(cv->max_in << k, m.w[0]);
		top = u192_add(u192_of(top.w[1]), a);
		if (!u192_fits64(top))
			return false;
	} else {
		if (!u192_fits128(m))
			return false;
		/* max_in * m_hi + floor(max_in * m_lo / 2^64) + a in 128 bits */
		top = u192_add(u192_mul(cv->max_in, m.w[1]), a);
		top = u192_add(top, u192_of(u192_mul(cv->max_in, m.w[0]).w[1]));
		if (!u192_fits128(top))
			return false;
	}
	cv->shift = t;
	cv->mul_lo = m.w[0];
	cv->mul_hi = m.w[1];
	cv->add_lo = a.w[0];
	return true;
}

int dz_conv_init_shift(struct dz_conv *cv, struct dz_rate from, struct dz_rate to,
		       enum dz_round round, u64 in_max, u64 out_max, enum dz_shape shape,
		       unsigned int k, unsigned int shift)
{
	/* y = x * (to.num / to.den) / (from.num / from.den) */
	u64 p, q, g;

	if (__builtin_mul_overflow(to.num, from.den, &p) ||
	    __builtin_mul_overflow(to.den, from.num, &q))
		return -DZ_ERANGE;
	if (!p || !q || k > 63 || (shape == DZ_SHAPE_WIDE && k))
		return -DZ_ERANGE;
	g = gcd64(p, q);
	p /= g;
	q /= g;

	cv->p = p;
	cv->q = q;
	cv->c = round == DZ_ROUND_UP ? q - 1 : round == DZ_ROUND_NEAR ? q / 2 : 0;
	cv->round = (u8)round;
	cv->shape = (u8)shape;
	cv->k = (u8)k;
	cv->sat = out_max;
	cv->max_in = largest_input(p, q, cv->c, in_max, out_max);
	if (k && (cv->max_in >> (64 - k)))
		return -DZ_ERANGE; /* x << k would lose bits */

	if (shift)
		return shift_works(cv, shift) ? 0 : -DZ_ERANGE;
	for (unsigned int t = 1; t < 64; t++)
		if (shift_works(cv, t))
			return 0;
	return -DZ_ERANGE;
}

int dz_conv_init(struct dz_conv *cv, struct dz_rate from, struct dz_rate to, enum dz_round round,
		 u64 in_max, u64 out_max, enum dz_shape shape, unsigned int k)
{
	return dz_conv_init_shift(cv, from, to, round, in_max, out_max, shape, k, 0);
}

u64 dz_conv_exact(const struct dz_conv *cv, u64 x)
{
	u64 n, y;

	/* When x * p + c fits in 64 bits one plain division does it. */
	if (!__builtin_mul_overflow(x, cv->p, &n) && !__builtin_add_overflow(n, cv->c, &n)) {
		y = n / cv->q;
		return y > cv->sat ? cv->sat : y;
	}
	return dz_conv_exact128(cv, 0, x);
}

u64 dz_conv_exact128(const struct dz_conv *cv, u64 x_hi, u64 x_lo)
{
	struct u192 hi = u192_mul(x_hi, cv->p), y;

	/* x_hi * p < 2^128, so x * p + c stays below 2^192. */
	y = u192_add(u192_add(u192_mul(x_lo, cv->p), u192_shl(hi, 64)), u192_of(cv->c));
	y = u192_div(y, cv->q, NULL);
	if (!u192_fits64(y) || y.w[0] > cv->sat)
		return cv->sat;
	return y.w[0];
}
