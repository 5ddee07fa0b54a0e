// SPDX-License-Identifier: MIT
/* Exact reference arithmetic for the tests; see ref.h. */
#include <string.h>

#include "ref.h"

/* ---- 32-bit limbs: 8 limbs = 256 bits, least significant first ---- */

#define NL 8
struct big {
	uint32_t l[NL];
};

static void big_set(struct big *b, uint64_t hi, uint64_t lo)
{
	memset(b, 0, sizeof(*b));
	b->l[0] = (uint32_t)lo;
	b->l[1] = (uint32_t)(lo >> 32);
	b->l[2] = (uint32_t)hi;
	b->l[3] = (uint32_t)(hi >> 32);
}

/* b *= m (m < 2^64), as two multiplications by 32-bit halves. */
static void big_mul_small(struct big *b, uint32_t m)
{
	uint64_t carry = 0;

	for (int i = 0; i < NL; i++) {
		uint64_t v = (uint64_t)b->l[i] * m + carry;

		b->l[i] = (uint32_t)v;
		carry = v >> 32;
	}
}

static void big_add(struct big *a, const struct big *b)
{
	uint64_t carry = 0;

	for (int i = 0; i < NL; i++) {
		uint64_t v = (uint64_t)a->l[i] + b->l[i] + carry;

		a->l[i] = (uint32_t)v;
		carry = v >> 32;
	}
}

static void big_mul64(struct big *b, uint64_t m)
{
	struct big hi = *b;

	big_mul_small(b, (uint32_t)m);
	big_mul_small(&hi, (uint32_t)(m >> 32));
	/* hi <<= 32 */
	memmove(&hi.l[1], &hi.l[0], (NL - 1) * sizeof(uint32_t));
	hi.l[0] = 0;
	big_add(b, &hi);
}

static void big_add64(struct big *b, uint64_t v)
{
	struct big t;

	big_set(&t, 0, v);
	big_add(b, &t);
}

/* Divides by a 64-bit q, one bit at a time: slow, and plainly right. */
static void big_divmod(struct big *b, uint64_t q, uint64_t *rem)
{
	struct big quo;
	uint64_t r = 0;

	int top_bit = NL * 32 - 1;

	memset(&quo, 0, sizeof(quo));
	/* Start at the highest set bit: most numbers here are near 100 bits. */
	while (top_bit >= 0 && !((b->l[top_bit / 32] >> (top_bit % 32)) & 1))
		top_bit--;
	for (int i = top_bit; i >= 0; i--) {
		uint32_t bit = (b->l[i / 32] >> (i % 32)) & 1;
		bool top = r >> 63;

		r = (r << 1) | bit;
		if (top || r >= q) {
			r -= q;
			quo.l[i / 32] |= 1U << (i % 32);
		}
	}
	*b = quo;
	*rem = r;
}

static uint64_t big_result(const struct big *b, uint64_t sat)
{
	for (int i = 2; i < NL; i++)
		if (b->l[i])
			return sat;
	uint64_t v = ((uint64_t)b->l[1] << 32) | b->l[0];

	return v > sat ? sat : v;
}

uint64_t ref_muldiv128(uint64_t x_hi, uint64_t x_lo, uint64_t p, uint64_t q, enum ref_round r,
		       uint64_t sat)
{
	struct big b;
	uint64_t rem;

	big_set(&b, x_hi, x_lo);
	big_mul64(&b, p);
	big_divmod(&b, q, &rem);
	/* Round on the remainder: up if any, nearest if at least half. */
	if ((r == REF_UP && rem) || (r == REF_NEAR && rem >= q - rem))
		big_add64(&b, 1);
	return big_result(&b, sat);
}

uint64_t ref_muldiv_limbs(uint64_t x, uint64_t p, uint64_t q, enum ref_round r, uint64_t sat)
{
	return ref_muldiv128(0, x, p, q, r, sat);
}

uint64_t ref_muldiv(uint64_t x, uint64_t p, uint64_t q, enum ref_round r, uint64_t sat)
{
	/* Small products need nothing wider than 64 bits. */
	if (!p || x <= UINT64_MAX / p) {
		uint64_t n = x * p, y = n / q, rem = n % q;

		if ((r == REF_UP && rem) || (r == REF_NEAR && rem >= q - rem))
			y++;
		return y > sat ? sat : y;
	}
#ifdef __SIZEOF_INT128__
	unsigned __int128 n = (unsigned __int128)x * p;
	unsigned __int128 y = n / q, rem = n % q;

	if ((r == REF_UP && rem) || (r == REF_NEAR && rem >= q - rem))
		y++;
	return y > sat ? sat : (uint64_t)y;
#else
	return ref_muldiv_limbs(x, p, q, r, sat);
#endif
}

/* ---- the conversions, straight from their definitions ---- */

/* Products of two small factors: every factor here is below 2^32. */
static uint64_t mul(uint64_t a, uint64_t b)
{
	return a * b;
}

uint64_t ref_ms_to_j(uint64_t ms, struct dz_tick_period t)
{
	/* ms / 1000 s, divided by num/den s per jiffy; a negative int is forever (Linux) */
	if (ms > INT_MAX)
		return REF_MAX_JIFFY_OFFSET;
	return ref_muldiv(ms, t.den, mul(1000, t.num), REF_UP, REF_MAX_JIFFY_OFFSET);
}

uint64_t ref_us_to_j(uint64_t us, struct dz_tick_period t)
{
	return ref_muldiv(us, t.den, mul(1000000, t.num), REF_UP, REF_MAX_JIFFY_OFFSET);
}

uint64_t ref_ns_to_j(uint64_t ns, struct dz_tick_period t)
{
	return ref_muldiv(ns, t.den, mul(1000000000, t.num), REF_UP, REF_MAX_JIFFY_OFFSET);
}

uint64_t ref_j_to_ms(uint64_t j, struct dz_tick_period t)
{
	return ref_muldiv(j, mul(1000, t.num), t.den, REF_UP, UINT_MAX);
}

uint64_t ref_j_to_us(uint64_t j, struct dz_tick_period t)
{
	return ref_muldiv(j, mul(1000000, t.num), t.den, REF_UP, UINT_MAX);
}

uint64_t ref_j_to_ns(uint64_t j, struct dz_tick_period t)
{
	return ref_muldiv(j, mul(1000000000, t.num), t.den, REF_DOWN, UINT64_MAX);
}

uint64_t ref_j_to_clock(uint64_t j, struct dz_tick_period t, unsigned int user_hz)
{
	return ref_muldiv(j, mul(user_hz, t.num), t.den, REF_DOWN, ULONG_MAX);
}

uint64_t ref_clock_to_j(uint64_t c, struct dz_tick_period t, unsigned int user_hz)
{
	/* a negative clock_t is forever, as a negative int of msecs */
	if (c > LONG_MAX)
		return REF_MAX_JIFFY_OFFSET;
	return ref_muldiv(c, t.den, mul(user_hz, t.num), REF_UP, REF_MAX_JIFFY_OFFSET);
}

uint64_t ref_ts_to_j(int64_t sec, long nsec, struct dz_tick_period t)
{
	/* Normalise to a non-negative total of nanoseconds, as 128 bits. */
	const int64_t billion = 1000000000;
	int64_t carry = nsec / billion;

	nsec -= (long)(carry * billion);
	if (nsec < 0) {
		nsec += billion;
		carry--;
	}
	if ((carry > 0 && sec > INT64_MAX - carry))
		return REF_MAX_JIFFY_OFFSET;
	if (carry < 0 && sec < INT64_MIN - carry)
		return 0;
	sec += carry;
	if (sec < 0)
		return 0;
	/* total = sec * 1e9 + nsec, on limbs */
	struct big b;
	uint64_t hi, lo;

	big_set(&b, 0, (uint64_t)sec);
	big_mul64(&b, 1000000000);
	big_add64(&b, (uint64_t)nsec);
	lo = ((uint64_t)b.l[1] << 32) | b.l[0];
	hi = ((uint64_t)b.l[3] << 32) | b.l[2];
	return ref_muldiv128(hi, lo, t.den, mul(1000000000, t.num), REF_UP, REF_MAX_JIFFY_OFFSET);
}

uint64_t ref_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}
