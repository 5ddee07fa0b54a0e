// SPDX-License-Identifier: MIT
/*
 * NTP's steering (include/dynhz/ntp.h) against the definition, on the
 * simulated clock.
 *
 * The references are worked out here from first principles and the
 * tests' own exact arithmetic (ref.c), never from the core:
 *  - raw time is floor(cycles * 10^9 / f) of the simulated clock, and
 *    jiffies count the grid's jiffies begun (jiffy n at n * divisor
 *    cycles): steering must change neither;
 *  - a rate of length ns a second (Linux's ns << 32 over 10^9 << 32) from
 *    a raw time r0 at which monotonic time was m0 makes monotonic time
 *    m0 + floor((r - r0) * length / (10^9 << 32)), to the ns, for a
 *    whole number of ppm (ADJ_FREQUENCY, ADJ_TICK); other rates may be
 *    rounded up, never down, by less than a ns over the test;
 *  - adjtime() works off 500 us each realtime second and stops;
 *  - the PLL's model: each second the offset left loses a share of
 *    itself, offset / 2^(2 + constant) rounded towards 0 (in ns << 32),
 *    which that second adds to its length; an offset moves the frequency
 *    by offset * min(secs, 2^(3 + constant)) / 2^(2 (4 + constant)) ns a
 *    second, secs the seconds since the last (or since STA_PLL came on),
 *    and with the FLL (from 256 s with STA_FLL, past 2048 s always) by
 *    offset / (4 secs) more; so a constant offset decays by a quarter a
 *    second at constant 0 and the loop's time constant is 2^(2 + c) s;
 *  - every read is continuous across a change of rate (equal before and
 *    after it at the same instant) and never goes back; the coarse clock
 *    never passes the fine one, holds within a jiffy, and is the fine
 *    clock's value at the jiffy's start;
 *  - an hrtimer at steered time T never runs before T, whatever the rate
 *    does meanwhile, and runs within the device's delay (high
 *    resolution) or a tick (tick resolution) after it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>

#include "ref.h"
#include "timekeeping-internal.h" /* the raw <-> monotonic maps the device is programmed by */

#define FREQ	   ((u64)DYNHZ_HOST_CLOCK_HZ)
#define NS	   1000000000ULL
#define US	   1000ULL
#define MS	   1000000ULL
#define SCALE	   (NS << 32) /* a second a second, in Linux's ns << 32 */
#define PPM16(ppm) ((s64)(ppm)*65536)

static bool long_run(void)
{
	const char *s = getenv("DYNHZ_LONG");

	return s && *s && strcmp(s, "0");
}

/* The HZ of the tests: the constant builds can boot only theirs. */
#ifdef CONFIG_HZ
static const unsigned int hzs[] = { CONFIG_HZ };
#else
static const unsigned int hzs[] = { 97, 4321 };
#endif

static u64 div_cycles; /* the device's cycles a jiffy */
static u64 rng = 0x6e7470;

static u64 rnd(u64 n)
{
	return n ? ref_rand(&rng) % n : 0;
}

static void boot(unsigned int hz, bool highres, bool nohz)
{
	char cl[64];

	snprintf(cl, sizeof(cl), "hz=%u highres=%s nohz=%s", hz, highres ? "on" : "off",
		 nohz ? "on" : "off");
	dynhz_host_set_quiet(true);
	assert_int_equal(dynhz_boot_quiet(cl), 0);
	assert_int_equal(HZ, hz);
	assert_int_equal(dz_hrtimer_highres(), highres);
	div_cycles = (FREQ + hz / 2) / hz;
}

/* The raw time the simulated clock says now. */
static u64 raw_ref(void)
{
	return ref_muldiv(dynhz_host_cycles(), NS, FREQ, REF_DOWN, U64_MAX);
}

/* Raw time and jiffies are the oscillator's, whatever NTP does. */
static void check_raw_and_jiffies(void)
{
	u64 raw = ktime_get_raw_ns(), want = raw_ref();

	if (raw != want)
		fail_msg("raw %llu, the clock says %llu", (unsigned long long)raw,
			 (unsigned long long)want);
	if (dz_tick_count() != dynhz_host_cycles() / div_cycles)
		fail_msg("tick count %llu at cycle %llu: the grid says %llu",
			 (unsigned long long)dz_tick_count(),
			 (unsigned long long)dynhz_host_cycles(),
			 (unsigned long long)(dynhz_host_cycles() / div_cycles));
}

/* Time passes, the CPU busy (every tick delivered) or idle (ticks caught up after). */
static void pass(u64 ns, bool idle)
{
	if (idle)
		dynhz_host_idle(ns);
	else
		dynhz_host_pass(ns, false);
}

/* Monotonic time on a segment of constant rate: m0 + floor((r - r0) * num / den). */
struct seg {
	u64 r0, m0, num, den;
};

static struct seg seg_now(u64 num, u64 den)
{
	struct seg s = { ktime_get_raw_ns(), ktime_get_ns(), num, den };

	return s;
}

static u64 seg_mono(const struct seg *s, u64 r)
{
	return s->m0 + ref_muldiv(r - s->r0, s->num, s->den, REF_DOWN, U64_MAX);
}

/* ns per ns as ppb (for the report lines): (dm - dr) / dr. */
static double ppb(u64 dm, u64 dr)
{
	return ((double)dm - (double)dr) * 1e9 / (double)dr;
}

/* Checks the exact time on s over a simulated span, in uneven busy and idle pieces. */
static void follow(const struct seg *s, u64 span, const char *what)
{
	u64 done = 0, r = 0, m = 0;

	while (done < span) {
		u64 step = 1 + rnd(done % 3 ? 300 * MS : 9 * NS);

		pass(step, done % 5 == 0);
		done += step;
		check_raw_and_jiffies();
		r = ktime_get_raw_ns();
		m = ktime_get_ns();
		if (m != seg_mono(s, r))
			fail_msg("%s: HZ %u, %llu ns after the change: monotonic %llu, exact %llu",
				 what, HZ, (unsigned long long)(r - s->r0), (unsigned long long)m,
				 (unsigned long long)seg_mono(s, r));
	}
	printf("# %s at HZ %u: %.3f ppb over %llu s (asked %.3f)\n", what, HZ,
	       ppb(m - s->m0, r - s->r0), (unsigned long long)((r - s->r0) / NS),
	       ((double)s->num - (double)s->den) * 1e9 / (double)s->den);
}

/* Before any steering monotonic time is raw time, to the ns. */
static void test_unsteered(void **state)
{
	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		boot(hzs[h], true, true);
		dz_ntp_set_freq(0); /* no change: still not steered */
		for (int i = 0; i < 200; i++) {
			pass(rnd(2 * NS), i % 2);
			check_raw_and_jiffies();
			assert_true(ktime_get_ns() == ktime_get_raw_ns());
		}
	}
}

/* ADJ_FREQUENCY: a whole number of ppm, exactly, from the instant it is set. */
static void test_frequency(void **state)
{
	static const s64 ppms[] = { 100, -100, 500, -500, 1, 550, -1000 };

	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		for (size_t i = 0; i < ARRAY_SIZE(ppms); i++) {
			/* beyond 500 ppm: clamped, as Linux */
			s64 ppm = ppms[i] > 500 ? 500 : ppms[i] < -500 ? -500 : ppms[i];
			struct seg s;
			char what[48];

			boot(hzs[h], i % 2 == 0, true);
			pass(1234567 + rnd(NS), false);
			s = seg_now((u64)((s64)MS + ppm), MS);
			assert_true(s.m0 == s.r0);
			dz_ntp_set_freq(PPM16(ppms[i]));
			assert_true(dz_ntp_freq() == PPM16(ppm));
			snprintf(what, sizeof(what), "freq %+lld ppm", (long long)ppms[i]);
			follow(&s, (i ? 200 : 1000) * NS, what);
		}
	}
}

/* Linux reads every whole ppm back as it was set. */
static void test_freq_readback(void **state)
{
	(void)state;
	boot(hzs[0], true, true);
	for (s64 ppm = -500; ppm <= 500; ppm++) {
		dz_ntp_set_freq(PPM16(ppm));
		assert_true(dz_ntp_freq() == PPM16(ppm));
	}
}

/*
 * ADJ_TICK: tick_usec us a USER_HZ tick, USER_HZ ticks a second; the
 * default is a second. 50 us more is 50 * USER_HZ ppm (at USER_HZ 100:
 * 10050 us, +5000 ppm). Out of range: -EINVAL, nothing changed.
 */
static void test_tick(void **state)
{
	static const long deltas[] = { 50, -50, 0 };

	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		for (size_t i = 0; i < ARRAY_SIZE(deltas); i++) {
			long tick = DZ_NTP_TICK_USEC + deltas[i];
			struct seg s;
			char what[48];

			boot(hzs[h], i != 1, true);
			assert_int_equal(dz_ntp_tick(), DZ_NTP_TICK_USEC);
			pass(rnd(3 * NS), false);
			s = seg_now((u64)((s64)MS + deltas[i] * USER_HZ), MS);
			assert_int_equal(dz_ntp_set_tick(tick), 0);
			assert_int_equal(dz_ntp_tick(), tick);
			assert_int_equal(dz_ntp_set_tick(DZ_NTP_TICK_MIN - 1), -DZ_EINVAL);
			assert_int_equal(dz_ntp_set_tick(DZ_NTP_TICK_MAX + 1), -DZ_EINVAL);
			assert_int_equal(dz_ntp_set_tick(0), -DZ_EINVAL);
			assert_int_equal(dz_ntp_tick(), tick);
			snprintf(what, sizeof(what), "tick %ld us", tick);
			follow(&s, 200 * NS, what);
		}
	}
}

/* The extremes together: 10 % of tick and 500 ppm, both ways. */
static void test_tick_and_freq(void **state)
{
	(void)state;
	for (int sign = -1; sign <= 1; sign += 2) {
		long tick = sign > 0 ? DZ_NTP_TICK_MAX : DZ_NTP_TICK_MIN;
		s64 per_s = ((s64)tick * USER_HZ - (s64)DZ_NTP_TICK_USEC * USER_HZ) + sign * 500;
		struct seg s;

		boot(hzs[0], true, true);
		pass(NS / 3, false);
		s = seg_now((u64)((s64)MS + per_s), MS);
		assert_int_equal(dz_ntp_set_tick(tick), 0);
		dz_ntp_set_freq(PPM16(sign * 500));
		follow(&s, 100 * NS, sign > 0 ? "tick max, +500 ppm" : "tick min, -500 ppm");
	}
}

/* Time passes until monotonic time reads target or a little more. */
static void pass_to_mono(u64 target, bool idle)
{
	u64 m;

	while ((m = ktime_get_ns()) < target) {
		u64 step = (target - m) - (target - m) / 8;

		pass(step > 2 * US ? step : 2 * US, idle);
	}
}

/*
 * Checks the rate of the second around monotonic time at: between a
 * quarter and three quarters of it (one segment: the boundary's fold is
 * past), monotonic time moves by floor(dr * length / SCALE), or one more
 * (the fraction the segment started with).
 */
static void check_second(u64 at, u64 length, const char *what)
{
	u64 r1, m1, dr, dm, want;

	pass_to_mono(at + NS / 4, false);
	r1 = ktime_get_raw_ns();
	m1 = ktime_get_ns();
	pass(NS / 2, false);
	dr = ktime_get_raw_ns() - r1;
	dm = ktime_get_ns() - m1;
	want = ref_muldiv(dr, length, SCALE, REF_DOWN, U64_MAX);
	if (dm != want && dm != want + 1)
		fail_msg("%s, second at %llu ns: %llu ns in %llu raw, want %llu (length %llu)",
			 what, (unsigned long long)at, (unsigned long long)dm,
			 (unsigned long long)dr, (unsigned long long)want,
			 (unsigned long long)length);
}

/*
 * adjtime(): 0.2 s at 500 us a second takes 400 realtime seconds, read
 * back counting down, and then the rate is exactly one again and the
 * second's hrtimer is gone (an idle CPU is not woken any more). A second
 * slewed by s ns lasts 10^9 / (1 + s / 10^9) raw ns and gains s / 10^9 of
 * them; the folds come up to a device delay after each boundary, which
 * shifts the window, not its length.
 */
static void adjtime_case(unsigned int hz, s64 us)
{
	s64 sign = us < 0 ? -1 : 1, left = us, gain, want_gain = 0;
	u64 start, r0, m0, k, slewed = 0;
	int after = 0;
	struct dz_tick_stats st0, st1;

	boot(hz, true, true);
	pass_to_mono(5 * NS + NS / 2, true);
	/* realtime is monotonic time on the host: the boundaries are whole seconds of it */
	start = ktime_get_ns() / NS + 1;
	r0 = ktime_get_raw_ns();
	m0 = ktime_get_ns();
	assert_true(dz_ntp_adjtime(us) == 0);
	assert_true(dz_ntp_adjtime_left() == us);
	for (k = 0; left || after++ < 3; k++) {
		s64 share = sign * left > DZ_NTP_ADJTIME ? sign * DZ_NTP_ADJTIME : left;
		u64 ns = (u64)(share * sign) * US;

		left -= share;
		slewed += share != 0;
		check_second((start + k) * NS, (u64)((s64)SCALE + share * (s64)(US << 32)),
			     "adjtime");
		if (dz_ntp_adjtime_left() != left)
			fail_msg("adjtime %+lld us, %llu s on: %lld us left, want %lld",
				 (long long)us, (unsigned long long)k,
				 (long long)dz_ntp_adjtime_left(), (long long)left);
		check_raw_and_jiffies();
		/* in ps, rounded to the ns at the end */
		want_gain += sign * (s64)ref_muldiv(NS * 1000, ns, sign > 0 ? NS + ns : NS - ns,
						    REF_NEAR, U64_MAX);
	}
	gain = (s64)(ktime_get_ns() - m0) - (s64)(ktime_get_raw_ns() - r0);
	want_gain = (want_gain + sign * 500) / 1000;
	assert_true(slewed == ((u64)(us * sign) + DZ_NTP_ADJTIME - 1) / DZ_NTP_ADJTIME);
	printf("# adjtime %+lld us at HZ %u: %llu s of slewing, gained %lld ns (want %lld)\n",
	       (long long)us, hz, (unsigned long long)slewed, (long long)gain,
	       (long long)want_gain);
	if (gain - want_gain > 10 || want_gain - gain > 10)
		fail_msg("adjtime %+lld us: gained %lld ns, want %lld +- 10", (long long)us,
			 (long long)gain, (long long)want_gain);
	/* Done: no more wakeups for it (the 32-bit clock's folds: one or two an hour). */
	dz_tick_stats(&st0);
	r0 = ktime_get_raw_ns();
	m0 = ktime_get_ns();
	pass(300 * NS, true);
	dz_tick_stats(&st1);
	assert_true(ktime_get_ns() - m0 == ktime_get_raw_ns() - r0);
	if (st1.interrupts - st0.interrupts > 3)
		fail_msg("adjtime done, still %llu wakeups in 300 idle seconds",
			 (unsigned long long)(st1.interrupts - st0.interrupts));
}

static void test_adjtime(void **state)
{
	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		adjtime_case(hzs[h], 200000);
		adjtime_case(hzs[h], -200000);
	}
	adjtime_case(hzs[0], 1250); /* 500, 500, then the 250 left */
}

/* A new adjtime() replaces what is left of the last; reading changes nothing. */
static void test_adjtime_replace(void **state)
{
	(void)state;
	boot(hzs[0], true, true);
	assert_true(dz_ntp_adjtime(10000) == 0);
	pass_to_mono(3 * NS + NS / 2, true); /* the boundaries at 1, 2 and 3 s: 1500 us done */
	assert_true(dz_ntp_adjtime_left() == 10000 - 3 * DZ_NTP_ADJTIME);
	assert_true(dz_ntp_adjtime(-700) == 10000 - 3 * DZ_NTP_ADJTIME);
	assert_true(dz_ntp_adjtime_left() == -700);
	pass_to_mono(5 * NS + NS / 2, true);
	assert_true(dz_ntp_adjtime_left() == 0);
}

/* The PLL's model (see the top): offset and frequency, second by second. */
struct pll_model {
	s64 offset; /* ns << 32 */
	s64 freq;   /* ns a second << 32 */
	unsigned int c;
};

static s64 toward_zero(s64 x, unsigned int s)
{
	return x < 0 ? -((-x) >> s) : x >> s;
}

static void pll_model_offset(struct pll_model *p, s64 ns, s64 secs, bool fll)
{
	s64 cap = (s64)1 << (3 + p->c), f = p->freq;

	if (secs >= 256 && (fll || secs > 2048))
		f += ns * ((s64)1 << 30) / secs;
	f += ns * (secs < cap ? secs : cap) * ((s64)1 << (32 - 2 * (4 + p->c)));
	p->freq = f > (500000LL << 32)	  ? 500000LL << 32
		  : f < -(500000LL << 32) ? -(500000LL << 32)
					  : f;
	p->offset = ns * ((s64)1 << 32);
}

static void pll_case(unsigned int hz, unsigned int c, s64 ns, s64 secs, bool fll)
{
	struct pll_model p = { 0, 0, c };
	u64 start;
	bool mode;

	boot(hz, true, true);
	pass_to_mono(NS / 2, true);
	dz_ntp_set_constant(c);
	assert_int_equal(dz_ntp_constant(), c);
	dz_ntp_pll_start();
	pass_to_mono((u64)secs * NS + NS / 2, true);
	mode = dz_ntp_offset(ns, fll ? DZ_NTP_FLL : 0);
	pll_model_offset(&p, ns, secs, fll);
	assert_int_equal(mode, secs >= 256 && (fll || secs > 2048));
	start = ktime_get_ns() / NS + 1;
	assert_true(dz_ntp_offset_left() == ns);
	for (u64 k = 0; k < 40; k++) {
		s64 share = toward_zero(p.offset, 2 + c);

		p.offset -= share;
		check_second((start + k) * NS, (u64)((s64)SCALE + p.freq + share), "pll");
		if (dz_ntp_offset_left() != toward_zero(p.offset, 32))
			fail_msg("PLL, constant %u, offset %lld: %llu s on, %lld ns left, model "
				 "%lld",
				 c, (long long)ns, (unsigned long long)k,
				 (long long)dz_ntp_offset_left(),
				 (long long)toward_zero(p.offset, 32));
	}
	printf("# PLL constant %u, offset %lld ns after %lld s%s: %lld ns left after 40 s, "
	       "freq %.3f ppm\n",
	       c, (long long)ns, (long long)secs, fll ? " (FLL)" : "",
	       (long long)dz_ntp_offset_left(), (double)p.freq / 4294967296.0 / 1000.0);
}

static void test_pll(void **state)
{
	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		pll_case(hzs[h], 0, 1000000, 10, false);
		pll_case(hzs[h], 2, -250000, 10, false);
	}
	pll_case(hzs[0], 4, 500000000, 20, false);   /* the largest offset */
	pll_case(hzs[0], 2, 3000000, 300, true);     /* STA_FLL past 256 s */
	pll_case(hzs[0], 2, 3000000, 300, false);    /* not yet without it */
	pll_case(hzs[0], 6, -40000000, 2100, false); /* FLL past 2048 s */
	pll_case(hzs[0], 10, 100000, 30, false);     /* the slowest */
}

/* STA_FREQHOLD: the offset is worked off, the frequency stays. */
static void test_freqhold(void **state)
{
	(void)state;
	boot(hzs[0], true, true);
	dz_ntp_set_freq(PPM16(37));
	dz_ntp_pll_start();
	pass_to_mono(100 * NS + NS / 2, true);
	assert_false(dz_ntp_offset(2000000, DZ_NTP_FREQHOLD | DZ_NTP_FLL));
	assert_true(dz_ntp_freq() == PPM16(37));
	check_second(101 * NS, SCALE + (37000ULL << 32) + ((2000000ULL << 32) >> 4), "freqhold");
}

/* Setting the clock forgets both offsets at once (Linux's ntp_clear()). */
static void test_clear(void **state)
{
	(void)state;
	boot(hzs[0], true, true);
	dz_ntp_set_freq(PPM16(-20));
	dz_ntp_pll_start();
	dz_ntp_offset(5000000, 0);
	dz_ntp_adjtime(300000);
	pass_to_mono(4 * NS + NS / 2, true);
	dz_timekeeping_set_real_ns(1700000000LL * (s64)NS);
	assert_true(dz_ntp_adjtime_left() == 0);
	assert_true(dz_ntp_offset_left() == 0);
	/* the frequency stays: the second now runs at it alone */
	check_second(ktime_get_ns() / NS * NS + NS, (u64)((s64)SCALE - (20000LL << 32)), "clear");
}

/*
 * The inverse the device is programmed by: the first raw time at which
 * the clock reaches m is r0 + ceil((m - m0) * 10^6 / (10^6 + ppm)); and
 * the forward rule extends the segment backwards, m0 - ceil((r0 - r) *
 * (10^6 + ppm) / 10^6), for a raw time before it.
 */
static void test_inverse(void **state)
{
	static const s64 ppms[] = { 1, -1, 500, -500, 100000, -100000, 0 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ppms); i++) {
		/* beyond 500 ppm by the tick: whole us a tick */
		s64 ppm = ppms[i] % 1000 ? ppms[i] : ppms[i] / USER_HZ * USER_HZ;
		u64 num = (u64)((s64)MS + ppm);
		struct seg s;

		boot(hzs[0], true, true);
		pass(NS + rnd(NS), false);
		s = seg_now(num, MS);
		if (ppms[i] % 1000)
			dz_ntp_set_freq(PPM16(ppm));
		else
			dz_ntp_set_tick(DZ_NTP_TICK_USEC + (long)(ppm / USER_HZ));
		for (int k = 0; k < 100000; k++) {
			u64 m = s.m0 + rnd(k % 2 ? 1000 : 100 * NS), r = s.r0 + rnd(s.r0);
			u64 want = s.r0 + ref_muldiv(m - s.m0, MS, num, REF_UP, U64_MAX);
			u64 back = s.r0 - rnd(s.r0 + 1);

			if (dz_timekeeping_mono_to_raw(m) != want)
				fail_msg("%+lld ppm: the clock reaches %llu at raw %llu, want %llu",
					 (long long)ppms[i], (unsigned long long)m,
					 (unsigned long long)dz_timekeeping_mono_to_raw(m),
					 (unsigned long long)want);
			assert_true(dz_timekeeping_raw_to_mono(r) == seg_mono(&s, r));
			want = ref_muldiv(s.r0 - back, num, MS, REF_UP, U64_MAX);
			want = want < s.m0 ? s.m0 - want : 0;
			if (dz_timekeeping_raw_to_mono(back) != want)
				fail_msg("%+lld ppm: back at raw %llu, %llu, want %llu",
					 (long long)ppms[i], (unsigned long long)back,
					 (unsigned long long)dz_timekeeping_raw_to_mono(back),
					 (unsigned long long)want);
		}
		/* a time passed: a raw time passed */
		assert_true(dz_timekeeping_mono_to_raw(s.m0 - rnd(s.m0)) <= ktime_get_raw_ns());
	}
}

/*
 * Many changes, nothing lost: the frequency jumps between whole numbers
 * of ppm at random instants, hundreds of times, and monotonic time stays
 * the exact sum of the segments, floor(m0 + sum dr_i * (10^6 + ppm_i) /
 * 10^6), kept here in 10^-6 ns. A fold that dropped the fraction of a ns
 * it cuts through would fall behind by up to a ns each time.
 */
static void test_fold_exact(void **state)
{
	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		u64 r, m0, exact = 0; /* monotonic time since m0, in 10^-6 ns */
		s64 ppm = 0;

		boot(hzs[h], true, true);
		pass(rnd(NS), false);
		r = ktime_get_raw_ns();
		m0 = ktime_get_ns();
		for (int i = 0; i < 1000; i++) {
			u64 now, want;

			ppm = (s64)rnd(1001) - 500;
			dz_ntp_set_freq(PPM16(ppm));
			pass(1 + rnd(div_cycles * 3 * NS / FREQ), rnd(4) == 0);
			now = ktime_get_raw_ns();
			exact += (now - r) * (u64)((s64)MS + ppm);
			r = now;
			want = m0 + exact / MS;
			if (ktime_get_ns() != want)
				fail_msg("HZ %u, change %d: monotonic %llu, the segments' sum %llu",
					 HZ, i, (unsigned long long)ktime_get_ns(),
					 (unsigned long long)want);
		}
	}
}

/*
 * Continuity and order across random changes: the time read just before
 * and just after a change at the same instant is the same; no read ever
 * goes back, fine or coarse; the coarse clock never passes the fine one
 * and moves only when the tick count does; between changes the time moves
 * at the rate in force, to the ns; raw time and jiffies never feel it.
 */
struct sample {
	u64 m, c, raw, tick;
};

static struct sample take(void)
{
	struct sample s = { ktime_get_ns(), ktime_get_coarse_ns(), ktime_get_raw_ns(),
			    dz_tick_count() };

	return s;
}

static void check_order(const struct sample *a, const struct sample *b, const char *when)
{
	if (b->m < a->m || b->c < a->c || b->c > b->m || (b->tick == a->tick && b->c != a->c))
		fail_msg("%s: fine %llu -> %llu, coarse %llu -> %llu, ticks %llu -> %llu", when,
			 (unsigned long long)a->m, (unsigned long long)b->m,
			 (unsigned long long)a->c, (unsigned long long)b->c,
			 (unsigned long long)a->tick, (unsigned long long)b->tick);
}

/* One random change of rate; returns the new rate as length (ns << 32 a second) if known. */
static void random_change(void)
{
	switch (rnd(6)) {
	case 0:
		dz_ntp_set_freq((s64)rnd(1001 << 16) - PPM16(500));
		break;
	case 1:
		dz_ntp_set_tick(DZ_NTP_TICK_MIN + (long)rnd(DZ_NTP_TICK_MAX - DZ_NTP_TICK_MIN + 1));
		break;
	case 2:
		dz_ntp_offset((s64)rnd(1000000001) - 500000000, rnd(2) ? DZ_NTP_FLL : 0);
		break;
	case 3:
		dz_ntp_adjtime((s64)rnd(2000001) - 1000000);
		break;
	case 4:
		dz_ntp_set_constant((long)rnd(11));
		break;
	default:
		dz_ntp_set_freq(PPM16(rnd(2) ? 500 : -500)); /* skew_consistency's swing */
		break;
	}
}

static void continuity_walk(unsigned int hz, bool highres, bool nohz, unsigned int steps)
{
	struct sample last, before, after;

	boot(hz, highres, nohz);
	dz_ntp_pll_start();
	last = take();
	for (unsigned int i = 0; i < steps; i++) {
		/* mostly short: many changes within one jiffy, and sampled densely after */
		u64 step = rnd(4) ? rnd(div_cycles * 2000000000ULL / FREQ) : rnd(3 * NS);

		pass(step, rnd(3) == 0);
		check_raw_and_jiffies();
		before = take();
		check_order(&last, &before, "between changes");
		random_change();
		after = take();
		check_order(&before, &after, "across a change");
		if (after.m != before.m || after.raw != before.raw)
			fail_msg("a change at raw %llu moved the time: %llu -> %llu",
				 (unsigned long long)before.raw, (unsigned long long)before.m,
				 (unsigned long long)after.m);
		last = after;
		/* densely after the change: a few cycles at a time, never back, at 1 +- 25 % */
		for (int k = 0; k < 4; k++) {
			struct sample s;

			pass(1 + rnd(3000), false);
			s = take();
			check_order(&last, &s, "just after a change");
			if (4 * (s.m - last.m) > 5 * (s.raw - last.raw) + 4 ||
			    4 * (s.m - last.m) + 4 < 3 * (s.raw - last.raw))
				fail_msg("%llu ns in %llu raw ns",
					 (unsigned long long)(s.m - last.m),
					 (unsigned long long)(s.raw - last.raw));
			last = s;
		}
	}
}

static void test_continuity(void **state)
{
	unsigned int steps = long_run() ? 20000 : 2000;

	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		continuity_walk(hzs[h], true, true, steps);
		continuity_walk(hzs[h], false, true, steps / 2);
		continuity_walk(hzs[h], false, false, steps / 4);
	}
}

/*
 * The coarse clock under a steady rate: the fine clock's value at the
 * jiffy's start (the raw time of jiffy n's start is floor(n * divisor *
 * 10^9 / f)), the first jiffy, begun before the change, at its unsteered
 * value.
 */
static void test_coarse(void **state)
{
	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		struct seg s;

		boot(hzs[h], true, true);
		pass(NS + rnd(NS), false);
		s = seg_now(MS + 321, MS);
		dz_ntp_set_freq(PPM16(321));
		for (int i = 0; i < 3000; i++) {
			u64 grid = ref_muldiv(dz_tick_count() * div_cycles, NS, FREQ, REF_DOWN,
					      U64_MAX);
			u64 want = grid < s.r0 ? grid : seg_mono(&s, grid);

			if (ktime_get_coarse_ns() != want)
				fail_msg("HZ %u, jiffy %llu: coarse %llu, want %llu", HZ,
					 (unsigned long long)dz_tick_count(),
					 (unsigned long long)ktime_get_coarse_ns(),
					 (unsigned long long)want);
			assert_true(ktime_get_coarse_real_ns() ==
				    want + (u64)dz_timekeeping_real_offset_ns());
			pass(rnd(i % 100 ? div_cycles * 3 * NS / FREQ : 5 * NS), i % 7 == 0);
		}
	}
}

/*
 * HZ changed under a steered clock (the variable build): the raw time
 * goes on, so does the rate; the coarse clock never goes back or passes
 * the fine one across the change.
 */
static void test_retune(void **state)
{
	(void)state;
#ifndef CONFIG_HZ
	for (int i = 0; i < 2; i++) {
		struct sample a, b;
		struct seg s;

		boot(i ? 4321 : 97, i == 0, true);
		pass(NS / 2 + rnd(NS), false);
		s = seg_now(MS - 123, MS);
		dz_ntp_set_freq(PPM16(-123));
		pass(3 * NS + rnd(NS), false);
		a = take();
		assert_int_equal(dynhz_host_retune(i ? 97 : 4321), 0);
		b = take();
		check_order(&a, &b, "across the change of HZ");
		for (int k = 0; k < 200; k++) {
			pass(rnd(NS / 10), k % 3 == 0);
			a = b;
			b = take();
			check_order(&a, &b, "after the change of HZ");
			assert_true(b.raw == raw_ref());
			if (b.m != seg_mono(&s, b.raw))
				fail_msg("after HZ %u: monotonic %llu, exact %llu", HZ,
					 (unsigned long long)b.m,
					 (unsigned long long)seg_mono(&s, b.raw));
		}
	}
#endif
}

/* ---- hrtimers on the steered clock ---- */

#define NPROBES 24

static struct probe {
	struct hrtimer t;
	int clock;
	s64 expires; /* on its clock */
	bool fired;
	s64 at; /* its clock when it ran */
} probes[NPROBES];

static enum hrtimer_restart probe_fn(struct hrtimer *t)
{
	struct probe *p = dz_container_of(t, struct probe, t);

	p->fired = true;
	p->at = hrtimer_cb_get_time(t);
	return HRTIMER_NORESTART;
}

static void probe_start(struct probe *p, u64 in_ns)
{
	static const int clocks[] = { DZ_CLOCK_MONOTONIC, DZ_CLOCK_REALTIME, DZ_CLOCK_BOOTTIME,
				      DZ_CLOCK_TAI };
	bool rel = rnd(2);
	s64 now;

	p->clock = clocks[rnd(ARRAY_SIZE(clocks))];
	hrtimer_setup(&p->t, probe_fn, p->clock, rel ? HRTIMER_MODE_REL : HRTIMER_MODE_ABS);
	/* A relative realtime timer runs on the monotonic clock (POSIX). */
	p->clock = dz_hrtimer_clock(&p->t);
	assert_int_equal(dz_clock_get_ns(p->clock, &now), 0);
	p->fired = false;
	p->expires = now + (s64)in_ns;
	hrtimer_start(&p->t, rel ? (s64)in_ns : p->expires,
		      rel ? HRTIMER_MODE_REL : HRTIMER_MODE_ABS);
}

/*
 * Timers up to 20 s ahead while the rate jumps between its extremes (10 %
 * of tick and 500 ppm either way, adjtime() and the PLL): none runs
 * before its time on its own clock, none later than the device's delay
 * (4 cycles, at the fastest rate) or, at tick resolution, a tick after.
 */
static void hrtimer_case(unsigned int hz, bool highres, bool nohz)
{
	u64 cycle_ns = (NS + FREQ - 1) / FREQ;
	s64 late_max =
		(s64)((highres ? 4 * cycle_ns : div_cycles * cycle_ns + 4 * cycle_ns) * 5 / 4);
	s64 worst = 0;

	boot(hz, highres, nohz);
	dz_ntp_pll_start();
	for (int round = 0; round < 6; round++) {
		for (int i = 0; i < NPROBES; i++)
			probe_start(&probes[i], rnd(20 * NS));
		for (int k = 0; k < 40; k++) {
			switch (rnd(4)) {
			case 0:
				dz_ntp_set_tick(rnd(2) ? DZ_NTP_TICK_MAX : DZ_NTP_TICK_MIN);
				break;
			case 1:
				dz_ntp_set_freq(PPM16(rnd(2) ? 500 : -500));
				break;
			default:
				random_change();
				break;
			}
			pass(rnd(NS), rnd(2));
		}
		pass(25 * NS, true);
		for (int i = 0; i < NPROBES; i++) {
			struct probe *p = &probes[i];

			if (!p->fired || p->at < p->expires || p->at - p->expires > late_max)
				fail_msg("HZ %u, %s: timer on clock %d due at %lld %s at %lld "
					 "(%+lld ns, "
					 "at most %lld late)",
					 hz, highres ? "highres" : "tick resolution", p->clock,
					 (long long)p->expires, p->fired ? "ran" : "not run",
					 (long long)p->at, (long long)(p->at - p->expires),
					 (long long)late_max);
			if (p->at - p->expires > worst)
				worst = p->at - p->expires;
		}
	}
	printf("# hrtimers at HZ %u, %s: at most %lld ns late (bound %lld)\n", hz,
	       highres ? "high resolution" : "tick resolution", (long long)worst,
	       (long long)late_max);
}

static void test_hrtimers(void **state)
{
	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		hrtimer_case(hzs[h], true, true);
		hrtimer_case(hzs[h], false, true);
		hrtimer_case(hzs[h], false, false);
	}
}

/*
 * A timer far ahead, then the clock made faster: it must not wait for the
 * raw time it was programmed for (10 % late); slower: the device comes
 * early and the timer waits for its time.
 */
static void test_hrtimer_rate_change(void **state)
{
	(void)state;
	for (int faster = 0; faster < 2; faster++) {
		struct probe *p = &probes[0];
		s64 now;

		boot(hzs[0], true, true);
		pass(NS, false);
		assert_int_equal(dz_clock_get_ns(DZ_CLOCK_MONOTONIC, &now), 0);
		hrtimer_setup(&p->t, probe_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
		p->fired = false;
		p->expires = now + 10 * (s64)NS;
		hrtimer_start(&p->t, p->expires, HRTIMER_MODE_ABS);
		pass(NS, true);
		assert_int_equal(dz_ntp_set_tick(faster ? DZ_NTP_TICK_MAX : DZ_NTP_TICK_MIN), 0);
		pass(8 * NS, true); /* 8.8 s or 7.2 s of the clock: not yet */
		assert_false(p->fired);
		pass(3 * NS, true);
		assert_true(p->fired);
		assert_true(p->at >= p->expires && p->at - p->expires < 10000);
	}
}

/*
 * The same within a jiffy, the CPU busy: a timer due half a jiffy after a
 * tick, the clock made 10 % faster or slower at once. The device was
 * programmed for it at the old rate, and no tick comes before it to
 * program it again.
 */
static void test_hrtimer_rate_change_busy(void **state)
{
	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		for (int faster = 0; faster < 2; faster++) {
			struct probe *p = &probes[0];
			u64 half = div_cycles * NS / FREQ / 2;
			s64 now;

			boot(hzs[h], true, true);
			dynhz_host_run_ticks(3); /* at a tick */
			assert_int_equal(dz_clock_get_ns(DZ_CLOCK_MONOTONIC, &now), 0);
			hrtimer_setup(&p->t, probe_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
			p->fired = false;
			p->expires = now + (s64)half;
			hrtimer_start(&p->t, p->expires, HRTIMER_MODE_ABS);
			assert_int_equal(
				dz_ntp_set_tick(faster ? DZ_NTP_TICK_MAX : DZ_NTP_TICK_MIN), 0);
			pass(half * 3, false);
			assert_true(p->fired);
			if (p->at < p->expires || p->at - p->expires > 5000)
				fail_msg("HZ %u, %s: due at %lld, ran at %lld", HZ,
					 faster ? "faster" : "slower", (long long)p->expires,
					 (long long)p->at);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unsteered),
		cmocka_unit_test(test_frequency),
		cmocka_unit_test(test_freq_readback),
		cmocka_unit_test(test_tick),
		cmocka_unit_test(test_tick_and_freq),
		cmocka_unit_test(test_adjtime),
		cmocka_unit_test(test_adjtime_replace),
		cmocka_unit_test(test_pll),
		cmocka_unit_test(test_freqhold),
		cmocka_unit_test(test_clear),
		cmocka_unit_test(test_inverse),
		cmocka_unit_test(test_fold_exact),
		cmocka_unit_test(test_continuity),
		cmocka_unit_test(test_coarse),
		cmocka_unit_test(test_retune),
		cmocka_unit_test(test_hrtimers),
		cmocka_unit_test(test_hrtimer_rate_change),
		cmocka_unit_test(test_hrtimer_rate_change_busy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
