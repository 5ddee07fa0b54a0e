/* SPDX-License-Identifier: MIT */
/*
 * Kernel timers with Linux semantics, on a hierarchical timing wheel.
 *
 *	timer_setup(&t, fn, 0);
 *	mod_timer(&t, jiffies + msecs_to_jiffies(100));
 *
 * A timer runs at the first tick at which time_after_eq(jiffies, expires)
 * holds: never earlier, and never later either (lateness 0) for any expiry
 * up to half the range of unsigned long after the next tick; an expiry that
 * is not after jiffies (or further ahead than that, which reads as the
 * past) runs at the next tick. Callbacks run from the tick, with the timer
 * already not pending, and may add, modify or delete any timer, themselves
 * too.
 *
 * The wheel (time/timer.c) has 5 levels of 64 slots; level
 * n holds the timers due 64^n to 64^(n+1) - 1 jiffies ahead, in slots of
 * 64^n jiffies. When the clock reaches a slot of a higher level its timers
 * cascade down, so each timer is exact; a timer moves at most once per
 * level, so a tick costs O(1) amortized whatever the number pending, and a
 * tick before the next jiffy with work (lowered as timers are filed, found
 * again from per-level bitmaps of occupied slots) is a few instructions.
 * The wheel holds 2^30 - 1
 * jiffies: 654 days at HZ=19, 29.8 hours at HZ=10000. A later expiry is
 * parked in the farthest slot and re-filed when the wheel reaches it, so it
 * stays exact (2^30 - 2^24 jiffies pass between two re-filings).
 *
 * jiffies is 32 bits in the i386 kernel: expiries are compared across the
 * wrap as time_after() does, so there the range ends 2^31 jiffies ahead.
 *
 * Timer operations disable interrupts themselves (dz_irq_save(), inline);
 * the tick handler runs with interrupts off.
 */
#ifndef DYNHZ_TIMER_H
#define DYNHZ_TIMER_H

#include <dynhz/types.h>
#include <dynhz/node.h>

struct timer_list {
	struct dz_hlist_node entry; /* in a wheel slot while pending */
	unsigned long expires;
	void (*function)(struct timer_list *);
	u32 flags;
	u32 idx; /* the wheel slot while pending (the core's) */
#ifdef DYNHZ_DEBUG
	/*
	 * The debug build's tag: the HZ generation (dz_hz_generation()) of
	 * the change that last re-expressed this timer, and its expiry
	 * before; 0 once it has run or been armed again. Arming it again
	 * with that old expiry is a deadline carried across the change: it
	 * is reported and counted (dz_timer_stats()).
	 */
	u32 hz_gen;
	unsigned long hz_old;
#endif
};

/* Flags of timer_setup(), accepted for Linux compatibility; no effect here. */
#define TIMER_DEFERRABLE 0x00080000
#define TIMER_PINNED	 0x00100000
#define TIMER_IRQSAFE	 0x00200000
#define TIMER_INIT_FLAGS (TIMER_DEFERRABLE | TIMER_PINNED | TIMER_IRQSAFE)

static inline void dz_timer_init(struct timer_list *t, void (*fn)(struct timer_list *),
				 unsigned int flags)
{
	t->entry.next = NULL;
	t->entry.pprev = NULL;
	t->expires = 0;
	t->function = fn;
	t->flags = flags & TIMER_INIT_FLAGS;
	t->idx = 0;
#ifdef DYNHZ_DEBUG
	t->hz_gen = 0;
	t->hz_old = 0;
#endif
}

#define timer_setup(timer, callback, flags) dz_timer_init((timer), (callback), (flags))

/* A static timer: not pending, ready for add_timer() or mod_timer(). */
#define DEFINE_TIMER(name, fn) struct timer_list name = { .function = (fn) }

/* The structure a timer is embedded in, from the callback's argument. */
#define from_timer(var, callback_timer, timer_fieldname) \
	dz_container_of(callback_timer, __typeof__(*(var)), timer_fieldname)

static inline int timer_pending(const struct timer_list *t)
{
	return t->entry.pprev != NULL; /* on a wheel slot's list */
}

/* Starts t, which must not be pending, to run when jiffies reaches t->expires. */
void add_timer(struct timer_list *t);

/*
 * (Re)starts t to run when jiffies reaches expires, pending or not.
 * Returns 1 if t was pending (it is then moved), 0 if not. As in Linux, a
 * pending timer given the expiry it already has is left as it is (even in
 * the tick that is about to run it).
 */
int mod_timer(struct timer_list *t, unsigned long expires);

/* Stops t. Returns 1 if it was pending, 0 if not. */
int del_timer(struct timer_list *t);

/* One CPU, and callbacks run from the tick itself: nothing to wait for. */
static inline int del_timer_sync(struct timer_list *t)
{
	return del_timer(t);
}

/*
 * Linux's newer names for the same calls. POSIX <time.h> declares its own
 * timer_delete(timer_t), so they exist only where no C library is in the
 * way: in a freestanding (kernel) build, or when DYNHZ_KERNEL_API is
 * defined before the first dynhz header.
 */
#if !__STDC_HOSTED__ || defined(DYNHZ_KERNEL_API)
#define timer_delete(t)	     del_timer(t)
#define timer_delete_sync(t) del_timer_sync(t)
#endif

/*
 * The jiffy at which the next timer will run (its expiry, or the next tick
 * for one already due); jiffies + MAX_JIFFY_OFFSET when none is pending.
 * For tickless idle: costs a few bit scans plus a walk of at most a few
 * slots, so call it when going idle, not on every tick.
 */
unsigned long dz_timer_next_expiry(void);

/* Counters, for tests and benchmarks. */
struct dz_timer_stats {
	unsigned long pending; /* timers pending now */
	u64 expired;	       /* callbacks run */
	u64 cascaded;	       /* timers moved down a level (or re-filed) */
	u64 stale_expiries;    /* debug build: re-armed with their expiry before a change of HZ */
	unsigned int levels, slots_per_level; /* the wheel's shape */
};
void dz_timer_stats(struct dz_timer_stats *st);

/*
 * Calls fn(t, arg) for each pending timer, wheel slot by slot (not in
 * expiry order), with interrupts off, until fn returns false. fn must
 * not add, modify or delete a timer. For listings (/proc/timer_list):
 * it walks the whole wheel.
 */
void dz_timer_for_each_pending(bool (*fn)(const struct timer_list *t, void *arg), void *arg);

#endif
