// SPDX-License-Identifier: MIT
/*
 * The CMOS clock's decoding (arch/x86/rtc.c) on the host: the civil-date
 * arithmetic against the C library's timegm() and gmtime_r(), BCD and
 * 12-hour decoding against their definitions, and rtc_read() against a
 * simulated chip that updates while it is read.
 *
 *	test_rtc <name>		runs one test: exit 0 when it passes
 *	test_rtc list		prints the names
 */
#define _GNU_SOURCE
#include <asm/rtc.h>
#include <dynhz/printk.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;

#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		if (!(cond)) {                                                  \
			if (failures++ < 10) {                                  \
				fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
				fprintf(stderr, __VA_ARGS__);                   \
				fputc('\n', stderr);                            \
			}                                                       \
		}                                                               \
	} while (0)

/* rtc.c's console: kept, for the test of its one line. */
static char console[512];

int dz_printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(console, sizeof(console), fmt, ap);
	va_end(ap);
	return n;
}

static struct rtc_time from_tm(const struct tm *t)
{
	return (struct rtc_time){ (unsigned int)t->tm_year + 1900, (unsigned int)t->tm_mon + 1,
				  (unsigned int)t->tm_mday,	   (unsigned int)t->tm_hour,
				  (unsigned int)t->tm_min,	   (unsigned int)t->tm_sec };
}

/* 2100-01-01 00:00:00 UTC */
#define END_2099 4102444800LL

/* Every day from 1970 to 2099, at a random second of it, through gmtime. */
static void test_every_day(void)
{
	for (long long day = 0; day * 86400 < END_2099; day++) {
		time_t t = (time_t)(day * 86400 + random() % 86400);
		struct tm tm;
		struct rtc_time r;

		gmtime_r(&t, &tm);
		r = from_tm(&tm);
		CHECK(rtc_time_valid(&r), "%lld not valid", (long long)t);
		CHECK(rtc_days_from_civil(r.year, r.mon, r.day) == day, "day %lld", day);
		CHECK(rtc_time_to_unix(&r) == (u64)t, "%lld: got %llu", (long long)t,
		      (unsigned long long)rtc_time_to_unix(&r));
	}
}

/* Random fields, valid ones only, against timegm. */
static void test_random_timegm(void)
{
	for (int i = 0; i < 200000; i++) {
		struct tm tm = { 0 };
		struct rtc_time r;

		r.year = 1970 + (unsigned int)(random() % 130);
		r.mon = 1 + (unsigned int)(random() % 12);
		r.day = 1 + (unsigned int)(random() % rtc_month_days(r.year, r.mon));
		r.hour = (unsigned int)(random() % 24);
		r.min = (unsigned int)(random() % 60);
		r.sec = (unsigned int)(random() % 60);
		tm.tm_year = (int)r.year - 1900;
		tm.tm_mon = (int)r.mon - 1;
		tm.tm_mday = (int)r.day;
		tm.tm_hour = (int)r.hour;
		tm.tm_min = (int)r.min;
		tm.tm_sec = (int)r.sec;
		CHECK(rtc_time_to_unix(&r) == (u64)timegm(&tm), "%u-%u-%u %u:%u:%u", r.year, r.mon,
		      r.day, r.hour, r.min, r.sec);
	}
}

/* Beyond the RTC's range the formula still holds: years 0 to 9999, via timegm. */
static void test_wide_years(void)
{
	for (unsigned int y = 0; y < 10000; y++)
		for (unsigned int m = 1; m <= 12; m++) {
			struct tm tm = { .tm_year = (int)y - 1900,
					 .tm_mon = (int)m - 1,
					 .tm_mday = 1 };
			long long want = (long long)timegm(&tm) / 86400;

			CHECK(rtc_days_from_civil(y, m, 1) == want, "%u-%u-01: %lld, want %lld", y,
			      m, (long long)rtc_days_from_civil(y, m, 1), want);
		}
}

static void test_calendar(void)
{
	struct rtc_time t = { 2000, 2, 29, 0, 0, 0 };

	CHECK(rtc_time_valid(&t), "2000-02-29");
	t.year = 2100;
	CHECK(!rtc_time_valid(&t), "2100-02-29");
	t.year = 2024;
	CHECK(rtc_time_valid(&t), "2024-02-29");
	t.year = 2023;
	CHECK(!rtc_time_valid(&t), "2023-02-29");
	t = (struct rtc_time){ 1969, 12, 31, 23, 59, 59 };
	CHECK(!rtc_time_valid(&t), "1969");
	t = (struct rtc_time){ 2026, 4, 31, 0, 0, 0 };
	CHECK(!rtc_time_valid(&t), "April 31");
	t = (struct rtc_time){ 2026, 13, 1, 0, 0, 0 };
	CHECK(!rtc_time_valid(&t), "month 13");
	t = (struct rtc_time){ 2026, 0, 1, 0, 0, 0 };
	CHECK(!rtc_time_valid(&t), "month 0");
	t = (struct rtc_time){ 2026, 1, 1, 24, 0, 0 };
	CHECK(!rtc_time_valid(&t), "hour 24");
	t = (struct rtc_time){ 2026, 1, 1, 0, 60, 0 };
	CHECK(!rtc_time_valid(&t), "minute 60");
	t = (struct rtc_time){ 2026, 1, 1, 0, 0, 60 };
	CHECK(!rtc_time_valid(&t), "second 60");
	t = (struct rtc_time){ 1970, 1, 1, 0, 0, 0 };
	CHECK(rtc_time_to_unix(&t) == 0, "epoch");
	t = (struct rtc_time){ 2038, 1, 19, 3, 14, 8 };
	CHECK(rtc_time_to_unix(&t) == 0x80000000ULL, "2038");
}

static void test_bcd(void)
{
	for (unsigned int v = 0; v < 256; v++) {
		int hi = (int)(v >> 4), lo = (int)(v & 15);
		int want = hi > 9 || lo > 9 ? -1 : hi * 10 + lo;

		CHECK(rtc_bcd_decode((u8)v) == want, "bcd %02x", v);
		CHECK(rtc_decode((u8)v, RTC_B_BINARY) == (int)v, "binary %02x", v);
		CHECK(rtc_decode((u8)v, 0) == want, "bcd mode %02x", v);
	}
}

static u8 to_bcd(unsigned int v)
{
	return (u8)((v / 10) << 4 | (v % 10));
}

/* Every hour in every mode, and every invalid hour byte. */
static void test_hours(void)
{
	for (unsigned int h = 0; h < 24; h++) {
		unsigned int h12 = h % 12 ? h % 12 : 12;
		u8 pm = h >= 12 ? RTC_HOUR_PM : 0;

		CHECK(rtc_decode_hour(to_bcd(h), RTC_B_24H) == (int)h, "24h bcd %u", h);
		CHECK(rtc_decode_hour((u8)h, RTC_B_24H | RTC_B_BINARY) == (int)h, "24h bin %u", h);
		CHECK(rtc_decode_hour(to_bcd(h12) | pm, 0) == (int)h, "12h bcd %u", h);
		CHECK(rtc_decode_hour((u8)(h12 | pm), RTC_B_BINARY) == (int)h, "12h bin %u", h);
	}
	CHECK(rtc_decode_hour(0x00, 0) == -1, "12h hour 0");
	CHECK(rtc_decode_hour(0x13, 0) == -1, "12h hour 13");
	CHECK(rtc_decode_hour(0x80, 0) == -1, "12h PM 0");
	CHECK(rtc_decode_hour(0x24, RTC_B_24H) == -1, "24h hour 24");
	CHECK(rtc_decode_hour(0x1a, RTC_B_24H) == -1, "24h bad bcd");
	CHECK(rtc_decode_hour(24, RTC_B_24H | RTC_B_BINARY) == -1, "24h binary 24");
	CHECK(rtc_decode_hour(13, RTC_B_BINARY) == -1, "12h binary 13");
}

/*
 * A simulated chip: it keeps a Unix time and a mode; `reads` counts
 * register reads; every `tick_every` reads the second advances (mid
 * reading, so a reader that does not re-check sees torn values); UIP is
 * set for `uip_reads` reads after each advance.
 */
static struct {
	long long t;
	u8 reg_b;
	bool no_century;
	long reads, tick_every, uip_left, uip_reads;
	bool stuck_uip;
	u8 force[256];
	bool forced[256];
} chip;

static u8 enc(unsigned int v)
{
	return (chip.reg_b & RTC_B_BINARY) ? (u8)v : to_bcd(v);
}

static u8 chip_read(u8 reg)
{
	time_t tt;
	struct tm tm;

	if (chip.tick_every && ++chip.reads % chip.tick_every == 0) {
		chip.t++;
		chip.uip_left = chip.uip_reads;
	}
	if (reg == RTC_REG_A) {
		if (chip.stuck_uip)
			return RTC_A_UIP;
		if (chip.uip_left > 0) {
			chip.uip_left--;
			return RTC_A_UIP;
		}
		return 0x26;
	}
	if (chip.forced[reg])
		return chip.force[reg];
	tt = (time_t)chip.t;
	gmtime_r(&tt, &tm);
	switch (reg) {
	case RTC_SECONDS:
		return enc((unsigned int)tm.tm_sec);
	case RTC_MINUTES:
		return enc((unsigned int)tm.tm_min);
	case RTC_HOURS:
		if (chip.reg_b & RTC_B_24H)
			return enc((unsigned int)tm.tm_hour);
		return (u8)(enc(tm.tm_hour % 12 ? (unsigned int)tm.tm_hour % 12 : 12) |
			    (tm.tm_hour >= 12 ? RTC_HOUR_PM : 0));
	case RTC_DAY:
		return enc((unsigned int)tm.tm_mday);
	case RTC_MONTH:
		return enc((unsigned int)tm.tm_mon + 1);
	case RTC_YEAR:
		return enc((unsigned int)(tm.tm_year + 1900) % 100);
	case RTC_CENTURY:
		return chip.no_century ? 0xff : enc((unsigned int)(tm.tm_year + 1900) / 100);
	case RTC_REG_B:
		return chip.reg_b;
	default:
		return 0;
	}
}

static void chip_reset(long long t, u8 reg_b)
{
	memset(&chip, 0, sizeof(chip));
	chip.t = t;
	chip.reg_b = reg_b;
}

/* Every mode, at random times 1970-2099; the chip ticking as it is read. */
static void test_chip_modes(void)
{
	static const u8 modes[] = { 0, RTC_B_24H, RTC_B_BINARY, RTC_B_24H | RTC_B_BINARY };

	for (int i = 0; i < 200000; i++) {
		long long t = random() % END_2099;
		struct rtc_time tm;
		struct rtc_raw raw;
		long long got;
		int err;

		chip_reset(t, modes[i % 4]);
		chip.tick_every = 1 + random() % 60; /* often mid reading */
		/* shorter than a second, or the update never ends */
		chip.uip_reads = random() % (chip.tick_every < 5 ? chip.tick_every : 5);
		chip.no_century = (i / 4) % 2 && t >= 946684800; /* 20xx assumed: right from 2000 */
		err = rtc_read(chip_read, &tm, &raw);
		/*
		 * A clock that ticks within two readings may make it give up
		 * (a real one ticks once a second, readings take microseconds),
		 * but never return a torn time. Two readings and the polls of
		 * an update take at most 22 reads: from 30 on it must succeed.
		 */
		if (chip.tick_every < 30 && err == -1)
			continue;
		CHECK(err == 0, "t=%lld mode %x: err %d", t, modes[i % 4], err);
		if (err)
			continue;
		got = (long long)rtc_time_to_unix(&tm);
		/* The reading is one the chip held while read: from t to the chip's time now. */
		CHECK(got >= t && got <= chip.t, "t=%lld mode %x every %ld: got %lld (chip %lld)",
		      t, modes[i % 4], chip.tick_every, got, chip.t);
	}
}

/* A torn reading: the seconds roll over between the first and second pass. */
static void test_chip_torn(void)
{
	struct rtc_time tm;
	struct rtc_raw raw;

	/* 23:59:59 on 2019-12-31: the whole date turns over */
	chip_reset(1577836799LL, RTC_B_24H);
	chip.tick_every = 12; /* between the two passes of 9 reads (A + 8 registers) */
	CHECK(rtc_read(chip_read, &tm, &raw) == 0, "torn read failed");
	CHECK(rtc_time_to_unix(&tm) > 1577836799ULL && rtc_time_to_unix(&tm) <= (u64)chip.t,
	      "torn: got %llu, chip at %lld", (unsigned long long)rtc_time_to_unix(&tm), chip.t);
	CHECK(tm.year == 2020 && tm.mon == 1 && tm.day == 1, "torn date %u-%u-%u", tm.year, tm.mon,
	      tm.day);
}

static void test_chip_bad(void)
{
	struct rtc_time tm;
	struct rtc_raw raw;

	chip_reset(1796322600LL, RTC_B_24H);
	chip.stuck_uip = true;
	CHECK(rtc_read(chip_read, &tm, &raw) == -1, "stuck UIP");
	CHECK(rtc_read_seconds(chip_read) == 946684800ULL, "stuck UIP: safe value");
	CHECK(strstr(console, "rtc: no stable reading") != NULL, "line: %s", console);

	chip_reset(1796322600LL, RTC_B_24H);
	chip.forced[RTC_MONTH] = true;
	chip.force[RTC_MONTH] = 0x13;
	CHECK(rtc_read(chip_read, &tm, &raw) == -2, "month 13");
	chip.force[RTC_MONTH] = 0x1a;
	CHECK(rtc_read(chip_read, &tm, &raw) == -2, "month bad bcd");
	chip.force[RTC_MONTH] = 0x02;
	chip.forced[RTC_DAY] = true;
	chip.force[RTC_DAY] = 0x30;
	CHECK(rtc_read(chip_read, &tm, &raw) == -2, "February 30");
	CHECK(rtc_read_seconds(chip_read) == 946684800ULL, "February 30: safe value");
	CHECK(!strcmp(console, "rtc: invalid time (registers 26-02-30 18:30:00 century 20 B 02), "
			       "using 2000-01-01 00:00:00 UTC (946684800)\n"),
	      "line: %s", console);

	/* An absent chip: every port reads 0xff, UIP included. */
	memset(&chip, 0, sizeof(chip));
	memset(chip.forced, 1, sizeof(chip.forced));
	memset(chip.force, 0xff, sizeof(chip.force));
	chip.stuck_uip = true;
	CHECK(rtc_read(chip_read, &tm, &raw) == -1, "absent chip");
}

/* The century register: believed when it says 19 or 20 and gives 1970 on. */
static void test_century(void)
{
	struct rtc_time tm;
	struct rtc_raw raw;

	chip_reset(915148800LL, RTC_B_24H); /* 1999-01-01 */
	CHECK(rtc_read(chip_read, &tm, &raw) == 0 && tm.year == 1999, "1999: %u", tm.year);
	chip.no_century = true;
	CHECK(rtc_read(chip_read, &tm, &raw) == 0 && tm.year == 2099, "no century: %u", tm.year);
	chip.no_century = false;
	chip.forced[RTC_CENTURY] = true;
	chip.force[RTC_CENTURY] = 0x00;
	CHECK(rtc_read(chip_read, &tm, &raw) == 0 && tm.year == 2099, "century 0: %u", tm.year);
	chip_reset(1796322600LL, RTC_B_24H); /* 2026 */
	chip.forced[RTC_CENTURY] = true;
	chip.force[RTC_CENTURY] = 0x19; /* 1926: before 1970, not believed */
	CHECK(rtc_read(chip_read, &tm, &raw) == 0 && tm.year == 2026, "century 19 in 2026: %u",
	      tm.year);
}

static void test_boot_line(void)
{
	struct rtc_time tm;
	struct rtc_raw raw;

	chip_reset(1936787696LL, 0); /* 2031-05-17 12:34:56, BCD, 12-hour */
	CHECK(rtc_read(chip_read, &tm, &raw) == 0, "read");
	CHECK(tm.hour == 12 && tm.min == 34 && tm.sec == 56, "12 PM: %u:%u:%u", tm.hour, tm.min,
	      tm.sec);
	CHECK(rtc_read_seconds(chip_read) == 1936787696ULL, "seconds");
	CHECK(!strcmp(console, "rtc: 2031-05-17 12:34:56 UTC (1936787696)\n"), "line: %s", console);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "every-day", test_every_day },
	{ "random-timegm", test_random_timegm },
	{ "wide-years", test_wide_years },
	{ "calendar", test_calendar },
	{ "bcd", test_bcd },
	{ "hours", test_hours },
	{ "chip-modes", test_chip_modes },
	{ "chip-torn", test_chip_torn },
	{ "chip-bad", test_chip_bad },
	{ "century", test_century },
	{ "boot-line", test_boot_line },
};

int main(int argc, char **argv)
{
	srandom(11);
	if (argc == 2 && !strcmp(argv[1], "list")) {
		for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			puts(tests[i].name);
		return 0;
	}
	for (size_t i = 0; argc == 2 && i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!strcmp(argv[1], tests[i].name)) {
			tests[i].fn();
			if (failures)
				fprintf(stderr, "%s: %d failures\n", argv[1], failures);
			return failures != 0;
		}
	fprintf(stderr, "usage: test_rtc list | <test>\n");
	return 2;
}
