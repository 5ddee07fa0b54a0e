// SPDX-License-Identifier: MIT
/*
 * bench/nohz: timer wakeups per second of an idle CPU, periodic against
 * tickless, in the simulation (the simulated PIT ticks; one-shot, it
 * reaches an hour).
 *
 *	nohz-bench [seconds]
 *
 * For each HZ and each load, the same simulated stretch of idle time twice,
 * booted with nohz=off and with nohz=on. Loads: "idle", no timer at all;
 * "light", 10 timers at random periods of 10 to 1000 ms (the same ones at
 * every HZ), each re-armed from its own expiry. The floor a tickless
 * kernel can reach is one wakeup per distinct jiffy at which timers run:
 * the "limit" column. Prints one CSV line per HZ and load:
 *	hz,load,seconds,periodic,tickless,limit
 * in wakeups (timer interrupts) per second.
 */
#include <stdio.h>
#include <stdlib.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>

#define NTIMERS 10

static const unsigned int hz_list[] = { 100, 250, 1000, 10000 };

struct periodic_timer {
	struct timer_list t;
	unsigned long period; /* jiffies */
};

static struct periodic_timer timers[NTIMERS];
static unsigned int period_ms[NTIMERS];
static u64 distinct; /* jiffies at which some timer ran */
static unsigned long last_run;
static bool ran;

static void beat(struct timer_list *t)
{
	struct periodic_timer *p = from_timer(p, t, t);

	if (!ran || jiffies != last_run)
		distinct++;
	ran = true;
	last_run = jiffies;
	mod_timer(t, t->expires + p->period);
}

/* Ten periods from a fixed seed, so every HZ and mode sees the same load. */
static void pick_periods(void)
{
	u64 x = 0x6e6f687aULL;

	for (int i = 0; i < NTIMERS; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		period_ms[i] = 10 + (unsigned int)((x >> 33) % 991);
	}
}

static u64 interrupts(void)
{
	struct dz_tick_stats st;

	dz_tick_stats(&st);
	return st.interrupts;
}

/* Wakeups over `secs` idle seconds; *limit gets the distinct expiries. */
static u64 run(unsigned int hz, bool nohz, bool load, unsigned int secs, u64 *limit)
{
	char cl[48];
	u64 irq0;

	snprintf(cl, sizeof(cl), "hz=%u nohz=%s", hz, nohz ? "on" : "off");
	dynhz_host_set_quiet(true);
	if (dynhz_boot_quiet(cl) || dz_tick_nohz_active() != nohz) {
		fprintf(stderr, "nohz-bench: cannot boot with %s\n", cl);
		exit(1);
	}
	distinct = 0;
	ran = false;
	for (int i = 0; load && i < NTIMERS; i++) {
		timers[i].period = msecs_to_jiffies(period_ms[i]);
		timer_setup(&timers[i].t, beat, 0);
		mod_timer(&timers[i].t, jiffies + timers[i].period);
	}
	/* Settle into idle first: the boot's first tick is not the workload's. */
	dynhz_host_run_ticks(1);
	irq0 = interrupts();
	dynhz_host_idle((u64)secs * NSEC_PER_SEC);
	for (int i = 0; load && i < NTIMERS; i++)
		del_timer(&timers[i].t);
	*limit = distinct;
	return interrupts() - irq0;
}

int main(int argc, char **argv)
{
	unsigned int secs = argc > 1 ? (unsigned int)atoi(argv[1]) : 60;

	if (!secs) {
		fprintf(stderr, "usage: nohz-bench [seconds]\n");
		return 2;
	}
	pick_periods();
	printf("# periods (ms):");
	for (int i = 0; i < NTIMERS; i++)
		printf(" %u", period_ms[i]);
	printf("\nhz,load,seconds,periodic,tickless,limit\n");
	for (size_t h = 0; h < ARRAY_SIZE(hz_list); h++) {
		for (int load = 0; load < 2; load++) {
			u64 lim_off, lim_on;
			u64 off = run(hz_list[h], false, load, secs, &lim_off);
			u64 on = run(hz_list[h], true, load, secs, &lim_on);

			if (lim_on != lim_off) {
				fprintf(stderr,
					"nohz-bench: HZ %u: timers ran at %llu jiffies "
					"tickless, %llu periodic\n",
					hz_list[h], (unsigned long long)lim_on,
					(unsigned long long)lim_off);
				return 1;
			}
			printf("%u,%s,%u,%.3f,%.4f,%.4f\n", hz_list[h], load ? "light" : "idle",
			       secs, (double)off / secs, (double)on / secs, (double)lim_on / secs);
		}
	}
	return 0;
}
