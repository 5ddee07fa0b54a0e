/* SPDX-License-Identifier: MIT */
/*
 * The fixed-width types of dynhz's public headers, from the compiler's own
 * predefined macros: no header at all is included, so the generator
 * (conv.h, time/conv.c) builds inside any kernel, -nostdinc and all, and
 * defines no name outside the dz_ prefix in the code that includes it.
 */
#ifndef DYNHZ_DZTYPES_H
#define DYNHZ_DZTYPES_H

typedef __UINT8_TYPE__ dz_u8;
typedef __UINT16_TYPE__ dz_u16;
typedef __UINT32_TYPE__ dz_u32;
typedef __UINT64_TYPE__ dz_u64;
typedef __INT32_TYPE__ dz_s32;
typedef __INT64_TYPE__ dz_s64;

#define DZ_U32_MAX ((dz_u32) ~(dz_u32)0)
#define DZ_U64_MAX ((dz_u64) ~(dz_u64)0)

#endif
