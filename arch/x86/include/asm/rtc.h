/* SPDX-License-Identifier: MIT */
/*
 * The CMOS real-time clock (MC146818 and compatibles), read once at boot
 * for CLOCK_REALTIME (rtc_boot_seconds() of <kernel/arch.h>, for
 * kernel/time/realtime.c). The kernel never writes it.
 *
 * The decoding is split from the port I/O so that the hosted tests
 * (tests/rtc) can feed it a simulated CMOS: rtc_read() takes the register
 * reader, rtc_read_cmos() passes the real one (ports 0x70/0x71).
 */
#ifndef ASM_RTC_H
#define ASM_RTC_H

#include <dynhz/types.h>

/* CMOS registers. */
#define RTC_SECONDS 0x00
#define RTC_MINUTES 0x02
#define RTC_HOURS   0x04
#define RTC_DAY	    0x07
#define RTC_MONTH   0x08
#define RTC_YEAR    0x09
#define RTC_REG_A   0x0a
#define RTC_REG_B   0x0b
#define RTC_CENTURY 0x32 /* the ACPI FADT's usual century register */

#define RTC_A_UIP    0x80 /* an update is in progress: the time registers may be torn */
#define RTC_B_24H    0x02 /* hours run 0-23 (else 1-12 with RTC_HOUR_PM) */
#define RTC_B_BINARY 0x04 /* registers are binary (else BCD) */
#define RTC_HOUR_PM  0x80 /* in 12-hour mode */

/* A calendar time, UTC, as the RTC holds it (and as the boot line shows it). */
struct rtc_time {
	unsigned int year; /* 1970 ... */
	unsigned int mon;  /* 1-12 */
	unsigned int day;  /* 1-31 */
	unsigned int hour, min, sec;
};

/* The time registers as read, before decoding, for the one line of a bad clock. */
struct rtc_raw {
	u8 sec, min, hour, day, mon, year, century, reg_b;
};

typedef u8 (*rtc_reg_reader_t)(u8 reg);

/*
 * rtc_read - read and decode the clock through @read
 * @read: returns the value of one CMOS register
 * @tm: the decoded time (valid only when 0 is returned)
 * @raw: the registers of the consistent reading, for reports
 *
 * Waits (bounded) for no update to be in progress, then reads the time
 * registers until two readings in a row agree, so that a reading never
 * mixes two seconds. Decodes BCD or binary and 12- or 24-hour mode as
 * register B says; takes the century from RTC_CENTURY when it is
 * plausible, else 20xx.
 *
 * Return: 0; -1 when the update never ends or readings never agree;
 * -2 when the registers hold no valid date (bad BCD, a field out of range,
 * a year before 1970).
 */
int rtc_read(rtc_reg_reader_t read, struct rtc_time *tm, struct rtc_raw *raw);

/* Decoding helpers, exposed for tests. */
/* A BCD byte to binary; -1 when a digit is not 0-9. */
int rtc_bcd_decode(u8 v);
/* One register as register B says; -1 on bad BCD. The PM flag is not part of it. */
int rtc_decode(u8 v, u8 reg_b);
/* The hour register (with its PM flag in 12-hour mode) to 0-23; -1 if invalid. */
int rtc_decode_hour(u8 v, u8 reg_b);

/* Days in a month of the Gregorian calendar. */
unsigned int rtc_month_days(unsigned int year, unsigned int mon);
/* Does tm name a real second, 1970 onwards? */
bool rtc_time_valid(const struct rtc_time *tm);
/*
 * Days since 1970-01-01 of a proleptic Gregorian date, any year from 0 on
 * (the year counted from March, so that the leap day closes it).
 */
s64 rtc_days_from_civil(unsigned int year, unsigned int mon, unsigned int day);
/* Seconds since the Unix epoch of tm (a valid time). */
u64 rtc_time_to_unix(const struct rtc_time *tm);

/*
 * rtc_read_seconds - the clock's time in Unix seconds, with one line
 * @read: the register reader (as for rtc_read())
 *
 * Prints one line: `rtc: 2031-05-17 12:34:56 UTC (1936787696)`, or what
 * was wrong and the safe value used instead (2000-01-01 00:00:00 UTC, so
 * that a dead clock battery still gives a plausible, recognisable time).
 */
u64 rtc_read_seconds(rtc_reg_reader_t read);

#endif
