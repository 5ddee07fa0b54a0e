// SPDX-License-Identifier: MIT
/*
 * Kernel timers on a hierarchical timing wheel with cascading.
 *
 * base.clk is the next jiffy the wheel will process (jiffies + 1 between
 * ticks). A timer due delta = expires - clk jiffies ahead is filed at level
 * n = msb(delta) / 6, in the slot (expires >> 6n) & 63. Processing jiffy T:
 *  - if T is a multiple of 64^n, the level-n slot of T cascades: its timers
 *    are due in [T, T + 64^n) and are re-filed relative to T, one level
 *    down at least (levels 1, 2, ... in turn while the lower index is 0);
 *  - then the level-0 slot of T runs: every timer in it is due at T.
 * A slot of level n is reached exactly when its first jiffy comes (it is
 * at most 64 slots ahead of clk), so no timer ever runs early or late.
 * Bitmaps of occupied slots let the next event be found with a few bit
 * scans (idle skipping, tickless). base.next is a jiffy no later than the
 * first one with work: filing a timer lowers it to the jiffy its slot is
 * reached, a tick that had work computes it again, deleting a timer leaves
 * it (at worst a tick then finds nothing to do). An empty tick is a single
 * comparison with it.
 *
 * A change of HZ (time/retune.c) moves the whole wheel, as it is, into a
 * second one, `old`, in O(slots) at the boundary jiffy J; its timers still
 * count old jiffies. They are re-expressed (their remaining real time from
 * J, rounded up in new jiffies: never early) and filed in the new wheel in
 * batches, with interrupts on between them; meanwhile the tick keeps the
 * old wheel up with real time: before processing new jiffy j it moves
 * every old timer due by then (old jiffies up to J + floor((j - J) new /
 * old)), so none runs late either. base.next, idle and the next expiry
 * count the old wheel's next event, converted.
 */
#include <dynhz/timer.h>
#include "timer-internal.h"
#include "bits.h"
#include "hlist.h"
#include "hrtimer-internal.h"
#include <dynhz/jiffies.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>
#include <dynhz/retune.h>

#define LVL_BITS     DZ_TIMER_WHEEL_LVL_BITS
#define LVL_SIZE     DZ_TIMER_WHEEL_LVL_SIZE
#define LVL_MASK     (LVL_SIZE - 1)
#define LEVELS	     DZ_TIMER_WHEEL_LEVELS
#define SLOTS	     (LEVELS * LVL_SIZE)
#define LVL_SHIFT(n) ((n)*LVL_BITS)
/* Where a timer beyond the wheel waits: the farthest jiffy it can hold. */
#define PARK_DELTA (DZ_TIMER_WHEEL_RANGE - 1)

_Static_assert(LVL_SIZE == 64, "one u64 bitmap per level");
_Static_assert(LEVELS *LVL_BITS < BITS_PER_LONG, "the wheel spans less than jiffies");

struct timer_base {
	unsigned long clk;		  /* the next jiffy to process */
	unsigned long next;		  /* no work before it: clk <= next <= first event */
	u64 map[LEVELS];		  /* bit s of map[n]: slot s of level n occupied */
	struct dz_hlist_head slot[SLOTS]; /* level n, slot s at n * 64 + s */
	struct dz_timer_stats stats;
};

static struct timer_base base;
/* The wheel of the old rate during a change of HZ (only clk, next, map, slot). */
static struct timer_base old;

static struct {
	bool on; /* old may still hold timers */
	struct dz_retune_info info;
	unsigned long moved, clamped;
	unsigned int cursor; /* the next slot of old the batches empty */
} mig;

/* The level of a timer due delta (< DZ_TIMER_WHEEL_RANGE) jiffies after clk. */
static inline unsigned int delta_level(unsigned long delta)
{
	unsigned int msb = BITS_PER_LONG - 1 - (unsigned int)__builtin_clzl(delta | 1);

	return msb / LVL_BITS;
}

/*
 * Files t in the wheel. Its slot (level n) is reached at the jiffy when
 * rounded down to a multiple of 64^n: a delta of at least 64^n puts that
 * jiffy at or after clk, and it is where the level turns to that slot.
 */
static inline void wheel_enqueue(struct timer_base *b, struct timer_list *t)
{
	unsigned long when = t->expires, delta = when - b->clk;
	unsigned int lvl, sh, idx;
	unsigned long reach;

	if (unlikely(delta >= DZ_TIMER_WHEEL_RANGE)) {
		if (delta > (unsigned long)LONG_MAX + 1) {
			/*
			 * Already due (time_after_eq(clk, expires)): the next
			 * jiffy processed runs it. Exactly half the range ahead
			 * is not due yet by time_after_eq(), so it waits like
			 * any far timer.
			 */
			when = b->clk;
			delta = 0;
		} else {
			/* Beyond the wheel: wait in its farthest slot, re-filed from there. */
			when = b->clk + PARK_DELTA;
			delta = PARK_DELTA;
		}
	}
	lvl = delta_level(delta);
	sh = LVL_SHIFT(lvl);
	idx = lvl * LVL_SIZE + (unsigned int)((when >> sh) & LVL_MASK);
	dz_hlist_add_head(&t->entry, &b->slot[idx]);
	b->map[lvl] |= slot_bit(idx % LVL_SIZE);
	t->idx = idx;
	reach = (when >> sh) << sh;
	if (time_before(reach, b->next))
		b->next = reach;
}

/*
 * Unlinks a pending timer. One that is on the list of a slot being run is
 * not in the wheel slot its idx names any more: it cannot be that slot's
 * only node, so the slot's bit is left alone, as it should. Nor can one
 * still in the old wheel during a change of HZ: its slot there keeps its
 * bit (the old wheel then finds an empty slot: nothing to do). base.next
 * stays: early is harmless.
 */
static inline void wheel_dequeue(struct timer_list *t)
{
	unsigned int idx = t->idx;

	if (dz_hlist_is_singular_node(&t->entry, &base.slot[idx]))
		base.map[idx / LVL_SIZE] &= ~slot_bit(idx % LVL_SIZE);
	dz_hlist_del_init(&t->entry);
}

#ifdef DYNHZ_DEBUG
/*
 * A timer re-expressed by a change of HZ armed again with the expiry it had
 * before: its owner kept a copy of the old deadline (jiffies + x computed
 * at the old rate), which now means another time.
 */
/*
 * Reported, not a panic: a fresh expiry may equal the old one by chance
 * (the first few lines, then only counted in dz_timer_stats()).
 */
static void dz_timer_check_generation(struct timer_list *t, unsigned long expires)
{
	if (unlikely(t->hz_gen) && t->hz_gen == dz_hz_generation() && expires == t->hz_old &&
	    expires != t->expires) {
		if (base.stats.stale_expiries++ < 8)
			dz_printk(
				"timer: %p armed with expiry %lu of HZ generation %u (re-expressed "
				"as %lu when HZ changed): a jiffies deadline carried across the "
				"change\n",
				(void *)t, expires, t->hz_gen - 1, t->expires);
	}
	t->hz_gen = 0;
}

static inline void dz_timer_note_reexpressed(struct timer_list *t, u32 gen, unsigned long now)
{
	t->hz_gen = gen;
	t->hz_old = t->expires;
	(void)now;
}

static inline void dz_timer_note_ran(struct timer_list *t)
{
	t->hz_gen = 0;
}
#else
static inline void dz_timer_check_generation(struct timer_list *t, unsigned long expires)
{
	(void)t;
	(void)expires;
}

static inline void dz_timer_note_reexpressed(struct timer_list *t, u32 gen, unsigned long now)
{
	(void)t;
	(void)gen;
	(void)now;
}

static inline void dz_timer_note_ran(struct timer_list *t)
{
	(void)t;
}
#endif

int mod_timer(struct timer_list *t, unsigned long expires)
{
	unsigned long flags = dz_irq_save();
	int was = timer_pending(t);

#ifdef DYNHZ_DEBUG
	if (unlikely(!t->function))
		dz_panic("timer %p armed without a function (timer_setup missing?)", (void *)t);
#endif
	dz_timer_check_generation(t, expires);
	if (was) {
		/*
		 * Where it is filed is still right for the same expiry, but for
		 * a timer not yet moved by a change of HZ: that one counts old
		 * jiffies.
		 */
		if (t->expires == expires && likely(!mig.on))
			goto out;
		wheel_dequeue(t);
	} else {
		base.stats.pending++;
	}
	t->expires = expires;
	wheel_enqueue(&base, t);
out:
	dz_irq_restore(flags);
	return was;
}

void add_timer(struct timer_list *t)
{
	DZ_BUG_ON(timer_pending(t));
	mod_timer(t, t->expires);
}

int del_timer(struct timer_list *t)
{
	unsigned long flags = dz_irq_save();
	int was = timer_pending(t);

	if (was) {
		wheel_dequeue(t);
		base.stats.pending--;
	}
	dz_irq_restore(flags);
	return was;
}

static void check_not_early(const struct timer_list *t, unsigned long now)
{
#ifdef DYNHZ_DEBUG
	if (unlikely(time_before(now, t->expires)))
		dz_panic("timer %p would run at jiffy %lu, before its expiry %lu", (const void *)t,
			 now, t->expires);
#else
	(void)t;
	(void)now;
#endif
}

/*
 * Runs the level-0 slot of jiffy now (base.clk is already now + 1, so a
 * callback that re-arms for now or earlier gets the next tick). The slot
 * moves to a private list first: callbacks may then add timers to the
 * same slot (due 64 jiffies later) or delete timers still on the list.
 */
static void expire(unsigned long now)
{
	unsigned int s = (unsigned int)(now & LVL_MASK);
	struct dz_hlist_head work;

	if (!(base.map[0] & slot_bit(s)))
		return;
	base.map[0] &= ~slot_bit(s);
	dz_hlist_move_list(&base.slot[s], &work);
	for (struct dz_hlist_node *l; (l = dz_hlist_pop(&work));) {
		struct timer_list *t = dz_container_of(l, struct timer_list, entry);

		base.stats.pending--;
		base.stats.expired++;
		check_not_early(t, now);
		dz_timer_note_ran(t);
		t->function(t);
	}
}

/* Re-files the timers of one slot relative to b->clk. */
static void cascade(struct timer_base *b, unsigned int lvl, unsigned int s)
{
	struct dz_hlist_head work;

	b->map[lvl] &= ~slot_bit(s);
	dz_hlist_move_list(&b->slot[lvl * LVL_SIZE + s], &work);
	for (struct dz_hlist_node *l; (l = dz_hlist_pop(&work));) {
		struct timer_list *t = dz_container_of(l, struct timer_list, entry);

		wheel_enqueue(b, t);
		base.stats.cascaded++;
	}
}

/*
 * One timer of the old rate into the new wheel: what remained of it at the
 * boundary J, in new jiffies rounded up (one already due stays due).
 */
static void migrate(struct timer_list *t)
{
	unsigned long j = mig.info.jiffies, left = t->expires - j;

	if ((long)left > 0) {
		unsigned long now_left = dz_retune_jiffies(&mig.info, left);

		mig.clamped += now_left == MAX_JIFFY_OFFSET;
		dz_timer_note_reexpressed(t, mig.info.generation, j + now_left);
		t->expires = j + now_left;
	}
	wheel_enqueue(&base, t);
	mig.moved++;
}

/* The old wheel's level-0 slot of old jiffy now: due in real time, so moved now. */
static void migrate_due(unsigned long now)
{
	unsigned int s = (unsigned int)(now & LVL_MASK);
	struct dz_hlist_head work;

	if (!(old.map[0] & slot_bit(s)))
		return;
	old.map[0] &= ~slot_bit(s);
	dz_hlist_move_list(&old.slot[s], &work);
	for (struct dz_hlist_node *l; (l = dz_hlist_pop(&work));)
		migrate(dz_container_of(l, struct timer_list, entry));
}

/* Processes jiffy now == b->clk: the new wheel runs its timers, the old moves them. */
static void process_jiffy(struct timer_base *b, unsigned long now)
{
	if (!(now & LVL_MASK)) {
		for (unsigned int lvl = 1; lvl < LEVELS; lvl++) {
			unsigned int s = (unsigned int)((now >> LVL_SHIFT(lvl)) & LVL_MASK);

			if (b->map[lvl] & slot_bit(s))
				cascade(b, lvl, s);
			if (s)
				break; /* the next level turns only when this one wraps */
		}
	}
	b->clk = now + 1;
	if (b == &base)
		expire(now);
	else
		migrate_due(now);
}

/*
 * Jiffies from base.clk to the first one at which the wheel has work (a
 * timer to run or a slot to cascade); ULONG_MAX if nothing is pending.
 * Level n turns at multiples of 64^n: from the first such jiffy not before
 * clk, its occupied slots come in circular order, one 64^n apart.
 */
static unsigned long wheel_event_delta(const struct timer_base *b)
{
	unsigned long clk = b->clk, best = ULONG_MAX;

	for (unsigned int lvl = 0; lvl < LEVELS; lvl++) {
		unsigned int sh = LVL_SHIFT(lvl), first;
		unsigned long start, delta;

		if (!b->map[lvl])
			continue;
		start = clk + ((0UL - clk) & ((1UL << sh) - 1));
		first = (unsigned int)((start >> sh) & LVL_MASK);
		delta = (start - clk) + ((unsigned long)ctz64(ror64(b->map[lvl], first)) << sh);
		if (delta < best)
			best = delta;
	}
	return best;
}

/*
 * A jiffy of the old rate at which the old wheel has work, as the first new
 * jiffy by which it has come in real time.
 */
static unsigned long old_in_new(unsigned long old_jiffy)
{
	return mig.info.jiffies + dz_retune_jiffies(&mig.info, old_jiffy - mig.info.jiffies);
}

/* From base.clk, both wheels: the new one's first event and the old one's. */
static unsigned long next_event_delta(void)
{
	unsigned long best = wheel_event_delta(&base);

	if (unlikely(mig.on)) {
		unsigned long od = wheel_event_delta(&old);

		if (od != ULONG_MAX) {
			unsigned long at = old_in_new(old.clk + od);
			unsigned long d = time_after(at, base.clk) ? at - base.clk : 0;

			if (d < best)
				best = d;
		}
	}
	return best;
}

/* base.next from the wheels as they are (a bound when nothing is pending). */
static void update_next(struct timer_base *b)
{
	unsigned long delta = b == &base ? next_event_delta() : wheel_event_delta(b);

	b->next = b->clk + (delta < DZ_TIMER_WHEEL_RANGE ? delta : DZ_TIMER_WHEEL_RANGE);
}

/*
 * The tick at new jiffy now, during a change of HZ: the old wheel follows
 * real time up to the last old jiffy that has fully passed, moving what is
 * due (filed in the new wheel at now or earlier: it runs in this tick).
 */
static void old_catch_up(unsigned long now)
{
	unsigned long until =
		mig.info.jiffies + dz_retune_old_jiffies(&mig.info, now - mig.info.jiffies);

	while (time_after_eq(until, old.clk)) {
		unsigned long next = old.next;

		if (time_before(old.clk, next)) {
			if (time_after(next, until)) {
				old.clk = until + 1;
				break;
			}
			old.clk = next;
		}
		process_jiffy(&old, old.clk);
		update_next(&old);
	}
}

static inline void wheel_check_clk(unsigned long now)
{
#ifdef DYNHZ_DEBUG
	unsigned long prev = base.clk - 1;

	if (unlikely(time_before(now, prev)))
		dz_panic("jiffies went back from %lu to %lu", prev, now);
#else
	(void)now;
#endif
}

/* Out of line: inlined into dz_timer_tick() it would make the common tick save registers. */
__attribute__((noinline)) static void run_timers(void)
{
	unsigned long now = jiffies;

	wheel_check_clk(now);
	if (unlikely(mig.on))
		old_catch_up(now);
	while (time_after_eq(now, base.clk)) {
		unsigned long next = base.next;

		/* Nothing to do before next: leap there, or past now. */
		if (time_before(base.clk, next)) {
			if (time_after(next, now)) {
				base.clk = now + 1;
				break;
			}
			base.clk = next;
		}
		process_jiffy(&base, base.clk);
		update_next(&base);
	}
	/*
	 * The callbacks may have queued hrtimers already due: at tick
	 * resolution they run in this tick too (the tick's handler checks
	 * hrtimers only when some were queued as it began).
	 */
	dz_hrtimer_after_wheel();
}

void dz_timer_tick(void)
{
	unsigned long now = jiffies;

	if (unlikely(time_after_eq(now, base.next))) {
		run_timers();
		return;
	}
	/* The common tick: nothing to do up to now. */
	wheel_check_clk(now);
	base.clk = now + 1;
}

unsigned long dz_timer_idle_ticks(void)
{
	unsigned long flags = dz_irq_save();
	unsigned long idle = next_event_delta();

	dz_irq_restore(flags);
	return idle;
}

void dz_timer_skip(u64 n)
{
	unsigned long flags = dz_irq_save();
	unsigned long idle = next_event_delta();

	if (idle != ULONG_MAX && n > idle)
		dz_panic("skipping %llu jiffies over a timer event %lu ahead",
			 (unsigned long long)n, idle);
	base.clk += (unsigned long)n;
	update_next(&base);
	dz_irq_restore(flags);
}

/* The earliest expiry in one slot of level 1 or up, as a delta from b->clk. */
static unsigned long slot_min_delta(const struct timer_base *b, unsigned int idx,
				    unsigned long best)
{
	for (struct dz_hlist_node *n = b->slot[idx].first; n; n = n->next) {
		unsigned long d = dz_container_of(n, struct timer_list, entry)->expires - b->clk;

		if (d < best)
			best = d;
	}
	return best;
}

/*
 * Level 0 holds exact jiffies. Above it a slot only bounds its timers from
 * below (by the jiffy it cascades at), so slots are walked in order until
 * that bound is no better than the best expiry found. Parked timers make a
 * slot's bound loose, hence the walk rather than the first slot alone.
 * The earliest expiry as a delta from b->clk, ULONG_MAX if none.
 */
static unsigned long wheel_first_expiry(const struct timer_base *b)
{
	unsigned long clk = b->clk, best = ULONG_MAX;

	if (b->map[0])
		best = (unsigned long)ctz64(ror64(b->map[0], (unsigned int)(clk & LVL_MASK)));
	for (unsigned int lvl = 1; lvl < LEVELS; lvl++) {
		unsigned int sh = LVL_SHIFT(lvl);
		unsigned long start = clk + ((0UL - clk) & ((1UL << sh) - 1));
		unsigned int first = (unsigned int)((start >> sh) & LVL_MASK);
		u64 rest = ror64(b->map[lvl], first);

		while (rest) {
			unsigned int d = (unsigned int)ctz64(rest);

			if ((start - clk) + ((unsigned long)d << sh) >= best)
				break;
			best = slot_min_delta(b, lvl * LVL_SIZE + ((first + d) & LVL_MASK), best);
			rest &= rest - 1;
		}
	}
	return best;
}

unsigned long dz_timer_next_expiry(void)
{
	unsigned long flags = dz_irq_save();
	unsigned long clk = base.clk, best = wheel_first_expiry(&base);

	/*
	 * An old timer (an empty slot's stale bit may make this an old jiffy
	 * with nothing in it: early, harmless) due at its re-expressed jiffy.
	 */
	if (unlikely(mig.on)) {
		unsigned long od = wheel_first_expiry(&old);

		if (od != ULONG_MAX) {
			unsigned long at = old_in_new(old.clk + od);
			unsigned long d = time_after(at, clk) ? at - clk : 0;

			if (d < best)
				best = d;
		}
	}
	dz_irq_restore(flags);
	return best == ULONG_MAX ? clk - 1 + MAX_JIFFY_OFFSET : clk + best;
}

void dz_timer_stats(struct dz_timer_stats *st)
{
	unsigned long flags = dz_irq_save();

	*st = base.stats;
	st->levels = LEVELS;
	st->slots_per_level = LVL_SIZE;
	dz_irq_restore(flags);
}

static bool for_each_in(const struct timer_base *b,
			bool (*fn)(const struct timer_list *t, void *arg), void *arg)
{
	for (unsigned int i = 0; i < SLOTS; i++) {
		for (const struct dz_hlist_node *n = b->slot[i].first; n; n = n->next) {
			const struct timer_list *t = dz_container_of(n, struct timer_list, entry);
			struct timer_list moved;

			if (b == &old) {
				/* Shown as it will be once moved: in new jiffies. */
				moved = *t;
				if ((long)(t->expires - mig.info.jiffies) > 0)
					moved.expires = old_in_new(t->expires);
				t = &moved;
			}
			if (!fn(t, arg))
				return false;
		}
	}
	return true;
}

void dz_timer_for_each_pending(bool (*fn)(const struct timer_list *t, void *arg), void *arg)
{
	unsigned long flags = dz_irq_save();

	if (for_each_in(&base, fn, arg) && mig.on)
		for_each_in(&old, fn, arg);
	dz_irq_restore(flags);
}

/*
 * HZ changed at jiffy j == base.clk - 1, interrupts off: the wheel, as it
 * is, becomes the old wheel (O(slots): each slot's list moves whole), and
 * the new one starts empty at the same clk. Its timers are moved by
 * dz_timers_migrate() and by the tick (old_catch_up()).
 */
void dz_timers_retune_begin(const struct dz_retune_info *info)
{
	DZ_BUG_ON(base.clk != info->jiffies + 1 || mig.on);
	for (unsigned int i = 0; i < SLOTS; i++)
		dz_hlist_move_list(&base.slot[i], &old.slot[i]);
	for (unsigned int lvl = 0; lvl < LEVELS; lvl++) {
		old.map[lvl] = base.map[lvl];
		base.map[lvl] = 0;
	}
	old.clk = base.clk;
	old.next = base.next;
	mig.info = *info;
	mig.moved = 0;
	mig.clamped = 0;
	mig.cursor = 0;
	mig.on = true;
	update_next(&base);
}

/* Is every slot of the old wheel empty? (Its bits may be stale.) */
static bool old_empty(void)
{
	for (unsigned int i = 0; i < SLOTS; i++)
		if (!dz_hlist_empty(&old.slot[i]))
			return false;
	return true;
}

bool dz_timers_migrate(unsigned int max, unsigned long *moved, unsigned long *clamped)
{
	unsigned long flags = dz_irq_save();
	bool more = mig.on;

	/*
	 * Slot by slot; a tick meanwhile may cascade old timers into slots
	 * already passed, so an empty sweep ends only on an empty wheel.
	 */
	while (mig.on && max) {
		struct dz_hlist_node *l = dz_hlist_pop(&old.slot[mig.cursor]);

		if (l) {
			migrate(dz_container_of(l, struct timer_list, entry));
			max--;
			continue;
		}
		if (++mig.cursor < SLOTS)
			continue;
		mig.cursor = 0;
		if (old_empty()) {
			mig.on = false;
			for (unsigned int lvl = 0; lvl < LEVELS; lvl++)
				old.map[lvl] = 0;
		}
	}
	more = mig.on;
	*moved = mig.moved;
	*clamped = mig.clamped;
	update_next(&base);
	dz_irq_restore(flags);
	return more;
}

unsigned long dz_timers_pending(void)
{
	return base.stats.pending;
}

void dz_timers_init(void)
{
	unsigned long flags = dz_irq_save();

	/* Timers of an earlier boot become plain not-pending timers. */
	for (unsigned int i = 0; i < SLOTS; i++) {
		for (struct dz_hlist_node *n; (n = dz_hlist_pop(&base.slot[i]));)
			dz_timer_note_ran(dz_container_of(n, struct timer_list, entry));
		while (dz_hlist_pop(&old.slot[i]))
			;
	}
	for (unsigned int lvl = 0; lvl < LEVELS; lvl++) {
		base.map[lvl] = 0;
		old.map[lvl] = 0;
	}
	mig.on = false;
	base.stats.pending = 0;
	base.stats.expired = 0;
	base.stats.cascaded = 0;
	base.stats.stale_expiries = 0;
	base.clk = jiffies + 1;
	update_next(&base);
	dz_irq_restore(flags);
}
