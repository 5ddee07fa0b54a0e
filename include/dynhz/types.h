/* SPDX-License-Identifier: MIT */
/*
 * Fixed-width types for the freestanding core. Only the compiler's own
 * freestanding headers are used: no libc.
 */
#ifndef DYNHZ_TYPES_H
#define DYNHZ_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <limits.h>
#include <dynhz/dztypes.h>

/* The same types as dztypes.h's (uint64_t is __UINT64_TYPE__ too), short. */
typedef dz_u8 u8;
typedef dz_u16 u16;
typedef dz_u32 u32;
typedef dz_u64 u64;
typedef dz_s32 s32;
typedef dz_s64 s64;

#define U32_MAX DZ_U32_MAX
#define U64_MAX DZ_U64_MAX
#define S64_MAX ((s64)(U64_MAX >> 1))

/* Bits in an unsigned long: 32 in the i386 kernel, 64 on an LP64 host. */
#define BITS_PER_LONG (__SIZEOF_LONG__ * 8)

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
