/* SPDX-License-Identifier: MIT */
/*
 * The kernel helpers that hz.c's generator and kernel/time/hz-conv.h use,
 * for user space: written from what Linux documents each one to return
 * (include/linux/math64.h, gcd.h, bitops.h, jiffies.h, limits.h),
 * not from its code. Portable C on 64-bit halves, so that the same shim
 * serves the 32-bit build (no __int128 there). Where Linux leaves a result
 * undefined (mul_u64_u64_div_u64() past 64 bits, a divide by zero) the shim
 * stops the test: the generator must never go there.
 */
#ifndef LINUX_TIMECONST_SHIM_H
#define LINUX_TIMECONST_SHIM_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

#define BITS_PER_LONG (__SIZEOF_LONG__ * 8)
/* include/linux/time64.h and vdso/time64.h: long constants */
#define MSEC_PER_SEC 1000L
#define USEC_PER_SEC 1000000L
#define NSEC_PER_SEC 1000000000L
/* asm-generic/param.h; include/linux/jiffies.h */
#define USER_HZ		 100
#define MAX_JIFFY_OFFSET ((LONG_MAX >> 1) - 1)
/* include/linux/limits.h */
#define U64_MAX UINT64_MAX

#define min(a, b)      ((a) < (b) ? (a) : (b))
#define max(a, b)      ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) min((t)(a), (t)(b))

static inline void shim_undefined(const char *what)
{
	fprintf(stderr, "shim: %s: undefined in Linux\n", what);
	abort();
}

/* the greatest common divisor; gcd(a, 0) is a */
static inline unsigned long gcd(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	if (!divisor)
		shim_undefined("div64_u64 by 0");
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return div64_u64(dividend, divisor);
}

/* the highest bit set, counted from 1; 0 for 0 */
static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/* a * b whole, as 128 bits: *hi and the returned low half */
static inline u64 shim_mul128(u64 a, u64 b, u64 *hi)
{
	u64 al = (u32)a, ah = a >> 32, bl = (u32)b, bh = b >> 32;
	u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	u64 mid = (ll >> 32) + (u32)lh + (u32)hl;

	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return (mid << 32) | (u32)ll;
}

/* the low 64 bits of (a * b) >> shift, the product taken whole */
static inline u64 mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	u64 hi, lo = shim_mul128(a, b, &hi);

	if (shift >= 128)
		return 0;
	if (shift >= 64)
		return hi >> (shift - 64);
	if (!shift)
		return lo;
	return (hi << (64 - shift)) | (lo >> shift);
}

/* (a * b) / c, the product taken whole; the quotient must fit 64 bits */
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	u64 hi, lo = shim_mul128(a, b, &hi), rem = 0, q = 0;
	int i;

	if (!c || hi >= c)
		shim_undefined("mul_u64_u64_div_u64 past 64 bits or by 0");
	/* long division, a bit at a time: rem < c throughout */
	rem = hi;
	for (i = 63; i >= 0; i--) {
		bool carry = rem >> 63;

		rem = (rem << 1) | ((lo >> i) & 1);
		q <<= 1;
		if (carry || rem >= c) {
			rem -= c;
			q |= 1;
		}
	}
	return q;
}

#endif /* LINUX_TIMECONST_SHIM_H */
