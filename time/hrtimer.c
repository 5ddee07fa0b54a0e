// SPDX-License-Identifier: MIT
/*
 * hrtimers: the queue, and the API of include/dynhz/hrtimer.h.
 *
 * One queue for all four clocks: a 4-ary min-heap of (key, timer) slots in
 * an array the port supplies, the key being the timer's latest expiry
 * converted to the monotonic clock. Monotonic and boottime keys never
 * change; realtime and TAI keys change when their clock is set, all by the
 * same amount, and the heap is rebuilt then (O(n), as rare as
 * clock_settime). Equal keys are ordered by a start sequence number kept in
 * the timer, read only on a tie, so timers with equal expiries run in the
 * order they were started.
 *
 * The root is at h[0], the children of slot i at 4i+1 ... 4i+4, and h is
 * placed so that those four share one 64-byte cache line: a step down the
 * heap touches one line, and 10 steps span a million timers. The keys are
 * cached in the array, so ordering never touches a timer; each timer holds
 * its slot (_idx, 1-based, 0 when not queued), so a cancel finds it at once
 * and every move writes it. Insertion sifts up (O(1) on average for random
 * expiries, none for the common "later than all"), removal moves the last
 * slot into the hole and sifts it up or down.
 *
 * The tick (tick-common.c, tick-oneshot.c) runs the queue: from every tick
 * without high resolution, from the one-shot device's interrupt with it.
 */
#include <dynhz/hrtimer.h>
#include <dynhz/errno.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include "hrtimer-internal.h"
#include "timekeeping-internal.h"
#include "tick-internal.h"

#define ARITY	     4
#define SLOT_ALIGN   64
#define HRTIMER_MAGIC 0x68727431U /* "hrt1" */

static struct dz_hrtimer_slot default_slots[DZ_HRTIMER_DEFAULT_SLOTS + ARITY - 1];

struct dz_hrtimer_slot *dz_hrtimer_heap; /* the root */
unsigned int dz_hrtimer_queued;

static struct {
	unsigned int cap;	 /* slots from the root on */
	u64 seq;		 /* the last start's number */
	struct hrtimer *running; /* whose callback runs now */
	bool running_cancelled;	 /* ... and it cancelled itself */
	bool lowres;		 /* run from the tick: no slack */
	bool highres;		 /* run from the one-shot device */
	u64 expired, full;
} q;

/* ---- the heap ---- */

static inline bool slot_before(const struct dz_hrtimer_slot *a, const struct dz_hrtimer_slot *b)
{
	if (likely(a->key != b->key))
		return a->key < b->key;
	return a->timer->_seq < b->timer->_seq;
}

#ifdef DYNHZ_DEBUG
static void check_slot(const struct dz_hrtimer_slot *h, unsigned int i)
{
	const struct hrtimer *t = h[i].timer;

	if (unlikely(t->_magic != HRTIMER_MAGIC || t->_idx != i + 1))
		dz_panic("hrtimer %p freed or overwritten while queued (slot %u holds it, it says "
			 "%u)",
			 (const void *)t, i + 1, t->_idx);
}
#else
static inline void check_slot(const struct dz_hrtimer_slot *h, unsigned int i)
{
	(void)h;
	(void)i;
}
#endif

static inline void put(struct dz_hrtimer_slot *h, unsigned int i, struct dz_hrtimer_slot e)
{
	h[i] = e;
	e.timer->_idx = i + 1;
}

/* Moves e from the hole at i towards the root while it goes before the parent. */
static inline void sift_up(struct dz_hrtimer_slot *h, unsigned int i, struct dz_hrtimer_slot e)
{
	while (i) {
		unsigned int p = (i - 1) / ARITY;

		if (!slot_before(&e, &h[p]))
			break;
		check_slot(h, p);
		put(h, i, h[p]);
		i = p;
	}
	put(h, i, e);
}

/* The first of the (up to four) children c..end-1. */
static inline unsigned int min_child(const struct dz_hrtimer_slot *h, unsigned int c,
				     unsigned int end)
{
	unsigned int m = c;

	for (unsigned int k = c + 1; k < end; k++)
		if (slot_before(&h[k], &h[m]))
			m = k;
	return m;
}

/* Moves e from the hole at i towards the leaves while a child goes before it. */
static void sift_down(struct dz_hrtimer_slot *h, unsigned int n, unsigned int i,
		      struct dz_hrtimer_slot e)
{
	for (;;) {
		unsigned int c = ARITY * i + 1, m;

		if (c >= n)
			break;
		m = min_child(h, c, c + ARITY < n ? c + ARITY : n);
		if (!slot_before(&h[m], &e))
			break;
		check_slot(h, m);
		put(h, i, h[m]);
		i = m;
	}
	put(h, i, e);
}

/* e goes at i, which is free now: up or down from there. */
static inline void place(unsigned int i, struct dz_hrtimer_slot e)
{
	struct dz_hrtimer_slot *h = dz_hrtimer_heap;

	if (i && slot_before(&e, &h[(i - 1) / ARITY]))
		sift_up(h, i, e);
	else
		sift_down(h, dz_hrtimer_queued, i, e);
}

static void heap_remove(unsigned int i)
{
	struct dz_hrtimer_slot *h = dz_hrtimer_heap;
	unsigned int n = --dz_hrtimer_queued;

	check_slot(h, i);
	h[i].timer->_idx = 0;
	if (i != n)
		place(i, h[n]);
}

/* Rebuilds the heap bottom-up after keys changed (Floyd: O(n)). */
static void heapify(void)
{
	struct dz_hrtimer_slot *h = dz_hrtimer_heap;
	unsigned int n = dz_hrtimer_queued;

	for (unsigned int i = n > 1 ? (n - 2) / ARITY + 1 : 0; i-- > 0;)
		sift_down(h, n, i, h[i]);
}

/* ---- storage ---- */

/* The first slot from which each node's children start on a cache line. */
static struct dz_hrtimer_slot *align_root(struct dz_hrtimer_slot *s, unsigned int *n)
{
	uintptr_t a = (uintptr_t)(s + 1) % SLOT_ALIGN;
	unsigned int k = (unsigned int)((SLOT_ALIGN - a) % SLOT_ALIGN / sizeof(*s));

	*n = *n > k ? *n - k : 0;
	return s + k;
}

int dz_hrtimer_set_storage(struct dz_hrtimer_slot *slots, unsigned int n)
{
	unsigned long flags = dz_irq_save();
	struct dz_hrtimer_slot *root = align_root(slots, &n);
	/* A running callback may still queue its timer: its slot is kept. */
	unsigned int need = dz_hrtimer_queued + (q.running && !q.running->_idx);

	if (n < need) {
		dz_irq_restore(flags);
		return -DZ_ENOSPC;
	}
	/* Same indices in the new array: the heap and every _idx stay right. */
	for (unsigned int i = 0; i < dz_hrtimer_queued; i++)
		root[i] = dz_hrtimer_heap[i];
	dz_hrtimer_heap = root;
	q.cap = n;
	dz_irq_restore(flags);
	return 0;
}

static void storage_default(void)
{
	if (!dz_hrtimer_heap) {
		unsigned int n = ARRAY_SIZE(default_slots);

		dz_hrtimer_heap = align_root(default_slots, &n);
		q.cap = n;
	}
}

/* ---- the API ---- */

#ifdef DYNHZ_DEBUG
_Noreturn void dz_hrtimer_bug_queued(const struct hrtimer *timer, const char *what)
{
	dz_panic("%s on hrtimer %p while it is queued (started at %s:%d)", what,
		 (const void *)timer, timer->_file ? timer->_file : "?", timer->_line);
}

/* Is t really in the queue? Judged from the queue, not from t's own memory. */
static bool in_queue(const struct hrtimer *t)
{
	return t->_idx && t->_idx <= dz_hrtimer_queued && dz_hrtimer_heap[t->_idx - 1].timer == t;
}
#endif

static unsigned int clock_base(int clock_id, enum hrtimer_mode mode)
{
	switch (clock_id) {
	case DZ_CLOCK_REALTIME:
		/* POSIX: a relative timeout does not move when the clock is set. */
		return mode & HRTIMER_MODE_REL ? DZ_HRTIMER_BASE_MONOTONIC
					       : DZ_HRTIMER_BASE_REALTIME;
	case DZ_CLOCK_MONOTONIC:
		return DZ_HRTIMER_BASE_MONOTONIC;
	case DZ_CLOCK_BOOTTIME:
		return DZ_HRTIMER_BASE_BOOTTIME;
	case DZ_CLOCK_TAI:
		return DZ_HRTIMER_BASE_TAI;
	default:
#ifdef DYNHZ_DEBUG
		dz_panic("hrtimer_setup: clock %d has no hrtimers", clock_id);
#endif
		return DZ_HRTIMER_BASE_MONOTONIC;
	}
}

void hrtimer_setup(struct hrtimer *timer, enum hrtimer_restart (*function)(struct hrtimer *),
		   int clock_id, enum hrtimer_mode mode)
{
#ifdef DYNHZ_DEBUG
	unsigned long flags = dz_irq_save();

	if (in_queue(timer))
		dz_hrtimer_bug_queued(timer, "hrtimer_setup");
	dz_irq_restore(flags);
	timer->_magic = HRTIMER_MAGIC;
	timer->_file = NULL;
	timer->_line = 0;
#endif
	timer->_softexpires = 0;
	timer->_expires = 0;
	timer->function = function;
	timer->_seq = 0;
	timer->_idx = 0;
	timer->_base = (u8)clock_base(clock_id, mode);
	timer->_state = 0;
}

/* Its latest expiry on the monotonic clock. */
static inline s64 timer_key(const struct hrtimer *t)
{
	return ktime_sub_safe(t->_expires, dz_timekeeping_offs[t->_base]);
}

static inline void check_started(struct hrtimer *t, const char *file, int line)
{
#ifdef DYNHZ_DEBUG
	if (unlikely(t->_magic != HRTIMER_MAGIC))
		dz_panic("hrtimer %p started at %s:%d without hrtimer_setup", (void *)t,
			 file ? file : "?", line);
	if (unlikely(!t->function))
		dz_panic("hrtimer %p started at %s:%d without a function", (void *)t,
			 file ? file : "?", line);
	if (unlikely(t->_idx && !in_queue(t)))
		dz_panic("hrtimer %p started at %s:%d says it is queued and is not (copied or "
			 "overwritten?)",
			 (void *)t, file ? file : "?", line);
	t->_file = file;
	t->_line = line;
#else
	(void)t;
	(void)file;
	(void)line;
#endif
}

/* (Re)queues t at its expiry; a queued t moves. */
static int enqueue(struct hrtimer *t)
{
	struct dz_hrtimer_slot e = { timer_key(t), t };
	unsigned int i = t->_idx;
	bool was_first = i == 1;

	if (i) {
		t->_seq = ++q.seq;
		place(i - 1, e);
	} else {
		/* The running callback's timer keeps a slot to come back to. */
		unsigned int room = q.cap - (q.running && !q.running->_idx && q.running != t);

		if (unlikely(dz_hrtimer_queued >= room)) {
			if (!dz_hrtimer_heap) {
				storage_default(); /* started before the first boot */
				return enqueue(t);
			}
			q.full++;
			return -DZ_ENOSPC;
		}
		t->_seq = ++q.seq;
		sift_up(dz_hrtimer_heap, dz_hrtimer_queued++, e);
	}
	if (q.highres && (was_first || t->_idx == 1))
		dz_tick_hres_retarget();
	return 0;
}

int dz_hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim, u64 range_ns,
			      enum hrtimer_mode mode, const char *file, int line)
{
	unsigned long flags = dz_irq_save();
	int err;

	check_started(timer, file, line);
	if (mode & HRTIMER_MODE_REL)
		tim = ktime_add_safe(tim, dz_timekeeping_base_now(timer->_base));
	timer->_softexpires = tim;
	timer->_expires = q.lowres ? tim : ktime_add_safe(tim, ns_to_ktime(range_ns));
	err = enqueue(timer);
	dz_irq_restore(flags);
	return err;
}

static void dequeue(struct hrtimer *t)
{
	bool was_first = t->_idx == 1;

	heap_remove(t->_idx - 1);
	if (q.highres && was_first)
		dz_tick_hres_retarget();
}

int hrtimer_try_to_cancel(struct hrtimer *timer)
{
	unsigned long flags = dz_irq_save();
	int ret = 0;

	if (timer == q.running) {
		ret = -1;
	} else if (timer->_idx) {
		dequeue(timer);
		ret = 1;
	}
	dz_irq_restore(flags);
	return ret;
}

int hrtimer_cancel(struct hrtimer *timer)
{
	unsigned long flags = dz_irq_save();
	int ret = 0;

	if (timer == q.running) {
		q.running_cancelled = true;
		ret = 1;
	}
	if (timer->_idx) {
		dequeue(timer);
		ret = 1;
	}
	dz_irq_restore(flags);
	return ret;
}

bool hrtimer_callback_running(const struct hrtimer *timer)
{
	return timer == q.running;
}

ktime_t hrtimer_cb_get_time(const struct hrtimer *timer)
{
	return dz_timekeeping_base_now(timer->_base);
}

ktime_t hrtimer_get_remaining(const struct hrtimer *timer)
{
	return ktime_sub_safe(timer->_expires, hrtimer_cb_get_time(timer));
}

u64 hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval)
{
	ktime_t delta = ktime_sub_safe(now, timer->_expires), res = dz_clock_getres_ns(DZ_CLOCK_MONOTONIC);
	u64 n = 1;

	if (delta < 0)
		return 0;
	DZ_HRTIMER_NOT_QUEUED(timer, "hrtimer_forward");
	if (interval < res)
		interval = res;
	if (delta >= interval) {
		/* Whole intervals up to now; one more if that lands on now exactly. */
		n = (u64)delta / (u64)interval;
		timer->_softexpires = ktime_add_safe(timer->_softexpires, (ktime_t)n * interval);
		timer->_expires = ktime_add_safe(timer->_expires, (ktime_t)n * interval);
		if (timer->_expires > now)
			return n;
		n++;
	}
	timer->_softexpires = ktime_add_safe(timer->_softexpires, interval);
	timer->_expires = ktime_add_safe(timer->_expires, interval);
	return n;
}

u64 hrtimer_forward_now(struct hrtimer *timer, ktime_t interval)
{
	return hrtimer_forward(timer, hrtimer_cb_get_time(timer), interval);
}

void dz_hrtimer_stats(struct dz_hrtimer_stats *st)
{
	unsigned long flags = dz_irq_save();

	storage_default();
	st->queued = dz_hrtimer_queued;
	st->capacity = q.cap;
	st->expired = q.expired;
	st->full = q.full;
	dz_irq_restore(flags);
}

bool dz_hrtimer_highres(void)
{
	return q.highres;
}

/* ---- the tick's side ---- */

static void check_not_early(const struct hrtimer *t, s64 now)
{
#ifdef DYNHZ_DEBUG
	ktime_t clock = ktime_add_safe(now, dz_timekeeping_offs[t->_base]);

	if (unlikely(clock < t->_softexpires))
		dz_panic("hrtimer %p (started at %s:%d) would run at %lld ns of clock base %u, "
			 "before its expiry %lld",
			 (const void *)t, t->_file ? t->_file : "?", t->_line, (long long)clock,
			 t->_base, (long long)t->_softexpires);
#else
	(void)t;
	(void)now;
#endif
}

static void run_one(struct hrtimer *t, s64 now)
{
	enum hrtimer_restart r;

	check_not_early(t, now);
	q.running = t;
	q.running_cancelled = false;
	q.expired++;
	r = t->function(t);
	q.running = NULL;
	/* Started again by its callback: that expiry stands. */
	if (r == HRTIMER_RESTART && !t->_idx && !q.running_cancelled) {
		if (q.lowres)
			t->_expires = t->_softexpires;
		enqueue(t); /* its slot was kept for it: cannot fail */
	}
}

void dz_hrtimer_run(s64 now)
{
	while (dz_hrtimer_queued) {
		struct dz_hrtimer_slot *h = dz_hrtimer_heap;
		struct hrtimer *t = h[0].timer;

		check_slot(h, 0);
		/* Its latest expiry is ahead: is its expiry? If not, stop here. */
		if (h[0].key > now && ktime_sub_safe(t->_softexpires, dz_timekeeping_offs[t->_base]) > now)
			break;
		heap_remove(0);
		run_one(t, now);
	}
}

void dz_hrtimer_run_tick(void)
{
	dz_hrtimer_run(ns_to_ktime(ktime_get_ns()));
}

void dz_hrtimer_clock_was_set(void)
{
	struct dz_hrtimer_slot *h = dz_hrtimer_heap;
	bool moved = false;

	for (unsigned int i = 0; i < dz_hrtimer_queued; i++) {
		unsigned int b = h[i].timer->_base;

		if (b == DZ_HRTIMER_BASE_REALTIME || b == DZ_HRTIMER_BASE_TAI) {
			h[i].key = timer_key(h[i].timer);
			moved = true;
		}
	}
	if (!moved)
		return;
	heapify();
	if (q.highres)
		dz_tick_hres_retarget();
}

/* No slack from the tick on: a timer runs at the first tick at or after its expiry. */
static void drop_slack(void)
{
	struct dz_hrtimer_slot *h = dz_hrtimer_heap;

	for (unsigned int i = 0; i < dz_hrtimer_queued; i++) {
		struct hrtimer *t = h[i].timer;

		t->_expires = t->_softexpires;
		h[i].key = timer_key(t);
	}
	heapify();
}

void dz_hrtimers_set_resolution(bool highres)
{
	q.highres = highres;
	q.lowres = !highres;
	if (!highres)
		drop_slack();
}

void dz_hrtimers_init(void)
{
	unsigned long flags = dz_irq_save();

	storage_default();
	/* Timers of an earlier boot become plain not-queued timers. */
	for (unsigned int i = 0; i < dz_hrtimer_queued; i++)
		dz_hrtimer_heap[i].timer->_idx = 0;
	dz_hrtimer_queued = 0;
	q.running = NULL;
	q.highres = false;
	q.lowres = true;
	q.expired = 0;
	q.full = 0;
	dz_irq_restore(flags);
}
