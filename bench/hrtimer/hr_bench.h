/* SPDX-License-Identifier: MIT */
/*
 * hrtimer-bench: dynhz's hrtimers, dynhz's jiffies wheel and libev's timer
 * heap (through its public API) on one workload, each in its own
 * translation unit (libev's header is kept away from the others).
 */
#ifndef HR_BENCH_H
#define HR_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* Expiries are drawn from 1 ns .. HB_HORIZON_NS from now (1 s). */
#define HB_HORIZON_NS 1000000000ULL
/* The core runs at this HZ: a jiffy is about a millisecond. */
#define HB_HZ 1000

/*
 * One workload of n timers: which timer the i-th operation of a phase
 * touches (a permutation per phase) and the i-th start's and re-arm's time
 * from now, in ns. Every library gets the same arrays.
 */
struct hb_work {
	size_t n;
	const uint32_t *start_order, *rearm_order, *cancel_order;
	const uint64_t *start_ns, *rearm_ns;
};

/* A library under test: the timed calls loop over the whole workload. */
struct hb_lib {
	const char *name;
	const char *(*version)(void);
	const char *object; /* the type of one timer */
	size_t object_size;
	const char *structure;		       /* what holds the pending timers */
	void (*init)(const struct hb_work *w); /* n timers, none pending */
	void (*fini)(void);
	void (*now)(void);	/* before a phase (untimed): the time the expiries count from */
	void (*start)(void);	/* start_order[i] (not pending) at start_ns[i] from now */
	void (*rearm)(void);	/* rearm_order[i] (pending) to rearm_ns[i] from now */
	void (*cancel)(void);	/* cancel_order[i] (pending) */
	void (*pass)(void);	/* (untimed) let the horizon pass, no callback yet */
	size_t (*expire)(void); /* run every timer due, in one pass; returns how many ran */
};

extern const struct hb_lib hb_hrtimer, hb_wheel, hb_libev;

void *hb_alloc(size_t bytes);
__attribute__((format(printf, 1, 2))) _Noreturn void hb_die(const char *fmt, ...);

#endif
