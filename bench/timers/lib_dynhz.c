// SPDX-License-Identifier: MIT
/*
 * dynhz in the timer comparison: the kernel API (add_timer, mod_timer,
 * del_timer) on the hosted core at HZ 1000, expiry by simulated PIT ticks.
 */
#include <stdio.h>
#include <stdlib.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>

#include "timers_bench.h"

static const struct tb_work *work;
static struct timer_list *timers;
static unsigned long *add_j, *rearm_j;
static unsigned long horizon; /* the longest timeout, in jiffies */
static size_t fired;

static void fire(struct timer_list *t)
{
	(void)t;
	fired++;
}

static const char *ldz_version(void)
{
	return "this tree";
}

static void ldz_init(const struct tb_work *w)
{
	char cmd[32];

	/* The periodic tick, as the other figures of this benchmark (main.c). */
	snprintf(cmd, sizeof(cmd), "hz=%u highres=off", TB_HZ);
	if (dynhz_boot_quiet(cmd) != 0 || HZ != TB_HZ)
		tb_die("dynhz: cannot boot with %s", cmd);
	work = w;
	timers = tb_alloc(w->n * sizeof(*timers));
	add_j = tb_alloc(w->n * sizeof(*add_j));
	rearm_j = tb_alloc(w->n * sizeof(*rearm_j));
	horizon = 0;
	for (size_t i = 0; i < w->n; i++) {
		timer_setup(&timers[i], fire, 0);
		add_j[i] = msecs_to_jiffies(w->add_ms[i]);
		rearm_j[i] = msecs_to_jiffies(w->rearm_ms[i]);
		if (add_j[i] > horizon)
			horizon = add_j[i];
	}
}

static void ldz_fini(void)
{
	struct dz_timer_stats st;

	dz_timer_stats(&st);
	if (st.pending)
		tb_die("dynhz: %lu timers still pending", st.pending);
	free(timers);
	free(add_j);
	free(rearm_j);
}

static void ldz_now(void)
{
}

static void ldz_add(void)
{
	const uint32_t *ord = work->add_order;

	for (size_t i = 0; i < work->n; i++) {
		struct timer_list *t = &timers[ord[i]];

		t->expires = jiffies + add_j[i];
		add_timer(t);
	}
}

static void ldz_rearm(void)
{
	const uint32_t *ord = work->rearm_order;

	for (size_t i = 0; i < work->n; i++)
		mod_timer(&timers[ord[i]], jiffies + rearm_j[i]);
}

static void ldz_cancel(void)
{
	const uint32_t *ord = work->cancel_order;

	for (size_t i = 0; i < work->n; i++)
		del_timer(&timers[ord[i]]);
}

static size_t ldz_expire(void)
{
	fired = 0;
	dynhz_host_run_ticks(horizon);
	return fired;
}

const struct tb_lib tb_dynhz = {
	.name = "dynhz",
	.version = ldz_version,
	.object = "struct timer_list",
	.object_size = sizeof(struct timer_list),
	.structure = "wheel: 5 levels x 64 slot lists, exact expiry",
	.init = ldz_init,
	.fini = ldz_fini,
	.now = ldz_now,
	.add = ldz_add,
	.rearm = ldz_rearm,
	.cancel = ldz_cancel,
	.expire = ldz_expire,
};
