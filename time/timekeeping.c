// SPDX-License-Identifier: MIT
/*
 * Monotonic time that never drifts from the oscillator, and NTP's
 * steering of it.
 *
 * The raw time (CLOCK_MONOTONIC_RAW) is always base_ns plus one exact
 * conversion of a 64-bit total counted since the current source took
 * over: ticks times the exact tick period, or clocksource cycles times
 * 10^9 / freq. Nothing is summed from rounded steps, so no remainder is
 * lost however long it runs: after n PIT ticks the time is
 * floor(n * divisor * 10^9 / 1193182) ns, exactly.
 *
 * A clocksource narrower than 64 bits is folded into the 64-bit total at
 * least every half of its range (counted in ticks), so that a wrap is
 * never missed even when a tick comes late.
 *
 * Monotonic time (CLOCK_MONOTONIC, and every clock and hrtimer base built
 * on it) is a piecewise-linear function of the raw time, steered by NTP
 * (time/ntp.c) as Linux's tick_length steers its clock:
 *
 *	mono = mono_base + floor(((raw - raw_base) * mult + frac) / 2^62)
 *
 * mult is the rate, monotonic ns per raw ns in units of 2^-62 (2^62: not
 * steered), frac the fraction of a ns the segment started with. A change
 * of rate first folds the segment at the raw time now (mono_base becomes
 * the time then, frac what the floor dropped: nothing lost, nothing
 * invented, not even a fraction of a ns) and then starts a new one from
 * there: continuous, and never backwards as long as mult > 0. Until the
 * first change mono_base = raw_base = frac = 0 and mult = 2^62, so
 * monotonic time is the raw time to the ns. The jiffy grid is the
 * device's and stays on the raw time: steering changes what a ns of
 * CLOCK_MONOTONIC is, never when a tick comes.
 */
#include "timekeeping-internal.h"
#include "hrtimer-internal.h"
#include "tick-internal.h"
#include <dynhz/clocksource.h>
#include <dynhz/jiffies.h>
#include <dynhz/errno.h>
#include <dynhz/tick.h>
#include <dynhz/conv.h>
#include <dynhz/time64.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include <dynhz/ntp.h>

static struct {
	bool ready; /* the epoch has started */
	struct dz_tick_period period;
	struct dz_conv tick2ns;	  /* ticks -> ns, rounded down */
	struct clocksource *cs;	  /* NULL: time from ticks */
	u64 base_ns;		  /* the time when the current source took over */
	u64 base_ticks;		  /* ticks then (tick source) */
	u64 cycles;		  /* cycles folded in since then (clocksource) */
	u64 last;		  /* the counter at the last fold */
	unsigned long fold_every; /* ticks between folds, at most */
	/* The coarse clock: the start of the jiffy, counted from the last change of HZ. */
	u64 coarse_base_ns, coarse_base_ticks;
	struct dz_conv next_tick2ns; /* the next period's, between prepare and commit */
} tk;

unsigned long dz_timekeeping_countdown; /* ticks to the next fold */

s64 dz_timekeeping_offs[DZ_HRTIMER_MAX_CLOCK_BASES];
static s64 real_off, tai_off;		/* realtime - monotonic; TAI - realtime */
s64 dz_timekeeping_leap_at = KTIME_MAX; /* monotonic ns of the pending leap second */
static s64 leap_step;			/* what it adds to realtime: -1 s or +1 s */

/*
 * The steering (see the top). The rate comes from NTP as Linux's tick
 * length: ns of monotonic time per raw second, << 32.
 */
#define RATE_SHIFT  62
#define RATE_ONE    (1ULL << RATE_SHIFT)
#define RATE_FRAC   (RATE_ONE - 1)
#define LENGTH_ONE  ((u64)NSEC_PER_SEC << 32) /* a second a second */
#define LENGTH_MIN  (LENGTH_ONE / 2)	      /* the rate kept within (1/2, 3/2): */
#define LENGTH_MAX  (LENGTH_ONE / 2 * 3)      /* NTP's limits are within 1/4 */
#define GUESS_STEPS 8			      /* the inverse's correction: 5 at most */

static struct {
	u64 raw_base, mono_base; /* where the segment starts */
	u64 frac;		 /* the fraction of a ns at its start, in 2^-62 ns */
	u64 mult;		 /* monotonic ns per raw ns, in 2^-62 */
	u64 inv;		 /* floor(2^124 / mult): the inverse's first guess */
	bool on;		 /* steered since the epoch: monotonic may differ from raw */
	/* Then the coarse clock is held for the jiffy it was worked out for. */
	bool coarse_held;
	u64 coarse_tick, coarse_ns;
} st;

static u64 ticks_to_ns(u64 ticks)
{
	u64 ns = dz_conv(&tk.tick2ns, ticks);

#ifdef DYNHZ_DEBUG
	if (ns != dz_conv_exact(&tk.tick2ns, ticks))
		dz_panic("ticks_to_ns(%llu) = %llu, exact %llu", (unsigned long long)ticks,
			 (unsigned long long)ns,
			 (unsigned long long)dz_conv_exact(&tk.tick2ns, ticks));
#endif
	return ns;
}

static u64 cycles_to_ns(u64 cycles)
{
	u64 ns = dz_clocksource_cyc2ns(tk.cs, cycles);

#ifdef DYNHZ_DEBUG
	if (ns != dz_conv_exact(&tk.cs->cyc2ns, cycles))
		dz_panic("%s: cyc2ns(%llu) = %llu, exact %llu", tk.cs->name,
			 (unsigned long long)cycles, (unsigned long long)ns,
			 (unsigned long long)dz_conv_exact(&tk.cs->cyc2ns, cycles));
#endif
	return ns;
}

/* Cycles since the last fold; right while fewer than mask + 1 passed. */
static u64 cycles_pending(void)
{
	return (tk.cs->read(tk.cs) - tk.last) & tk.cs->mask;
}

static u64 now_ns(void)
{
	if (!tk.ready)
		return 0;
	if (tk.cs)
		return tk.base_ns + cycles_to_ns(tk.cycles + cycles_pending());
	return tk.base_ns + ticks_to_ns(dz_tick_count() - tk.base_ticks);
}

/* (d * st.mult + st.frac) as a 128-bit hi:lo: monotonic time d raw ns into the segment, in 2^-62 ns. */
static u64 seg_mul(u64 d, u64 *hi)
{
	u64 lo = dz_mul64(d, st.mult, hi);

	*hi += __builtin_add_overflow(lo, st.frac, &lo);
	return lo;
}

/* The monotonic time at a raw time: exact, on the current segment (extended backwards before it). */
static u64 steer(u64 raw)
{
	u64 hi, lo;

	/* Not steered now: a whole ns a ns, both ways (u64 arithmetic wraps back exactly). */
	if (likely(st.mult == RATE_ONE))
		return st.mono_base + (raw - st.raw_base);
	if (likely(raw >= st.raw_base)) {
		lo = seg_mul(raw - st.raw_base, &hi);
		return st.mono_base + ((hi << (64 - RATE_SHIFT)) | (lo >> RATE_SHIFT));
	}
	/*
	 * Before the segment: floor(frac - d * rate) = -ceil(d * rate - frac),
	 * in 2^-62 ns, with mult - 1 for the rate: mult is the rate rounded up,
	 * so mult - 1 is below it, by less than a unit, as mult is above it;
	 * that keeps the result exact where the forward rule is, at whole ns.
	 */
	lo = dz_mul64(st.raw_base - raw, st.mult - 1, &hi);
	if (!hi && lo <= st.frac)
		return st.mono_base; /* less than the fraction back: the same ns */
	hi -= lo < st.frac;
	lo -= st.frac;
	hi = (hi << (64 - RATE_SHIFT)) | (lo >> RATE_SHIFT);
	hi += (lo & RATE_FRAC) != 0;
	return hi < st.mono_base ? st.mono_base - hi : 0;
}

/* Does the segment reach dm ns of monotonic time d raw ns in? */
static bool seg_reaches(u64 d, u64 dm)
{
	u64 hi, lo = seg_mul(d, &hi);
	u64 want_hi = dm >> (64 - RATE_SHIFT), want_lo = dm << RATE_SHIFT;

	return hi > want_hi || (hi == want_hi && lo >= want_lo);
}

/*
 * The first raw time at which monotonic time reaches mono, on the current
 * segment; its start when mono is not after it, U64_MAX beyond reach. A
 * guess from the inverse (within 5 ns of it: the inverse and frac are off
 * by less than one unit each), then the exact bound by the forward rule.
 */
static u64 unsteer(u64 mono)
{
	u64 dm, d, hi, lo;
	int i;

	if (mono <= st.mono_base)
		return st.raw_base;
	dm = mono - st.mono_base;
	if (likely(st.mult == RATE_ONE))
		return dm < U64_MAX - st.raw_base ? st.raw_base + dm : U64_MAX;
	lo = dz_mul64(dm, st.inv, &hi);
	if (hi >> RATE_SHIFT)
		return U64_MAX;
	d = (hi << (64 - RATE_SHIFT)) | (lo >> RATE_SHIFT);
	for (i = 0; i < GUESS_STEPS && d < U64_MAX && !seg_reaches(d, dm); i++)
		d++;
	for (i = 0; i < GUESS_STEPS && d && seg_reaches(d - 1, dm); i++)
		d--;
	return d < U64_MAX - st.raw_base ? st.raw_base + d : U64_MAX;
}

/* hi:lo / d, for hi < d (the quotient fits 64 bits): bit by bit, for the rare rate change. */
static u64 div128(u64 hi, u64 lo, u64 d, u64 *rem)
{
	u64 q = 0;

	for (int i = 0; i < 64; i++) {
		bool top = hi >> 63;

		hi = (hi << 1) | (lo >> 63);
		lo <<= 1;
		q <<= 1;
		if (top || hi >= d) {
			hi -= d;
			q |= 1;
		}
	}
	*rem = hi;
	return q;
}

/*
 * mult = ceil(length * 2^30 / 10^9): the rate in 2^-62, rounded up. So
 * the clock is never behind the exact product of the rates NTP asked for,
 * and ahead of it by less than 2^-62 of the raw time steered, a ns in 146
 * years: each read is the exact floor or a ns more, and the exact floor
 * while that excess stays below the distance of the exact time to the
 * next ns (at whole ppm, a millionth of a ns: for the first 77 minutes).
 * The folds carry the fraction, so they add nothing to it.
 */
static u64 mult_of(u64 length)
{
	u64 rem, q = div128(length >> 34, length << 30, NSEC_PER_SEC, &rem);

	return q + (rem != 0);
}

/* Moves the segment's start to raw time raw (not before it), exactly. */
static void seg_fold(u64 raw)
{
	u64 hi, lo;

	if (st.mult == RATE_ONE) {
		st.mono_base += raw - st.raw_base;
	} else {
		lo = seg_mul(raw - st.raw_base, &hi);
		st.mono_base += (hi << (64 - RATE_SHIFT)) | (lo >> RATE_SHIFT);
		st.frac = lo & RATE_FRAC;
	}
	st.raw_base = raw;
}

static void steer_reset(void)
{
	st.raw_base = st.mono_base = st.frac = 0;
	st.mult = RATE_ONE;
	st.inv = RATE_ONE;
	st.on = false;
	st.coarse_held = false;
}

/* The start of the current jiffy: since the last change of HZ, ticks times the exact period. */
static u64 coarse_grid_ns(void)
{
	return tk.coarse_base_ns + ticks_to_ns(dz_tick_count() - tk.coarse_base_ticks);
}

static u64 mono_now(void)
{
	return steer(now_ns());
}

u64 ktime_get_ns(void)
{
	unsigned long flags = dz_irq_save();
	u64 ns = mono_now();

	dz_irq_restore(flags);
	return ns;
}

u64 ktime_get_raw_ns(void)
{
	unsigned long flags = dz_irq_save();
	u64 ns = now_ns();

	dz_irq_restore(flags);
	return ns;
}

ktime_t ktime_get_real(void)
{
	unsigned long flags = dz_irq_save();
	ktime_t t = ktime_add_safe(ns_to_ktime(mono_now()), real_off);

	dz_irq_restore(flags);
	return t;
}

ktime_t ktime_get_clocktai(void)
{
	unsigned long flags = dz_irq_save();
	ktime_t t =
		ktime_add_safe(ns_to_ktime(mono_now()), dz_timekeeping_offs[DZ_HRTIMER_BASE_TAI]);

	dz_irq_restore(flags);
	return t;
}

/*
 * Steered, the coarse clock is the monotonic time of the jiffy's start,
 * held for the jiffy: a rate change folds the segment mid-jiffy, after
 * which the start is before the segment, so the value is worked out on
 * the segment it fell in (at the fold, dz_timekeeping_set_rate(), if not
 * before) and kept until the tick count moves. A jiffy that began before
 * the last fold but is counted only after it (jiffies caught up late)
 * gets the segment extended backwards, never less than the last value:
 * it never goes back and never passes the fine clock (the start is not
 * after the raw time now).
 */
static u64 coarse_steered(u64 grid, u64 fine)
{
	u64 tick = dz_tick_count(), ns;

	if (grid > fine)
		return steer(fine); /* a late clocksource's first jiffy: as unsteered */
	if (st.coarse_held && st.coarse_tick == tick)
		return st.coarse_ns;
	ns = steer(grid);
	if (st.coarse_held && ns < st.coarse_ns)
		ns = st.coarse_ns;
	st.coarse_held = true;
	st.coarse_tick = tick;
	st.coarse_ns = ns;
	return ns;
}

/*
 * The jiffy's start: the tick count times the exact period. A jiffy's
 * start on the clocksource is at or after that (the first tick comes a
 * period or more after the epoch), so the min only guards a clocksource
 * registered late.
 */
u64 ktime_get_coarse_ns(void)
{
	unsigned long flags = dz_irq_save();
	u64 fine = now_ns(), grid = tk.ready ? coarse_grid_ns() : 0, ns;

	if (unlikely(st.on))
		ns = coarse_steered(grid, fine);
	else
		ns = grid < fine ? grid : fine;
	dz_irq_restore(flags);
	return ns;
}

u64 ktime_get_coarse_real_ns(void)
{
	return (u64)ktime_add_safe(ns_to_ktime(ktime_get_coarse_ns()), real_off);
}

static void set_offsets(bool notify)
{
	dz_timekeeping_offs[DZ_HRTIMER_BASE_MONOTONIC] = 0;
	dz_timekeeping_offs[DZ_HRTIMER_BASE_BOOTTIME] = 0;
	dz_timekeeping_offs[DZ_HRTIMER_BASE_REALTIME] = real_off;
	dz_timekeeping_offs[DZ_HRTIMER_BASE_TAI] = ktime_add_safe(real_off, tai_off);
	if (notify)
		dz_hrtimer_clock_was_set();
}

void dz_timekeeping_set_real_ns(s64 real_ns)
{
	unsigned long flags = dz_irq_save();

	real_off = ktime_sub_safe(real_ns, ns_to_ktime(mono_now()));
	set_offsets(true);
	/* As Linux's TK_CLEAR_NTP: a set clock ends any slewing in progress. */
	dz_ntp_clear();
	dz_irq_restore(flags);
}

void dz_timekeeping_set_rate(u64 length)
{
	unsigned long flags = dz_irq_save();
	u64 raw = now_ns(), mult, rem;

	if (length < LENGTH_MIN)
		length = LENGTH_MIN;
	if (length > LENGTH_MAX)
		length = LENGTH_MAX;
	mult = mult_of(length);
	if (mult == st.mult) {
		dz_irq_restore(flags);
		return;
	}
	/* The running jiffy's coarse time, on the segment that ends here. */
	if (tk.ready) {
		st.on = true;
		coarse_steered(coarse_grid_ns(), raw);
	}
	seg_fold(raw);
	st.mult = mult;
	st.inv = div128(1ULL << (2 * RATE_SHIFT - 64), 0, mult, &rem);
	/* The device's next event was worked out at the old rate. */
	dz_tick_hres_rate_changed();
	dz_irq_restore(flags);
}

u64 dz_timekeeping_raw_to_mono(u64 raw)
{
	return steer(raw);
}

u64 dz_timekeeping_mono_to_raw(u64 mono)
{
	return unsteer(mono);
}

void dz_timekeeping_set_leap(s64 mono_ns, int seconds)
{
	unsigned long flags = dz_irq_save();

	dz_timekeeping_leap_at = seconds ? mono_ns : KTIME_MAX;
	leap_step = (s64)seconds * (s64)NSEC_PER_SEC;
	dz_irq_restore(flags);
}

/*
 * Realtime and the TAI offset move together, so TAI does not jump; the
 * realtime and TAI timers are re-keyed before any timer of this instant
 * runs (Linux's hrtimer_interrupt reads the offsets with the leap in).
 */
void dz_timekeeping_leap(void)
{
	real_off = ktime_add_safe(real_off, leap_step);
	tai_off -= leap_step;
	dz_timekeeping_leap_at = KTIME_MAX;
	set_offsets(true);
}

s64 dz_timekeeping_real_offset_ns(void)
{
	return real_off;
}

void dz_timekeeping_set_tai_offset(s32 seconds)
{
	unsigned long flags = dz_irq_save();

	tai_off = (s64)seconds * (s64)NSEC_PER_SEC;
	set_offsets(true);
	dz_irq_restore(flags);
}

s32 dz_timekeeping_tai_offset(void)
{
	return (s32)(tai_off / (s64)NSEC_PER_SEC);
}

int dz_clock_get_ns(int clock_id, s64 *ns)
{
	switch (clock_id) {
	case DZ_CLOCK_REALTIME:
		*ns = ktime_get_real();
		return 0;
	case DZ_CLOCK_MONOTONIC:
	case DZ_CLOCK_BOOTTIME:
		*ns = ktime_get();
		return 0;
	case DZ_CLOCK_MONOTONIC_RAW:
		*ns = ns_to_ktime(ktime_get_raw_ns());
		return 0;
	case DZ_CLOCK_TAI:
		*ns = ktime_get_clocktai();
		return 0;
	case DZ_CLOCK_MONOTONIC_COARSE:
		*ns = ns_to_ktime(ktime_get_coarse_ns());
		return 0;
	case DZ_CLOCK_REALTIME_COARSE:
		*ns = ns_to_ktime(ktime_get_coarse_real_ns());
		return 0;
	default:
		return -DZ_EINVAL;
	}
}

int dz_clock_getres(int clock_id, struct dz_tick_period *res)
{
	static const struct dz_tick_period one_ns = { 1, NSEC_PER_SEC };
	s64 ignored;

	if (dz_clock_get_ns(clock_id, &ignored))
		return -DZ_EINVAL;
	if (clock_id == DZ_CLOCK_MONOTONIC_COARSE || clock_id == DZ_CLOCK_REALTIME_COARSE ||
	    !dz_hrtimer_highres())
		*res = dz_hz_period();
	else
		*res = one_ns;
	return 0;
}

s64 dz_clock_getres_ns(int clock_id)
{
	struct dz_tick_period p;
	u64 ns;

	if (dz_clock_getres(clock_id, &p))
		return -DZ_EINVAL;
	/* Before boot there is no tick yet. */
	if (!p.den)
		return 0;
	ns = dz_tick_ns(p, false); /* nearest, halves up */
	return ns ? (s64)ns : 1;
}

void dz_timekeeping_fold(void)
{
	if (tk.cs) {
		u64 now = tk.cs->read(tk.cs);

		tk.cycles += (now - tk.last) & tk.cs->mask;
		tk.last = now;
	}
	dz_timekeeping_countdown = tk.fold_every;
}

/*
 * Ticks in half the counter's range: floor((mask / 2) / (freq * period)).
 * A counter that wraps within two ticks cannot be followed at all; it is
 * folded every tick and reported.
 */
static void plan_folds(void)
{
	struct dz_conv cv; /* only the exact definition: p, q, c, sat */
	u64 n = ULONG_MAX;

	if (tk.cs && tk.ready) {
		cv.p = tk.period.den;
		cv.c = 0;
		cv.max_in = U64_MAX;
		cv.sat = U64_MAX;
		if (__builtin_mul_overflow(tk.cs->freq_hz, tk.period.num, &cv.q))
			n = 1;
		else
			n = dz_conv_exact(&cv, tk.cs->mask >> 1);
		if (n < 1) {
			dz_printk("clocksource %s: wraps within two ticks, time will be wrong\n",
				  tk.cs->name);
			n = 1;
		}
		if (n > ULONG_MAX)
			n = ULONG_MAX;
	}
	tk.fold_every = (unsigned long)n;
	dz_timekeeping_countdown = (unsigned long)n;
}

u64 dz_timekeeping_read(void)
{
	return tk.cs ? tk.cs->read(tk.cs) & tk.cs->mask : 0;
}

void dz_timekeeping_init(struct dz_tick_period period, u64 epoch)
{
	const struct dz_rate ns = { NSEC_PER_SEC, 1 };
	struct dz_rate ticks = { period.den, period.num };
	unsigned long flags = dz_irq_save();

	if (dz_conv_make(&tk.tick2ns, ticks, ns, DZ_ROUND_DOWN, U64_MAX, U64_MAX))
		dz_panic("timekeeping: no exact ns for a tick of %llu/%llu s",
			 (unsigned long long)period.num, (unsigned long long)period.den);
	tk.period = period;
	tk.base_ns = 0;
	tk.base_ticks = dz_tick_count();
	tk.coarse_base_ns = 0;
	tk.coarse_base_ticks = tk.base_ticks;
	tk.cycles = 0;
	if (tk.cs)
		tk.last = epoch;
	tk.ready = true;
	/* A new boot: monotonic is raw time again, not steered ... */
	steer_reset();
	/* ... and realtime starts again at the Unix epoch, TAI with it. */
	real_off = 0;
	tai_off = 0;
	set_offsets(false);
	plan_folds();
	dz_irq_restore(flags);
}

void dz_timekeeping_set_clocksource(struct clocksource *cs)
{
	unsigned long flags = dz_irq_save();

	/* The new source continues from the time now: no jump. */
	tk.base_ns = now_ns();
	tk.base_ticks = dz_tick_count();
	tk.cs = cs;
	tk.cycles = 0;
	if (cs)
		tk.last = cs->read(cs);
	plan_folds();
	/* The tick's grid was on the old one: high resolution and tickless idle end. */
	if (tk.ready)
		dz_tick_clocksource_changed();
	dz_irq_restore(flags);
}

u64 dz_timekeeping_base_ns(void)
{
	return tk.base_ns;
}

struct clocksource *dz_timekeeping_clocksource(void)
{
	return tk.cs;
}

void dz_timekeeping_skip(u64 n)
{
	if (tk.cs && n > dz_timekeeping_countdown)
		dz_panic("timekeeping: %llu ticks skipped, the counter may have wrapped after %lu",
			 (unsigned long long)n, dz_timekeeping_countdown);
	dz_timekeeping_fold();
}

u64 dz_timekeeping_max_skip(void)
{
	return tk.cs ? dz_timekeeping_countdown : U64_MAX;
}

u64 dz_timekeeping_cycles(void)
{
	return tk.cs && tk.ready ? tk.cycles + cycles_pending() : 0;
}

int dz_timekeeping_retune_prepare(struct dz_tick_period period)
{
	const struct dz_rate ns = { NSEC_PER_SEC, 1 };
	struct dz_rate ticks = { period.den, period.num };

	return dz_conv_make(&tk.next_tick2ns, ticks, ns, DZ_ROUND_DOWN, U64_MAX, U64_MAX);
}

void dz_timekeeping_retune(struct dz_tick_period period)
{
	u64 ticks = dz_tick_count();

	/*
	 * Everything counted in ticks restarts from this jiffy, at the time
	 * the old period gives it; from here a tick is the new period.
	 */
	tk.coarse_base_ns = coarse_grid_ns();
	tk.coarse_base_ticks = ticks;
	if (!tk.cs) {
		tk.base_ns = now_ns();
		tk.base_ticks = ticks;
	}
	tk.tick2ns = tk.next_tick2ns;
	tk.period = period;
	plan_folds();
	dz_timekeeping_fold();
}
