// SPDX-License-Identifier: MIT
/*
 * The advisor's own data structures against simple references: the timer
 * map against a plain array under a million random puts, gets and
 * deletes; the histogram's quantiles against a sorted array (within its
 * documented 0.4 %, exact below 512 and at the extremes); Linux's wheel
 * levels at hand-worked points; the replay's division by a multiply
 * against the CPU's divide. Prints "pass NAME" or "fail NAME".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/hzadvise/hzadvise.h"
#include "../../tools/hzadvise/map.h"

static u64 rng = 0x9e3779b97f4a7c15ULL;

static u64 next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int verdict(const char *name, int bad)
{
	printf("%s %s\n", bad ? "fail" : "pass", name);
	return bad;
}

#define KEYS 4096
static int test_map(void)
{
	static u64 val[KEYS];
	static bool in[KEYS];
	struct map m;
	int bad = 0;

	map_init(&m);
	for (unsigned int i = 0; i < 1000000 && !bad; i++) {
		unsigned int k = (unsigned int)(next() % KEYS);
		u64 key = k * 0x10000ULL + 0xffff0000ULL, *v; /* clustered, as pointers are */

		switch (next() % 3) {
		case 0:
			val[k] = next();
			in[k] = true;
			map_put(&m, key, val[k]);
			break;
		case 1:
			bad |= map_del(&m, key) != in[k];
			in[k] = false;
			break;
		default:
			v = map_get(&m, key);
			bad |= in[k] ? !v || *v != val[k] : v != NULL;
		}
	}
	for (unsigned int k = 0; k < KEYS; k++) {
		u64 *v = map_get(&m, k * 0x10000ULL + 0xffff0000ULL);

		bad |= in[k] ? !v || *v != val[k] : v != NULL;
	}
	map_free(&m);
	return verdict("map: 1M random operations agree with an array", bad);
}

static int cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int test_hist(void)
{
	enum { N = 100001 };
	static u64 v[N];
	const double qs[] = { 0.001, 0.25, 0.5, 0.9, 0.99, 0.999 };
	struct hist h;
	int bad = 0;

	for (int round = 0; round < 3; round++) {
		hist_init(&h);
		for (unsigned int i = 0; i < N; i++) {
			/* small, medium and huge values */
			v[i] = round == 0   ? next() % 512
			       : round == 1 ? next() % 50000000
					    : next() >> 3;
			hist_add(&h, v[i], 1);
		}
		qsort(v, N, sizeof(v[0]), cmp);
		for (unsigned int q = 0; q < sizeof(qs) / sizeof(qs[0]); q++) {
			size_t i = (size_t)(qs[q] * N + 0.999999) - 1;
			u64 got = hist_quantile(&h, qs[q]), want = v[i];
			double err =
				want ? ((double)got - (double)want) / (double)want : (double)got;

			if (round == 0 ? got != want : err > 0.004 || err < -0.004) {
				fprintf(stderr, "  round %d q=%g: %llu, sorted %llu\n", round,
					qs[q], (unsigned long long)got, (unsigned long long)want);
				bad = 1;
			}
		}
		bad |= hist_quantile(&h, 1) != v[N - 1] || h.min != v[0] || h.n != N;
		hist_free(&h);
	}
	return verdict("hist: quantiles within 0.4 % of a sorted array, exact below 512", bad);
}

/* Worked by hand from the level rule: level n holds deltas below 63·8^n, granule 8^n. */
static int test_wheel(void)
{
	static const struct {
		u64 expires, clk;
		unsigned int hz;
		u64 want;
	} t[] = {
		{ 1000, 999, 250, 1001 },	      /* level 0: the next jiffy after expiry */
		{ 1062, 1000, 250, 1063 },	      /* delta 62: still level 0 */
		{ 1063, 1000, 250, 1064 },	      /* delta 63: level 1, (1063 >> 3 + 1) << 3 */
		{ 1503, 1000, 250, 1504 },	      /* delta 503: level 1 */
		{ 1504, 1000, 250, 1536 },	      /* delta 504: level 2, granule 64 */
		{ 990, 1000, 250, 1000 },	      /* already due: the clock itself */
		{ 1ULL << 40, 0, 1000, 63ULL << 24 }, /* beyond level 8: clamped to 63·8^8 */
		{ 1ULL << 40, 0, 100, 63ULL << 21 },  /* HZ 100: 8 levels, to 63·8^7 */
	};
	int bad = 0;

	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		u64 got = linux_bucket_expiry(t[i].expires, t[i].clk, t[i].hz);

		if (got != t[i].want) {
			fprintf(stderr, "  expires %llu clk %llu hz %u: %llu, want %llu\n",
				(unsigned long long)t[i].expires, (unsigned long long)t[i].clk,
				t[i].hz, (unsigned long long)got, (unsigned long long)t[i].want);
			bad = 1;
		}
	}
	return verdict("wheel: Linux's buckets at worked points", bad);
}

/* Every x at the bounds of d (0, 1, d - 1, d, d + 1, multiples, 2^64 - 1) against x / d. */
static int udiv_bounds(u64 d)
{
	u64 xs[] = { 0,
		     1,
		     d - 1,
		     d,
		     d + 1,
		     2 * d - 1,
		     2 * d,
		     1000 * d + 999,
		     UINT64_MAX,
		     UINT64_MAX - 1,
		     UINT64_MAX / d * d,
		     UINT64_MAX - d };
	struct udiv v;
	int bad = 0;

	udiv_set(&v, d);
	for (size_t j = 0; j < sizeof(xs) / sizeof(xs[0]); j++)
		bad |= udiv_q(&v, xs[j]) != xs[j] / d;
	return bad;
}

/*
 * The replay's division by a multiply against the CPU's own divide: the
 * bounds of x for the jiffy's period at every HZ from 1 to 10000 and for
 * d around each power of two (1 to 2^64 - 1), then a million random pairs
 * of random magnitudes.
 */
static int test_udiv(void)
{
	int bad = 0;

	for (u64 hz = 1; hz <= 10000; hz++)
		bad |= udiv_bounds((1000000000ULL + hz / 2) / hz);
	for (int k = 0; k < 64; k++)
		bad |= udiv_bounds(1ULL << k) | udiv_bounds((1ULL << k) + 1) |
		       udiv_bounds((1ULL << k) - 1 + (k == 0));
	bad |= udiv_bounds(UINT64_MAX);
	for (int i = 0; i < 1000000; i++) {
		u64 d = next() >> (next() % 64), x = next() >> (next() % 64);
		struct udiv v;

		if (!d)
			d = 1;
		udiv_set(&v, d);
		bad |= udiv_q(&v, x) != x / d;
	}
	return verdict("udiv: x / d by a multiply, exactly", bad);
}

int main(void)
{
	int bad = test_map();

	bad |= test_hist();
	bad |= test_wheel();
	bad |= test_udiv();
	return bad;
}
