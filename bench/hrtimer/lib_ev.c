// SPDX-License-Identifier: MIT
/*
 * libev: ev_timer_start, ev_timer_again (moves a running timer in place in
 * its heap), ev_timer_stop; expiry: the driver sleeps past the horizon,
 * then one ev_run(EVRUN_NOWAIT) pass runs every timer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ev.h>

#include "hr_bench.h"

static const struct hb_work *work;
static struct ev_loop *loop;
static ev_timer *timers;
static double *start_s, *rearm_s;
static size_t fired;

static void fire(struct ev_loop *l, ev_timer *w, int revents)
{
	(void)l;
	(void)w;
	(void)revents;
	fired++;
}

static const char *lev_version(void)
{
	static char v[16];

	snprintf(v, sizeof(v), "%d.%d", ev_version_major(), ev_version_minor());
	return v;
}

static void lev_init(const struct hb_work *w)
{
	work = w;
	loop = ev_loop_new(EVFLAG_AUTO);
	if (!loop)
		hb_die("libev: ev_loop_new failed");
	timers = hb_alloc(w->n * sizeof(*timers));
	start_s = hb_alloc(w->n * sizeof(*start_s));
	rearm_s = hb_alloc(w->n * sizeof(*rearm_s));
	for (size_t i = 0; i < w->n; i++) {
		ev_timer_init(&timers[i], fire, 0., 0.);
		start_s[i] = (double)w->start_ns[i] * 1e-9;
		rearm_s[i] = (double)w->rearm_ns[i] * 1e-9;
	}
}

static void lev_fini(void)
{
	ev_loop_destroy(loop);
	free(timers);
	free(start_s);
	free(rearm_s);
}

static void lev_now(void)
{
	ev_now_update(loop);
}

static void lev_start(void)
{
	const uint32_t *ord = work->start_order;

	for (size_t i = 0; i < work->n; i++) {
		ev_timer *t = &timers[ord[i]];

		ev_timer_set(t, start_s[i], 0.);
		ev_timer_start(loop, t);
	}
}

static void lev_rearm(void)
{
	const uint32_t *ord = work->rearm_order;

	for (size_t i = 0; i < work->n; i++) {
		ev_timer *t = &timers[ord[i]];

		t->repeat = rearm_s[i];
		ev_timer_again(loop, t);
	}
}

static void lev_cancel(void)
{
	const uint32_t *ord = work->cancel_order;

	for (size_t i = 0; i < work->n; i++)
		ev_timer_stop(loop, &timers[ord[i]]);
}

static void lev_pass(void)
{
	struct timespec ts;

	/* The loop reads the OS clock: sleep past the horizon (+20 ms). */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += 1;
	ts.tv_nsec += 20000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

static size_t lev_expire(void)
{
	fired = 0;
	ev_run(loop, EVRUN_NOWAIT);
	return fired;
}

const struct hb_lib hb_libev = {
	.name = "libev",
	.version = lev_version,
	.object = "ev_timer",
	.object_size = sizeof(ev_timer),
	.structure = "4-ary heap of (time, pointer) pairs: +16 B per timer",
	.init = lev_init,
	.fini = lev_fini,
	.now = lev_now,
	.start = lev_start,
	.rearm = lev_rearm,
	.cancel = lev_cancel,
	.pass = lev_pass,
	.expire = lev_expire,
};
