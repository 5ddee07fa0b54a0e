// SPDX-License-Identifier: MIT
/*
 * adjtimex, clock_adjtime and clock_adjtime64 on CLOCK_REALTIME: the NTP
 * interface of Linux (kernel/time/ntp.c), with its state, its mode bits
 * and its errors, over the core's NTP (include/dynhz/ntp.h), which
 * steers the rate of CLOCK_MONOTONIC and CLOCK_REALTIME against
 * CLOCK_MONOTONIC_RAW as Linux's tick length does.
 *
 * What a program reads is what Linux reports after a boot without NTP:
 * status STA_UNSYNC (so the call returns TIME_ERROR, 5), maxerror and
 * esterror at 16 s (NTP_PHASE_LIMIT), constant 2, precision 1, tolerance
 * 500 ppm, tick 10000 us (1000000 / USER_HZ), tai 0; maxerror grows by 500
 * us a second, as Linux's second_overflow() makes it, until the limit.
 *
 * What a program sets is applied and read back as Linux would: ADJ_STATUS
 * (the writable bits), ADJ_MAXERROR and ADJ_ESTERROR (clamped to 0..16 s),
 * ADJ_TIMECONST (+4 without STA_NANO, in 0..10), ADJ_TAI (0..100000 s,
 * the TAI offset of CLOCK_TAI at once), ADJ_NANO/ADJ_MICRO, ADJ_SETOFFSET
 * (steps CLOCK_REALTIME now, as clock_settime), and what changes the rate,
 * in the core: ADJ_FREQUENCY (clamped to +-500 ppm, at once), ADJ_TICK
 * (9000..11000 us, at once: tick * USER_HZ us a second), ADJ_OFFSET with
 * STA_PLL (clamped to +-0.5 s; the PLL, or with STA_FLL the FLL, moves
 * the frequency, and the offset is worked off a share a second by the
 * time constant, STA_MODE saying which loop ran) and adjtime()'s
 * ADJ_OFFSET_SINGLESHOT (500 us a second, 500 ppm, until none is left;
 * ADJ_OFFSET_SS_READ reads what is left). CLOCK_MONOTONIC_RAW is never
 * steered; the jiffy grid neither.
 *
 * Leap seconds as Linux's second_overflow(): its state machine runs at
 * every realtime second boundary (an hrtimer, only while STA_INS, STA_DEL
 * or a state other than TIME_OK asks for it). STA_INS makes it TIME_INS
 * and schedules the leap for the next UTC midnight, STA_DEL TIME_DEL for
 * the next 23:59:59; the core steps realtime at that exact instant
 * (dz_timekeeping_set_leap(), with an hrtimer there so that it runs),
 * before any realtime timer due then, and moves the TAI offset with it.
 * Then TIME_OOP for the repeated second (insertion), TIME_WAIT until both
 * bits are cleared, TIME_OK. Setting the clock forgets a pending leap, as
 * Linux's ntp_clear() does (the state stays until the bit is cleared),
 * and the core forgets both offsets.
 */
#include <kernel/posix-clock.h>
#include <kernel/realtime.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <dynhz/hz.h>
#include <dynhz/port.h>
#include <dynhz/timekeeping.h>
#include <dynhz/hrtimer.h>
#include <dynhz/ntp.h>

#define ADJ_OFFSET	      0x0001
#define ADJ_FREQUENCY	      0x0002
#define ADJ_MAXERROR	      0x0004
#define ADJ_ESTERROR	      0x0008
#define ADJ_STATUS	      0x0010
#define ADJ_TIMECONST	      0x0020
#define ADJ_TAI		      0x0080
#define ADJ_SETOFFSET	      0x0100
#define ADJ_MICRO	      0x1000
#define ADJ_NANO	      0x2000
#define ADJ_TICK	      0x4000
#define ADJ_OFFSET_SINGLESHOT 0x8001
#define ADJ_OFFSET_READONLY   0x2000
#define ADJ_ADJTIME	      0x8000

#define STA_PLL	      0x0001
#define STA_PPSFREQ   0x0002
#define STA_PPSTIME   0x0004
#define STA_FLL	      0x0008
#define STA_INS	      0x0010
#define STA_DEL	      0x0020
#define STA_UNSYNC    0x0040
#define STA_FREQHOLD  0x0080
#define STA_PPSSIGNAL 0x0100
#define STA_PPSJITTER 0x0200
#define STA_PPSWANDER 0x0400
#define STA_PPSERROR  0x0800
#define STA_CLOCKERR  0x1000
#define STA_NANO      0x2000
#define STA_MODE      0x4000
#define STA_CLK	      0x8000
#define STA_RONLY                                                                                 \
	(STA_PPSSIGNAL | STA_PPSJITTER | STA_PPSWANDER | STA_PPSERROR | STA_CLOCKERR | STA_NANO | \
	 STA_MODE | STA_CLK)

#define TIME_OK	   0
#define TIME_INS   1
#define TIME_DEL   2
#define TIME_OOP   3
#define TIME_WAIT  4
#define TIME_ERROR 5

#define SECS_PER_DAY 86400
#define NO_LEAP	     S64_MAX

#define NTP_PHASE_LIMIT	   16000000LL /* us: MAXPHASE (0.5 s) << 5 */
#define MAXERROR_GROWTH_US 500	      /* a second: MAXFREQ (500 ppm) */
#define MAX_TAI_OFFSET	   100000

/* The kernel's timex, wide enough for both of the user's. */
struct ktimex {
	u32 modes;
	s64 offset, freq, maxerror, esterror;
	s32 status;
	s64 constant, precision, tolerance;
	s64 time_sec, time_usec;
	s64 tick, ppsfreq, jitter;
	s32 shift;
	s64 stabil, jitcnt, calcnt, errcnt, stbcnt;
	s32 tai;
};

/* Linux's struct old_timex32: adjtimex (124) and clock_adjtime (343). */
struct old_timex32 {
	u32 modes;
	s32 offset, freq, maxerror, esterror, status, constant, precision, tolerance;
	s32 time_sec, time_usec;
	s32 tick, ppsfreq, jitter, shift, stabil, jitcnt, calcnt, errcnt, stbcnt, tai;
	s32 pad[11];
};
_Static_assert(sizeof(struct old_timex32) == 128, "struct old_timex32 is 128 bytes");

/* Linux's struct __kernel_timex: clock_adjtime64 (405), padded to the 64-bit layout. */
struct kernel_timex {
	u32 modes;
	s32 pad0;
	s64 offset, freq, maxerror, esterror;
	s32 status, pad1;
	s64 constant, precision, tolerance;
	s64 time_sec, time_usec;
	s64 tick, ppsfreq, jitter;
	s32 shift, pad2;
	s64 stabil, jitcnt, calcnt, errcnt, stbcnt;
	s32 tai;
	s32 pad[11];
} __attribute__((packed, aligned(4)));
_Static_assert(sizeof(struct kernel_timex) == 208, "struct __kernel_timex is 208 bytes");

/* The NTP state, as Linux's after boot (ntp_clear()). */
static struct {
	bool ready;
	s32 status;
	s64 maxerror;		     /* us, when set ... */
	u64 maxerror_set_ns;	     /* ... at this CLOCK_MONOTONIC time */
	s64 esterror;		     /* us */
	int state;		     /* TIME_OK .. TIME_WAIT */
	s64 next_leap_sec;	     /* realtime second of the leap, or NO_LEAP */
	struct hrtimer second_timer; /* CLOCK_REALTIME: each second boundary */
	struct hrtimer leap_timer;   /* CLOCK_MONOTONIC: at the leap */
} ntp;

/* The core's leap off, the second kept. */
static void hold_leap(void)
{
	dz_timekeeping_set_leap(KTIME_MAX, 0);
	hrtimer_try_to_cancel(&ntp.leap_timer);
}

/* No leap scheduled; the state is left as it is (Linux's ntp_clear()). */
static void leap_cancel(void)
{
	ntp.next_leap_sec = NO_LEAP;
	hold_leap();
}

/* The leap at realtime second sec, realtime stepping by step seconds then. */
static void leap_schedule(s64 sec, int step)
{
	s64 mono = sec * (s64)NSEC_PER_SEC - dz_timekeeping_real_offset_ns();

	ntp.next_leap_sec = sec;
	dz_timekeeping_set_leap(mono, step);
	hrtimer_start(&ntp.leap_timer, mono, HRTIMER_MODE_ABS);
}

static void ntp_clear(void)
{
	ntp.status = STA_UNSYNC;
	ntp.maxerror = NTP_PHASE_LIMIT;
	ntp.maxerror_set_ns = ktime_get_ns();
	ntp.esterror = NTP_PHASE_LIMIT;
}

/* The state machine needs the second boundaries. */
static bool leap_pending(void)
{
	return (ntp.status & (STA_INS | STA_DEL)) || ntp.state != TIME_OK;
}

/* Linux's second_overflow(), leap part, at the boundary that began second secs. */
static void second_overflow(s64 secs)
{
	switch (ntp.state) {
	case TIME_OK:
		if (ntp.status & STA_INS) {
			ntp.state = TIME_INS;
			leap_schedule(secs + SECS_PER_DAY - secs % SECS_PER_DAY, -1);
		} else if (ntp.status & STA_DEL) {
			ntp.state = TIME_DEL; /* the second before midnight goes */
			leap_schedule(secs + SECS_PER_DAY - (secs + 1) % SECS_PER_DAY, 1);
		}
		break;
	case TIME_INS:
	case TIME_DEL:
		/* The leap itself is leap_fn's; only a cancel here. */
		if (!(ntp.status & (ntp.state == TIME_INS ? STA_INS : STA_DEL))) {
			leap_cancel();
			ntp.state = TIME_OK;
		}
		break;
	case TIME_OOP:
		ntp.next_leap_sec = NO_LEAP;
		ntp.state = TIME_WAIT;
		break;
	case TIME_WAIT:
		if (!(ntp.status & (STA_INS | STA_DEL)))
			ntp.state = TIME_OK;
		break;
	}
}

static ktime_t next_second(void)
{
	s64 real = ktime_get_real();

	return (real / (s64)NSEC_PER_SEC + 1) * (s64)NSEC_PER_SEC;
}

static enum hrtimer_restart second_fn(struct hrtimer *t)
{
	second_overflow(ktime_get_real() / (s64)NSEC_PER_SEC);
	if (!leap_pending())
		return HRTIMER_NORESTART;
	hrtimer_set_expires(t, next_second());
	return HRTIMER_RESTART;
}

/* The core stepped realtime just before this ran (the same instant). */
static enum hrtimer_restart leap_fn(struct hrtimer *t)
{
	(void)t;
	if (ntp.state == TIME_INS) {
		ntp.state = TIME_OOP; /* 23:59:59 again; its end is TIME_WAIT */
	} else if (ntp.state == TIME_DEL) {
		ntp.state = TIME_WAIT;
		ntp.next_leap_sec = NO_LEAP;
	}
	clock_was_set(); /* a step of the clock, as Linux's clock_was_set_delayed() */
	return HRTIMER_NORESTART;
}

/*
 * After ADJ_STATUS: the state machine runs from the next second boundary.
 * A leap whose bit was cleared is held back at once (Linux checks the bit
 * at the leap's own boundary: this one may be that one), and goes ahead
 * again if the bit comes back before it; the state changes at a boundary.
 */
static void leap_kick(void)
{
	bool ins = ntp.state == TIME_INS, del = ntp.state == TIME_DEL;

	if ((ins || del) && ntp.next_leap_sec != NO_LEAP) {
		if (ntp.status & (ins ? STA_INS : STA_DEL))
			leap_schedule(ntp.next_leap_sec, ins ? -1 : 1);
		else
			hold_leap();
	}
	if (leap_pending() && !hrtimer_active(&ntp.second_timer))
		hrtimer_start(&ntp.second_timer, next_second(), HRTIMER_MODE_ABS);
}

void ntp_clock_was_set(void)
{
	if (!ntp.ready)
		return;
	ntp.status |= STA_UNSYNC;
	ntp.maxerror = NTP_PHASE_LIMIT;
	ntp.maxerror_set_ns = ktime_get_ns();
	ntp.esterror = NTP_PHASE_LIMIT;
	leap_cancel(); /* the core forgot its offsets itself */
}

static void ntp_init_once(void)
{
	if (ntp.ready)
		return;
	ntp_clear();
	ntp.state = TIME_OK;
	ntp.next_leap_sec = NO_LEAP;
	hrtimer_setup(&ntp.second_timer, second_fn, DZ_CLOCK_REALTIME, HRTIMER_MODE_ABS);
	hrtimer_setup(&ntp.leap_timer, leap_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	ntp.ready = true;
}

/*
 * maxerror now: 500 us more for every second since it was set; past the
 * limit, the limit and unsynchronized (Linux's second_overflow()).
 */
static s64 ntp_maxerror(void)
{
	u64 secs = (ktime_get_ns() - ntp.maxerror_set_ns) / NSEC_PER_SEC;
	s64 grown = ntp.maxerror + (s64)(secs > 1000000 ? 1000000 : secs) * MAXERROR_GROWTH_US;

	if (secs && grown > NTP_PHASE_LIMIT) {
		ntp.status |= STA_UNSYNC;
		grown = NTP_PHASE_LIMIT;
	}
	return grown;
}

/* Linux's is_error_status(): the state is TIME_ERROR while this holds. */
static bool is_error_status(s32 status)
{
	return (status & (STA_UNSYNC | STA_CLOCKERR)) ||
	       ((status & (STA_PPSFREQ | STA_PPSTIME)) && !(status & STA_PPSSIGNAL)) ||
	       ((status & (STA_PPSTIME | STA_PPSJITTER)) == (STA_PPSTIME | STA_PPSJITTER)) ||
	       ((status & STA_PPSFREQ) && (status & (STA_PPSWANDER | STA_PPSERROR)));
}

/* As Linux's timekeeping_validate_timex() (every caller is root here). */
static long validate(const struct ktimex *tx)
{
	if (tx->modes & ADJ_ADJTIME) {
		if (!(tx->modes & ADJ_OFFSET_SINGLESHOT))
			return -EINVAL; /* adjtime()'s bit with others */
	} else if ((tx->modes & ADJ_TICK) &&
		   (tx->tick < DZ_NTP_TICK_MIN || tx->tick > DZ_NTP_TICK_MAX)) {
		return -EINVAL;
	}
	if (tx->modes & ADJ_SETOFFSET) {
		if (tx->time_usec < 0)
			return -EINVAL;
		if (tx->time_usec >= ((tx->modes & ADJ_NANO) ? 1000000000 : 1000000))
			return -EINVAL;
	}
	return 0;
}

static s64 clamp64(s64 v, s64 lo, s64 hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void adj_status(s32 status)
{
	if ((ntp.status & STA_PLL) && !(status & STA_PLL)) {
		/* The PLL off: as Linux, reset before the bits given replace it. */
		ntp.status = STA_UNSYNC;
		ntp.state = TIME_OK;
		leap_cancel();
	}
	/* The PLL on: its first interval starts now. */
	if (!(ntp.status & STA_PLL) && (status & STA_PLL))
		dz_ntp_pll_start();
	ntp.status = (ntp.status & STA_RONLY) | (status & ~STA_RONLY);
}

/* The PLL's offset, only while STA_PLL is on (Linux's ntp_update_offset()). */
static void adj_offset(s64 offset)
{
	unsigned int flags = 0;

	if (!(ntp.status & STA_PLL))
		return;
	if (!(ntp.status & STA_NANO))
		offset = clamp64(offset, -1000000, 1000000) * 1000;
	if (ntp.status & STA_FLL)
		flags |= DZ_NTP_FLL;
	if (ntp.status & STA_FREQHOLD)
		flags |= DZ_NTP_FREQHOLD;
	ntp.status &= ~STA_MODE;
	if (dz_ntp_offset(offset, flags))
		ntp.status |= STA_MODE;
}

/* Linux's order: the status first (it decides what an offset does), the tick last. */
static void apply_modes(const struct ktimex *tx)
{
	if (tx->modes & ADJ_STATUS) {
		adj_status(tx->status);
		leap_kick();
	}
	if (tx->modes & ADJ_NANO)
		ntp.status |= STA_NANO;
	if (tx->modes & ADJ_MICRO)
		ntp.status &= ~STA_NANO;
	if (tx->modes & ADJ_FREQUENCY)
		dz_ntp_set_freq(tx->freq);
	if (tx->modes & ADJ_MAXERROR) {
		ntp.maxerror = clamp64(tx->maxerror, 0, NTP_PHASE_LIMIT);
		ntp.maxerror_set_ns = ktime_get_ns();
	}
	if (tx->modes & ADJ_ESTERROR)
		ntp.esterror = clamp64(tx->esterror, 0, NTP_PHASE_LIMIT);
	if (tx->modes & ADJ_TIMECONST)
		dz_ntp_set_constant(clamp64(tx->constant, 0, DZ_NTP_MAXTC) +
				    ((ntp.status & STA_NANO) ? 0 : 4));
	if ((tx->modes & ADJ_TAI) && tx->constant >= 0 && tx->constant <= MAX_TAI_OFFSET)
		dz_timekeeping_set_tai_offset((s32)tx->constant);
	if (tx->modes & ADJ_OFFSET)
		adj_offset(tx->offset);
	if (tx->modes & ADJ_TICK)
		dz_ntp_set_tick((long)tx->tick); /* validate() checked the range */
}

static void fill(struct ktimex *tx)
{
	u64 real = realtime_get_ns();
	s64 off = dz_ntp_offset_left();

	/* Linux's div_s64(): towards 0. */
	tx->offset = (ntp.status & STA_NANO) ? off : off / 1000;
	tx->freq = dz_ntp_freq();
	tx->maxerror = ntp_maxerror();
	tx->esterror = ntp.esterror;
	tx->status = ntp.status;
	tx->constant = dz_ntp_constant();
	tx->precision = 1;
	tx->tolerance = (s64)DZ_NTP_MAXFREQ << 16;
	tx->tick = dz_ntp_tick();
	tx->tai = dz_timekeeping_tai_offset();
	tx->ppsfreq = tx->jitter = tx->stabil = 0; /* no PPS signal */
	tx->shift = 0;
	tx->jitcnt = tx->calcnt = tx->errcnt = tx->stbcnt = 0;
	tx->time_sec = (s64)(real / NSEC_PER_SEC);
	tx->time_usec = (s64)(real % NSEC_PER_SEC);
	if (!(ntp.status & STA_NANO))
		tx->time_usec /= 1000;
}

/*
 * The state to return: the repeated second over but its boundary's
 * hrtimer not run yet is TIME_WAIT already (as Linux's __do_adjtimex()).
 */
static int leap_state(s64 real_sec)
{
	if (ntp.state == TIME_OOP && real_sec >= ntp.next_leap_sec)
		return TIME_WAIT;
	return ntp.state;
}

/* Linux's do_adjtimex(): the state (TIME_OK .. TIME_ERROR) or -errno; *tx is filled. */
static long do_adjtimex(struct ktimex *tx)
{
	unsigned long flags;
	int state;
	long err = validate(tx);
	s64 nsec;

	if (err)
		return err;
	if (tx->modes & ADJ_SETOFFSET) {
		nsec = (tx->modes & ADJ_NANO) ? tx->time_usec : tx->time_usec * 1000;
		err = realtime_inject_offset(tx->time_sec, nsec);
		if (err)
			return err;
	}
	flags = dz_irq_save();
	ntp_init_once();
	if (tx->modes & ADJ_ADJTIME) {
		s64 old = dz_ntp_adjtime_left();

		/* Linux keeps it in a long: 32 bits on i386. */
		if (!(tx->modes & ADJ_OFFSET_READONLY))
			dz_ntp_adjtime((s32)tx->offset);
		fill(tx);
		tx->offset = old;
	} else {
		if (tx->modes)
			apply_modes(tx);
		fill(tx);
	}
	state = leap_state(tx->time_sec);
	dz_irq_restore(flags);
	return is_error_status(tx->status) ? TIME_ERROR : state;
}

/* clock_adjtime: CLOCK_REALTIME only; a clock Linux has but cannot adjust -EOPNOTSUPP. */
static long clock_adj_ok(s32 id)
{
	if (id == CLOCK_REALTIME)
		return 0;
	if (id < 0)
		return (id & 3) == 3 ? -EINVAL : -EOPNOTSUPP; /* no clock files here */
	if (id >= 12 || id == 10)
		return -EINVAL;
	return -EOPNOTSUPP;
}

/* The fields all three structs share, by name (the 32-bit one truncates, as Linux's). */
#define TIMEX_FIELDS(X) \
	X(modes)        \
	X(offset)       \
	X(freq)         \
	X(maxerror)     \
	X(esterror)     \
	X(status)       \
	X(constant)     \
	X(precision)    \
	X(tolerance)    \
	X(time_sec)     \
	X(time_usec)    \
	X(tick)         \
	X(ppsfreq)      \
	X(jitter)       \
	X(shift)        \
	X(stabil)       \
	X(jitcnt)       \
	X(calcnt)       \
	X(errcnt)       \
	X(stbcnt)       \
	X(tai)
#define FROM_USER(f) k->f = u->f;
#define TO_USER(f)   u->f = k->f;

static void from_timex32(struct ktimex *k, const struct old_timex32 *u)
{
	TIMEX_FIELDS(FROM_USER)
}

static void to_timex32(struct old_timex32 *u, const struct ktimex *k)
{
	TIMEX_FIELDS(TO_USER)
	memset(u->pad, 0, sizeof(u->pad)); /* as Linux's put_old_timex32() */
}

static void from_timex64(struct ktimex *k, const struct kernel_timex *u)
{
	TIMEX_FIELDS(FROM_USER)
}

static void to_timex64(struct kernel_timex *u, const struct ktimex *k)
{
	TIMEX_FIELDS(TO_USER)
}

/* As Linux: the struct read first (-EFAULT), then the clock, then written back on success. */
static long adjtime32(s32 id, u32 utx)
{
	struct old_timex32 u;
	struct ktimex k;
	long ret;

	if (copy_from_user(&u, utx, sizeof(u)))
		return -EFAULT;
	ret = clock_adj_ok(id);
	if (ret)
		return ret;
	from_timex32(&k, &u);
	ret = do_adjtimex(&k);
	if (ret >= 0) {
		to_timex32(&u, &k);
		if (copy_to_user(utx, &u, sizeof(u)))
			return -EFAULT;
	}
	return ret;
}

SYSCALL_DEFINE1(adjtimex, u32, utx)
{
	return adjtime32(CLOCK_REALTIME, utx);
}

SYSCALL_DEFINE2(clock_adjtime, s32, id, u32, utx)
{
	return adjtime32(id, utx);
}

SYSCALL_DEFINE2(clock_adjtime64, s32, id, u32, utx)
{
	struct kernel_timex u;
	struct ktimex k;
	long ret;

	if (copy_from_user(&u, utx, sizeof(u)))
		return -EFAULT;
	ret = clock_adj_ok(id);
	if (ret)
		return ret;
	from_timex64(&k, &u);
	ret = do_adjtimex(&k);
	if (ret >= 0) {
		to_timex64(&u, &k);
		if (copy_to_user(utx, &u, sizeof(u)))
			return -EFAULT;
	}
	return ret;
}
