/* SPDX-License-Identifier: MIT */
/*
 * 64x64->128 multiplication for the conversion hot path.
 *
 * gcc on x86-64 has unsigned __int128 and turns a widening multiply into
 * one MUL instruction; gcc on i386 has no 128-bit type at all, so there the
 * product is written out in 32-bit halves. Both paths are tested on the host
 * (the unit tests run as 64-bit and as 32-bit programs).
 */
#ifndef DYNHZ_WIDE_H
#define DYNHZ_WIDE_H

#include <dynhz/types.h>

#if defined(__SIZEOF_INT128__) && !defined(DYNHZ_NO_INT128)
#define DZ_HAVE_INT128 1
typedef unsigned __int128 dz_u128_native;
#endif

/* Returns the low 64 bits of a * b and stores the high 64 bits in *hi. */
static inline u64 dz_mul64(u64 a, u64 b, u64 *hi)
{
#ifdef DZ_HAVE_INT128
	dz_u128_native p = (dz_u128_native)a * b;

	*hi = (u64)(p >> 64);
	return (u64)p;
#else
	u64 al = (u32)a, ah = a >> 32, bl = (u32)b, bh = b >> 32;
	u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	/* Cannot overflow: each term is below 2^32. */
	u64 mid = (ll >> 32) + (u32)lh + (u32)hl;

	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return (mid << 32) | (u32)ll;
#endif
}

#endif
