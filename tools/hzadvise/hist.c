// SPDX-License-Identifier: MIT
/*
 * Log-linear histograms: values below 2^HIST_SUB_BITS have a bucket each;
 * above, each power of two is cut into 2^(HIST_SUB_BITS-1) equal buckets,
 * so a bucket is at most 0.4 % of its value wide. Memory is fixed (a few
 * hundred kB), whatever the number of samples: a replay streams.
 */
#include <stdlib.h>
#include <string.h>

#include "hzadvise.h"

#define SUB  (1U << HIST_SUB_BITS)
#define HALF (SUB / 2)

static unsigned int msb(u64 v)
{
	return 63U - (unsigned int)__builtin_clzll(v);
}

static unsigned int bucket_of(u64 v)
{
	unsigned int shift;

	if (v < SUB)
		return (unsigned int)v;
	shift = msb(v) - (HIST_SUB_BITS - 1);
	/* v >> shift is in [HALF, SUB): the top bits */
	return shift * HALF + (unsigned int)(v >> shift);
}

u64 hist_bucket_low(unsigned int i)
{
	unsigned int shift;

	if (i < SUB)
		return i;
	shift = (i - HALF) / HALF;
	return (u64)(HALF + (i - HALF) % HALF) << shift;
}

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
	h->count = calloc(HIST_BUCKETS, sizeof(u64));
	if (!h->count)
		abort();
}

void hist_free(struct hist *h)
{
	free(h->count);
	h->count = NULL;
}

void hist_add(struct hist *h, u64 v, u64 times)
{
	if (!times)
		return;
	h->count[bucket_of(v)] += times;
	h->n += times;
	h->sum += v * times;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned int i = 0; i < HIST_BUCKETS; i++)
		dst->count[i] += src->count[i];
	dst->n += src->n;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

/*
 * The bucket's low end, but never outside what was seen: the extremes are
 * kept exactly, so p100 is the max and a single value reads back as itself.
 */
u64 hist_quantile(const struct hist *h, double q)
{
	u64 want, seen = 0;

	if (!h->n)
		return 0;
	want = (u64)(q * (double)h->n + 0.999999);
	if (want < 1)
		want = 1;
	if (want >= h->n)
		return h->max;
	for (unsigned int i = 0; i < HIST_BUCKETS; i++) {
		seen += h->count[i];
		if (seen >= want) {
			u64 v = hist_bucket_low(i);

			return v < h->min ? h->min : v > h->max ? h->max : v;
		}
	}
	return h->max;
}
