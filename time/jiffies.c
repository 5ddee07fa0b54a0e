// SPDX-License-Identifier: MIT
/*
 * Jiffies and the conversion constants of this boot.
 */
#include <dynhz/jiffies.h>
#include <dynhz/errno.h>
#include <dynhz/printk.h>
#include "hz-internal.h"

volatile unsigned long jiffies;
volatile u64 jiffies_64;

#ifndef CONFIG_HZ
/*
 * Two blocks alternate: a new generation is built in the one not in force,
 * then published with one pointer store. A reader would have to be held
 * off across two whole changes (each waits for a tick) to see a block
 * rebuilt under it.
 */
static struct dz_timeconst tc_block[2];
struct dz_timeconst *dz_tc_cur = &tc_block[0];

struct dz_timeconst *dz_timeconst_next(void)
{
	return dz_tc_cur == &tc_block[0] ? &tc_block[1] : &tc_block[0];
}

void dz_timeconst_publish(struct dz_timeconst *tc)
{
	/* One store, after the block is complete. */
	__asm__ volatile("" ::: "memory");
	*(struct dz_timeconst *volatile *)&dz_tc_cur = tc;
}
#endif

u64 get_jiffies_64(void)
{
#if BITS_PER_LONG == 64
	return jiffies_64;
#else
	/* Two 32-bit loads: re-read until the tick did not land in between. */
	u64 a, b;

	do {
		a = jiffies_64;
		b = jiffies_64;
	} while (a != b);
	return a;
#endif
}

int dz_timeconst_build(struct dz_timeconst *tc, struct dz_tick_period p)
{
	const struct dz_rate jiffy = { p.den, p.num }; /* jiffies per second */
	const struct dz_rate ms = { MSEC_PER_SEC, 1 }, us = { USEC_PER_SEC, 1 };
	const struct dz_rate ns = { NSEC_PER_SEC, 1 }, user = { USER_HZ, 1 };
	int err = 0;

	/*
	 * The shape is fixed (jiffies.h); the proof of conv.h says how far it
	 * is exact for this period. A conversion without a range check must
	 * be exact up to its whole range (beyond it, where the result no
	 * longer fits, it may only wrap).
	 */
#define BUILD(name, from, to, round, in_max, out_max)                                         \
	do {                                                                                  \
		err = err ?: dz_conv_prepare(&tc->name, from, to, round, in_max, out_max);    \
		if (!err &&                                                                   \
		    dz_conv_shape(&tc->name, DZ_SHAPE_##name, DZ_K_##name, DZ_SHIFT_##name) < \
			    tc->name.max_in &&                                                \
		    !DZ_CHECK_##name)                                                         \
			err = -DZ_ERANGE;                                                     \
	} while (0)

	/* msecs and clock_t beyond INT_MAX and LONG_MAX: forever, as Linux */
	BUILD(ms_to_j, ms, jiffy, DZ_ROUND_UP, INT_MAX, MAX_JIFFY_OFFSET);
	BUILD(us_to_j, us, jiffy, DZ_ROUND_UP, U32_MAX, MAX_JIFFY_OFFSET);
	BUILD(ns_to_j, ns, jiffy, DZ_ROUND_UP, U64_MAX, MAX_JIFFY_OFFSET);
	BUILD(j_to_ms, jiffy, ms, DZ_ROUND_UP, ULONG_MAX, U32_MAX);
	BUILD(j_to_us, jiffy, us, DZ_ROUND_UP, ULONG_MAX, U32_MAX);
	BUILD(j_to_ns, jiffy, ns, DZ_ROUND_DOWN, ULONG_MAX, U64_MAX);
	BUILD(j64_to_ns, jiffy, ns, DZ_ROUND_DOWN, U64_MAX, U64_MAX);
	BUILD(j_to_clock, jiffy, user, DZ_ROUND_DOWN, ULONG_MAX, ULONG_MAX);
	BUILD(clock_to_j, user, jiffy, DZ_ROUND_UP, LONG_MAX, MAX_JIFFY_OFFSET);
#undef BUILD
	return err;
}

#ifdef DYNHZ_DEBUG
void dz_conv_verify(const struct dz_conv *cv, const char *name, u64 x, u64 y, bool checked)
{
	u64 exact;

	if (!cv->q)
		dz_panic("%s(%llu) before hz setup", name, (unsigned long long)x);
	if (!checked && x > cv->max_in)
		return;
	exact = dz_conv_exact(cv, x);
	if (exact != y)
		dz_panic("%s(%llu) = %llu, exact %llu (HZ %u)", name, (unsigned long long)x,
			 (unsigned long long)y, (unsigned long long)exact, dz_hz_value);
}
#endif

unsigned long dz_timespec64_to_jiffies_slow(s64 sec, long nsec)
{
	const s64 billion = (s64)NSEC_PER_SEC;
	u64 hi, lo;

	/* Carry whole seconds out of tv_nsec (floor division); carry * billion
	 * could overflow for tv_nsec near LONG_MIN, the remainder cannot. */
	s64 carry = nsec / billion - (nsec % billion < 0);

	nsec = (long)(nsec % billion);
	if (nsec < 0)
		nsec += (long)billion;
	if (__builtin_add_overflow(sec, carry, &sec))
		return carry < 0 ? 0 : MAX_JIFFY_OFFSET;
	if (sec < 0)
		return 0;
	lo = dz_mul64((u64)sec, NSEC_PER_SEC, &hi);
	hi += __builtin_add_overflow(lo, (u64)nsec, &lo);
	return (unsigned long)dz_conv_exact128(&DZ_TC.ns_to_j, hi, lo);
}
