// SPDX-License-Identifier: MIT
/*
 * Monotonic time against exact products computed here.
 *
 * After n ticks of the simulated PIT at divisor d the time must be
 * floor(n * d * 10^9 / 1193182) ns, to the nanosecond, for a simulated day
 * at every HZ (in the constant builds, at CONFIG_HZ), from the simulated
 * clock (a 32-bit counter that wraps every hour) and from ticks alone.
 * Other clocksources (frequencies, widths, wraps, switching) are checked
 * against floor(cycles * 10^9 / freq) by the tests' reference arithmetic.
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

#define PIT_IN 1193182ULL /* the PIT's input clock, Hz */
#define NS     1000000000ULL
#define DAY_S  86400ULL

static bool long_run(void)
{
	const char *s = getenv("DYNHZ_LONG");

	return s && *s && strcmp(s, "0");
}

static u64 divisor_of(unsigned int hz)
{
	return (PIT_IN + hz / 2) / hz;
}

/*
 * floor(n * d * 10^9 / 1193182), two ways: with a 128-bit product where
 * the compiler has one, and by splitting a = n * d (below 2^64 for any
 * n we use) into whole seconds of input clock and a remainder.
 */
static u64 pit_ns(u64 n, u64 d)
{
	u64 a = n * d;
	u64 split = (a / PIT_IN) * NS + (a % PIT_IN) * NS / PIT_IN;

#ifdef __SIZEOF_INT128__
	unsigned __int128 p = (unsigned __int128)n * d * NS / PIT_IN;

	assert_true((u64)p == split);
#endif
	return split;
}

/* The HZ of tests that need just one: the constant builds can boot no other. */
#ifdef CONFIG_HZ
#define ANY_HZ CONFIG_HZ
#else
#define ANY_HZ 250
#endif

static void boot_hz(unsigned int hz)
{
	char cl[32];

	snprintf(cl, sizeof(cl), "hz=%u", hz);
	dynhz_host_set_quiet(true);
	assert_int_equal(dynhz_boot_quiet(cl), 0);
	assert_int_equal(HZ, hz);
}

/* Before any boot there is no time yet. */
static void test_before_boot(void **state)
{
	(void)state;
	assert_true(ktime_get_ns() == 0);
	assert_true(dz_tick_count() == 0);
	assert_null(dz_tick_device());
}

/* Checks time, jiffies and the tick count after ticks ticks. */
static void check_at(unsigned int hz, u64 ticks, const char *how)
{
	u64 want = pit_ns(ticks, divisor_of(hz)), got = ktime_get_ns();

	if (got != want || dz_tick_count() != ticks ||
	    jiffies_64 != (u64)(unsigned long)(0UL - 300UL * hz) + ticks)
		fail_msg("HZ %u, %s, after %llu ticks: ktime %llu, exact %llu (%+lld ns); "
			 "tick_count %llu",
			 hz, how, (unsigned long long)ticks, (unsigned long long)got,
			 (unsigned long long)want, (long long)(got - want),
			 (unsigned long long)dz_tick_count());
}

/* A day in uneven pieces, ticking for real at the start and at the end. */
static void one_day(unsigned int hz, bool from_ticks)
{
	const char *how = from_ticks ? "from ticks" : "from the clocksource";
	u64 day = DAY_S * PIT_IN / divisor_of(hz); /* whole ticks in a day */
	u64 done = 0;

	boot_hz(hz);
	if (from_ticks)
		clocksource_unregister(dz_clocksource_current());
	check_at(hz, 0, how);
	dynhz_host_run_ticks(3);
	done = 3;
	check_at(hz, done, how);
	for (u64 piece = day / 7 + 12345; done + piece < day; done += piece) {
		dynhz_host_advance_ticks(piece);
		check_at(hz, done + piece, how);
	}
	dynhz_host_advance_ticks(day - 1 - done);
	dynhz_host_run_ticks(1);
	check_at(hz, day, how);
}

static void test_day_every_hz(void **state)
{
	(void)state;
#ifdef CONFIG_HZ
	one_day(CONFIG_HZ, false);
	one_day(CONFIG_HZ, true);
#else
	/* every HZ from the clocksource; from ticks, every HZ in the long run */
	for (unsigned int hz = DZ_HZ_MIN; hz <= DZ_HZ_MAX; hz++) {
		one_day(hz, false);
		if (long_run() || hz % 97 == 0 || hz < 40 || hz > DZ_HZ_MAX - 20)
			one_day(hz, true);
	}
	one_day(333, true);
	one_day(1000, true);
#endif
}

/* Ten simulated years tick by tick would take long: fast-forward is exact too. */
static void test_years(void **state)
{
	unsigned int hz = DZ_HZ_MIN;
	u64 n = 10 * 365 * DAY_S * PIT_IN / divisor_of(DZ_HZ_MIN);

	(void)state;
#ifdef CONFIG_HZ
	hz = CONFIG_HZ;
	n = 10 * 365 * DAY_S * PIT_IN / divisor_of(hz);
#endif
	for (int from_ticks = 0; from_ticks < 2; from_ticks++) {
		boot_hz(hz);
		if (from_ticks)
			clocksource_unregister(dz_clocksource_current());
		dynhz_host_advance_ticks(n);
		check_at(hz, n, from_ticks ? "from ticks" : "from the clocksource");
	}
}

/* ---- other clocksources ---- */

struct test_clock {
	struct clocksource cs;
	u64 counter; /* the full count; read() shows the masked one */
};

static u64 test_clock_read(struct clocksource *cs)
{
	struct test_clock *c = dz_container_of(cs, struct test_clock, cs);

	return c->counter & cs->mask;
}

static struct test_clock tc = { .cs = { .name = "test", .read = test_clock_read } };

static u64 seed = 0x70c70c;

static u64 rnd(u64 n)
{
	return ref_rand(&seed) % n;
}

/* Cycles in one tick of num/den s at freq Hz, rounded down. */
static u64 cycles_per_tick(u64 freq, struct dz_tick_period p)
{
	return ref_muldiv(freq, p.num, p.den, REF_DOWN, U64_MAX);
}

/*
 * Registers tc at freq with mask after some PIT ticks, then runs ticks
 * with the counter moving a random 1/2 to 3/2 of a tick's cycles each (a
 * jittery clock: folding must not depend on an exact rate), reads the
 * time between ticks, and compares with floor(cycles * 10^9 / freq).
 */
static void clock_case(unsigned int hz, u64 freq, u64 mask, u64 start, unsigned int ticks)
{
	unsigned int boot_ticks = 1 + (unsigned int)rnd(50);
	u64 per, base, total = 0;

	boot_hz(hz);
	per = cycles_per_tick(freq, dz_hz_period());
	dynhz_host_run_ticks(boot_ticks);
	base = pit_ns(boot_ticks, divisor_of(hz));
	tc.cs.mask = mask;
	tc.counter = start;
	assert_int_equal(clocksource_register_hz(&tc.cs, freq), 0);
	assert_ptr_equal(dz_clocksource_current(), &tc.cs);
	assert_true(ktime_get_ns() == base);
	for (unsigned int i = 0; i < ticks; i++) {
		u64 step = per / 2 + rnd(per + 1), part = rnd(step + 1), want, got;

		tc.counter += part; /* between two ticks */
		want = base + ref_muldiv(total + part, NS, freq, REF_DOWN, U64_MAX);
		got = ktime_get_ns();
		if (got != want)
			fail_msg("%llu Hz, mask %#llx, tick %u: ktime %llu, exact %llu",
				 (unsigned long long)freq, (unsigned long long)mask, i,
				 (unsigned long long)got, (unsigned long long)want);
		tc.counter += step - part;
		total += step;
		dynhz_host_run_ticks(1);
	}
	assert_true(ktime_get_ns() == base + ref_muldiv(total, NS, freq, REF_DOWN, U64_MAX));
}

static void test_clocksources(void **state)
{
	static const struct {
		u64 freq, mask;
	} cases[] = {
		{ 1000000000ULL, U64_MAX },	     /* the TSC under QEMU -icount */
		{ 3000000007ULL, U64_MAX },	     /* an odd TSC */
		{ 14318180ULL, 0xffffffffULL },	     /* HPET */
		{ 3579545ULL, 0xffffffULL },	     /* ACPI PM timer, 24 bits */
		{ 1193182ULL, 0xffffULL },	     /* wraps within a tick at low HZ... */
		{ 32768ULL, 0xffffffffULL },	     /* a watch crystal */
		{ 10000000000ULL, 0xffffffffffULL }, /* 10 GHz, 40 bits */
		{ 1ULL, 0xffULL },		     /* 1 Hz */
	};
#ifdef CONFIG_HZ
	static const unsigned int hzs[] = { CONFIG_HZ };
#else
	static const unsigned int hzs[] = { DZ_HZ_MIN, 1000, DZ_HZ_MAX };
#endif
	unsigned int ticks = long_run() ? 200000 : 2000;

	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
			u64 per;

			boot_hz(hzs[h]);
			per = cycles_per_tick(cases[i].freq, dz_hz_period());
			/* a counter must not wrap within two ticks (3/2 with jitter) */
			if (per + per / 2 >= cases[i].mask / 2)
				continue;
			clock_case(hzs[h], cases[i].freq, cases[i].mask, cases[i].mask - rnd(1000),
				   ticks);
			clock_case(hzs[h], cases[i].freq, cases[i].mask, rnd(cases[i].mask), ticks);
		}
	}
	clocksource_unregister(&tc.cs);
}

/* A 64-bit counter read after huge gaps: exact without any tick. */
static void test_large_counts(void **state)
{
	static const u64 freqs[] = { 1000000000ULL, 2399999999ULL, 1193182ULL, 19200000ULL };

	(void)state;
	for (size_t f = 0; f < ARRAY_SIZE(freqs); f++) {
		boot_hz(ANY_HZ);
		tc.cs.mask = U64_MAX;
		tc.counter = U64_MAX - 5;
		assert_int_equal(clocksource_register_hz(&tc.cs, freqs[f]), 0);
		for (int i = 0; i < 2000; i++) {
			/* up to ~100 years of cycles, the wrap of the 64-bit counter included */
			u64 c = rnd(freqs[f] * 3153600000ULL);

			tc.counter = U64_MAX - 5 + c;
			assert_true(ktime_get_ns() ==
				    ref_muldiv(c, NS, freqs[f], REF_DOWN, U64_MAX));
		}
	}
	clocksource_unregister(&tc.cs);
}

/*
 * The core may skip ticks only while a narrow counter cannot wrap unseen:
 * at most half its range, counted in whole ticks, since the last fold.
 */
static void test_skip_limit(void **state)
{
	u64 freq = 3579545, mask = 0xffffff, limit, total = 0;
	unsigned int hz = 19;

	(void)state;
#ifdef CONFIG_HZ
	hz = CONFIG_HZ;
#endif
	boot_hz(hz);
	tc.cs.mask = mask;
	tc.counter = 0;
	assert_int_equal(clocksource_register_hz(&tc.cs, freq), 0);
	/* half the range over one tick of divisor / 1193182 s at freq */
	limit = ref_muldiv(mask >> 1, PIT_IN, freq * divisor_of(hz), REF_DOWN, U64_MAX);
	assert_true(limit >= 1);
	assert_true(dz_tick_idle_max() == limit);
	for (int i = 0; i < 1000; i++) {
		u64 k = 1 + rnd(dz_tick_idle_max());

		assert_true(k <= limit);
		/* k ticks of exact cycles (the remainders carried by the test) */
		tc.counter +=
			ref_muldiv(total + k, freq * divisor_of(hz), PIT_IN, REF_DOWN, U64_MAX) -
			ref_muldiv(total, freq * divisor_of(hz), PIT_IN, REF_DOWN, U64_MAX);
		total += k;
		dz_tick_skip(k);
		assert_true(dz_tick_idle_max() == limit);
		assert_true(ktime_get_ns() == ref_muldiv(ref_muldiv(total, freq * divisor_of(hz),
								    PIT_IN, REF_DOWN, U64_MAX),
							 NS, freq, REF_DOWN, U64_MAX));
	}
	clocksource_unregister(&tc.cs);
}

/*
 * Switching sources keeps the time: registering continues from the time
 * then, unregistering goes on from ticks from the time then.
 */
static void test_switch(void **state)
{
	unsigned int hz = ANY_HZ;
	u64 d = divisor_of(hz), t0, t1, t2, cycles;

	(void)state;
	boot_hz(hz);
	dynhz_host_run_ticks(100);
	t0 = pit_ns(100, d);
	assert_true(ktime_get_ns() == t0);

	tc.cs.mask = 0xffffffff;
	tc.counter = 0xfffffff0;
	assert_int_equal(clocksource_register_hz(&tc.cs, 1000000000), 0);
	assert_true(ktime_get_ns() == t0);
	cycles = 123456789;
	tc.counter += cycles;
	dynhz_host_run_ticks(1);
	t1 = t0 + cycles;
	assert_true(ktime_get_ns() == t1);

	clocksource_unregister(&tc.cs);
	assert_null(dz_clocksource_current());
	assert_true(ktime_get_ns() == t1);
	dynhz_host_run_ticks(1000);
	/* from ticks: the exact product of the ticks since the switch */
	t2 = t1 + pit_ns(1000, d);
	assert_true(ktime_get_ns() == t2);

	/* registering the same clocksource again continues too */
	assert_int_equal(clocksource_register_hz(&tc.cs, 1000000000), 0);
	assert_int_equal(clocksource_register_hz(&tc.cs, 1000000000), 0);
	assert_true(ktime_get_ns() == t2);
	clocksource_unregister(&tc.cs);
}

/* A clocksource registered before boot counts from the boot on. */
static void test_registered_before_boot(void **state)
{
	(void)state;
	tc.cs.mask = U64_MAX;
	tc.counter = 777777777777ULL;
	assert_int_equal(clocksource_register_hz(&tc.cs, 1000000000), 0);
	assert_int_equal(dz_time_init_quiet("", dz_tick_device()), 0);
	assert_ptr_equal(dz_clocksource_current(), &tc.cs);
	assert_true(ktime_get_ns() == 0);
	tc.counter += 5000;
	assert_true(ktime_get_ns() == 5000);
	clocksource_unregister(&tc.cs);
}

static void test_register_errors(void **state)
{
	static struct clocksource bad;
	struct clocksource *cur;

	(void)state;
	boot_hz(ANY_HZ);
	cur = dz_clocksource_current();
	assert_int_equal(clocksource_register_hz(NULL, 1000), -DZ_EINVAL);
	bad.name = "bad";
	bad.mask = U64_MAX;
	assert_int_equal(clocksource_register_hz(&bad, 1000), -DZ_EINVAL); /* no read */
	bad.read = test_clock_read;
	assert_int_equal(clocksource_register_hz(&bad, 0), -DZ_EINVAL);
	bad.mask = 0;
	assert_int_equal(clocksource_register_hz(&bad, 1000), -DZ_EINVAL);
	bad.mask = 0xfff0;
	assert_int_equal(clocksource_register_hz(&bad, 1000), -DZ_EINVAL);
	assert_ptr_equal(dz_clocksource_current(), cur);
	clocksource_unregister(&bad); /* not in use: nothing happens */
	assert_ptr_equal(dz_clocksource_current(), cur);
}

/* Time never goes back, also read between ticks of the simulated clock. */
static void test_monotonic(void **state)
{
	u64 prev = 0;

	(void)state;
	boot_hz(ANY_HZ);
	for (int i = 0; i < 20000; i++) {
		u64 now;

		if (i % 3)
			dynhz_host_run_ticks(1);
		else
			dynhz_host_advance_ticks(rnd(100000));
		now = ktime_get_ns();
		assert_true(now >= prev);
		prev = now;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_before_boot),  cmocka_unit_test(test_register_errors),
		cmocka_unit_test(test_switch),	     cmocka_unit_test(test_registered_before_boot),
		cmocka_unit_test(test_clocksources), cmocka_unit_test(test_large_counts),
		cmocka_unit_test(test_skip_limit),   cmocka_unit_test(test_monotonic),
		cmocka_unit_test(test_years),	     cmocka_unit_test(test_day_every_hz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
