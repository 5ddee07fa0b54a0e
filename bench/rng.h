/* SPDX-License-Identifier: MIT */
/*
 * The benchmarks' random numbers: splitmix64 from a fixed seed, so every
 * implementation measured sees the same inputs in the same order.
 */
#ifndef DYNHZ_BENCH_RNG_H
#define DYNHZ_BENCH_RNG_H

#include <dynhz/types.h>

static u64 rng_state;

static inline void rng_seed(u64 s)
{
	rng_state = s;
}

static inline u64 rng_next(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in 0..max. */
static inline u64 rng_upto(u64 max)
{
	if (max == U64_MAX)
		return rng_next();
	return (u64)(((unsigned __int128)rng_next() * (max + 1)) >> 64);
}

#endif
