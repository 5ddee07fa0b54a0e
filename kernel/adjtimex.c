// SPDX-License-Identifier: MIT
/*
 * adjtimex, clock_adjtime and clock_adjtime64 on CLOCK_REALTIME: the NTP
 * interface of Linux (kernel/time/ntp.c), with its state, its mode bits
 * and its errors, on a kernel that keeps the state but does not slew.
 *
 * What a program reads is what Linux reports after a boot without NTP:
 * status STA_UNSYNC (so the call returns TIME_ERROR, 5), maxerror and
 * esterror at 16 s (NTP_PHASE_LIMIT), constant 2, precision 1, tolerance
 * 500 ppm, tick 10000 us (1000000 / USER_HZ), tai 0; maxerror grows by 500
 * us a second, as Linux's second_overflow() makes it, until the limit.
 *
 * What a program sets is kept and read back as Linux would: ADJ_STATUS
 * (the writable bits),
 * ADJ_MAXERROR, ADJ_ESTERROR, ADJ_TIMECONST (+4 without STA_NANO, in
 * 0..10), ADJ_TAI (0..100000 s, the TAI offset of CLOCK_TAI at once),
 * ADJ_NANO/ADJ_MICRO, ADJ_OFFSET (with STA_PLL: clamped to +-0.5 s),
 * ADJ_FREQUENCY (clamped to +-500 ppm), ADJ_TICK (9000..11000 us),
 * ADJ_SETOFFSET (steps CLOCK_REALTIME now, as clock_settime) and the
 * adjtime() modes ADJ_OFFSET_SINGLESHOT / ADJ_OFFSET_SS_READ (the offset
 * kept and read back). Not done: slewing. The offset, the frequency and
 * the tick are stored and reported but CLOCK_REALTIME and CLOCK_MONOTONIC
 * keep the clocksource's rate (CLOCK_MONOTONIC_RAW is the same clock), and
 * leap seconds (STA_INS, STA_DEL) are never inserted.
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
#define STA_UNSYNC    0x0040
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
#define TIME_ERROR 5

#define NTP_PHASE_LIMIT	   16000000LL	 /* us: MAXPHASE (0.5 s) << 5 */
#define MAXERROR_GROWTH_US 500		 /* a second: MAXFREQ (500 ppm) */
#define MAXFREQ_SCALED	   (500LL << 16) /* 500 ppm in the user's ppm << 16 */
#define MAXPHASE_NS	   500000000LL
#define MAXTC		   10
#define MAX_TAI_OFFSET	   100000
#define USER_TICK_USEC	   (1000000 / USER_HZ)

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
	s64 maxerror;	     /* us, when set ... */
	u64 maxerror_set_ns; /* ... at this CLOCK_MONOTONIC time */
	s64 esterror;	     /* us */
	s64 constant;	     /* 0..MAXTC */
	s64 offset_ns;	     /* the PLL's offset (STA_PLL), ns */
	s64 freq;	     /* ppm << 16 */
	s64 tick_usec;	     /* us a USER_HZ tick */
	s64 adjtime_offset;  /* adjtime()'s offset, us */
} ntp;

static void ntp_clear(void)
{
	ntp.status = STA_UNSYNC;
	ntp.maxerror = NTP_PHASE_LIMIT;
	ntp.maxerror_set_ns = ktime_get_ns();
	ntp.esterror = NTP_PHASE_LIMIT;
	ntp.offset_ns = 0;
}

static void ntp_init_once(void)
{
	if (ntp.ready)
		return;
	ntp_clear();
	ntp.constant = 2;
	ntp.tick_usec = USER_TICK_USEC;
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
		   (tx->tick < 900000 / USER_HZ || tx->tick > 1100000 / USER_HZ)) {
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
	if ((ntp.status & STA_PLL) && !(status & STA_PLL))
		ntp.status =
			STA_UNSYNC; /* the PLL off: as Linux, before the bits given replace it */
	ntp.status = (ntp.status & STA_RONLY) | (status & ~STA_RONLY);
}

/* The PLL's offset, only while STA_PLL is on (Linux's ntp_update_offset()). */
static void adj_offset(s64 offset)
{
	if (!(ntp.status & STA_PLL))
		return;
	if (!(ntp.status & STA_NANO))
		offset = clamp64(offset, -1000000, 1000000) * 1000;
	ntp.offset_ns = clamp64(offset, -MAXPHASE_NS, MAXPHASE_NS);
}

static void apply_modes(const struct ktimex *tx)
{
	if (tx->modes & ADJ_STATUS)
		adj_status(tx->status);
	if (tx->modes & ADJ_NANO)
		ntp.status |= STA_NANO;
	if (tx->modes & ADJ_MICRO)
		ntp.status &= ~STA_NANO;
	if (tx->modes & ADJ_FREQUENCY)
		ntp.freq = clamp64(tx->freq, -MAXFREQ_SCALED, MAXFREQ_SCALED);
	if (tx->modes & ADJ_MAXERROR) {
		ntp.maxerror = tx->maxerror;
		ntp.maxerror_set_ns = ktime_get_ns();
	}
	if (tx->modes & ADJ_ESTERROR)
		ntp.esterror = tx->esterror;
	if (tx->modes & ADJ_TIMECONST)
		ntp.constant = clamp64(tx->constant + ((ntp.status & STA_NANO) ? 0 : 4), 0, MAXTC);
	if ((tx->modes & ADJ_TAI) && tx->constant >= 0 && tx->constant <= MAX_TAI_OFFSET)
		dz_timekeeping_set_tai_offset((s32)tx->constant);
	if (tx->modes & ADJ_OFFSET)
		adj_offset(tx->offset);
	if (tx->modes & ADJ_TICK)
		ntp.tick_usec = tx->tick;
}

/* Linux's shift_right(): a signed shift that rounds towards zero. */
static s64 shift_right(s64 x, int s)
{
	return x < 0 ? -((-x) >> s) : x >> s;
}

/*
 * The frequency as Linux reads it back: stored as ns/s << 32, read through
 * its fixed-point inverse, which can differ from what was set by a unit.
 */
static s64 freq_readback(void)
{
	const s64 ppm_scale = 1000LL << 16;	     /* PPM_SCALE */
	const s64 inv = (1LL << 51) / ppm_scale + 1; /* PPM_SCALE_INV, shift 19 */

	return shift_right(((ntp.freq * ppm_scale) >> 19) * inv, 32);
}

static void fill(struct ktimex *tx)
{
	u64 real = realtime_get_ns();
	s64 off = ntp.offset_ns;

	tx->offset = (ntp.status & STA_NANO) ? off : (s64)(s32)((u32)off / 1000);
	tx->freq = freq_readback();
	tx->maxerror = ntp_maxerror();
	tx->esterror = ntp.esterror;
	tx->status = ntp.status;
	tx->constant = ntp.constant;
	tx->precision = 1;
	tx->tolerance = MAXFREQ_SCALED;
	tx->tick = ntp.tick_usec;
	tx->tai = dz_timekeeping_tai_offset();
	tx->ppsfreq = tx->jitter = tx->stabil = 0; /* no PPS signal */
	tx->shift = 0;
	tx->jitcnt = tx->calcnt = tx->errcnt = tx->stbcnt = 0;
	tx->time_sec = (s64)(real / NSEC_PER_SEC);
	tx->time_usec = (s64)(real % NSEC_PER_SEC);
	if (!(ntp.status & STA_NANO))
		tx->time_usec /= 1000;
}

/* Linux's do_adjtimex(): the state (TIME_OK or TIME_ERROR) or -errno; *tx is filled. */
static long do_adjtimex(struct ktimex *tx)
{
	unsigned long flags;
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
		s64 old = ntp.adjtime_offset;

		if (!(tx->modes & ADJ_OFFSET_READONLY))
			ntp.adjtime_offset = tx->offset;
		fill(tx);
		tx->offset = old;
	} else {
		if (tx->modes)
			apply_modes(tx);
		fill(tx);
	}
	dz_irq_restore(flags);
	return is_error_status(tx->status) ? TIME_ERROR : TIME_OK;
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
