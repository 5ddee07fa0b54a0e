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

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#define U32_MAX ((u32)~0U)
#define U64_MAX ((u64)~0ULL)
#define S64_MAX ((s64)(U64_MAX >> 1))

/* Bits in an unsigned long: 32 in the i386 kernel, 64 on an LP64 host. */
#define BITS_PER_LONG (__SIZEOF_LONG__ * 8)

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
