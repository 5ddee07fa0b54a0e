/* SPDX-License-Identifier: MIT */
/*
 * High-resolution timers, with Linux's names and semantics.
 *
 *	static enum hrtimer_restart fn(struct hrtimer *t)
 *	{
 *		hrtimer_forward_now(t, 10 * NSEC_PER_MSEC);
 *		return HRTIMER_RESTART;
 *	}
 *	hrtimer_setup(&t, fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_REL);
 *	hrtimer_start(&t, 10 * NSEC_PER_MSEC, HRTIMER_MODE_REL);
 *
 * (fn forwards its own expiry by 10 ms and asks to be queued again.)
 *
 * A timer has an expiry in nanoseconds on one clock (monotonic, boottime,
 * realtime or TAI: <dynhz/timekeeping.h>) and, optionally, a slack: started
 * with hrtimer_start_range_ns(t, expires, slack, mode) it may run anywhere
 * in [expires, expires + slack], which lets the core serve several timers
 * with one wakeup. It never runs before its expiry on its own clock.
 *
 * When the tick device has a one-shot mode and there is a clocksource
 * (high resolution, the boot report says "hrtimer: high resolution on
 * <device>"), the device is programmed for the earliest latest-expiry
 * (expires + slack) of all timers, to the clocksource's cycle: a timer runs
 * at its latest expiry, rounded up to the device's counter, or earlier at
 * a wakeup that comes after its expiry. The periodic tick is itself a
 * periodic timer on that device, on the exact jiffy grid, so jiffies and
 * the jiffies timers of <dynhz/timer.h> are unchanged. Otherwise
 * ("hrtimer: tick resolution (...)") timers are checked at every tick and
 * run at the first tick at or after their expiry (the slack is not
 * needed: the tick's granularity is coarser).
 *
 * Ordering: at each event the core runs, in order of latest expiry (then of
 * start), every timer whose expiry has passed, until the first one whose
 * expiry has not. Timers with the same expiry run in the order they were
 * started.
 *
 * Callbacks run from the tick device's interrupt, with interrupts off and
 * the timer no longer queued; they may start, cancel or forward any timer,
 * themselves too. A callback that returns HRTIMER_RESTART has its timer
 * queued again at the expiry it left there (hrtimer_forward()), unless it
 * started the timer itself meanwhile.
 *
 * Realtime and TAI timers started with HRTIMER_MODE_ABS follow changes of
 * their clock (dz_timekeeping_set_real_ns()). As on Linux, a realtime
 * timer set up with HRTIMER_MODE_REL runs on the monotonic clock: a
 * relative timeout does not move when the clock is set.
 *
 * The queue (time/hrtimer.c) is intrusive, nothing to size or allocate: a
 * hierarchical wheel of 262 us units for the later timers, where start and
 * cancel are O(1), and a red-black tree for the first ones, O(log n).
 *
 * One CPU: there is never a callback running elsewhere to wait for, so
 * hrtimer_cancel() does not wait. Every call disables interrupts itself.
 */
#ifndef DYNHZ_HRTIMER_H
#define DYNHZ_HRTIMER_H

#include <dynhz/types.h>
#include <dynhz/ktime.h>
#include <dynhz/timekeeping.h>
#include <dynhz/node.h>

/* Modes, with Linux's values. PINNED, SOFT and HARD have no effect here. */
enum hrtimer_mode {
	HRTIMER_MODE_ABS = 0x00,
	HRTIMER_MODE_REL = 0x01,
	HRTIMER_MODE_PINNED = 0x02,
	HRTIMER_MODE_SOFT = 0x04,
	HRTIMER_MODE_HARD = 0x08,
	HRTIMER_MODE_ABS_PINNED = HRTIMER_MODE_ABS | HRTIMER_MODE_PINNED,
	HRTIMER_MODE_REL_PINNED = HRTIMER_MODE_REL | HRTIMER_MODE_PINNED,
	HRTIMER_MODE_ABS_SOFT = HRTIMER_MODE_ABS | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_REL_SOFT = HRTIMER_MODE_REL | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_ABS_PINNED_SOFT = HRTIMER_MODE_ABS_PINNED | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_REL_PINNED_SOFT = HRTIMER_MODE_REL_PINNED | HRTIMER_MODE_SOFT,
	HRTIMER_MODE_ABS_HARD = HRTIMER_MODE_ABS | HRTIMER_MODE_HARD,
	HRTIMER_MODE_REL_HARD = HRTIMER_MODE_REL | HRTIMER_MODE_HARD,
	HRTIMER_MODE_ABS_PINNED_HARD = HRTIMER_MODE_ABS_PINNED | HRTIMER_MODE_HARD,
	HRTIMER_MODE_REL_PINNED_HARD = HRTIMER_MODE_REL_PINNED | HRTIMER_MODE_HARD,
};

enum hrtimer_restart {
	HRTIMER_NORESTART, /* the timer is done */
	HRTIMER_RESTART,   /* queue it again at its (forwarded) expiry */
};

/* The clocks an hrtimer can run on, in the core's order. */
enum dz_hrtimer_base {
	DZ_HRTIMER_BASE_MONOTONIC,
	DZ_HRTIMER_BASE_REALTIME,
	DZ_HRTIMER_BASE_BOOTTIME,
	DZ_HRTIMER_BASE_TAI,
	DZ_HRTIMER_MAX_CLOCK_BASES,
};

struct hrtimer {
	union {
		struct dz_hlist_node list; /* in a wheel slot */
		struct dz_rb_node rb;	   /* in the tree of the first ones */
	} _node;
	ktime_t _softexpires; /* the expiry: never runs before it */
	ktime_t _expires;     /* the latest expiry: _softexpires + the slack */
	enum hrtimer_restart (*function)(struct hrtimer *);
	u32 _seq;  /* start order, for timers with equal expiries */
	u16 _slot; /* the wheel slot while in one */
	u8 _base;  /* enum dz_hrtimer_base */
	u8 _state; /* where it is queued: 0 not, else the wheel or the tree */
#ifdef DYNHZ_DEBUG
	u32 _magic;	   /* set up, not freed or overwritten */
	const char *_file; /* where it was last started */
	int _line;
#endif
};

/**
 * hrtimer_setup() - prepare a timer, not queued, for hrtimer_start()
 * @timer: the timer, which must not be queued
 * @function: its callback
 * @clock_id: DZ_CLOCK_MONOTONIC, _BOOTTIME, _REALTIME or _TAI (any other
 *	is a bug: the debug build panics, the others use monotonic, as Linux)
 * @mode: HRTIMER_MODE_REL on the realtime clock puts the timer on the
 *	monotonic clock (relative timeouts do not follow clock_settime)
 *
 * The debug build panics if @timer is queued (set up again in use).
 */
void hrtimer_setup(struct hrtimer *timer, enum hrtimer_restart (*function)(struct hrtimer *),
		   int clock_id, enum hrtimer_mode mode);

/**
 * hrtimer_init() - Linux's older form of hrtimer_setup()
 * @timer: the timer, which must not be queued
 * @clock_id: as hrtimer_setup()
 * @mode: as hrtimer_setup()
 *
 * The callback is set afterwards: timer->function = fn.
 */
static inline void hrtimer_init(struct hrtimer *timer, int clock_id, enum hrtimer_mode mode)
{
	hrtimer_setup(timer, NULL, clock_id, mode);
}

/**
 * hrtimer_start_range_ns() - (re)start a timer
 * @timer: a set-up timer, queued or not (a queued one is moved)
 * @tim: the expiry on the timer's clock; HRTIMER_MODE_REL: from now
 * @range_ns: the slack: the timer may run up to this much after @tim
 * @mode: HRTIMER_MODE_ABS or HRTIMER_MODE_REL (and Linux's flags)
 *
 * An expiry already passed runs at the next event of the tick device (in
 * high resolution: at once, the device's shortest delay ahead). O(1)
 * unless the expiry is among the first (then O(log n)); cannot fail.
 */
void dz_hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim, u64 range_ns,
			       enum hrtimer_mode mode, const char *file, int line);

#ifdef DYNHZ_DEBUG
/* The debug build records where each timer was started, for its panics. */
#define DZ_HRTIMER_CALLER __FILE__, __LINE__
#else
#define DZ_HRTIMER_CALLER NULL, 0
#endif

#define hrtimer_start_range_ns(timer, tim, range_ns, mode) \
	dz_hrtimer_start_range_ns((timer), (tim), (range_ns), (mode), DZ_HRTIMER_CALLER)

/**
 * hrtimer_start() - (re)start a timer with no slack
 * @timer: the timer
 * @tim: its expiry (HRTIMER_MODE_ABS) or the time from now (HRTIMER_MODE_REL)
 * @mode: the mode
 */
void dz_hrtimer_start(struct hrtimer *timer, ktime_t tim, enum hrtimer_mode mode, const char *file,
		      int line);
#define hrtimer_start(timer, tim, mode) dz_hrtimer_start((timer), (tim), (mode), DZ_HRTIMER_CALLER)

/**
 * hrtimer_start_expires() - (re)start a timer at the expiry it holds
 * @timer: the timer, after hrtimer_set_expires() or hrtimer_forward()
 * @mode: HRTIMER_MODE_ABS (REL would add the time now to it)
 */
static inline void dz_hrtimer_start_expires(struct hrtimer *timer, enum hrtimer_mode mode,
					    const char *file, int line)
{
	dz_hrtimer_start_range_ns(timer, timer->_softexpires,
				  (u64)ktime_sub_safe(timer->_expires, timer->_softexpires), mode,
				  file, line);
}

#define hrtimer_start_expires(timer, mode) \
	dz_hrtimer_start_expires((timer), (mode), DZ_HRTIMER_CALLER)

/**
 * hrtimer_try_to_cancel() - stop a timer if it is queued
 * @timer: the timer
 *
 * Return: 1 if it was queued (it is not any more), 0 if it was not, -1 if
 * called from the timer's own callback (as on Linux: its callback is
 * running; the timer is left as it is).
 */
int hrtimer_try_to_cancel(struct hrtimer *timer);

/**
 * hrtimer_cancel() - stop a timer
 * @timer: the timer
 *
 * Never waits (one CPU). From the timer's own callback it also keeps a
 * HRTIMER_RESTART of that callback from queueing the timer again.
 *
 * Return: 1 if the timer was queued or its callback running, else 0.
 */
int hrtimer_cancel(struct hrtimer *timer);

/**
 * hrtimer_forward() - move a timer's expiry past a time, by whole intervals
 * @timer: the timer, not queued (from its callback, typically)
 * @now: the time to pass, on the timer's clock
 * @interval: the period (at least the clock's resolution is used)
 *
 * Adds @interval to both expiries as many times as needed for the latest
 * expiry to be after @now; nothing if it is already.
 *
 * Return: the number of intervals added (the overruns plus one), 0 if none.
 */
u64 hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval);

/**
 * hrtimer_forward_now() - hrtimer_forward() past the time now on the timer's clock
 * @timer: the timer, not queued
 * @interval: the period
 *
 * Return: as hrtimer_forward().
 */
u64 hrtimer_forward_now(struct hrtimer *timer, ktime_t interval);

/**
 * hrtimer_cb_get_time() - the time now on the timer's clock
 * @timer: the timer
 *
 * Return: ns on its clock (monotonic, boottime, realtime or TAI).
 */
ktime_t hrtimer_cb_get_time(const struct hrtimer *timer);

/**
 * hrtimer_get_remaining() - the time left to the timer's latest expiry
 * @timer: the timer
 *
 * Return: the expiry minus the time now on its clock (negative if passed).
 */
ktime_t hrtimer_get_remaining(const struct hrtimer *timer);

/**
 * hrtimer_is_queued() - is the timer waiting to run?
 * @timer: the timer
 *
 * Return: true from a start until its callback is called or it is cancelled.
 */
static inline bool hrtimer_is_queued(const struct hrtimer *timer)
{
	return timer->_state != 0;
}

/**
 * hrtimer_callback_running() - is the timer's callback running now?
 * @timer: the timer
 *
 * Return: true inside its callback (the only place it can be on one CPU).
 */
bool hrtimer_callback_running(const struct hrtimer *timer);

/**
 * hrtimer_active() - queued, or its callback running
 * @timer: the timer
 *
 * Return: hrtimer_is_queued() || hrtimer_callback_running().
 */
static inline bool hrtimer_active(const struct hrtimer *timer)
{
	return hrtimer_is_queued(timer) || hrtimer_callback_running(timer);
}

/**
 * hrtimer_get_expires() - the latest expiry (expiry + slack), on the timer's clock
 * @timer: the timer
 *
 * Return: ns on its clock.
 */
static inline ktime_t hrtimer_get_expires(const struct hrtimer *timer)
{
	return timer->_expires;
}

/**
 * hrtimer_get_softexpires() - the expiry asked for: it never runs before
 * @timer: the timer
 *
 * Return: ns on its clock.
 */
static inline ktime_t hrtimer_get_softexpires(const struct hrtimer *timer)
{
	return timer->_softexpires;
}

/**
 * hrtimer_get_expires_ns() - hrtimer_get_expires() as s64 ns
 * @timer: the timer
 *
 * Return: ns on its clock.
 */
static inline s64 hrtimer_get_expires_ns(const struct hrtimer *timer)
{
	return timer->_expires;
}

#ifdef DYNHZ_DEBUG
_Noreturn void dz_hrtimer_bug_queued(const struct hrtimer *timer, const char *what);
#define DZ_HRTIMER_NOT_QUEUED(timer, what)                    \
	do {                                                  \
		if (unlikely((timer)->_state))                \
			dz_hrtimer_bug_queued((timer), what); \
	} while (0)
#else
#define DZ_HRTIMER_NOT_QUEUED(timer, what) ((void)(timer))
#endif

/**
 * hrtimer_set_expires() - set a timer's expiry, no slack, without starting it
 * @timer: the timer, not queued (a queued timer is ordered by the expiry it
 *	was started with: the debug build panics on one)
 * @time: the expiry on its clock
 *
 * Then hrtimer_start_expires() queues it.
 */
static inline void hrtimer_set_expires(struct hrtimer *timer, ktime_t time)
{
	DZ_HRTIMER_NOT_QUEUED(timer, "hrtimer_set_expires");
	timer->_softexpires = time;
	timer->_expires = time;
}

/**
 * hrtimer_set_expires_range_ns() - set a timer's expiry and slack, without starting it
 * @timer: the timer, not queued
 * @time: the expiry on its clock
 * @delta: the slack
 */
static inline void hrtimer_set_expires_range_ns(struct hrtimer *timer, ktime_t time, u64 delta)
{
	DZ_HRTIMER_NOT_QUEUED(timer, "hrtimer_set_expires_range_ns");
	timer->_softexpires = time;
	timer->_expires = ktime_add_safe(time, ns_to_ktime(delta));
}

/**
 * hrtimer_add_expires_ns() - move a timer's expiry (both ends) later
 * @timer: the timer, not queued
 * @ns: by how much
 */
static inline void hrtimer_add_expires_ns(struct hrtimer *timer, u64 ns)
{
	DZ_HRTIMER_NOT_QUEUED(timer, "hrtimer_add_expires_ns");
	timer->_softexpires = ktime_add_safe(timer->_softexpires, ns_to_ktime(ns));
	timer->_expires = ktime_add_safe(timer->_expires, ns_to_ktime(ns));
}

/**
 * hrtimer_expires_remaining() - the same as hrtimer_get_remaining()
 * @timer: the timer
 *
 * Return: the latest expiry minus the time now on its clock.
 */
static inline ktime_t hrtimer_expires_remaining(const struct hrtimer *timer)
{
	return hrtimer_get_remaining(timer);
}

/* The structure a timer is embedded in, from the callback's argument. */
#define dz_hrtimer_entry(ptr, type, member) dz_container_of(ptr, type, member)

/* Counters, for tests and benchmarks. */
struct dz_hrtimer_stats {
	unsigned int queued; /* timers queued now */
	u64 expired;	     /* callbacks run since dz_time_init() */
};

/**
 * dz_hrtimer_stats() - the counters of the queue
 * @st: where they go
 */
void dz_hrtimer_stats(struct dz_hrtimer_stats *st);

/**
 * dz_hrtimer_for_each_queued() - visit every queued timer (for /proc/timer_list)
 * @fn: called with interrupts off on each queued timer until it returns
 *	false; it must not start, cancel or free any timer
 * @arg: passed to @fn
 *
 * The first ones (the tree) come in expiry order, the later ones (the
 * wheel) slot by slot: a reader that wants them sorted sorts its copy.
 * O(n) with interrupts off: copy a bounded number, print afterwards.
 */
void dz_hrtimer_for_each_queued(bool (*fn)(const struct hrtimer *t, void *arg), void *arg);

/**
 * dz_hrtimer_clock() - the clock a timer counts on
 * @t: the timer
 *
 * Return: DZ_CLOCK_MONOTONIC, _BOOTTIME, _REALTIME or _TAI.
 */
int dz_hrtimer_clock(const struct hrtimer *t);

/**
 * dz_hrtimer_highres() - do hrtimers run from a one-shot device?
 *
 * Return: true in high resolution (the boot report's "hrtimer: high
 * resolution on <device>"), false at tick resolution.
 */
bool dz_hrtimer_highres(void);

#endif
