// SPDX-License-Identifier: MIT
/*
 * libev in the timer comparison: ev_timer_start, ev_timer_again (the
 * documented way to move a running timer: the heap entry is adjusted in
 * place), ev_timer_stop, and one ev_run(EVRUN_NOWAIT) pass for expiry.
 */
#include <stdio.h>
#include <stdlib.h>

#include <ev.h>

#include "timers_bench.h"

static const struct tb_work *work;
static struct ev_loop *loop;
static ev_timer *timers;
static double *add_s, *rearm_s;
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

static void lev_init(const struct tb_work *w)
{
	work = w;
	loop = ev_loop_new(EVFLAG_AUTO);
	if (!loop)
		tb_die("libev: ev_loop_new failed");
	timers = tb_alloc(w->n * sizeof(*timers));
	add_s = tb_alloc(w->n * sizeof(*add_s));
	rearm_s = tb_alloc(w->n * sizeof(*rearm_s));
	for (size_t i = 0; i < w->n; i++) {
		ev_timer_init(&timers[i], fire, 0., 0.);
		add_s[i] = w->add_ms[i] * 1e-3;
		rearm_s[i] = w->rearm_ms[i] * 1e-3;
	}
}

static void lev_fini(void)
{
	ev_loop_destroy(loop);
	free(timers);
	free(add_s);
	free(rearm_s);
}

static void lev_now(void)
{
	ev_now_update(loop);
}

static void lev_add(void)
{
	const uint32_t *ord = work->add_order;

	for (size_t i = 0; i < work->n; i++) {
		ev_timer *t = &timers[ord[i]];

		ev_timer_set(t, add_s[i], 0.);
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

static size_t lev_expire(void)
{
	fired = 0;
	ev_run(loop, EVRUN_NOWAIT);
	return fired;
}

const struct tb_lib tb_libev = {
	.name = "libev",
	.version = lev_version,
	.object = "ev_timer",
	.object_size = sizeof(ev_timer),
	.structure = "4-ary heap of (time, pointer) pairs: +16 B per timer",
	.init = lev_init,
	.fini = lev_fini,
	.now = lev_now,
	.add = lev_add,
	.rearm = lev_rearm,
	.cancel = lev_cancel,
	.expire = lev_expire,
};
