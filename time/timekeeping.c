// SPDX-License-Identifier: MIT
/*
 * Monotonic time that never drifts from the oscillator.
 *
 * The time is always base_ns plus one exact conversion of a 64-bit total
 * counted since the current source took over: ticks times the exact tick
 * period, or clocksource cycles times 10^9 / freq. Nothing is summed from
 * rounded steps, so no remainder is lost however long it runs: after n
 * PIT ticks the time is floor(n * divisor * 10^9 / 1193182) ns, exactly.
 *
 * A clocksource narrower than 64 bits is folded into the 64-bit total at
 * least every half of its range (counted in ticks), so that a wrap is
 * never missed even when a tick comes late.
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

/* The start of the current jiffy: since the last change of HZ, ticks times the exact period. */
static u64 coarse_grid_ns(void)
{
	return tk.coarse_base_ns + ticks_to_ns(dz_tick_count() - tk.coarse_base_ticks);
}

u64 ktime_get_ns(void)
{
	unsigned long flags = dz_irq_save();
	u64 ns = now_ns();

	dz_irq_restore(flags);
	return ns;
}

ktime_t ktime_get_real(void)
{
	unsigned long flags = dz_irq_save();
	ktime_t t = ktime_add_safe(ns_to_ktime(now_ns()), real_off);

	dz_irq_restore(flags);
	return t;
}

ktime_t ktime_get_clocktai(void)
{
	unsigned long flags = dz_irq_save();
	ktime_t t = ktime_add_safe(ns_to_ktime(now_ns()), dz_timekeeping_offs[DZ_HRTIMER_BASE_TAI]);

	dz_irq_restore(flags);
	return t;
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
	u64 fine = now_ns(), grid = tk.ready ? coarse_grid_ns() : 0;

	dz_irq_restore(flags);
	return grid < fine ? grid : fine;
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

	real_off = ktime_sub_safe(real_ns, ns_to_ktime(now_ns()));
	set_offsets(true);
	dz_irq_restore(flags);
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
	case DZ_CLOCK_MONOTONIC_RAW:
	case DZ_CLOCK_BOOTTIME:
		*ns = ktime_get();
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
	if (!p.den)
		return 0; /* before boot: no tick yet */
	/* Nearest, halves up: num * 10^9 fits (num is at most 18446744). */
	ns = (p.num * NSEC_PER_SEC + p.den / 2) / p.den;
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
	/* A new boot: realtime starts again at the Unix epoch, TAI with it. */
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
