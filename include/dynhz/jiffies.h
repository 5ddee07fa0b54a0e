/* SPDX-License-Identifier: MIT */
/*
 * Jiffies and every conversion between jiffies and time units.
 *
 * A jiffy is one tick of the clock-event device, and its length is what the
 * device really does (on the PIT at hz=1000: 1193/1193182 s, not 1 ms). All
 * conversions use that exact length, with the rounding the Linux API
 * promises: a timeout is never short, a statistic never over-counts.
 *
 *	conversion			rounding	above range
 *	msecs/usecs/nsecs_to_jiffies	up		MAX_JIFFY_OFFSET
 *	timespec64_to_jiffies		up		MAX_JIFFY_OFFSET
 *	jiffies_to_msecs/usecs		up		UINT_MAX
 *	jiffies_to_nsecs, jiffies64_	down		U64_MAX
 *	jiffies_to_clock_t		down		ULONG_MAX
 *	clock_t_to_jiffies,
 *	user_to_kernel_hz		up		MAX_JIFFY_OFFSET
 */
#ifndef DYNHZ_JIFFIES_H
#define DYNHZ_JIFFIES_H

#include <dynhz/types.h>
#include <dynhz/hz.h>
#include <dynhz/conv.h>
#include <dynhz/time64.h>

extern volatile unsigned long jiffies;
extern volatile u64 jiffies_64;
u64 get_jiffies_64(void);

/*
 * jiffies starts five minutes before its 32-bit wrap, so code that compares
 * jiffies without time_after() breaks in the first minutes, not after 49 days.
 */
#define INITIAL_JIFFIES ((unsigned long)(0UL - 300UL * HZ))

#define MAX_JIFFY_OFFSET ((unsigned long)((LONG_MAX >> 1) - 1))

#define dz_is_ulong(x) __builtin_types_compatible_p(__typeof__(x), unsigned long)

/* a is after b, counting across the wrap; both must be unsigned long. */
#define time_after(a, b)                                                                     \
	({                                                                                   \
		_Static_assert(dz_is_ulong(a) && dz_is_ulong(b), "time_after: not jiffies"); \
		(long)((b) - (a)) < 0;                                                       \
	})
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b)                                                                     \
	({                                                                                      \
		_Static_assert(dz_is_ulong(a) && dz_is_ulong(b), "time_after_eq: not jiffies"); \
		(long)((a) - (b)) >= 0;                                                         \
	})
#define time_before_eq(a, b)	  time_after_eq(b, a)
#define time_in_range(a, b, c)	  (time_after_eq(a, b) && time_before_eq(a, c))
#define time_is_before_jiffies(a) time_after((unsigned long)jiffies, a)
#define time_is_after_jiffies(a)  time_before((unsigned long)jiffies, a)

/*
 * A count of USER_HZ ticks: the unit of everything that crosses to user
 * space and of every tick-valued boot parameter. A struct, so that handing
 * one to code that expects jiffies (or the reverse) does not compile.
 */
typedef struct {
	unsigned long ticks;
} dz_uclock_t;

#define DZ_UCLOCK(n) ((dz_uclock_t){ .ticks = (n) })
static inline unsigned long dz_uclock_ticks(dz_uclock_t t)
{
	return t.ticks;
}

/* The conversion constants of this boot (see conv.h). */
struct dz_timeconst {
	struct dz_conv ms_to_j, us_to_j, ns_to_j;
	struct dz_conv j_to_ms, j_to_us, j_to_ns, j64_to_ns;
	struct dz_conv j_to_clock, clock_to_j;
};

/*
 * Fills tc for a jiffy of p.num/p.den seconds. Every conversion is exact
 * for every period; 0, or -DZ_ERANGE when a conversion below that has no
 * range check (DZ_CHECK_* 0) cannot cover its whole input range with the
 * fixed shape for this period: every jiffy rate from 1 Hz to 1 GHz with a
 * period denominator up to 2^32 is served (the tests check the corners);
 * beyond, a large denominator may not be, and hz setup then takes the
 * nearest period whose denominator is under 2^32 (time/hz.c).
 */
int dz_timeconst_build(struct dz_timeconst *tc, struct dz_tick_period p);

#ifdef CONFIG_HZ
#include <dynhz/timeconst.h> /* generated: dz_tc_fixed for CONFIG_HZ */
#define DZ_TC dz_tc_fixed
#else
/*
 * The constants in force, one generation: HZ changed at runtime
 * (dz_hz_retune()) builds the next generation in the other block and
 * switches this pointer with one store. A conversion reads the pointer
 * once and keeps it (the empty asm hides where the value came from, so the
 * compiler cannot load it again half-way): a reader interrupted by a change
 * finishes with the constants it began with. It may still hoist the load
 * and the constants out of a loop, as it could with a plain variable.
 */
extern struct dz_timeconst *dz_tc_cur;

static inline struct dz_timeconst *dz_tc_get(void)
{
	struct dz_timeconst *tc = dz_tc_cur;

	__asm__("" : "+r"(tc));
	return tc;
}
#define DZ_TC (*dz_tc_get())
#endif

/*
 * Each conversion's shape, fixed at compile time so that the variable and
 * the constant build run the same instructions (see conv.h): narrow with
 * its input shift k, or wide; and the output shift t. The bounds of conv.h
 * decide them, for every jiffy rate from 9 to 20000 Hz (HZ 19..10000 on
 * any input clock from 1 kHz: a rounded divisor keeps the rate within
 * HZ/2..3HZ/2) with a period denominator up to 2^32 (any clock up to
 * 2^32 Hz), and USER_HZ 32..1200:
 *  - narrow, rounding (t = 0): m fits when 2^k exceeds the largest ratio
 *    (ms->j 20000/1000, j->ms 1000/9, j->us 10^6/9, clock->j 20000/32);
 *    its precision then covers every input on the PIT and at 1 GHz, and
 *    the range check sends the rest to the exact slow path;
 *  - wide, where no check may be paid (results that can never saturate,
 *    so a check would only be there for precision): t large enough that
 *    x em < (2^t - ea) 2^64 for every x and q, small enough that m fits
 *    (us->j: q < 10^6 2^32/9 < 2^49; ns->j: q < 2^59; j->clock: q <= 2^32;
 *    the tests check each, and time/jiffies.c refuses a period outside).
 */
#define DZ_SHAPE_ms_to_j    DZ_SHAPE_NARROW
#define DZ_K_ms_to_j	    5
#define DZ_SHIFT_ms_to_j    0
#define DZ_SHAPE_us_to_j    DZ_SHAPE_WIDE
#define DZ_K_us_to_j	    0
#define DZ_SHIFT_us_to_j    53
#define DZ_SHAPE_ns_to_j    DZ_SHAPE_WIDE
#define DZ_K_ns_to_j	    0
#define DZ_SHIFT_ns_to_j    63
#define DZ_SHAPE_j_to_ms    DZ_SHAPE_NARROW
#define DZ_K_j_to_ms	    7
#define DZ_SHIFT_j_to_ms    0
#define DZ_SHAPE_j_to_us    DZ_SHAPE_NARROW
#define DZ_K_j_to_us	    17
#define DZ_SHIFT_j_to_us    0
#define DZ_SHAPE_j_to_ns    DZ_SHAPE_WIDE
#define DZ_K_j_to_ns	    0
#define DZ_SHIFT_j_to_ns    35
#define DZ_SHAPE_j64_to_ns  DZ_SHAPE_WIDE
#define DZ_K_j64_to_ns	    0
#define DZ_SHIFT_j64_to_ns  35
#define DZ_SHAPE_j_to_clock DZ_SHAPE_WIDE
#define DZ_K_j_to_clock	    0
#define DZ_SHIFT_j_to_clock 40
#define DZ_SHAPE_clock_to_j DZ_SHAPE_NARROW
#define DZ_K_clock_to_j	    10
#define DZ_SHIFT_clock_to_j 0

/*
 * A range check only where it is live at every HZ, so that a constant HZ
 * cannot drop it: msecs and clock_t beyond LONG_MAX/INT_MAX are "forever"
 * (MAX_JIFFY_OFFSET, as Linux's msecs_to_jiffies), results that saturate
 * at every HZ (jiffies to ms, us and ns), and on 32 bits the ones that
 * saturate there. jiffies_to_clock_t on 64 bits has none: its result
 * exceeds 2^64 only beyond 2^57 jiffies, and there it wraps, as Linux's.
 */
#define DZ_CHECK_ms_to_j    1
#define DZ_CHECK_us_to_j    0
#define DZ_CHECK_ns_to_j    (BITS_PER_LONG == 32)
#define DZ_CHECK_j_to_ms    1
#define DZ_CHECK_j_to_us    1
#define DZ_CHECK_j_to_ns    (BITS_PER_LONG == 64)
#define DZ_CHECK_j64_to_ns  1
#define DZ_CHECK_j_to_clock (BITS_PER_LONG == 32)
#define DZ_CHECK_clock_to_j 1

/* Conversions that round down have no offset to add. */
#define DZ_ADD_ms_to_j	  1
#define DZ_ADD_us_to_j	  1
#define DZ_ADD_ns_to_j	  1
#define DZ_ADD_j_to_ms	  1
#define DZ_ADD_j_to_us	  1
#define DZ_ADD_j_to_ns	  0
#define DZ_ADD_j64_to_ns  0
#define DZ_ADD_j_to_clock 0
#define DZ_ADD_clock_to_j 1

#ifdef DYNHZ_DEBUG
/*
 * Re-does the conversion by long division; panics on any difference
 * (unchecked beyond the range, where a conversion without a check wraps).
 */
void dz_conv_verify(const struct dz_conv *cv, const char *name, u64 x, u64 y, bool checked);
#define DZ_VERIFY(cv, name, x, y) dz_conv_verify(cv, #name, x, y, DZ_CHECK_##name)
#else
#define DZ_VERIFY(cv, name, x, y) ((void)0)
#endif

/* The generation's constants are reached once per conversion (cv_). */
#define DZ_CONVERT(name, x)                                                                      \
	({                                                                                       \
		u64 x_ = (x);                                                                    \
		const struct dz_conv *cv_ = &DZ_TC.name;                                         \
		u64 y_ = DZ_SHAPE_##name == DZ_SHAPE_NARROW                                      \
				 ? dz_conv_narrow_fixed(cv_, x_, DZ_K_##name, DZ_SHIFT_##name,   \
							DZ_CHECK_##name, DZ_ADD_##name)          \
				 : dz_conv_wide_fixed(cv_, x_, DZ_SHIFT_##name, DZ_CHECK_##name, \
						      DZ_ADD_##name);                            \
		DZ_VERIFY(cv_, name, x_, y_);                                                    \
		y_;                                                                              \
	})

static inline unsigned long msecs_to_jiffies(const unsigned int m)
{
	return (unsigned long)DZ_CONVERT(ms_to_j, m);
}

static inline unsigned long usecs_to_jiffies(const unsigned int u)
{
	return (unsigned long)DZ_CONVERT(us_to_j, u);
}

static inline unsigned long nsecs_to_jiffies(u64 n)
{
	return (unsigned long)DZ_CONVERT(ns_to_j, n);
}

/* Results saturate at U32_MAX: saying so spares the variable build a truncation. */
static inline unsigned int jiffies_to_msecs(const unsigned long j)
{
	u64 ms = DZ_CONVERT(j_to_ms, j);

	if (ms > U32_MAX)
		__builtin_unreachable();
	return (unsigned int)ms;
}

static inline unsigned int jiffies_to_usecs(const unsigned long j)
{
	u64 us = DZ_CONVERT(j_to_us, j);

	if (us > U32_MAX)
		__builtin_unreachable();
	return (unsigned int)us;
}

static inline u64 jiffies_to_nsecs(const unsigned long j)
{
	return DZ_CONVERT(j_to_ns, j);
}

static inline u64 jiffies64_to_nsecs(u64 j)
{
	return DZ_CONVERT(j64_to_ns, j);
}

/* Jiffies to USER_HZ ticks, for statistics: rounds down. */
static inline dz_uclock_t jiffies_to_clock_t(unsigned long j)
{
	return DZ_UCLOCK((unsigned long)DZ_CONVERT(j_to_clock, j));
}

/* USER_HZ ticks to jiffies, for timeouts: rounds up. */
static inline unsigned long clock_t_to_jiffies(dz_uclock_t c)
{
	return (unsigned long)DZ_CONVERT(clock_to_j, c.ticks);
}

/* A tick-valued boot or driver parameter (in USER_HZ) to jiffies, once at boot. */
static inline unsigned long user_to_kernel_hz(dz_uclock_t c)
{
	return clock_t_to_jiffies(c);
}

/*
 * A duration to jiffies, rounded up. A negative duration is no wait at all;
 * tv_nsec outside 0..999999999 is carried into tv_sec first.
 */
unsigned long dz_timespec64_to_jiffies_slow(s64 sec, long nsec);
static inline unsigned long timespec64_to_jiffies(const struct timespec64 *ts)
{
	/* Below 2^34 s (544 years) the total fits in 64-bit nanoseconds. */
	if (likely(ts->tv_sec >= 0 && (u64)ts->tv_sec < (1ULL << 34) && ts->tv_nsec >= 0 &&
		   ts->tv_nsec < (long)NSEC_PER_SEC))
		return nsecs_to_jiffies((u64)ts->tv_sec * NSEC_PER_SEC + (u64)ts->tv_nsec);
	return dz_timespec64_to_jiffies_slow(ts->tv_sec, ts->tv_nsec);
}

#endif
