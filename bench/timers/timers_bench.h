/* SPDX-License-Identifier: MIT */
/*
 * timers-bench: one timer workload run on dynhz and on three event loops
 * (libev, libevent, libuv) through their public APIs.
 *
 * Each library lives in its own translation unit (lib_*.c): their headers
 * cannot be mixed (libev and libevent both define EV_READ and friends), and
 * the loops that call the API are compiled the same way for all four.
 */
#ifndef TIMERS_BENCH_H
#define TIMERS_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* Timeouts are drawn from 1..TB_HORIZON_MS milliseconds. */
#define TB_HORIZON_MS 1000
/* dynhz runs at this HZ in the comparison: a jiffy is about a millisecond. */
#define TB_HZ 1000

/*
 * One workload of n timers: which timer the i-th operation of a phase
 * touches (a permutation of 0..n-1 per phase), and the timeout of the i-th
 * add or re-arm in milliseconds. Every library gets the same arrays.
 */
struct tb_work {
	size_t n;
	const uint32_t *add_order;
	const uint32_t *rearm_order;
	const uint32_t *cancel_order;
	const uint32_t *add_ms;
	const uint32_t *rearm_ms;
};

/*
 * A library under test. The timed functions loop over the whole workload;
 * the driver times each call and divides by n.
 */
struct tb_lib {
	const char *name;
	const char *(*version)(void);
	const char *object; /* the type of one timer */
	size_t object_size;
	const char *structure; /* what holds the pending timers */
	/* n timer objects, not pending; converts the timeouts to the API's unit. */
	void (*init)(const struct tb_work *w);
	void (*fini)(void);
	/* Before a batch of adds (untimed): refresh the loop's cached time. */
	void (*now)(void);
	void (*add)(void);    /* add_order[i] with add_ms[i] */
	void (*rearm)(void);  /* rearm_order[i], pending, to rearm_ms[i] */
	void (*cancel)(void); /* cancel_order[i], pending */
	/*
	 * Runs every timer due. An event loop: one non-blocking pass (the
	 * driver slept past the horizon first). dynhz: simulated ticks up to
	 * the horizon. Returns the number of callbacks run.
	 */
	size_t (*expire)(void);
};

extern const struct tb_lib tb_dynhz, tb_libev, tb_libevent, tb_libuv;

/* Zeroed memory, every page touched, cache-line aligned; exits on failure. */
void *tb_alloc(size_t bytes);
__attribute__((format(printf, 1, 2))) _Noreturn void tb_die(const char *fmt, ...);

#endif
