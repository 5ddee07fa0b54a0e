// SPDX-License-Identifier: MIT
/*
 * dynhz's jiffies timers: add_timer, mod_timer, del_timer, the expiries
 * rounded up to jiffies (nsecs_to_jiffies); expiry: the simulated clock
 * passes the horizon with interrupts off, then one interrupt catches the
 * jiffies up and the wheel runs every timer.
 */
#include <stdio.h>
#include <stdlib.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>

#include "hr_bench.h"

static const struct hb_work *work;
static struct timer_list *timers;
static unsigned long *start_j, *rearm_j;
static size_t fired;

static void fire(struct timer_list *t)
{
	(void)t;
	fired++;
}

static const char *lwh_version(void)
{
	return "this tree";
}

static void lwh_init(const struct hb_work *w)
{
	char cmd[32];

	snprintf(cmd, sizeof(cmd), "hz=%u", HB_HZ);
	if (dynhz_boot_quiet(cmd) != 0)
		hb_die("wheel: cannot boot with %s", cmd);
	work = w;
	timers = hb_alloc(w->n * sizeof(*timers));
	start_j = hb_alloc(w->n * sizeof(*start_j));
	rearm_j = hb_alloc(w->n * sizeof(*rearm_j));
	for (size_t i = 0; i < w->n; i++) {
		timer_setup(&timers[i], fire, 0);
		start_j[i] = nsecs_to_jiffies(w->start_ns[i]);
		rearm_j[i] = nsecs_to_jiffies(w->rearm_ns[i]);
	}
}

static void lwh_fini(void)
{
	struct dz_timer_stats st;

	dz_timer_stats(&st);
	if (st.pending)
		hb_die("wheel: %lu timers still pending", st.pending);
	free(timers);
	free(start_j);
	free(rearm_j);
}

static void lwh_now(void)
{
}

static void lwh_start(void)
{
	const uint32_t *ord = work->start_order;

	for (size_t i = 0; i < work->n; i++) {
		struct timer_list *t = &timers[ord[i]];

		t->expires = jiffies + start_j[i];
		add_timer(t);
	}
}

static void lwh_rearm(void)
{
	const uint32_t *ord = work->rearm_order;

	for (size_t i = 0; i < work->n; i++)
		mod_timer(&timers[ord[i]], jiffies + rearm_j[i]);
}

static void lwh_cancel(void)
{
	const uint32_t *ord = work->cancel_order;

	for (size_t i = 0; i < work->n; i++)
		del_timer(&timers[ord[i]]);
}

static void lwh_pass(void)
{
	/* A jiffy more than the horizon: the last expiry is rounded up. */
	dynhz_host_stall(HB_HORIZON_NS + 2 * NSEC_PER_MSEC);
}

static size_t lwh_expire(void)
{
	fired = 0;
	dynhz_host_pass(0, false);
	return fired;
}

const struct hb_lib hb_wheel = {
	.name = "wheel",
	.version = lwh_version,
	.object = "struct timer_list",
	.object_size = sizeof(struct timer_list),
	.structure = "wheel: 5 levels x 64 slot lists, exact expiry",
	.init = lwh_init,
	.fini = lwh_fini,
	.now = lwh_now,
	.start = lwh_start,
	.rearm = lwh_rearm,
	.cancel = lwh_cancel,
	.pass = lwh_pass,
	.expire = lwh_expire,
};
