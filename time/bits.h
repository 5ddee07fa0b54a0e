/* SPDX-License-Identifier: MIT */
/*
 * Bit helpers of the two wheels (time/timer.c, time/hrtimer.c): a level's
 * 64 slots are one u64 bitmap, scanned from a starting slot by rotating it.
 */
#ifndef DYNHZ_TIME_BITS_H
#define DYNHZ_TIME_BITS_H

#include <dynhz/types.h>

static inline u64 slot_bit(unsigned int s)
{
	return 1ULL << s;
}

/* Trailing zeros of x != 0; on i386 without libgcc's 64-bit helper. */
static inline unsigned int ctz64(u64 x)
{
#if BITS_PER_LONG == 32
	u32 lo = (u32)x;

	return lo ? (unsigned int)__builtin_ctz(lo)
		  : 32 + (unsigned int)__builtin_ctz((u32)(x >> 32));
#else
	return (unsigned int)__builtin_ctzll(x);
#endif
}

/* The highest set bit of x != 0. */
static inline unsigned int msb64(u64 x)
{
#if BITS_PER_LONG == 32
	u32 hi = (u32)(x >> 32);

	return hi ? 63 - (unsigned int)__builtin_clz(hi) : 31 - (unsigned int)__builtin_clz((u32)x);
#else
	return 63 - (unsigned int)__builtin_clzll(x);
#endif
}

/* x rotated right by n (0..63): slot n comes first. */
static inline u64 ror64(u64 x, unsigned int n)
{
	return (x >> n) | (x << ((64 - n) & 63));
}

#endif
