/* SPDX-License-Identifier: MIT */
/*
 * ktime_t: a time or an interval in nanoseconds, signed 64 bits, as in
 * Linux (292 years either way). Arithmetic that could overflow saturates
 * at KTIME_MAX (ktime_add_safe), so "never" stays never.
 */
#ifndef DYNHZ_KTIME_H
#define DYNHZ_KTIME_H

#include <dynhz/types.h>
#include <dynhz/time64.h>

typedef s64 ktime_t;

#define KTIME_MAX ((ktime_t)S64_MAX)
#define KTIME_MIN ((ktime_t)(-S64_MAX - 1))

static inline ktime_t ns_to_ktime(u64 ns)
{
	return ns > (u64)KTIME_MAX ? KTIME_MAX : (ktime_t)ns;
}

static inline s64 ktime_to_ns(ktime_t kt)
{
	return kt;
}

static inline ktime_t ktime_set(s64 secs, unsigned long nsecs)
{
	if (secs >= KTIME_MAX / (s64)NSEC_PER_SEC)
		return KTIME_MAX;
	return secs * (s64)NSEC_PER_SEC + (s64)nsecs;
}

/* a + b, saturating at KTIME_MAX and KTIME_MIN instead of wrapping. */
static inline ktime_t ktime_add_safe(ktime_t a, ktime_t b)
{
	ktime_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? KTIME_MAX : KTIME_MIN;
	return r;
}

/* a - b, saturating likewise. */
static inline ktime_t ktime_sub_safe(ktime_t a, ktime_t b)
{
	ktime_t r;

	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? KTIME_MAX : KTIME_MIN;
	return r;
}

#define ktime_add(a, b)	    ((a) + (b))
#define ktime_sub(a, b)	    ((a) - (b))
#define ktime_add_ns(a, ns) ((a) + (ktime_t)(ns))
#define ktime_sub_ns(a, ns) ((a) - (ktime_t)(ns))

static inline int ktime_compare(ktime_t a, ktime_t b)
{
	return a < b ? -1 : a > b;
}

static inline bool ktime_after(ktime_t a, ktime_t b)
{
	return a > b;
}

static inline bool ktime_before(ktime_t a, ktime_t b)
{
	return a < b;
}

#endif
