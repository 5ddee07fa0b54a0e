// SPDX-License-Identifier: MIT
/*
 * bench/retune: the cost of changing HZ at runtime (dynhz_host_retune())
 * with 1, 1k, 100k and 1M pending jiffies timers, on the hosted core. Each
 * change alternates 1000 -> 100 -> 1000 Hz and re-expresses every pending
 * timer. Measured: the whole call (the wait for the next tick, the change
 * at that boundary, every timer moved, the log line formatted with the
 * console silenced); the change alone, its timers left to be moved
 * (dz_hz_retune_defer_timers(): what the boundary costs, interrupts off);
 * and one batch of DZ_RETUNE_BATCH timers moved (the longest other
 * interrupt-off window).
 *
 *	retune-bench time REPS N...	median ns per change, per N
 *	retune-bench ir N...		callgrind dumps per N ("retune N", "boundary N",
 *					"batch N")
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>
#include <dynhz/retune.h>

static struct timer_list *timers;

static void never(struct timer_list *t)
{
	(void)t;
	fprintf(stderr, "retune-bench: a timer ran\n");
	exit(1);
}

static u64 rng = 0x2545f4914f6cdd1dULL;

static u64 rnd(u64 n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

/* Boots at 1000 Hz and arms n timers 1 s to 1 day ahead. */
static void setup(unsigned long n)
{
	dynhz_host_set_quiet(true);
	dynhz_boot_quiet("hz=1000");
	dynhz_host_run_ticks(1);
	free(timers);
	timers = calloc(n, sizeof(*timers));
	if (!timers)
		exit(1);
	for (unsigned long i = 0; i < n; i++) {
		timer_setup(&timers[i], never, 0);
		mod_timer(&timers[i], jiffies + 1000 + (unsigned long)rnd(86400000));
	}
}

static void retune(void)
{
	if (dynhz_host_retune(HZ == 1000 ? 100 : 1000)) {
		fprintf(stderr, "retune-bench: retune failed\n");
		exit(1);
	}
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "time")) {
		int reps = atoi(argv[2]);
		u64 *t = calloc((size_t)reps, sizeof(*t));

		for (int a = 3; a < argc; a++) {
			unsigned long n = strtoul(argv[a], NULL, 0);

			setup(n);
			retune(); /* warm */
			for (int r = 0; r < reps; r++) {
				u64 s = now_ns();

				retune();
				t[r] = now_ns() - s;
			}
			qsort(t, (size_t)reps, sizeof(*t), cmp_u64);
			printf("time %lu %llu %llu %llu\n", n, (unsigned long long)t[reps / 2],
			       (unsigned long long)t[0], (unsigned long long)t[reps - 1]);
			/* The boundary alone, then the batches of one change. */
			dz_hz_retune_defer_timers(true);
			for (int r = 0; r < reps; r++) {
				u64 s = now_ns();

				retune();
				t[r] = now_ns() - s;
				dz_hz_retune_migrate(n + 1);
			}
			qsort(t, (size_t)reps, sizeof(*t), cmp_u64);
			printf("boundary %lu %llu\n", n, (unsigned long long)t[reps / 2]);
			retune();
			for (int r = 0; r < reps; r++) {
				u64 s = now_ns();

				dz_hz_retune_migrate(DZ_RETUNE_BATCH);
				t[r] = now_ns() - s;
			}
			dz_hz_retune_migrate(n + 1);
			dz_hz_retune_defer_timers(false);
			qsort(t, (size_t)reps, sizeof(*t), cmp_u64);
			printf("batch %lu %llu\n", n, (unsigned long long)t[reps / 2]);
		}
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "ir")) {
		for (int a = 2; a < argc; a++) {
			unsigned long n = strtoul(argv[a], NULL, 0);
			char label[32];

			setup(n);
			retune();
			snprintf(label, sizeof(label), "retune %lu", n);
			CALLGRIND_START_INSTRUMENTATION;
			CALLGRIND_ZERO_STATS;
			retune();
			CALLGRIND_DUMP_STATS_AT(label);
			dz_hz_retune_defer_timers(true);
			snprintf(label, sizeof(label), "boundary %lu", n);
			CALLGRIND_ZERO_STATS;
			retune();
			CALLGRIND_DUMP_STATS_AT(label);
			snprintf(label, sizeof(label), "batch %lu", n);
			CALLGRIND_ZERO_STATS;
			dz_hz_retune_migrate(DZ_RETUNE_BATCH);
			CALLGRIND_DUMP_STATS_AT(label);
			CALLGRIND_STOP_INSTRUMENTATION;
			dz_hz_retune_migrate(n + 1);
			dz_hz_retune_defer_timers(false);
		}
		return 0;
	}
	fprintf(stderr, "usage: retune-bench time REPS N... | ir N...\n");
	return 2;
}
