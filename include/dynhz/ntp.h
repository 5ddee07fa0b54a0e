/* SPDX-License-Identifier: MIT */
/*
 * NTP's discipline of the clock's rate, as Linux's (kernel/time/ntp.c,
 * without PPS): what adjtimex() sets that changes how fast CLOCK_MONOTONIC
 * and CLOCK_REALTIME run against CLOCK_MONOTONIC_RAW. The system call (its
 * modes, status bits, errors and struct layouts) is the kernel's; this is
 * the arithmetic under it, in Linux's units.
 *
 * Each second of raw time lasts, on the steered clock,
 *
 *	10^9 ns + (tick_usec - TICK_USEC) * USER_HZ * 1000 ns	(ADJ_TICK)
 *		+ freq					(ADJ_FREQUENCY, the PLL/FLL)
 *		+ this second's share of the phase offset	(ADJ_OFFSET)
 *		+ this second's share of adjtime()'s offset	(ADJ_OFFSET_SINGLESHOT)
 *
 * The first three change the rate at once; the offsets are worked off a
 * share each second, at every realtime second boundary (Linux's
 * second_overflow(), an hrtimer here, running only while there is
 * something to work off): the phase offset by 1 / 2^(2 + the time
 * constant) of what is left, adjtime()'s by 500 us (500 ppm) until less
 * is left, then the rest. The rate reaches timekeeping whatever HZ is
 * (the core keeps a second's length, not a tick's); the jiffy grid never
 * moves.
 *
 * One deliberate difference: the default tick is exactly a second a
 * second whatever USER_HZ (Linux's tick_usec * USER_HZ is 1000448 us at
 * USER_HZ 1024); at USER_HZ 100 the two are the same. And the shares are
 * exact in ns (Linux divides each by HZ, losing the remainder).
 *
 * Every call may be made with interrupts on or off, from hrtimer
 * callbacks too.
 */
#ifndef DYNHZ_NTP_H
#define DYNHZ_NTP_H

#include <dynhz/types.h>
#include <dynhz/hz.h>

/* Linux's USER_TICK_USEC: the default tick, us per USER_HZ tick. */
#define DZ_NTP_TICK_USEC ((1000000 + USER_HZ / 2) / USER_HZ)

/* ADJ_TICK's range (Linux's: 10 % either way). */
#define DZ_NTP_TICK_MIN (900000 / USER_HZ)
#define DZ_NTP_TICK_MAX (1100000 / USER_HZ)

#define DZ_NTP_MAXFREQ	500	  /* ppm: ADJ_FREQUENCY's limit, and the PLL/FLL's */
#define DZ_NTP_MAXPHASE 500000000 /* ns: ADJ_OFFSET's limit */
#define DZ_NTP_MAXTC	10	  /* the largest time constant */
#define DZ_NTP_ADJTIME	500	  /* us: what adjtime() works off a second */

/* dz_ntp_offset()'s flags: the status bits that steer the PLL. */
#define DZ_NTP_FLL	0x1 /* STA_FLL: frequency-lock mode */
#define DZ_NTP_FREQHOLD 0x2 /* STA_FREQHOLD: the frequency stays */

/**
 * dz_ntp_set_tick() - the length of a USER_HZ tick (ADJ_TICK)
 * @tick_usec: us, DZ_NTP_TICK_MIN..DZ_NTP_TICK_MAX
 *
 * Return: 0, or -DZ_EINVAL out of range (nothing changes).
 */
int dz_ntp_set_tick(long tick_usec);
long dz_ntp_tick(void);

/**
 * dz_ntp_set_freq() - the frequency offset (ADJ_FREQUENCY)
 * @ppm16: ppm << 16, as struct timex's freq; clamped to +-DZ_NTP_MAXFREQ ppm
 */
void dz_ntp_set_freq(s64 ppm16);

/* The frequency offset in ppm << 16, read back as Linux does (set by hand or by the PLL). */
s64 dz_ntp_freq(void);

/* The PLL's time constant (ADJ_TIMECONST, already +4 without STA_NANO); clamped to 0..MAXTC. */
void dz_ntp_set_constant(long constant);

/* The time constant in use. */
long dz_ntp_constant(void);

/* STA_PLL was turned on: the interval to the next offset counts from now. */
void dz_ntp_pll_start(void);

/**
 * dz_ntp_offset() - a measured phase offset for the PLL/FLL (ADJ_OFFSET with STA_PLL)
 * @ns: the offset, clamped to +-DZ_NTP_MAXPHASE
 * @flags: DZ_NTP_FLL, DZ_NTP_FREQHOLD
 *
 * As Linux's ntp_update_offset(): the frequency moves by the PLL's (and,
 * from 256 s between offsets with DZ_NTP_FLL or past 2048 s, the FLL's)
 * correction, and the offset replaces the one left, to be worked off.
 *
 * Return: true when the FLL was used (the status's STA_MODE).
 */
bool dz_ntp_offset(s64 ns, unsigned int flags);

/* The phase offset left to work off, in ns (rounded towards 0). */
s64 dz_ntp_offset_left(void);

/**
 * dz_ntp_adjtime() - adjtime()'s offset (ADJ_OFFSET_SINGLESHOT)
 * @us: the new offset, in us (as Linux's long: 32 bits on i386, the
 *	caller truncates)
 *
 * Return: what was left of the old one.
 */
s64 dz_ntp_adjtime(s64 us);

/* What is left of adjtime()'s offset (ADJ_OFFSET_SS_READ), in us. */
s64 dz_ntp_adjtime_left(void);

/*
 * The clock was set (Linux's ntp_clear()): both offsets forgotten, the
 * rate back to tick and frequency at once. dz_timekeeping_set_real_ns()
 * calls it.
 */
void dz_ntp_clear(void);

#endif
