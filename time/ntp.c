// SPDX-License-Identifier: MIT
/*
 * NTP's rate (include/dynhz/ntp.h): the length of the next second of
 * monotonic time, in Linux's units (ns << 32), handed to timekeeping
 * whenever it changes.
 *
 * The length is kept for a second, not for a tick as Linux's tick_length
 * is: timekeeping applies it to the raw time whatever the tick, so no
 * share is rounded to HZ and the jiffy grid is not involved. Its parts:
 *
 *  - the base, from the tick (ADJ_TICK) and the frequency (ADJ_FREQUENCY,
 *    or the PLL/FLL's): changed at once, the offsets' shares kept;
 *  - the phase offset's share: each second, what is left shifted right by
 *    SHIFT_PLL plus the time constant (rounded towards 0), so that an
 *    offset decays geometrically, by a quarter a second at constant 0;
 *  - adjtime()'s share: 500 us a second (500 ppm) while more is left,
 *    then the rest.
 *
 * The shares are worked out at each realtime second boundary by an
 * hrtimer on CLOCK_REALTIME (Linux runs second_overflow() there), which
 * runs only while a share is due or the running second still has one;
 * so a clock that is only set, or only given a frequency, costs no
 * wakeup.
 */
#include <dynhz/ntp.h>
#include <dynhz/hrtimer.h>
#include <dynhz/timekeeping.h>
#include <dynhz/time64.h>
#include <dynhz/errno.h>
#include <dynhz/port.h>
#include "ntp-internal.h"
#include "timekeeping-internal.h"

#define SCALE_SHIFT 32	 /* Linux's NTP_SCALE_SHIFT: ns << 32 */
#define SHIFT_PLL   2	 /* the PLL's damping (Linux's, for its kernels' HZ) */
#define SHIFT_FLL   2	 /* the FLL's */
#define MINSEC	    256	 /* s between offsets: the FLL from here with STA_FLL, */
#define MAXSEC	    2048 /* and from here without */

#define US(n)	       ((s64)(n) * (s64)NSEC_PER_USEC) /* us in ns */
#define SCALED(ns)     ((s64)(ns) * ((s64)1 << SCALE_SHIFT))
#define SECOND	       SCALED(NSEC_PER_SEC)
#define MAXFREQ_SCALED SCALED(US(DZ_NTP_MAXFREQ))
#define MAXFREQ_PPM16  ((s64)DZ_NTP_MAXFREQ << 16)
/* ppm << 16 to ns a second << 32, and back as Linux reads it (a fixed-point inverse). */
#define PPM_SCALE     (US(1) << (SCALE_SHIFT - 16))
#define PPM_INV_SHIFT 19
#define PPM_INV	      (((s64)1 << (PPM_INV_SHIFT + SCALE_SHIFT)) / PPM_SCALE + 1)
/* A USER_HZ tick's us, as ns a second << 32 (a second has USER_HZ of them). */
#define TICK_US_SCALED SCALED(US(USER_HZ))

static struct {
	bool ready;
	long tick_usec; /* us a USER_HZ tick */
	long constant;	/* the PLL's time constant, 0..MAXTC */
	s64 freq;	/* ns a second << 32 (Linux's time_freq) */
	s64 offset;	/* the phase offset left, ns << 32 */
	s64 adjust;	/* adjtime()'s offset left, us */
	s64 reftime;	/* the realtime second of the last offset */
	s64 base;	/* a second's length from tick and frequency, ns << 32 */
	s64 length;	/* the running second's: base and the offsets' shares */
	struct hrtimer second;
} ntp;

/* Linux's shift_right(): a signed shift that rounds towards 0, as the PLL expects. */
static s64 shift_right(s64 x, unsigned int s)
{
	return x < 0 ? -((-x) >> s) : x >> s;
}

static s64 clamp64(s64 v, s64 lo, s64 hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The realtime second now, rounded down. */
static s64 real_seconds(void)
{
	s64 real = ktime_get_real();
	s64 sec = real / (s64)NSEC_PER_SEC;

	return real < 0 && sec * (s64)NSEC_PER_SEC != real ? sec - 1 : sec;
}

static void set_length(s64 length)
{
	ntp.length = length;
	dz_timekeeping_set_rate((u64)length);
}

/* Linux's ntp_update_frequency(): tick and frequency change the rate at once. */
static void update_base(void)
{
	s64 base = SECOND + (ntp.tick_usec - DZ_NTP_TICK_USEC) * TICK_US_SCALED + ntp.freq;

	set_length(ntp.length + (base - ntp.base));
	ntp.base = base;
}

static s64 phase_share(void)
{
	return shift_right(ntp.offset, SHIFT_PLL + (unsigned int)ntp.constant);
}

/* Has the next second boundary anything to change? */
static bool working(void)
{
	return ntp.adjust || phase_share() || ntp.length != ntp.base;
}

/* Linux's second_overflow(), the rate's part: the next second's length. */
static void second_overflow(void)
{
	s64 share = phase_share(), us = clamp64(ntp.adjust, -DZ_NTP_ADJTIME, DZ_NTP_ADJTIME);

	ntp.offset -= share;
	ntp.adjust -= us;
	set_length(ntp.base + share + SCALED(US(us)));
}

static ktime_t next_second(void)
{
	return (real_seconds() + 1) * (s64)NSEC_PER_SEC;
}

static enum hrtimer_restart second_fn(struct hrtimer *t)
{
	second_overflow();
	if (!working())
		return HRTIMER_NORESTART;
	hrtimer_set_expires(t, next_second());
	return HRTIMER_RESTART;
}

/* Something to work off: the boundaries are needed from the next one on. */
static void kick(void)
{
	if (working() && !hrtimer_active(&ntp.second))
		hrtimer_start(&ntp.second, next_second(), HRTIMER_MODE_ABS);
}

void dz_ntp_init(void)
{
	ntp.tick_usec = DZ_NTP_TICK_USEC;
	ntp.constant = 2;
	ntp.freq = 0;
	ntp.offset = 0;
	ntp.adjust = 0;
	ntp.reftime = 0;
	ntp.base = SECOND;
	ntp.length = SECOND;
	hrtimer_setup(&ntp.second, second_fn, DZ_CLOCK_REALTIME, HRTIMER_MODE_ABS);
	ntp.ready = true;
}

int dz_ntp_set_tick(long tick_usec)
{
	unsigned long flags;

	if (tick_usec < DZ_NTP_TICK_MIN || tick_usec > DZ_NTP_TICK_MAX)
		return -DZ_EINVAL;
	flags = dz_irq_save();
	ntp.tick_usec = tick_usec;
	update_base();
	dz_irq_restore(flags);
	return 0;
}

long dz_ntp_tick(void)
{
	return ntp.tick_usec;
}

/* Clamped in the user's unit first: the same as Linux's clamp after scaling, without overflow. */
void dz_ntp_set_freq(s64 ppm16)
{
	unsigned long flags = dz_irq_save();

	ntp.freq = clamp64(ppm16, -MAXFREQ_PPM16, MAXFREQ_PPM16) * PPM_SCALE;
	update_base();
	dz_irq_restore(flags);
}

s64 dz_ntp_freq(void)
{
	return shift_right((ntp.freq >> PPM_INV_SHIFT) * PPM_INV, SCALE_SHIFT);
}

void dz_ntp_set_constant(long constant)
{
	unsigned long flags = dz_irq_save();

	ntp.constant = (long)clamp64(constant, 0, DZ_NTP_MAXTC);
	kick();
	dz_irq_restore(flags);
}

long dz_ntp_constant(void)
{
	return ntp.constant;
}

void dz_ntp_pll_start(void)
{
	unsigned long flags = dz_irq_save();

	ntp.reftime = real_seconds();
	dz_irq_restore(flags);
}

/*
 * The FLL's correction: the offset over the interval, weighted by
 * 2^-SHIFT_FLL; only for a long interval (and with STA_FLL from MINSEC).
 */
static s64 fll_adjust(s64 ns, s64 secs, unsigned int flags, bool *fll)
{
	*fll = secs >= MINSEC && ((flags & DZ_NTP_FLL) || secs > MAXSEC);
	return *fll ? ns * ((s64)1 << (SCALE_SHIFT - SHIFT_FLL)) / secs : 0;
}

/*
 * The PLL's: offset times interval, weighted by 2^-2(SHIFT_PLL + 2 + the
 * time constant), the interval capped at 2^(SHIFT_PLL + 1 + constant) s
 * so that a rare offset does not swing the frequency. (An interval that
 * is negative, the clock having been set back, counts as none: Linux's
 * product would overflow for a long one.)
 */
static s64 pll_adjust(s64 ns, s64 secs)
{
	unsigned int c = (unsigned int)ntp.constant;
	s64 cap = (s64)1 << (SHIFT_PLL + 1 + c);

	secs = clamp64(secs, 0, cap);
	return ns * secs * ((s64)1 << (SCALE_SHIFT - 2 * (SHIFT_PLL + 2 + c)));
}

bool dz_ntp_offset(s64 ns, unsigned int flags)
{
	unsigned long irq = dz_irq_save();
	s64 now = real_seconds(), secs, freq;
	bool fll;

	ns = clamp64(ns, -DZ_NTP_MAXPHASE, DZ_NTP_MAXPHASE);
	secs = (flags & DZ_NTP_FREQHOLD) ? 0 : now - ntp.reftime;
	ntp.reftime = now;
	freq = fll_adjust(ns, secs, flags, &fll) + pll_adjust(ns, secs) + ntp.freq;
	ntp.freq = clamp64(freq, -MAXFREQ_SCALED, MAXFREQ_SCALED);
	ntp.offset = SCALED(ns);
	update_base();
	kick();
	dz_irq_restore(irq);
	return fll;
}

s64 dz_ntp_offset_left(void)
{
	return shift_right(ntp.offset, SCALE_SHIFT);
}

s64 dz_ntp_adjtime(s64 us)
{
	unsigned long flags = dz_irq_save();
	s64 old = ntp.adjust;

	ntp.adjust = us;
	kick();
	dz_irq_restore(flags);
	return old;
}

s64 dz_ntp_adjtime_left(void)
{
	return ntp.adjust;
}

void dz_ntp_clear(void)
{
	unsigned long flags;

	if (!ntp.ready)
		return;
	flags = dz_irq_save();
	ntp.adjust = 0;
	ntp.offset = 0;
	set_length(ntp.base);
	hrtimer_try_to_cancel(&ntp.second);
	dz_irq_restore(flags);
}
