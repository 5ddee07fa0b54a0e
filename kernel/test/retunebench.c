// SPDX-License-Identifier: MIT
/*
 * retunebench: the interrupt-off windows a change of HZ costs the kernel
 * (bench/retune-kernel). Boot with hz=1000 nohz=off highres=off (the PIT
 * ticking periodically): with 1, 1000, 100000 and 1000000 jiffies timers
 * pending (spread from 0.1 s to 17 min ahead, over the wheel's levels), HZ
 * goes 1000 -> 250 -> 1000 ... CHANGES times through dz_hz_retune(). Two
 * windows, measured on the TSC: the boundary's, from the start of the
 * PIT's interrupt that applies the change (arch_tick_irq_tsc) to the last
 * retune hook, registered last (the device reprogrammed, the constants
 * published, the wheel handed over, the kernel's hooks run); and the
 * longest batch of timers moved afterwards (dz_hz_retune_migrate() of
 * DZ_RETUNE_BATCH, timed around the call: interrupts are off inside it).
 * One line per timer count, in TSC cycles and in microseconds of guest
 * time (under -icount the TSC counts guest nanoseconds at shift=0), with
 * the kernel's hooks' part of the boundary (from the first hook, kernel/
 * retune.c's, to the last) and the batches' count and total.
 */
#include <kernel/kernel.h>
#include <kernel/test.h>
#include <kernel/retune.h>
#include <kernel/mm.h>
#include <kernel/arch.h>
#include <dynhz/retune.h>
#include <dynhz/timer.h>
#include <dynhz/jiffies.h>
#include <dynhz/hz.h>
#include <dynhz/printk.h>

#define CHANGES	       8
#define TIMERS_MAX     1000000
#define TIMERS_PER_PG  (PAGE_SIZE / sizeof(struct timer_list))
#define PAGES_MAX      ((TIMERS_MAX + TIMERS_PER_PG - 1) / TIMERS_PER_PG)
#define SPREAD_JIFFIES 1000000 /* at hz=1000: 17 minutes */

static u32 pages[PAGES_MAX];
static u64 window[CHANGES], hooks[CHANGES], batch_max[CHANGES];
static u64 batches, batch_total;
static unsigned int seen;

/* Last of the hooks: where the window ends. */
static void window_end(const struct dz_retune_info *info)
{
	(void)info;
	u64 now = rdtsc();

	if (seen < CHANGES) {
		hooks[seen] = now - retune_hooks_tsc;
		window[seen++] = now - arch_tick_irq_tsc;
	}
}

static void nothing(struct timer_list *t)
{
	(void)t;
}

static struct timer_list *timer_at(unsigned int i)
{
	struct timer_list *pg = (struct timer_list *)(uintptr_t)pages[i / TIMERS_PER_PG];

	return &pg[i % TIMERS_PER_PG];
}

static bool arm(unsigned int n)
{
	for (unsigned int p = 0; p < (n + TIMERS_PER_PG - 1) / TIMERS_PER_PG; p++)
		if (!pages[p] && !(pages[p] = page_alloc(true)))
			return false;
	for (unsigned int i = 0; i < n; i++) {
		struct timer_list *t = timer_at(i);

		timer_setup(t, nothing, 0);
		/* a multiplicative hash: every level of the wheel gets some */
		mod_timer(t, jiffies + 100 + (unsigned long)(i * 2654435761U % SPREAD_JIFFIES));
	}
	return true;
}

static void disarm(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		del_timer(timer_at(i));
}

static int cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

static void sort(u64 *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int k = i; k && cmp_u64(v[k - 1], v[k]) > 0; k--) {
			u64 x = v[k];

			v[k] = v[k - 1];
			v[k - 1] = x;
		}
}

static void print_us(const char *label, u64 cycles)
{
	u64 ns = tsc_to_ns(cycles);

	dz_printk(" %s=%llu (%llu.%03llu us)", label, (unsigned long long)cycles,
		  (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000));
}

static int measure(unsigned int n)
{
	int err = 0;

	if (!arm(n)) {
		dz_printk("retunebench: timers=%u: out of memory\n", n);
		disarm(n);
		return 1;
	}
	seen = 0;
	batches = batch_total = 0;
	dz_hz_retune_defer_timers(true);
	for (unsigned int c = 0; c < CHANGES && !err; c++) {
		bool more = true;

		err = dz_hz_retune(c % 2 ? 1000 : 250);
		batch_max[c] = 0;
		while (!err && more) {
			u64 t0 = rdtsc(), dt;

			more = dz_hz_retune_migrate(DZ_RETUNE_BATCH);
			dt = rdtsc() - t0;
			batches++;
			batch_total += dt;
			if (dt > batch_max[c])
				batch_max[c] = dt;
		}
	}
	dz_hz_retune_defer_timers(false);
	disarm(n);
	if (err || seen != CHANGES) {
		dz_printk("retunebench: timers=%u: error %d after %u changes\n", n, err, seen);
		return 1;
	}
	sort(window, CHANGES);
	sort(hooks, CHANGES);
	sort(batch_max, CHANGES);
	dz_printk("retunebench: timers=%u changes=%u window:", n, CHANGES);
	print_us("min", window[0]);
	print_us("median", window[CHANGES / 2]);
	print_us("max", window[CHANGES - 1]);
	dz_printk(" kernel hooks:");
	print_us("median", hooks[CHANGES / 2]);
	dz_printk(" longest batch:");
	print_us("median", batch_max[CHANGES / 2]);
	print_us("max", batch_max[CHANGES - 1]);
	dz_printk(" batches=%llu", (unsigned long long)batches);
	print_us("total", batch_total);
	dz_printk("\n");
	return 0;
}

int retunebench_run(void)
{
	static const unsigned int counts[] = { 1, 1000, 100000, TIMERS_MAX };
	int bad = 0;

	if (dz_hz_retune_hook(window_end)) {
		dz_printk("retunebench: no retune hook left\n");
		return 1;
	}
	dz_printk("retunebench: hz=%u tsc=%llu Hz\n", HZ, (unsigned long long)tsc_hz());
	for (unsigned int i = 0; i < ARRAY_SIZE(counts); i++)
		bad += measure(counts[i]);
	dz_printk("retunebench: %s\n", bad ? "FAILED" : "done");
	return bad;
}
