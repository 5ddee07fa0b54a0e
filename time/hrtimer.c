// SPDX-License-Identifier: MIT
/*
 * hrtimers: the queue, and the API of include/dynhz/hrtimer.h.
 *
 * One queue for the four clocks, ordered by key: a timer's latest expiry
 * converted to the monotonic clock (realtime and TAI keys move when their
 * clock is set, all by the same amount; the queue is rebuilt then, O(n), as
 * rare as clock_settime). Equal keys are ordered by a start number, so
 * timers with equal expiries run in the order they were started.
 *
 * The queue is intrusive, in two parts split at a boundary B:
 *  - the near part, every timer whose key is before B, in a red-black tree
 *    (lib/rbtree.c) with its first node cached: exact order, O(log n) in
 *    the worst case, and few timers in it (those of one unit, below);
 *  - the far part, every other timer, in a hierarchical wheel like the
 *    jiffies wheel (time/timer.c) whose unit is 2^18 ns (262 us): 8 levels
 *    of 64 slots, level n holding the timers 64^n to 64^(n+1) - 1 units
 *    ahead of the wheel's clock, in slots 64^n units wide, which cascade
 *    down as the clock reaches them. Start and cancel are an hlist add and
 *    unlink: O(1), as cheap as a jiffies timer's. 8 levels span 2^48 units,
 *    more than the whole of ktime_t: nothing is ever parked.
 * The wheel's clock is the unit at B: units before it have been processed,
 * their timers moved into the tree. So the tree's first timer is the first
 * of all, and when the tree is empty the wheel is advanced (cascading on
 * the way, each timer at most once per level) until its first unit with
 * timers comes into the tree. Advancing sets B past the first timer, so
 * timers started later before B go to the tree: O(log n) still, in the
 * worst case, not O(1); a queue that empties starts again from the time now.
 *
 * The tick (tick-common.c, tick-oneshot.c) runs the queue: from every tick
 * without high resolution, from the one-shot device's interrupt with it.
 */
#include <dynhz/hrtimer.h>
#include <dynhz/errno.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include "hrtimer-internal.h"
#include "bits.h"
#include "hlist.h"
#include "rbtree.h"
#include "timekeeping-internal.h"
#include "tick-internal.h"

#define UNIT_SHIFT    18 /* a wheel unit: 2^18 ns */
#define LVL_BITS      6
#define LVL_SIZE      (1U << LVL_BITS)
#define LVL_MASK      (LVL_SIZE - 1)
#define LEVELS	      8
#define SLOTS	      (LEVELS * LVL_SIZE)
#define LVL_SHIFT(n)  ((n)*LVL_BITS)
#define HRTIMER_MAGIC 0x68727431U /* "hrt1" */

_Static_assert(LEVELS *LVL_BITS >= 64 - UNIT_SHIFT, "the wheel spans every key");
_Static_assert(SLOTS <= 0xffff, "a slot index fits the timer's u16");

enum { ON_NOTHING, ON_WHEEL, ON_TREE }; /* timer->_state */

unsigned int dz_hrtimer_queued;
bool dz_hrtimer_lowres = true;

static struct {
	u64 clk;			  /* the wheel's next unit: earlier ones are in the tree */
	u64 map[LEVELS];		  /* bit s of map[n]: slot s of level n occupied */
	struct dz_hlist_head slot[SLOTS]; /* level n, slot s at n * 64 + s */
	struct dz_rb_root tree;
	struct hrtimer *first; /* the tree's first */
	u32 seq;	       /* the last start's number */
	struct hrtimer *running;
	bool running_cancelled; /* ... and it cancelled itself */
	bool highres;		/* run from the one-shot device: slack */
	u64 expired;
} q;

#define timer_of_rb(n)	 dz_container_of(n, struct hrtimer, _node.rb)
#define timer_of_list(n) dz_container_of(n, struct hrtimer, _node.list)

static inline void check_timer(const struct hrtimer *t)
{
#ifdef DYNHZ_DEBUG
	if (unlikely(t->_magic != HRTIMER_MAGIC))
		dz_panic("hrtimer %p freed or overwritten while queued", (const void *)t);
#else
	(void)t;
#endif
}

/* ---- the tree: the timers before the boundary ---- */

/*
 * Its latest expiry on the monotonic clock: worked out, not kept (the
 * timer stays at 48 bytes); it changes only when a clock is set, and the
 * queue is rebuilt then.
 */
static inline s64 timer_key(const struct hrtimer *t)
{
	return ktime_sub_safe(t->_expires, dz_timekeeping_offs[t->_base]);
}

/* The queue's order: key, then start, then (never equal) address; a's key given. */
static inline bool before_key(s64 ka, const struct hrtimer *a, const struct hrtimer *b)
{
	s64 kb = timer_key(b);

	if (likely(ka != kb))
		return ka < kb;
	if (a->_seq != b->_seq)
		return (s32)(a->_seq - b->_seq) < 0;
	return (uintptr_t)a < (uintptr_t)b;
}

static inline bool before(const struct hrtimer *a, const struct hrtimer *b)
{
	return before_key(timer_key(a), a, b);
}

static bool rb_before(const struct dz_rb_node *a, const struct dz_rb_node *b)
{
	const struct hrtimer *x = timer_of_rb(a), *y = timer_of_rb(b);

	check_timer(x);
	check_timer(y);
	return before(x, y);
}

/* The walk down is here, with the order inline; the tree repairs. */
static void tree_insert(struct hrtimer *t)
{
	struct dz_rb_node *path[DZ_RB_MAX_DEPTH], *h = q.tree.node;
	s64 key = timer_key(t);
	bool left = false, first = true;
	int d = 0;

	while (h) {
		struct hrtimer *o = timer_of_rb(h);

		check_timer(o);
		path[d++] = h;
		left = before_key(key, t, o);
		first &= left;
		h = left ? h->left : dz_rb_right(h);
	}
	dz_rb_insert_at(&q.tree, &t->_node.rb, path, d, left);
	if (first)
		q.first = t;
	t->_state = ON_TREE;
}

static void tree_remove(struct hrtimer *t)
{
	struct dz_rb_node *n;

	/* The first (the queue runs them so) needs no search. */
	if (q.first == t)
		dz_rb_erase_first(&q.tree);
	else
		dz_rb_erase(&q.tree, &t->_node.rb, rb_before);
	if (q.first == t) {
		n = dz_rb_first(&q.tree);
		q.first = n ? timer_of_rb(n) : NULL;
	}
}

/* ---- the wheel: the timers from the boundary on ---- */

/*
 * Files t, due in unit u >= q.clk, at level n = msb(delta) / 6, in the
 * slot (u >> 6n) & 63, which the clock reaches at u rounded down to a
 * multiple of 64^n: at or after q.clk for a delta of at least 64^n.
 */
static inline void wheel_enqueue(struct hrtimer *t, u64 u)
{
	/* The level of each msb of the delta: msb / 6, read rather than worked out. */
	static const u8 level_of[64] = {
		0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2,  2,	3,  3,	3, 3,
		3, 3, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 6, 6, 6,  6,	6,  6,	7, 7,
		7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 10, 10, 10, 10,
	};
	unsigned int lvl = level_of[msb64((u - q.clk) | 1)];
	unsigned int s = (unsigned int)(u >> LVL_SHIFT(lvl)) & LVL_MASK, idx = lvl * LVL_SIZE + s;

	dz_hlist_add_head(&t->_node.list, &q.slot[idx]);
	q.map[lvl] |= slot_bit(s);
	t->_slot = (u16)idx;
	t->_state = ON_WHEEL;
}

static inline void wheel_dequeue(struct hrtimer *t)
{
	unsigned int idx = t->_slot;

	if (dz_hlist_is_singular_node(&t->_node.list, &q.slot[idx]))
		q.map[idx / LVL_SIZE] &= ~slot_bit(idx % LVL_SIZE);
	dz_hlist_del_init(&t->_node.list);
}

/* Into the tree or the wheel, by its key. */
static inline void file(struct hrtimer *t, s64 k)
{
	if (k < 0 || (u64)k >> UNIT_SHIFT < q.clk)
		tree_insert(t);
	else
		wheel_enqueue(t, (u64)k >> UNIT_SHIFT);
}

static inline void unfile(struct hrtimer *t)
{
	if (t->_state == ON_WHEEL)
		wheel_dequeue(t);
	else
		tree_remove(t);
	t->_state = ON_NOTHING;
}

/* Takes every timer of a slot onto a list of its own. */
static inline void take_slot(unsigned int lvl, unsigned int s, struct dz_hlist_head *work)
{
	q.map[lvl] &= ~slot_bit(s);
	dz_hlist_move_list(&q.slot[lvl * LVL_SIZE + s], work);
}

/*
 * Processes unit u == q.clk: the slots of the levels that turn at u
 * cascade (their timers are re-filed relative to u: one level down at
 * least), then u's own slot goes into the tree, and the clock moves on.
 */
static void process_unit(u64 u)
{
	unsigned int s0 = (unsigned int)u & LVL_MASK;
	struct dz_hlist_head work;

	q.clk = u; /* cascaded timers are re-filed relative to u */
	if (!s0) {
		for (unsigned int lvl = 1; lvl < LEVELS; lvl++) {
			unsigned int s = (unsigned int)(u >> LVL_SHIFT(lvl)) & LVL_MASK;

			if (q.map[lvl] & slot_bit(s)) {
				take_slot(lvl, s, &work);
				for (struct dz_hlist_node *l; (l = dz_hlist_pop(&work));) {
					struct hrtimer *t = timer_of_list(l);

					check_timer(t);
					wheel_enqueue(t, (u64)timer_key(t) >> UNIT_SHIFT);
				}
			}
			if (s)
				break; /* the next level turns only when this one wraps */
		}
	}
	q.clk = u + 1;
	if (q.map[0] & slot_bit(s0)) {
		take_slot(0, s0, &work);
		for (struct dz_hlist_node *l; (l = dz_hlist_pop(&work));) {
			struct hrtimer *t = timer_of_list(l);

			check_timer(t);
			tree_insert(t);
		}
	}
}

/*
 * Units from q.clk to the first one at which the wheel has work (a slot
 * to cascade or to move into the tree); U64_MAX when it is empty. Level n
 * turns at multiples of 64^n: from the first such unit not before the
 * clock, its occupied slots come in circular order, 64^n units apart.
 */
static u64 next_work(void)
{
	u64 clk = q.clk, best = U64_MAX;

	for (unsigned int lvl = 0; lvl < LEVELS; lvl++) {
		unsigned int sh = LVL_SHIFT(lvl), first;
		u64 start, d;

		if (!q.map[lvl])
			continue;
		start = clk + ((0 - clk) & ((1ULL << sh) - 1));
		first = (unsigned int)(start >> sh) & LVL_MASK;
		d = (start - clk) + ((u64)ctz64(ror64(q.map[lvl], first)) << sh);
		if (d < best)
			best = d;
	}
	return best;
}

/* Processes the wheel's units until one brings timers into the tree. */
static void advance_until_first(void)
{
	while (!q.first) {
		u64 d = next_work();

		if (d == U64_MAX)
			return;
		process_unit(q.clk + d);
	}
}

/* The first timer of all (its key the least), or NULL. */
static inline struct hrtimer *queue_first(void)
{
	if (unlikely(!q.first))
		advance_until_first();
	return q.first;
}

/* ---- the API ---- */

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

#ifdef DYNHZ_DEBUG
_Noreturn void dz_hrtimer_bug_queued(const struct hrtimer *timer, const char *what)
{
	dz_panic("%s on hrtimer %p while it is queued (started at %s:%d)", what,
		 (const void *)timer, timer->_file ? timer->_file : "?", timer->_line);
}

/*
 * Is t really queued? Judged from the queue, not from t's own memory,
 * which may be anything (a timer on the stack not set up yet).
 */
static bool in_queue(const struct hrtimer *t)
{
	if (t->_state == ON_WHEEL && t->_slot < SLOTS) {
		for (struct dz_hlist_node *n = q.slot[t->_slot].first; n; n = n->next)
			if (n == &t->_node.list)
				return true;
	} else if (t->_state == ON_TREE) {
		for (struct dz_rb_node *n = q.tree.node; n;) {
			const struct hrtimer *o = timer_of_rb(n);

			if (o == t)
				return true;
			n = before(t, o) ? n->left : dz_rb_right(n);
		}
	}
	return false;
}
#endif

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
	timer->_node.list.next = NULL;
	timer->_node.list.pprev = NULL;
	timer->_softexpires = 0;
	timer->_expires = 0;
	timer->function = function;
	timer->_seq = 0;
	timer->_slot = 0;
	timer->_base = (u8)clock_base(clock_id, mode);
	timer->_state = ON_NOTHING;
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
	if (unlikely(t->_state && !in_queue(t)))
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

/* An empty queue starts again from the time now (see the top). */
static void restart_clock(void)
{
	u64 now = ktime_get_ns();

	q.clk = now >> UNIT_SHIFT;
}

/* Queues t (not queued) at its expiry: the general way. */
static void enqueue(struct hrtimer *t)
{
	if (unlikely(!dz_hrtimer_queued)) {
		restart_clock();
		if (!q.highres)
			dz_tick_hrtimers_queued(true); /* checked at every tick from now */
	}
	s64 key = timer_key(t);

	dz_hrtimer_queued++;
	t->_seq = ++q.seq;
	file(t, key);
	/* Before the device's next event: the device is programmed for it. */
	if (unlikely(key < dz_tick_hres_armed_ns))
		dz_tick_hres_earlier(key);
}

static inline void dequeue(struct hrtimer *t)
{
	unfile(t);
	if (unlikely(!--dz_hrtimer_queued) && !q.highres)
		dz_tick_hrtimers_queued(false);
}

/* Every start that is not the common one below; restores the interrupt flag. */
static __attribute__((noinline)) void start_slow(struct hrtimer *t, ktime_t tim, u64 range_ns,
						 enum hrtimer_mode mode, unsigned long flags)
{
	if (t->_state)
		dequeue(t);
	if (mode & HRTIMER_MODE_REL)
		tim = ktime_add_safe(tim, dz_timekeeping_base_now(t->_base));
	t->_softexpires = tim;
	t->_expires = q.highres ? ktime_add_safe(tim, ns_to_ktime(range_ns)) : tim;
	enqueue(t);
	dz_irq_restore(flags);
}

/*
 * The common start: a timer not queued (or queued in the wheel), an
 * absolute expiry in the wheel, a queue not empty, nothing to tell the
 * device. No call (the others go
 * to start_slow() as a tail call), nothing to save: as short as a jiffies
 * timer's mod_timer().
 */
static inline __attribute__((always_inline)) void start(struct hrtimer *timer, ktime_t tim,
							u64 range_ns, enum hrtimer_mode mode)
{
	unsigned long flags = dz_irq_save();
	ktime_t hard = tim;
	unsigned int state;
	s64 key;

	if (unlikely(range_ns) && q.highres)
		hard = ktime_add_safe(tim, ns_to_ktime(range_ns));
	key = ktime_sub_safe(hard, dz_timekeeping_offs[timer->_base]);
	state = timer->_state;
	if (unlikely(state == ON_TREE || (mode & HRTIMER_MODE_REL) || !dz_hrtimer_queued ||
		     key < dz_tick_hres_armed_ns || key < 0 || (u64)key >> UNIT_SHIFT < q.clk))
		return start_slow(timer, tim, range_ns, mode, flags);
	/* Queued in the wheel already (a re-arm): out of its slot first. */
	if (state)
		wheel_dequeue(timer);
	else
		dz_hrtimer_queued++;
	timer->_softexpires = tim;
	timer->_expires = hard;
	timer->_seq = ++q.seq;
	wheel_enqueue(timer, (u64)key >> UNIT_SHIFT);
	dz_irq_restore(flags);
}

void dz_hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim, u64 range_ns,
			       enum hrtimer_mode mode, const char *file, int line)
{
	check_started(timer, file, line);
	start(timer, tim, range_ns, mode);
}

void dz_hrtimer_start(struct hrtimer *timer, ktime_t tim, enum hrtimer_mode mode, const char *file,
		      int line)
{
	check_started(timer, file, line);
	start(timer, tim, 0, mode);
}

/*
 * Cancelling does not program the device: an event left for a cancelled
 * first timer finds nothing due and programs the next one; an idle entry
 * programs the device afresh.
 */
int hrtimer_try_to_cancel(struct hrtimer *timer)
{
	unsigned long flags = dz_irq_save();
	int ret = 0;

	if (timer == q.running) {
		ret = -1;
	} else if (timer->_state) {
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
	if (timer->_state) {
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
	ktime_t delta = ktime_sub_safe(now, timer->_expires);
	ktime_t res = dz_clock_getres_ns(DZ_CLOCK_MONOTONIC);
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

	st->queued = dz_hrtimer_queued;
	st->expired = q.expired;
	dz_irq_restore(flags);
}

bool dz_hrtimer_highres(void)
{
	return q.highres;
}

/* ---- the tick's side ---- */

s64 dz_hrtimer_next_key(void)
{
	struct hrtimer *t = dz_hrtimer_queued ? queue_first() : NULL;

	return t ? timer_key(t) : KTIME_MAX;
}

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
	if (r == HRTIMER_RESTART && !t->_state && !q.running_cancelled) {
		if (!q.highres)
			t->_expires = t->_softexpires;
		enqueue(t);
	}
}

void dz_hrtimer_run(s64 now)
{
	struct hrtimer *t;

	/* A leap second due: the realtime timers of this instant see it (re-keyed). */
	if (unlikely(now >= dz_timekeeping_leap_at))
		dz_timekeeping_leap();
	/*
	 * The wheel moves into the tree a unit at a time, as the tree empties:
	 * the tree stays small even when thousands of timers are due at once.
	 */
	while (dz_hrtimer_queued && (t = queue_first())) {
		check_timer(t);
		/* Its latest expiry is ahead: is its expiry? If not, stop here. */
		if (timer_key(t) > now &&
		    ktime_sub_safe(t->_softexpires, dz_timekeeping_offs[t->_base]) > now)
			break;
		dequeue(t);
		run_one(t, now);
	}
}

void dz_hrtimer_run_tick(void)
{
	dz_hrtimer_run(ns_to_ktime(ktime_get_ns()));
}

/*
 * Takes out every queued timer for which take() holds (take() may change
 * its expiry) and queues it again with its key computed afresh (and its start number kept: the order of
 * equal expiries stands). O(n).
 */
/* The tree's timers, children first, onto a list: the tree is rebuilt. */
static void onto_list(struct dz_rb_node *n, void *arg)
{
	dz_hlist_add_head(&timer_of_rb(n)->_node.list, arg);
}

static void refile(bool (*take)(struct hrtimer *))
{
	struct dz_hlist_head work = { NULL }, keep = { NULL };

	/*
	 * The tree is ordered by the keys of before: it cannot be searched
	 * once they changed. All of it goes, and comes back filed afresh.
	 */
	dz_rb_drain(&q.tree, onto_list, &keep);
	q.first = NULL;
	for (struct dz_hlist_node *l; (l = dz_hlist_pop(&keep));) {
		struct hrtimer *t = timer_of_list(l);

		take(t);
		dz_hlist_add_head(&t->_node.list, &work);
	}
	for (unsigned int i = 0; i < SLOTS; i++) {
		struct dz_hlist_node *l = q.slot[i].first;

		while (l) {
			struct hrtimer *t = timer_of_list(l);

			l = l->next;
			if (take(t)) {
				wheel_dequeue(t);
				dz_hlist_add_head(&t->_node.list, &work);
			}
		}
	}
	for (struct dz_hlist_node *l; (l = dz_hlist_pop(&work));) {
		struct hrtimer *t = timer_of_list(l);

		file(t, timer_key(t));
	}
}

struct walk_arg {
	bool (*fn)(const struct hrtimer *t, void *arg);
	void *arg;
};

static bool walk_one(const struct dz_rb_node *n, void *arg)
{
	const struct walk_arg *w = arg;

	return w->fn(timer_of_rb(n), w->arg);
}

void dz_hrtimer_for_each_queued(bool (*fn)(const struct hrtimer *t, void *arg), void *arg)
{
	unsigned long flags = dz_irq_save();
	struct walk_arg w = { fn, arg };

	if (!dz_rb_walk(&q.tree, walk_one, &w))
		goto out;
	for (unsigned int i = 0; i < SLOTS; i++)
		for (const struct dz_hlist_node *l = q.slot[i].first; l; l = l->next)
			if (!fn(timer_of_list(l), arg))
				goto out;
out:
	dz_irq_restore(flags);
}

int dz_hrtimer_clock(const struct hrtimer *t)
{
	static const int clocks[] = {
		[DZ_HRTIMER_BASE_MONOTONIC] = DZ_CLOCK_MONOTONIC,
		[DZ_HRTIMER_BASE_REALTIME] = DZ_CLOCK_REALTIME,
		[DZ_HRTIMER_BASE_BOOTTIME] = DZ_CLOCK_BOOTTIME,
		[DZ_HRTIMER_BASE_TAI] = DZ_CLOCK_TAI,
	};

	return t->_base < sizeof(clocks) / sizeof(clocks[0]) ? clocks[t->_base]
							     : DZ_CLOCK_MONOTONIC;
}

static bool on_set_clock(struct hrtimer *t)
{
	return t->_base == DZ_HRTIMER_BASE_REALTIME || t->_base == DZ_HRTIMER_BASE_TAI;
}

void dz_hrtimer_clock_was_set(void)
{
	if (!dz_hrtimer_queued)
		return;
	refile(on_set_clock);
	if (q.highres)
		dz_tick_hres_retarget();
}

/* No slack from the tick on: a timer runs at the first tick at or after its expiry. */
static bool drop_slack(struct hrtimer *t)
{
	t->_expires = t->_softexpires;
	return true;
}

void dz_hrtimers_set_resolution(bool highres)
{
	q.highres = highres;
	dz_hrtimer_lowres = !highres;
	if (!highres && dz_hrtimer_queued)
		refile(drop_slack);
}

static void forget(struct dz_rb_node *n, void *arg)
{
	(void)arg;
	timer_of_rb(n)->_state = ON_NOTHING;
}

void dz_hrtimers_init(void)
{
	unsigned long flags = dz_irq_save();

	/* Timers of an earlier boot become plain not-queued timers. */
	dz_rb_drain(&q.tree, forget, NULL);
	for (unsigned int i = 0; i < SLOTS; i++)
		for (struct dz_hlist_node *l; (l = dz_hlist_pop(&q.slot[i]));) {
			struct hrtimer *t = timer_of_list(l);

			t->_state = ON_NOTHING;
		}
	for (unsigned int lvl = 0; lvl < LEVELS; lvl++)
		q.map[lvl] = 0;
	q.tree.node = NULL;
	q.first = NULL;
	q.clk = 0;
	dz_hrtimer_queued = 0;
	q.running = NULL;
	q.highres = false;
	dz_hrtimer_lowres = true;
	q.expired = 0;
	dz_irq_restore(flags);
}
