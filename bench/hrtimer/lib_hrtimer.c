// SPDX-License-Identifier: MIT
/*
 * dynhz's hrtimers: hrtimer_start (HRTIMER_MODE_ABS, the time read once a
 * phase, as the others' cached loop time), hrtimer_start on a queued timer
 * (it moves), hrtimer_cancel; expiry: the simulated clock passes the
 * horizon with interrupts off, then one interrupt of the one-shot device
 * runs every timer (as one pass of an event loop after a sleep).
 */
#include <stdio.h>
#include <stdlib.h>

#include <dynhz/dynhz.h>
#include <dynhz/hrtimer.h>
#include <dynhz/host.h>

#include "hr_bench.h"

static const struct hb_work *work;
static struct hrtimer *timers;
static ktime_t now;
static size_t fired;

static enum hrtimer_restart fire(struct hrtimer *t)
{
	(void)t;
	fired++;
	return HRTIMER_NORESTART;
}

static const char *lhr_version(void)
{
	return "this tree";
}

static void lhr_init(const struct hb_work *w)
{
	char cmd[32];

	snprintf(cmd, sizeof(cmd), "hz=%u", HB_HZ);
	if (dynhz_boot_quiet(cmd) != 0 || !dz_hrtimer_highres())
		hb_die("hrtimer: no high resolution with %s", cmd);
	work = w;
	timers = hb_alloc(w->n * sizeof(*timers));
	for (size_t i = 0; i < w->n; i++)
		hrtimer_setup(&timers[i], fire, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
}

static void lhr_fini(void)
{
	struct dz_hrtimer_stats st;

	dz_hrtimer_stats(&st);
	if (st.queued)
		hb_die("hrtimer: %u timers still queued", st.queued);
	free(timers);
}

static void lhr_now(void)
{
	now = ktime_get();
}

static void lhr_start(void)
{
	const uint32_t *ord = work->start_order;

	for (size_t i = 0; i < work->n; i++)
		hrtimer_start(&timers[ord[i]], now + (ktime_t)work->start_ns[i], HRTIMER_MODE_ABS);
}

static void lhr_rearm(void)
{
	const uint32_t *ord = work->rearm_order;

	for (size_t i = 0; i < work->n; i++)
		hrtimer_start(&timers[ord[i]], now + (ktime_t)work->rearm_ns[i], HRTIMER_MODE_ABS);
}

static void lhr_cancel(void)
{
	const uint32_t *ord = work->cancel_order;

	for (size_t i = 0; i < work->n; i++)
		hrtimer_cancel(&timers[ord[i]]);
}

static void lhr_pass(void)
{
	dynhz_host_stall(HB_HORIZON_NS + 1);
}

static size_t lhr_expire(void)
{
	fired = 0;
	dynhz_host_pass(0, false);
	return fired;
}

const struct hb_lib hb_hrtimer = {
	.name = "hrtimer",
	.version = lhr_version,
	.object = "struct hrtimer",
	.object_size = sizeof(struct hrtimer),
	.structure = "wheel of 262 us units, 8 levels x 64 slot lists; red-black tree of the first",
	.init = lhr_init,
	.fini = lhr_fini,
	.now = lhr_now,
	.start = lhr_start,
	.rearm = lhr_rearm,
	.cancel = lhr_cancel,
	.pass = lhr_pass,
	.expire = lhr_expire,
};
