// SPDX-License-Identifier: MIT
/*
 * Log-linear histograms: values below 2^bits have a bucket each; above,
 * each power of two is cut into 2^(bits-1) equal buckets, so a bucket is
 * at most 2^(2-bits) of its value wide (0.4 % at bits 9, 12.5 % at 5).
 * Memory is fixed whatever the number of samples: a replay streams.
 */
#include <stdlib.h>
#include <string.h>

#include "hzadvise.h"

static unsigned int msb(u64 v)
{
	return 63U - (unsigned int)__builtin_clzll(v);
}

static unsigned int bucket_of(u64 v, unsigned int bits)
{
	unsigned int shift, half = 1U << (bits - 1);

	if (v < (1ULL << bits))
		return (unsigned int)v;
	shift = msb(v) - (bits - 1);
	/* v >> shift is in [half, 2·half): the top bits */
	return shift * half + (unsigned int)(v >> shift);
}

u64 hist_bucket_low_bits(unsigned int i, unsigned int bits)
{
	unsigned int shift, half = 1U << (bits - 1);

	if (i < (1U << bits))
		return i;
	shift = (i - half) / half;
	return (u64)(half + (i - half) % half) << shift;
}

u64 hist_bucket_low(unsigned int i)
{
	return hist_bucket_low_bits(i, HIST_SUB_BITS);
}

unsigned int hist_buckets(const struct hist *h)
{
	return (64 - h->bits + 1) << (h->bits - 1);
}

void hist_init_bits(struct hist *h, unsigned int bits)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
	h->bits = bits;
	h->count = calloc(hist_buckets(h), sizeof(u64));
	if (!h->count)
		abort();
}

void hist_init(struct hist *h)
{
	hist_init_bits(h, HIST_SUB_BITS);
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
	h->count[bucket_of(v, h->bits)] += times;
	h->n += times;
	h->sum += v * times;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* Of the same bits only. */
void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned int n = hist_buckets(dst);

	if (!src->n)
		return;
	for (unsigned int i = 0; i < n; i++)
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
 * kept exactly, so the last is the max and a single value reads back as
 * itself.
 */
u64 hist_kth(const struct hist *h, u64 want)
{
	unsigned int n = hist_buckets(h);
	u64 seen = 0;

	if (!h->n)
		return 0;
	if (want < 1)
		want = 1;
	if (want >= h->n)
		return h->max;
	for (unsigned int i = 0; i < n; i++) {
		seen += h->count[i];
		if (seen >= want) {
			u64 v = hist_bucket_low_bits(i, h->bits);

			return v < h->min ? h->min : v > h->max ? h->max : v;
		}
	}
	return h->max;
}

u64 hist_quantile(const struct hist *h, double q)
{
	if (!h->n)
		return 0;
	return hist_kth(h, (u64)(q * (double)h->n + 0.999999));
}
