// SPDX-License-Identifier: MIT
/*
 * The conversion generator: computes the multiply-and-shift constants of
 * include/dynhz/conv.h, and the largest input each set is exact for, with
 * plain 192-bit long division. Nothing here is on a hot path but
 * dz_conv_slow(); it is written to be obviously right.
 *
 * This file includes only <dynhz/conv.h> and <dynhz/errno.h>: a kernel
 * that embeds the generator compiles it as it is, with its own flags.
 */
#include <dynhz/conv.h>
#include <dynhz/errno.h>

typedef dz_u64 u64_t;

/* A 192-bit unsigned integer, least significant word first. */
struct u192 {
	u64_t w[3];
};

static struct u192 u192_of(u64_t x)
{
	struct u192 r = { { x, 0, 0 } };

	return r;
}

static struct u192 u192_mul(u64_t a, u64_t b)
{
	struct u192 r;

	r.w[0] = dz_mul64(a, b, &r.w[1]);
	r.w[2] = 0;
	return r;
}

static struct u192 u192_add(struct u192 a, struct u192 b)
{
	struct u192 r;
	u64_t carry = 0;

	for (int i = 0; i < 3; i++) {
		u64_t s = a.w[i] + carry;

		carry = s < carry;
		r.w[i] = s + b.w[i];
		carry += r.w[i] < s;
	}
	return r;
}

/* a - b, for a >= b. */
static struct u192 u192_sub(struct u192 a, struct u192 b)
{
	struct u192 r;
	u64_t borrow = 0;

	for (int i = 0; i < 3; i++) {
		u64_t d = a.w[i] - b.w[i];
		u64_t nb = (a.w[i] < b.w[i]) | (d < borrow);

		r.w[i] = d - borrow;
		borrow = nb;
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

/* a >> n, for n < 192. */
static struct u192 u192_shr(struct u192 a, unsigned int n)
{
	struct u192 r = { { 0, 0, 0 } };
	unsigned int words = n / 64, bits = n % 64;

	for (unsigned int i = 0; i + words < 3; i++) {
		r.w[i] = a.w[i + words] >> bits;
		if (bits && i + words + 1 < 3)
			r.w[i] |= a.w[i + words + 1] << (64 - bits);
	}
	return r;
}

static struct u192 u192_pow2(unsigned int n)
{
	return u192_shl(u192_of(1), n);
}

static _Bool u192_fits64(struct u192 a)
{
	return !a.w[1] && !a.w[2];
}

static _Bool u192_fits128(struct u192 a)
{
	return !a.w[2];
}

/*
 * A divisor below 2^32, the common case (a reduced ratio of two rates):
 * six 64-by-32-bit steps on 32-bit limbs instead of 192 one-bit steps.
 * HZ changed at runtime builds constants with interrupts off: this is most
 * of that time.
 */
static struct u192 u192_div_small(struct u192 a, u64_t d, u64_t *rem)
{
	struct u192 q = { { 0, 0, 0 } };
	u64_t r = 0;

	for (int i = 5; i >= 0; i--) {
		unsigned int sh = 32 * (unsigned int)(i % 2);
		u64_t cur = (r << 32) | ((a.w[i / 2] >> sh) & 0xffffffffULL);
		u64_t qd = cur / d; /* r < d < 2^32: cur < 2^64, qd < 2^32 */

		r = cur - qd * d;
		q.w[i / 2] |= qd << sh;
	}
	if (rem)
		*rem = r;
	return q;
}

/*
 * (hi * 2^64 + lo) / d for hi < d, d >= 2^32: the quotient fits 64 bits;
 * the remainder goes to *rem. Knuth's algorithm D on 32-bit digits, as
 * Hacker's Delight writes it (divlu): d normalised so its top bit is set,
 * then two quotient digits, each estimated from the top digits by a
 * 64-by-32-bit division and corrected at most twice. Only 64-bit
 * arithmetic: a compiler's 128-bit division calls its runtime
 * (__udivmodti4), which a kernel embedding this file does not link.
 */
static u64_t div128_64(u64_t hi, u64_t lo, u64_t d, u64_t *rem)
{
	const u64_t b = 1ULL << 32;
	unsigned int s = (unsigned int)__builtin_clzll(d); /* d >= 2^32: s < 32 */
	u64_t dn1, dn0, un32, un10, un1, un0, un21, q1, q0, rhat;

	d <<= s;
	dn1 = d >> 32;
	dn0 = d & 0xffffffffULL;
	un32 = (hi << s) | (s ? lo >> (64 - s) : 0);
	un10 = lo << s;
	un1 = un10 >> 32;
	un0 = un10 & 0xffffffffULL;

	q1 = un32 / dn1;
	rhat = un32 - q1 * dn1;
	while (q1 >= b || q1 * dn0 > b * rhat + un1) {
		q1--;
		rhat += dn1;
		if (rhat >= b)
			break;
	}
	/* The partial remainder fits 64 bits; the products wrap and cancel. */
	un21 = un32 * b + un1 - q1 * d;

	q0 = un21 / dn1;
	rhat = un21 - q0 * dn1;
	while (q0 >= b || q0 * dn0 > b * rhat + un0) {
		q0--;
		rhat += dn1;
		if (rhat >= b)
			break;
	}
	*rem = (un21 * b + un0 - q0 * d) >> s;
	return q1 * b + q0;
}

/* Quotient of a / d (d != 0); the remainder goes to *rem. */
static struct u192 u192_div(struct u192 a, u64_t d, u64_t *rem)
{
	struct u192 q = { { 0, 0, 0 } };
	u64_t r = 0;

	if (d <= 0xffffffffULL)
		return u192_div_small(a, d, rem);
	/* Three 128-by-64-bit steps (the remainder stays below d, so each quotient fits). */
	for (int i = 2; i >= 0; i--)
		q.w[i] = div128_64(r, a.w[i], d, &r);
	if (rem)
		*rem = r;
	return q;
}

/* ceil(2^s * v / q), and in *excess what rounding up added, times q (0..q-1). */
static struct u192 scaled_ceil(u64_t v, unsigned int s, u64_t q, u64_t *excess)
{
	u64_t rem;
	struct u192 r = u192_div(u192_shl(u192_of(v), s), q, &rem);

	*excess = rem ? q - rem : 0;
	return rem ? u192_add(r, u192_of(1)) : r;
}

/* min(cap, floor(n / d)); d == 0 divides nothing away, so it is cap. */
static u64_t quot_cap(struct u192 n, u64_t d, u64_t cap)
{
	struct u192 x;

	if (!d)
		return cap;
	x = u192_div(n, d, 0);
	return (u192_fits64(x) && x.w[0] < cap) ? x.w[0] : cap;
}

static unsigned int bitlen(u64_t x)
{
	return x ? 64 - (unsigned int)__builtin_clzll(x) : 0;
}

static u64_t gcd64(u64_t a, u64_t b)
{
	while (b) {
		u64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* One shape's constants and the largest input they are exact for. */
struct fit {
	u64_t mul_lo, mul_hi, add, max;
};

/* The narrow shape (conv.h): S = 64 + t; false when m or a cannot fit 64 bits. */
static _Bool narrow_fit(const struct dz_conv *cv, unsigned int k, unsigned int t, struct fit *f)
{
	unsigned int s = 64 + t;
	u64_t em, ea = 0;
	struct u192 m, a = u192_of(0), lim;

	if (k > 63 || t > 63)
		return 0;
	m = scaled_ceil(cv->p, s - k, cv->q, &em);
	if (!u192_fits64(m))
		return 0;
	if (cv->c) {
		a = scaled_ceil(cv->c, s, cv->q, &ea);
		if (!u192_fits64(a))
			return 0;
	}
	/* x 2^k em + ea < 2^s, and x << k must not lose bits */
	lim = u192_shr(u192_sub(u192_pow2(s), u192_add(u192_of(ea), u192_of(1))), k);
	f->mul_lo = m.w[0];
	f->mul_hi = 0;
	f->add = a.w[0];
	f->max = quot_cap(lim, em, cv->max_in < (DZ_U64_MAX >> k) ? cv->max_in : DZ_U64_MAX >> k);
	return 1;
}

/* The wide shape (conv.h): S = 64 + t, 1 <= t <= 63; false when m cannot fit 128 bits. */
static _Bool wide_fit(const struct dz_conv *cv, unsigned int t, struct fit *f)
{
	u64_t em, ea = 0;
	struct u192 m, a = u192_of(0), lim;

	if (t < 1 || t > 63)
		return 0;
	m = scaled_ceil(cv->p, 64 + t, cv->q, &em);
	if (!u192_fits128(m))
		return 0;
	if (cv->c)
		a = scaled_ceil(cv->c, t, cv->q, &ea); /* c < q: below 2^t */
	if (ea >> t)
		return 0; /* ea >= 2^t: not even x = 0 */
	/* x em < (2^t - ea) 2^64 */
	lim = u192_sub(u192_shl(u192_of((1ULL << t) - ea), 64), u192_of(1));
	f->mul_lo = m.w[0];
	f->mul_hi = m.w[1];
	f->add = a.w[0];
	f->max = quot_cap(lim, em, cv->max_in);
	return 1;
}

/*
 * The largest t whose multiplier fits gives the most precision; it is one
 * of two or three next to 64 - log2(p / q), so this tries a few, not 63.
 */
static unsigned int wide_top_shift(const struct dz_conv *cv)
{
	int t = 65 - ((int)bitlen(cv->p) - (int)bitlen(cv->q));

	return t > 63 ? 63 : t < 1 ? 1 : (unsigned int)t;
}

/* The slow path's constants: a wide shape exact up to max_in, if one is. */
static void slow_make(struct dz_conv *cv)
{
	struct fit f;
	int tried = 0;

	cv->s_shift = 0;
	for (unsigned int t = wide_top_shift(cv); t >= 1 && tried < 3; t--) {
		if (!wide_fit(cv, t, &f))
			continue;
		tried++;
		if (f.max == cv->max_in) {
			cv->s_mul_lo = f.mul_lo;
			cv->s_mul_hi = f.mul_hi;
			cv->s_add = f.add;
			cv->s_shift = (dz_u8)t;
			return;
		}
	}
}

/* The largest x <= in_max with floor((x * p + c) / q) <= out_max. */
static u64_t largest_input(u64_t p, u64_t q, u64_t c, u64_t in_max, u64_t out_max)
{
	/* x * p + c <= out_max * q + q - 1 */
	struct u192 lim = u192_add(u192_mul(out_max, q), u192_of(q - 1 - c));
	struct u192 x = u192_div(lim, p, 0);

	return (u192_fits64(x) && x.w[0] < in_max) ? x.w[0] : in_max;
}

static void set_fast(struct dz_conv *cv, enum dz_shape shape, unsigned int k, unsigned int t,
		     const struct fit *f)
{
	cv->shape = (dz_u8)shape;
	cv->k = (dz_u8)k;
	cv->shift = (dz_u8)t;
	cv->mul_lo = f->mul_lo;
	cv->mul_hi = f->mul_hi;
	cv->add_lo = f->add;
	cv->fast_max = f->max;
}

int dz_conv_prepare(struct dz_conv *cv, struct dz_rate from, struct dz_rate to, enum dz_round round,
		    dz_u64 in_max, dz_u64 out_max)
{
	/* y = x * (to.num / to.den) / (from.num / from.den) */
	static const struct fit none = { 0, 0, 0, 0 };
	u64_t p, q, g;

	if (__builtin_mul_overflow(to.num, from.den, &p) ||
	    __builtin_mul_overflow(to.den, from.num, &q) || !p || !q)
		return -DZ_ERANGE;
	g = gcd64(p, q);
	cv->p = p / g;
	cv->q = q / g;
	cv->c = round == DZ_ROUND_UP ? cv->q - 1 : round == DZ_ROUND_NEAR ? cv->q / 2 : 0;
	cv->round = (dz_u8)round;
	cv->sat = out_max;
	cv->max_in = largest_input(cv->p, cv->q, cv->c, in_max, out_max);
	/* Input 0 gives floor(c / q) = 0 from zero constants: a safe start. */
	set_fast(cv, DZ_SHAPE_NARROW, 0, 0, &none);
	slow_make(cv);
	return 0;
}

dz_u64 dz_conv_shape(struct dz_conv *cv, enum dz_shape shape, unsigned int k, unsigned int t)
{
	static const struct fit none = { 0, 0, 0, 0 };
	struct fit f;
	_Bool ok = shape == DZ_SHAPE_WIDE ? !k && wide_fit(cv, t, &f) : narrow_fit(cv, k, t, &f);

	set_fast(cv, shape, k, t, ok ? &f : &none);
	return cv->fast_max;
}

/* Keeps f in *best when it covers more inputs. */
static void consider(struct dz_conv *best, const struct fit *f, enum dz_shape shape, unsigned int k,
		     unsigned int t)
{
	if (f->max > best->fast_max)
		set_fast(best, shape, k, t, f);
}

int dz_conv_make(struct dz_conv *cv, struct dz_rate from, struct dz_rate to, enum dz_round round,
		 dz_u64 in_max, dz_u64 out_max)
{
	int err = dz_conv_prepare(cv, from, to, round, in_max, out_max);
	int d = (int)bitlen(cv->p) - (int)bitlen(cv->q); /* log2(p / q), within 1 */
	struct fit f;

	if (err)
		return err;
	/*
	 * Narrow, t = 0: m fits once 2^k > p / q, and the smallest such k
	 * leaves the most precision. Rounding down (no offset) may instead
	 * keep k = 0 and scale up by t when p < q.
	 */
	for (int k = d > 1 ? d - 1 : 0; k <= (d > -1 ? d + 1 : 0); k++) {
		if (narrow_fit(cv, (unsigned int)k, 0, &f)) {
			consider(cv, &f, DZ_SHAPE_NARROW, (unsigned int)k, 0);
			break;
		}
	}
	for (int t = 1 - d > 63 ? 63 : 1 - d; !cv->c && t >= 1 && t >= -d - 2; t--) {
		if (narrow_fit(cv, 0, (unsigned int)t, &f)) {
			consider(cv, &f, DZ_SHAPE_NARROW, 0, (unsigned int)t);
			break;
		}
	}
	/* Wide only when narrow cannot cover the range: it costs a multiply more. */
	for (unsigned int t = wide_top_shift(cv), n = 0;
	     cv->fast_max < cv->max_in && t >= 1 && n < 3; t--) {
		if (wide_fit(cv, t, &f)) {
			n++;
			consider(cv, &f, DZ_SHAPE_WIDE, 0, t);
		}
	}
	return 0;
}

dz_u64 dz_conv_slow(const struct dz_conv *cv, dz_u64 x)
{
	struct dz_conv w;

	if (x > cv->max_in)
		return cv->sat;
	if (!cv->s_shift)
		return dz_conv_exact(cv, x);
	w.mul_lo = cv->s_mul_lo;
	w.mul_hi = cv->s_mul_hi;
	w.add_lo = cv->s_add;
	return dz_conv_wide_fixed(&w, x, cv->s_shift, 0, 1);
}

dz_u64 dz_conv_exact(const struct dz_conv *cv, dz_u64 x)
{
	u64_t n, y;

	if (x > cv->max_in)
		return cv->sat;
	/* When x * p + c fits in 64 bits one plain division does it. */
	if (!__builtin_mul_overflow(x, cv->p, &n) && !__builtin_add_overflow(n, cv->c, &n)) {
		y = n / cv->q;
		return y > cv->sat ? cv->sat : y;
	}
	return dz_conv_exact128(cv, 0, x);
}

dz_u64 dz_conv_exact128(const struct dz_conv *cv, dz_u64 x_hi, dz_u64 x_lo)
{
	struct u192 hi = u192_mul(x_hi, cv->p), y;

	/* x_hi * p < 2^128, so x * p + c stays below 2^192. */
	y = u192_add(u192_add(u192_mul(x_lo, cv->p), u192_shl(hi, 64)), u192_of(cv->c));
	y = u192_div(y, cv->q, 0);
	if (!u192_fits64(y) || y.w[0] > cv->sat)
		return cv->sat;
	return y.w[0];
}
