/* SPDX-License-Identifier: MIT */
/*
 * 64x64->128 multiplication for the conversion hot path.
 *
 * gcc and clang on 64-bit targets have unsigned __int128 and turn a
 * widening multiply into one instruction; on i386 there is no 128-bit type
 * at all, so there the product is written out in 32-bit halves. Both paths
 * are tested on the host (the unit tests run as 64-bit and as 32-bit
 * programs). Only dz_ names: this header is part of what a kernel that
 * embeds the generator includes.
 */
#ifndef DYNHZ_WIDE_H
#define DYNHZ_WIDE_H

#include <dynhz/dztypes.h>

#if defined(__SIZEOF_INT128__) && !defined(DYNHZ_NO_INT128)
#define DZ_HAVE_INT128 1
typedef unsigned __int128 dz_u128_native;
#endif

/* Returns the low 64 bits of a * b and stores the high 64 bits in *hi. */
static inline dz_u64 dz_mul64(dz_u64 a, dz_u64 b, dz_u64 *hi)
{
#ifdef DZ_HAVE_INT128
	dz_u128_native p = (dz_u128_native)a * b;

	*hi = (dz_u64)(p >> 64);
	return (dz_u64)p;
#else
	dz_u64 al = (dz_u32)a, ah = a >> 32, bl = (dz_u32)b, bh = b >> 32;
	dz_u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	/* Cannot overflow: each term is below 2^32. */
	dz_u64 mid = (ll >> 32) + (dz_u32)lh + (dz_u32)hl;

	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return (mid << 32) | (dz_u32)ll;
#endif
}

#endif
