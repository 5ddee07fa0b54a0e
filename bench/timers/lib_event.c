// SPDX-License-Identifier: MIT
/*
 * libevent in the timer comparison: timer events embedded in an array
 * (event_assign, as the kernel embeds timer_list), event_add (which also
 * moves a pending event), event_del, and one event_base_loop(EVLOOP_NONBLOCK)
 * call for expiry.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>
#include <event2/event_struct.h>

#include "timers_bench.h"

static const struct tb_work *work;
static struct event_base *base;
static char *events;
static size_t ev_size;
static struct timeval *add_tv, *rearm_tv;
static size_t fired;

static inline struct event *event_at(uint32_t i)
{
	return (struct event *)(events + (size_t)i * ev_size);
}

static void fire(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	fired++;
}

static struct timeval ms_to_tv(uint32_t ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

	return tv;
}

static const char *levt_version(void)
{
	return event_get_version();
}

static void levt_init(const struct tb_work *w)
{
	work = w;
	base = event_base_new();
	if (!base)
		tb_die("libevent: event_base_new failed");
	/* libev exports the same names: make sure they are libevent's. */
	if (strncmp(event_get_version(), "2.", 2))
		tb_die("libevent: event_get_version() is %s: another library's event_* symbols",
		       event_get_version());
	ev_size = event_get_struct_event_size();
	events = tb_alloc(w->n * ev_size);
	add_tv = tb_alloc(w->n * sizeof(*add_tv));
	rearm_tv = tb_alloc(w->n * sizeof(*rearm_tv));
	for (size_t i = 0; i < w->n; i++) {
		if (event_assign(event_at((uint32_t)i), base, -1, 0, fire, NULL))
			tb_die("libevent: event_assign failed");
		add_tv[i] = ms_to_tv(w->add_ms[i]);
		rearm_tv[i] = ms_to_tv(w->rearm_ms[i]);
	}
}

static void levt_fini(void)
{
	event_base_free(base);
	free(events);
	free(add_tv);
	free(rearm_tv);
}

/* libevent reads the clock in every event_add outside the loop: nothing to refresh. */
static void levt_now(void)
{
}

static void levt_add(void)
{
	const uint32_t *ord = work->add_order;

	for (size_t i = 0; i < work->n; i++)
		event_add(event_at(ord[i]), &add_tv[i]);
}

static void levt_rearm(void)
{
	const uint32_t *ord = work->rearm_order;

	for (size_t i = 0; i < work->n; i++)
		event_add(event_at(ord[i]), &rearm_tv[i]);
}

static void levt_cancel(void)
{
	const uint32_t *ord = work->cancel_order;

	for (size_t i = 0; i < work->n; i++)
		event_del(event_at(ord[i]));
}

static size_t levt_expire(void)
{
	fired = 0;
	event_base_loop(base, EVLOOP_NONBLOCK);
	return fired;
}

const struct tb_lib tb_libevent = {
	.name = "libevent",
	.version = levt_version,
	.object = "struct event",
	.object_size = sizeof(struct event),
	.structure = "binary min-heap of pointers: +8 B per timer",
	.init = levt_init,
	.fini = levt_fini,
	.now = levt_now,
	.add = levt_add,
	.rearm = levt_rearm,
	.cancel = levt_cancel,
	.expire = levt_expire,
};
