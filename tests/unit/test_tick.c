// SPDX-License-Identifier: MIT
/*
 * The boot of time and the periodic tick, through the interfaces the x86
 * kernel uses: a clock-event device of the test's own, dz_time_init(), and
 * the device's interrupt calling event_handler. Also the hosted PIT.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>
#include "clockevent-internal.h"
#include "ref.h"

#include "panic.h"

#define PIT_IN 1193182ULL

#ifdef CONFIG_HZ
#define ANY_HZ CONFIG_HZ
#else
#define ANY_HZ 250
#endif

/* ---- a clock-event device that records what it is asked ---- */

static struct {
	unsigned int periodic_calls, shutdown_calls, oneshot_calls;
	unsigned int hz;
	u64 delta_ns;
	bool exact; /* tick of exactly 1/HZ s instead of the PIT's */
	int fail;   /* error to return from set_state_periodic */
} rec;

static int fake_periodic(struct clock_event_device *dev, unsigned int hz,
			 struct dz_tick_period *period)
{
	(void)dev;
	rec.periodic_calls++;
	rec.hz = hz;
	if (rec.fail)
		return rec.fail;
	if (rec.exact) {
		period->num = 1;
		period->den = hz;
	} else {
		period->num = (PIT_IN + hz / 2) / hz;
		period->den = PIT_IN;
	}
	return 0;
}

static int fake_oneshot(struct clock_event_device *dev, u64 delta_ns)
{
	(void)dev;
	rec.oneshot_calls++;
	rec.delta_ns = delta_ns;
	return 0;
}

static int fake_shutdown(struct clock_event_device *dev)
{
	(void)dev;
	rec.shutdown_calls++;
	return 0;
}

static struct clock_event_device fake = {
	.name = "fake",
	.features = CLOCK_EVT_FEAT_PERIODIC | CLOCK_EVT_FEAT_ONESHOT,
	.set_state_periodic = fake_periodic,
	.set_next_event_ns = fake_oneshot,
	.set_state_shutdown = fake_shutdown,
	.freq_hz = 1000000000, /* counts nanoseconds */
	.min_delta_ticks = 1000,
	.max_delta_ticks = 54000000,
};

/* The interrupt of the fake device. */
static void fake_irq(unsigned long n)
{
	while (n--)
		fake.event_handler(&fake);
}

static void reset_rec(void)
{
	memset(&rec, 0, sizeof(rec));
}

/* ---- dz_time_init ---- */

static void test_time_init(void **state)
{
	static const struct {
		const char *cmdline;
		int ret;
		unsigned int hz;
	} cases[] = {
		{ "", 0, 250 },
		{ "hz=300", 0, 300 },
		{ "root=/dev/sda HZ=1000 quiet", 0, 1000 },
		{ "hz=abc", -DZ_EINVAL, 250 },
		{ "hz=5", -DZ_ERANGE, 19 },
		{ "hz=20000", -DZ_ERANGE, 10000 },
	};

	(void)state;
	dynhz_host_set_quiet(true);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned int hz = cases[i].hz;
		unsigned long j0;

#ifdef CONFIG_HZ
		hz = CONFIG_HZ;
#endif
		reset_rec();
		clockevents_register_device(&fake);
		assert_int_equal(dz_time_init_quiet(cases[i].cmdline, &fake), cases[i].ret);
		/* asked once, for the HZ the command line gave */
		assert_int_equal(rec.periodic_calls, 1);
		assert_int_equal(rec.hz, hz);
		assert_int_equal(HZ, hz);
		assert_true(dz_hz_period().num == (PIT_IN + hz / 2) / hz);
		assert_true(dz_hz_period().den == PIT_IN);
		assert_string_equal(dz_hz_state_get().device, "fake");
		assert_ptr_equal(dz_tick_device(), &fake);
		assert_int_equal(fake.state, CLOCK_EVT_STATE_PERIODIC);
		assert_true(fake.event_handler && fake.event_handler != clockevents_handle_noop);

		/* jiffies from five minutes before the wrap, one per interrupt */
		j0 = (unsigned long)(0UL - 300UL * hz);
		assert_true(jiffies == j0 && jiffies_64 == (u64)j0);
		assert_true(dz_tick_count() == 0);
		fake_irq(7);
		assert_true(jiffies == j0 + 7 && jiffies_64 == (u64)j0 + 7);
		assert_true(dz_tick_count() == 7);
	}
}

/* dz_time_init prints the setup report; the quiet one only the messages. */
static void test_report(void **state)
{
	char want[128];

	(void)state;
	dynhz_host_set_quiet(true);
	snprintf(want, sizeof(want), "time: hz=%u source=", (unsigned int)ANY_HZ);
	dz_printk("marker\n");
	assert_int_equal(dz_time_init_quiet("", &fake), 0);
	assert_string_equal(dynhz_host_last_line(), "marker");
	assert_int_equal(dz_time_init("", &fake), 0);
	assert_memory_equal(dynhz_host_last_line(), want, strlen(want));
	assert_non_null(strstr(dynhz_host_last_line(), " clockevent=fake "));
}

/* Timers run from the device's interrupt at the exact tick. */
static unsigned int runs;
static u64 run_at;

static void count_run(struct timer_list *t)
{
	(void)t;
	runs++;
	run_at = dz_tick_count();
}

static void test_timers_from_irq(void **state)
{
	static struct timer_list t;

	(void)state;
	assert_int_equal(dz_time_init_quiet("", &fake), 0);
	timer_setup(&t, count_run, 0);
	runs = 0;
	mod_timer(&t, jiffies + 100);
	fake_irq(99);
	assert_int_equal(runs, 0);
	fake_irq(1);
	assert_int_equal(runs, 1);
	assert_true(run_at == 100);
}

/* floor(n * num * 10^9 / den), without overflow for n * num < 2^64. */
static u64 ticks_ns(u64 n, u64 num, u64 den)
{
	u64 a = n * num;

	return a / den * 1000000000ULL + a % den * 1000000000ULL / den;
}

/* Without a clocksource, time is ticks times the exact period, never drifting. */
static void test_time_from_ticks(void **state)
{
	u64 n = 0;

	(void)state;
#ifndef CONFIG_HZ
	for (int exact = 0; exact < 2; exact++) {
		unsigned int hzs[] = { 19, 333, 1000, 1024, 10000 };

		for (size_t i = 0; i < ARRAY_SIZE(hzs); i++) {
			char cl[32];
			u64 num, den;

			reset_rec();
			rec.exact = exact;
			clocksource_unregister(dz_clocksource_current());
			snprintf(cl, sizeof(cl), "hz=%u", hzs[i]);
			assert_int_equal(dz_time_init_quiet(cl, &fake), 0);
			num = exact ? 1 : (PIT_IN + hzs[i] / 2) / hzs[i];
			den = exact ? hzs[i] : PIT_IN;
			fake_irq(12345);
			n = 12345;
			assert_true(ktime_get_ns() == ticks_ns(n, num, den));
			/* a year of idle ticks at once */
			dz_tick_skip(365ULL * 86400 * den / num);
			n += 365ULL * 86400 * den / num;
			fake_irq(1);
			n++;
			assert_true(ktime_get_ns() == ticks_ns(n, num, den));
			assert_true(dz_tick_count() == n);
		}
	}
#endif
	reset_rec();
	clocksource_unregister(dz_clocksource_current());
	assert_int_equal(dz_time_init_quiet("", &fake), 0);
	fake_irq(1000);
	n = 1000;
	assert_true(ktime_get_ns() == ticks_ns(n, (PIT_IN + ANY_HZ / 2) / ANY_HZ, PIT_IN));
}

/* ---- the clock-event interface ---- */

static int no_periodic_set(struct clock_event_device *dev, unsigned int hz,
			   struct dz_tick_period *period)
{
	(void)dev;
	(void)hz;
	(void)period;
	return 0; /* says yes but gives no period: a driver bug */
}

static void test_clockevents(void **state)
{
	static struct clock_event_device periodic_only = {
		.name = "periodic-only",
		.features = CLOCK_EVT_FEAT_PERIODIC,
		.set_state_periodic = fake_periodic,
	};
	static struct clock_event_device liar = {
		.name = "liar",
		.features = CLOCK_EVT_FEAT_PERIODIC,
		.set_state_periodic = no_periodic_set,
	};
	struct dz_tick_period p;
	unsigned int n = 0;

	(void)state;
	reset_rec();
	clockevents_register_device(&periodic_only);
	clockevents_register_device(&periodic_only);
	for (struct clock_event_device *d = dz_clockevents_devices(); d; d = d->next_dev)
		n += d == &periodic_only;
	assert_int_equal(n, 1);
	assert_ptr_equal(periodic_only.event_handler, clockevents_handle_noop);
	assert_int_equal(periodic_only.state, CLOCK_EVT_STATE_SHUTDOWN);

	/* one-shot: clamped into the device's limits, or not there at all */
	assert_int_equal(dz_clockevents_program_ns(&periodic_only, 5000), -DZ_ENOSYS);
	assert_int_equal(dz_clockevents_program_ns(&fake, 5000), 0);
	assert_true(rec.delta_ns == 5000);
	assert_int_equal(fake.state, CLOCK_EVT_STATE_ONESHOT);
	assert_int_equal(dz_clockevents_program_ns(&fake, 1), 0);
	assert_true(rec.delta_ns == 1000);
	assert_int_equal(dz_clockevents_program_ns(&fake, U64_MAX), 0);
	assert_true(rec.delta_ns == 54000000);
	assert_int_equal(rec.oneshot_calls, 3);

	assert_int_equal(clockevents_shutdown(&fake), 0);
	assert_int_equal(rec.shutdown_calls, 1);
	assert_int_equal(fake.state, CLOCK_EVT_STATE_SHUTDOWN);
	assert_int_equal(clockevents_shutdown(&periodic_only), 0); /* no callback: fine */

	assert_int_equal(dz_clockevents_set_periodic(&periodic_only, 100, &p), 0);
	assert_true(p.num == (PIT_IN + 50) / 100 && p.den == PIT_IN);
	rec.fail = -DZ_ERANGE;
	assert_int_equal(dz_clockevents_set_periodic(&periodic_only, 100, &p), -DZ_ERANGE);
	assert_int_equal(dz_clockevents_set_periodic(&liar, 100, &p), -DZ_EINVAL);
}

/* Booting on another device stops the old tick. */
static void test_switch_device(void **state)
{
	(void)state;
	dynhz_host_set_quiet(true);
	dynhz_boot_quiet("");
	reset_rec();
	assert_int_equal(dz_time_init_quiet("", &fake), 0);
	assert_ptr_equal(dz_tick_device(), &fake);
	assert_int_equal(rec.periodic_calls, 1);
	/* back to the host's simulated PIT: the fake is shut down, its handler idle */
	dynhz_boot_quiet("");
	assert_int_equal(rec.shutdown_calls, 1);
	assert_ptr_equal(fake.event_handler, clockevents_handle_noop);
	fake_irq(10); /* harmless */
	assert_true(dz_tick_count() == 0);
	dynhz_host_run_ticks(10);
	assert_true(dz_tick_count() == 10);
}

/* ---- the hosted PIT ---- */

static void test_host(void **state)
{
	unsigned int hz = ANY_HZ;
	u64 wrap = 300ULL * hz, d = (PIT_IN + hz / 2) / hz;

	(void)state;
	dynhz_host_set_quiet(true);
	assert_int_equal(dynhz_boot_quiet("hz=abc"), -DZ_EINVAL);
	assert_ptr_not_equal(dz_tick_device(), &fake);
	assert_string_equal(dz_hz_state_get().device, "pit");
	assert_non_null(dz_clocksource_current());
	dynhz_host_advance_ticks(wrap - 1);
	assert_true((u32)jiffies == U32_MAX);
	dynhz_host_run_ticks(1);
	/* the 32-bit wrap comes after five minutes (of HZ ticks) */
	assert_true((u32)jiffies == 0);
	assert_true(jiffies_64 == (u64)(unsigned long)(0UL - 300UL * hz) + wrap);
	assert_true(ktime_get_ns() == wrap * d * 1000000000ULL / PIT_IN);
}

/* ---- a device that cannot tick is fatal ---- */

static void boot_failing(void)
{
	rec.fail = -DZ_EBUSY;
	dz_time_init_quiet("", &fake);
}

static void boot_no_periodic(void)
{
	static struct clock_event_device oneshot_only = {
		.name = "oneshot-only",
		.features = CLOCK_EVT_FEAT_ONESHOT,
		.set_next_event_ns = fake_oneshot,
	};

	dz_time_init_quiet("", &oneshot_only);
}

static void ticks_before_boot(void)
{
	dz_time_init_quiet("", &fake);
	dynhz_host_run_ticks(1);
}

static void test_fatal(void **state)
{
	(void)state;
	expect_panic(boot_failing, "clockevent fake: no periodic tick");
	expect_panic(boot_no_periodic, "clockevent oneshot-only: no periodic tick");
	expect_panic(ticks_before_boot, "before dynhz_boot");
}

/* The report's tick length, for any period a device may report (not only the PIT's). */
static void test_tick_ps_any_period(void **state)
{
	static const struct dz_tick_period periods[] = {
		{ 1193, 1193182 },	 /* the PIT at hz=1000 */
		{ 65535, 1193182 },	 /* the PIT's longest */
		{ 1, 19 },		 /* an exact 1/HZ tick */
		{ 21052632, 400000000 }, /* a 400 MHz counter at HZ 19: num * 10^12 > 2^64 */
		{ 0xffffffffULL, 3 },	 /* beyond u64 picoseconds: saturates */
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(periods); i++) {
		struct dz_tick_period p = periods[i];

		assert_true(dz_tick_ps(p) ==
			    ref_muldiv(p.num, 1000000000000ULL, p.den, REF_NEAR, U64_MAX));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_ps_any_period),
		cmocka_unit_test(test_time_init),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_timers_from_irq),
		cmocka_unit_test(test_time_from_ticks),
		cmocka_unit_test(test_clockevents),
		cmocka_unit_test(test_switch_device),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_fatal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
