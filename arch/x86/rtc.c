// SPDX-License-Identifier: MIT
/*
 * The CMOS real-time clock (see asm/rtc.h): one consistent reading at
 * boot, decoded and turned into Unix seconds.
 *
 * The clock updates its registers once a second; while register A says
 * an update is in progress they may be half old, half new. Waiting for
 * the flag to clear and then reading until two readings agree gives a
 * time that existed, whatever moment the read began.
 */
#include <kernel/arch.h>
#include <asm/rtc.h>
#include <asm/io.h>
#include <dynhz/printk.h>

#define CMOS_INDEX 0x70
#define CMOS_DATA  0x71

/*
 * An update lasts under 2 ms; each register read is a port access of a
 * microsecond or so. Far more than enough, and still bounded when the
 * chip is absent (every read 0xff, UIP for ever).
 */
#define UIP_POLLS  1000000
#define READ_TRIES 10

#define SAFE_SECONDS 946684800ULL /* 2000-01-01 00:00:00 UTC; %llu prints it */

int rtc_bcd_decode(u8 v)
{
	if ((v & 0x0f) > 9 || (v >> 4) > 9)
		return -1;
	return (v >> 4) * 10 + (v & 0x0f);
}

int rtc_decode(u8 v, u8 reg_b)
{
	return (reg_b & RTC_B_BINARY) ? v : rtc_bcd_decode(v);
}

int rtc_decode_hour(u8 v, u8 reg_b)
{
	int h;

	if (reg_b & RTC_B_24H) {
		h = rtc_decode(v, reg_b);
		return h > 23 ? -1 : h;
	}
	/* 12-hour mode: 12 AM is midnight, 12 PM is noon. */
	h = rtc_decode(v & ~RTC_HOUR_PM, reg_b);
	if (h < 1 || h > 12)
		return -1;
	if (h == 12)
		h = 0;
	return (v & RTC_HOUR_PM) ? h + 12 : h;
}

static bool leap_year(unsigned int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

unsigned int rtc_month_days(unsigned int year, unsigned int mon)
{
	static const u8 days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (mon < 1 || mon > 12)
		return 0;
	return days[mon - 1] + (mon == 2 && leap_year(year));
}

bool rtc_time_valid(const struct rtc_time *tm)
{
	return tm->year >= 1970 && tm->mon >= 1 && tm->mon <= 12 && tm->day >= 1 &&
	       tm->day <= rtc_month_days(tm->year, tm->mon) && tm->hour < 24 && tm->min < 60 &&
	       tm->sec < 60;
}

/* 0000-03-01 to 1970-01-01, in days, by the formula below. */
#define DAYS_0000_03_TO_EPOCH 719468

s64 rtc_days_from_civil(unsigned int year, unsigned int mon, unsigned int day)
{
	s64 y = year, leaps;
	unsigned int m = mon;

	/*
	 * A year that starts on March 1st ends with February, so the leap
	 * day is its last day and the months before it never move: March is
	 * month 0 and the days before month m are (153 m + 2) / 5, the
	 * 31-30-31-30-31 pattern repeating every five months.
	 */
	if (m <= 2) {
		y--;
		m += 12;
	}
	m -= 3;
	/* y is -1 in January and February of year 0: the divisions must floor. */
	leaps = y >= 0 ? y / 4 - y / 100 + y / 400 : -1;

	return 365 * y + leaps + (153 * m + 2) / 5 + day - 1 - DAYS_0000_03_TO_EPOCH;
}

u64 rtc_time_to_unix(const struct rtc_time *tm)
{
	s64 days = rtc_days_from_civil(tm->year, tm->mon, tm->day);

	return (u64)days * 86400 + tm->hour * 3600U + tm->min * 60U + tm->sec;
}

/* Waits for no update in progress; false if it never ends. */
static bool wait_update_done(rtc_reg_reader_t read)
{
	for (unsigned int i = 0; i < UIP_POLLS; i++)
		if (!(read(RTC_REG_A) & RTC_A_UIP))
			return true;
	return false;
}

static bool read_regs(rtc_reg_reader_t read, struct rtc_raw *r)
{
	if (!wait_update_done(read))
		return false;
	r->sec = read(RTC_SECONDS);
	r->min = read(RTC_MINUTES);
	r->hour = read(RTC_HOURS);
	r->day = read(RTC_DAY);
	r->mon = read(RTC_MONTH);
	r->year = read(RTC_YEAR);
	r->century = read(RTC_CENTURY);
	r->reg_b = read(RTC_REG_B);
	return true;
}

static bool raw_equal(const struct rtc_raw *a, const struct rtc_raw *b)
{
	return a->sec == b->sec && a->min == b->min && a->hour == b->hour && a->day == b->day &&
	       a->mon == b->mon && a->year == b->year && a->century == b->century &&
	       a->reg_b == b->reg_b;
}

/*
 * The full year. A century register that decodes to 19 or 20 and gives
 * a year from 1970 on is believed; anything else (a chip without one
 * reads 0x00 or 0xff) means 20xx.
 */
static int decode_year(const struct rtc_raw *r)
{
	int yy = rtc_decode(r->year, r->reg_b);
	int cc = rtc_decode(r->century, r->reg_b);

	if (yy < 0 || yy > 99)
		return -1;
	if ((cc == 19 || cc == 20) && cc * 100 + yy >= 1970)
		return cc * 100 + yy;
	return 2000 + yy;
}

static int decode(const struct rtc_raw *r, struct rtc_time *tm)
{
	int year = decode_year(r), mon = rtc_decode(r->mon, r->reg_b);
	int day = rtc_decode(r->day, r->reg_b), hour = rtc_decode_hour(r->hour, r->reg_b);
	int min = rtc_decode(r->min, r->reg_b), sec = rtc_decode(r->sec, r->reg_b);

	if (year < 0 || mon < 0 || day < 0 || hour < 0 || min < 0 || sec < 0)
		return -2;
	*tm = (struct rtc_time){ (unsigned int)year, (unsigned int)mon, (unsigned int)day,
				 (unsigned int)hour, (unsigned int)min, (unsigned int)sec };
	return rtc_time_valid(tm) ? 0 : -2;
}

int rtc_read(rtc_reg_reader_t read, struct rtc_time *tm, struct rtc_raw *raw)
{
	struct rtc_raw prev;

	if (!read_regs(read, &prev))
		return -1;
	for (unsigned int i = 0; i < READ_TRIES; i++) {
		if (!read_regs(read, raw))
			return -1;
		if (raw_equal(&prev, raw))
			return decode(raw, tm);
		prev = *raw;
	}
	return -1;
}

static u8 cmos_read(u8 reg)
{
	outb(CMOS_INDEX, reg);
	return inb(CMOS_DATA);
}

u64 rtc_read_seconds(rtc_reg_reader_t read)
{
	struct rtc_time tm;
	struct rtc_raw r = { 0 };
	int err = rtc_read(read, &tm, &r);
	u64 secs;

	if (err == -1) {
		dz_printk("rtc: no stable reading (update never ends), using 2000-01-01 00:00:00 "
			  "UTC (%llu)\n",
			  SAFE_SECONDS);
		return SAFE_SECONDS;
	}
	if (err) {
		dz_printk("rtc: invalid time (registers %02x-%02x-%02x %02x:%02x:%02x century %02x "
			  "B %02x), using 2000-01-01 00:00:00 UTC (%llu)\n",
			  r.year, r.mon, r.day, r.hour, r.min, r.sec, r.century, r.reg_b,
			  SAFE_SECONDS);
		return SAFE_SECONDS;
	}
	secs = rtc_time_to_unix(&tm);
	dz_printk("rtc: %04u-%02u-%02u %02u:%02u:%02u UTC (%llu)\n", tm.year, tm.mon, tm.day,
		  tm.hour, tm.min, tm.sec, (unsigned long long)secs);
	return secs;
}

u64 rtc_boot_seconds(void)
{
	return rtc_read_seconds(cmos_read);
}
