// SPDX-License-Identifier: MIT
/*
 * Synthetic timer traces for the advisor's tests, as trace_pipe prints
 * them, of a one-CPU tickless machine at HZ=1000 whose jiffies began at
 * boot (Linux's INITIAL_JIFFIES, 2^32 - 300 s of jiffies):
 *
 *   synth idle     two timers (1 s and 2.3 s) re-armed as they fire, the CPU idle
 *   synth sleeps   a task sleeping 1 ms (schedule_timeout(1)) over and over,
 *                  as Linux 5.9 and later run it: level 0 of the wheel rounds
 *                  up, so each sleep ends at the tick after its expiry
 *   synth aligned  20 timers all due on the same jiffies: each whole second
 *                  of CLOCK_MONOTONIC (a jiffy boundary of HZ 100, 250, 1000)
 *   synth spread   20 timers due once a second, each at its own millisecond
 *   synth udp      the sleeps loop, woken every 50 ms by a datagram that lands
 *                  30-50 us before the tick that runs its timeout: the timer
 *                  runs before the task does (sched_waking shows the wakeup)
 *   synth bursts   a CPU that idles often (issue 43): every 2.7 ms an
 *                  interrupt that is no timer wakes it, the tick is restarted
 *                  at the idle exit, a task runs 1.6 ms, and the tick is
 *                  stopped again; the tick fires in each burst at every jiffy
 *                  the burst crosses, logged in the task's context. With
 *                  sched_switch events; the tests strip them for the rule.
 *                  Each burst begins and ends at least 37 us off a jiffy
 *                  boundary: on one (every tenth burst, when they began
 *                  0.5 ms after T0) the order of the idle exit and the tick
 *                  is a matter of nanoseconds the trace cannot settle, and
 *                  the replay's tick came on the other side of it, 13 %
 *                  more ticks in all. The tick stops at each idle entry:
 *                  a machine whose idle governor stops it there.
 *   synth holds    such bursts, every 9.7 ms, on a machine without a cpuidle
 *                  governor (Linux 6.12's idle loop): the tick runs once
 *                  more in idle after each burst, at the next jiffy, and
 *                  stops there.
 *
 * Each expiry is logged as Linux does: the tick's hrtimer fires at the
 * jiffy, then timer_cancel and timer_expire_entry in the softirq. The
 * last line is "# expiries N": how many jiffies timers fired.
 *
 *	synth LOAD [OFFSET]   OFFSET: the trace clock - CLOCK_MONOTONIC in ns
 *	                      (default 1000; negative: the trace clock behind)
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HZ	1000ULL
#define TICK	1000000ULL /* ns */
#define T0	(100ULL * 1000000000ULL)
#define INITIAL (4294967296ULL - 300ULL * HZ)
#define NTIMERS 20

static uint64_t expiries;
/*
 * The trace clock - CLOCK_MONOTONIC, ns: 1 us ahead unless an argument
 * says otherwise. Linux's trace clock (local: sched_clock) may as well be
 * behind: under QEMU the port's ran 105.034 ms behind CLOCK_MONOTONIC.
 */
static int64_t offset = 1000;

static uint64_t jiffy_at(uint64_t ns)
{
	return INITIAL + ns / TICK;
}

static void line(uint64_t ns, int pid, const char *ctx, const char *ev)
{
	uint64_t ts = ns + (uint64_t)offset;

	printf("%16s-%-7d [000] %s %5llu.%06llu: %s\n", pid ? "task" : "<idle>", pid, ctx,
	       (unsigned long long)(ts / 1000000000ULL),
	       (unsigned long long)(ts % 1000000000ULL / 1000), ev);
}

static void start(uint64_t ns, int pid, unsigned int id, uint64_t expires)
{
	char ev[256];
	uint64_t now = jiffy_at(ns);

	snprintf(ev, sizeof(ev),
		 "timer_start: timer=%016x function=process_timeout expires=%llu [timeout=%lld] "
		 "cpu=0 idx=0 flags=",
		 0x1000 + id, (unsigned long long)expires, (long long)(expires - now));
	line(ns, pid, pid ? "d..1." : "d.s1.", ev);
}

/* The tick at jiffy j's start, then the timer's expiry in the softirq. */
static void tick(uint64_t j, int pid)
{
	uint64_t ns = (j - INITIAL) * TICK + 5000;
	char ev[256];

	snprintf(ev, sizeof(ev),
		 "hrtimer_expire_entry: hrtimer=000000000000beef function=tick_nohz_handler "
		 "now=%llu",
		 (unsigned long long)(ns - 4000));
	line(ns, pid, "d.h1.", ev);
}

/* Timer id runs at the tick of jiffy j (now=j). */
static void expire(uint64_t j, int pid, unsigned int id)
{
	uint64_t ns = (j - INITIAL) * TICK + 9000;
	char ev[256];

	snprintf(ev, sizeof(ev), "timer_cancel: timer=%016x", 0x1000 + id);
	line(ns, pid, "d.s2.", ev);
	snprintf(ev, sizeof(ev),
		 "timer_expire_entry: timer=%016x function=process_timeout now=%llu baseclk=%llu",
		 0x1000 + id, (unsigned long long)j, (unsigned long long)j);
	line(ns, pid, "..s1.", ev);
	expiries++;
}

static void header(void)
{
	printf("# hzadvise record: synthetic config_hz=1000 tick=nohz_idle cpus=1\n");
	line(T0, 0, "d..1.", "tick_stop: success=1 dependency=NONE");
}

static void idle(void)
{
	uint64_t period[2] = { 1000, 2300 }, next[2];

	header();
	for (unsigned int i = 0; i < 2; i++) {
		next[i] = jiffy_at(T0) + period[i];
		start(T0 + 10000 + i * 1000, 0, i, next[i]);
	}
	for (uint64_t j = jiffy_at(T0) + 1; j < jiffy_at(T0 + 60000000000ULL); j++) {
		bool ticked = false;

		/* Both due: both run, then both are started again (in time order). */
		for (unsigned int i = 0; i < 2; i++) {
			if (next[i] != j)
				continue;
			if (!ticked)
				tick(j, 0);
			ticked = true;
			expire(j, 0, i);
		}
		for (unsigned int i = 0; i < 2; i++) {
			if (next[i] != j)
				continue;
			next[i] = j + period[i];
			start((j - INITIAL) * TICK + 12000 + i * 1000, 0, i, next[i]);
		}
	}
}

/*
 * schedule_timeout(1): expires at the next jiffy, runs a jiffy later (the
 * wheel's round-up: calc_index() files it one granule past its expiry);
 * the task runs 50-250 us after each wakeup.
 */
static void sleeps(void)
{
	uint64_t ns = T0 + 300000;

	header();
	while (ns < T0 + 20000000000ULL) {
		uint64_t j = jiffy_at(ns) + 1;

		start(ns, 100, 0, j);
		tick(j + 1, 0);
		expire(j + 1, 0, 0);
		ns = (j + 1 - INITIAL) * TICK + 50000 + (ns * 7919 % 200000);
	}
}

/* A sched_waking of pid, logged by waker. */
static void waking(uint64_t ns, int waker, const char *ctx, int pid)
{
	char ev[128];

	snprintf(ev, sizeof(ev), "sched_waking: comm=task pid=%d prio=120 target_cpu=000", pid);
	line(ns, waker, ctx, ev);
}

/*
 * schedule_timeout(1) over and over (SO_RCVTIMEO 1 ms), as in sleeps();
 * every 50 ms its parent (pid 90) sends a datagram that wakes it 30-50 us
 * before the tick that runs its timeout. The tick comes first (in the
 * parent's context), then the task runs and sleeps again: no cancel of
 * its own, only the wakeup before the expiry. Each expiry's own wakeup
 * (process_timeout's) follows it, as Linux logs it. The task's timeouts
 * run every other jiffy, on even milliseconds, so every 50 ms is one.
 */
static void udp(void)
{
	uint64_t ns = T0 + 300000, next = T0 + 50000000;

	header();
	while (ns < T0 + 20000000000ULL) {
		uint64_t j = jiffy_at(ns) + 1, at = (j + 1 - INITIAL) * TICK;
		int ctx = 0;

		start(ns, 100, 0, j);
		if (at == next) {
			waking(at - 30000 - ns % 20000, 90, "d..2.", 100);
			ctx = 90;
			next += 50000000;
		}
		tick(j + 1, ctx);
		expire(j + 1, ctx, 0);
		waking(at + 9000, ctx, "..s1.", 100);
		ns = at + 50000 + (ns * 7919 % 200000);
	}
}

static void seconds(bool aligned)
{
	/* The jiffy that begins at the next whole second of CLOCK_MONOTONIC. */
	uint64_t first = jiffy_at(T0 + 1000000000ULL);

	header();
	for (unsigned int i = 0; i < NTIMERS; i++)
		start(T0 + 10000 + i * 1000, 0, i, first + (aligned ? 0 : 37 * i + 11));
	for (uint64_t s = first; s < first + 60 * HZ; s += HZ) {
		/* aligned: one tick runs them all, then they are started again, in time order */
		for (unsigned int i = 0; i < NTIMERS; i++) {
			uint64_t j = s + (aligned ? 0 : 37 * i + 11);

			if (!aligned || i == 0)
				tick(j, 0);
			expire(j, 0, i);
			if (!aligned)
				start((j - INITIAL) * TICK + 12000, 0, i, j + HZ);
		}
		for (unsigned int i = 0; aligned && i < NTIMERS; i++)
			start((s - INITIAL) * TICK + 12000 + i * 100, 0, i, s + HZ);
	}
}

static void sched_switch(uint64_t ns, int from, int to)
{
	char ev[256];

	snprintf(ev, sizeof(ev),
		 "sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> "
		 "next_comm=%s next_pid=%d next_prio=120",
		 from ? "task" : "swapper/0", from, from ? "S" : "R", to ? "task" : "swapper/0",
		 to);
	line(ns, from, "d..2.", ev);
}

/*
 * hold: as a machine without a cpuidle governor (no driver, or one idle
 * state) runs it, Linux 6.12's idle loop: after each burst the tick runs
 * once more in idle (at the next jiffy, within the 8.1 ms the CPU idles)
 * and is stopped there, not at the idle entry. The bursts then come every
 * 9.7 ms, so that at 100 and 250 Hz too the tick stops between them.
 */
static void bursts(bool hold)
{
	const uint64_t period = hold ? 9700000 : 2700000, busy = 1600000;
	uint64_t ticks = 0;

	header();
	for (uint64_t t = T0 + 537000; t < T0 + 20000000000ULL; t += period) {
		uint64_t j = (t - T0) / TICK + 1; /* the next jiffy boundary, from T0 */
		char ev[256];

		/* The idle exit restarts the tick at the next jiffy. */
		snprintf(ev, sizeof(ev),
			 "hrtimer_start: hrtimer=000000000000beef function=tick_nohz_handler "
			 "expires=%llu softexpires=%llu mode=ABS|PINNED|HARD",
			 (unsigned long long)(T0 + j * TICK), (unsigned long long)(T0 + j * TICK));
		line(t, 0, "d..1.", ev);
		sched_switch(t + 3000, 0, 300);
		for (; T0 + j * TICK < t + busy; j++) {
			tick(jiffy_at(T0 + j * TICK), 300);
			ticks++;
		}
		sched_switch(t + busy, 300, 0);
		snprintf(ev, sizeof(ev), "hrtimer_cancel: hrtimer=000000000000beef");
		if (hold) {
			tick(jiffy_at(T0 + j * TICK), 0);
			ticks++;
			line(T0 + j * TICK + 9000, 0, "d..1.",
			     "tick_stop: success=1 dependency=NONE");
			line(T0 + j * TICK + 10000, 0, "d..1.", ev);
		} else {
			line(t + busy + 4000, 0, "d..1.", "tick_stop: success=1 dependency=NONE");
			line(t + busy + 5000, 0, "d..1.", ev);
		}
	}
	printf("# ticks %llu\n", (unsigned long long)ticks);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	char *end;

	if (argc > 2) {
		offset = strtoll(argv[2], &end, 10);
		if (*end || offset <= -(int64_t)T0 || offset >= (int64_t)T0) {
			fprintf(stderr, "synth: OFFSET '%s': not a number of ns within 100 s\n",
				argv[2]);
			return 2;
		}
	}

	if (!strcmp(what, "idle"))
		idle();
	else if (!strcmp(what, "sleeps"))
		sleeps();
	else if (!strcmp(what, "aligned"))
		seconds(true);
	else if (!strcmp(what, "spread"))
		seconds(false);
	else if (!strcmp(what, "udp"))
		udp();
	else if (!strcmp(what, "bursts"))
		bursts(false);
	else if (!strcmp(what, "holds"))
		bursts(true);
	else {
		fprintf(stderr,
			"usage: synth idle|sleeps|aligned|spread|udp|bursts|holds [OFFSET]\n");
		return 2;
	}
	printf("# expiries %llu\n", (unsigned long long)expiries);
	return 0;
}
