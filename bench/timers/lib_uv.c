// SPDX-License-Identifier: MIT
/*
 * libuv in the timer comparison: uv_timer_start (which also moves an active
 * timer), uv_timer_stop, and one uv_run(UV_RUN_NOWAIT) pass for expiry.
 */
#include <stdlib.h>

#include <uv.h>

#include "timers_bench.h"

static const struct tb_work *work;
static uv_loop_t loop;
static uv_timer_t *timers;
static uint64_t *add_ms, *rearm_ms;
static size_t fired;

static void fire(uv_timer_t *t)
{
	(void)t;
	fired++;
}

static const char *luv_version(void)
{
	return uv_version_string();
}

static void luv_init(const struct tb_work *w)
{
	work = w;
	if (uv_loop_init(&loop))
		tb_die("libuv: uv_loop_init failed");
	timers = tb_alloc(w->n * sizeof(*timers));
	add_ms = tb_alloc(w->n * sizeof(*add_ms));
	rearm_ms = tb_alloc(w->n * sizeof(*rearm_ms));
	for (size_t i = 0; i < w->n; i++) {
		uv_timer_init(&loop, &timers[i]);
		add_ms[i] = w->add_ms[i];
		rearm_ms[i] = w->rearm_ms[i];
	}
}

static void luv_fini(void)
{
	for (size_t i = 0; i < work->n; i++)
		uv_close((uv_handle_t *)&timers[i], NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	if (uv_loop_close(&loop))
		tb_die("libuv: uv_loop_close failed");
	free(timers);
	free(add_ms);
	free(rearm_ms);
}

static void luv_now(void)
{
	uv_update_time(&loop);
}

static void luv_add(void)
{
	const uint32_t *ord = work->add_order;

	for (size_t i = 0; i < work->n; i++)
		uv_timer_start(&timers[ord[i]], fire, add_ms[i], 0);
}

static void luv_rearm(void)
{
	const uint32_t *ord = work->rearm_order;

	for (size_t i = 0; i < work->n; i++)
		uv_timer_start(&timers[ord[i]], fire, rearm_ms[i], 0);
}

static void luv_cancel(void)
{
	const uint32_t *ord = work->cancel_order;

	for (size_t i = 0; i < work->n; i++)
		uv_timer_stop(&timers[ord[i]]);
}

static size_t luv_expire(void)
{
	fired = 0;
	uv_run(&loop, UV_RUN_NOWAIT);
	return fired;
}

const struct tb_lib tb_libuv = {
	.name = "libuv",
	.version = luv_version,
	.object = "uv_timer_t",
	.object_size = sizeof(uv_timer_t),
	.structure = "binary heap of nodes linked inside the handles",
	.init = luv_init,
	.fini = luv_fini,
	.now = luv_now,
	.add = luv_add,
	.rearm = luv_rearm,
	.cancel = luv_cancel,
	.expire = luv_expire,
};
