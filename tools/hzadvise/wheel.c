// SPDX-License-Identifier: MIT
/*
 * Linux's timer wheel (since 4.8) is not exact: a timer is filed in a
 * bucket whose width grows with how far ahead it is due, and runs when
 * the bucket's jiffy comes. Level n (n = 0, 1, ...) takes the timers due
 * less than 63·8^n jiffies after the wheel's clock, in buckets of 8^n
 * jiffies; there are 9 levels above HZ=100 and 8 at or below it, and a
 * timer further ahead than the last level reaches is clamped to it. The
 * bucket's jiffy is the expiry rounded down to the level's granularity,
 * plus one granule, so that no timer runs early: at level 0 that is one
 * jiffy after its expiry. This is the rounding the kernel reports as
 * timer_start's bucket_expiry=, and the source pass checks it against it.
 */
#include "hzadvise.h"

#define LVL_CLK_SHIFT 3
#define LVL_BITS      6
#define LVL_SIZE      (1ULL << LVL_BITS)

static unsigned int shift_of(unsigned int lvl)
{
	return lvl * LVL_CLK_SHIFT;
}

/* The smallest delta that level lvl >= 1 holds. */
static u64 lvl_start(unsigned int lvl)
{
	return (LVL_SIZE - 1) << shift_of(lvl - 1);
}

u64 linux_bucket_expiry(u64 expires, u64 clk, unsigned int hz)
{
	unsigned int depth = hz > 100 ? 9 : 8, lvl;
	u64 delta = expires - clk;

	/* Already due: Linux files it at the wheel's clock itself. */
	if ((s64)delta < 0)
		return clk;
	for (lvl = 0; lvl + 1 < depth && delta >= lvl_start(lvl + 1); lvl++)
		;
	if (delta >= lvl_start(depth)) {
		/* Beyond the last level: as far as it reaches. */
		lvl = depth - 1;
		expires = clk + lvl_start(depth) - (1ULL << shift_of(lvl));
	}
	return ((expires >> shift_of(lvl)) + 1) << shift_of(lvl);
}
