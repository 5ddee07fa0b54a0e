/* SPDX-License-Identifier: MIT */
/*
 * The tests' own exact arithmetic, written independently of the core's
 * generator: results are what the rational expression really is, rounded
 * as asked, saturated at a maximum. On 64-bit hosts it uses gcc's
 * unsigned __int128; everywhere it also has a schoolbook version on 32-bit
 * limbs, so the 32-bit builds have an exact reference too (and the 64-bit
 * build checks the two against each other).
 */
#ifndef DYNHZ_TEST_REF_H
#define DYNHZ_TEST_REF_H

#include <stdint.h>
#include <dynhz/hz.h>

enum ref_round { REF_DOWN, REF_UP, REF_NEAR };

/* round(x * p / q), or sat if that exceeds sat. q != 0. */
uint64_t ref_muldiv(uint64_t x, uint64_t p, uint64_t q, enum ref_round r, uint64_t sat);

/* The same for a 128-bit x = x_hi * 2^64 + x_lo, on limbs only. */
uint64_t ref_muldiv128(uint64_t x_hi, uint64_t x_lo, uint64_t p, uint64_t q, enum ref_round r,
		       uint64_t sat);

/* The limb version alone (exported so the tests can cross-check it). */
uint64_t ref_muldiv_limbs(uint64_t x, uint64_t p, uint64_t q, enum ref_round r, uint64_t sat);

/*
 * The conversions of include/dynhz/jiffies.h, from first principles: a jiffy
 * is period.num / period.den seconds. As Linux, msecs beyond INT_MAX and
 * USER_HZ ticks beyond LONG_MAX are forever (MAX_JIFFY_OFFSET).
 */
uint64_t ref_ms_to_j(uint64_t ms, struct dz_tick_period t);
uint64_t ref_us_to_j(uint64_t us, struct dz_tick_period t);
uint64_t ref_ns_to_j(uint64_t ns, struct dz_tick_period t);
uint64_t ref_j_to_ms(uint64_t j, struct dz_tick_period t);
uint64_t ref_j_to_us(uint64_t j, struct dz_tick_period t);
uint64_t ref_j_to_ns(uint64_t j, struct dz_tick_period t);
uint64_t ref_j_to_clock(uint64_t j, struct dz_tick_period t, unsigned int user_hz);
uint64_t ref_clock_to_j(uint64_t c, struct dz_tick_period t, unsigned int user_hz);
uint64_t ref_ts_to_j(int64_t sec, long nsec, struct dz_tick_period t);

/* The largest jiffies offset a conversion may return on this word size. */
#define REF_MAX_JIFFY_OFFSET ((uint64_t)((LONG_MAX >> 1) - 1))

/*
 * The 8254 PIT as the datasheet gives it: a 1193182 Hz input clock divided
 * by the nearest 16-bit divisor, so a jiffy lasts divisor / 1193182 s.
 */
#define REF_PIT_HZ 1193182U
static inline unsigned int ref_pit_divisor(unsigned int hz)
{
	return (REF_PIT_HZ + hz / 2) / hz;
}

static inline struct dz_tick_period ref_pit_period(unsigned int hz)
{
	struct dz_tick_period p = { ref_pit_divisor(hz), REF_PIT_HZ };

	return p;
}

/* A small deterministic generator (xorshift64*), so failures reproduce. */
uint64_t ref_rand(uint64_t *state);

#endif
