// SPDX-License-Identifier: MIT
/*
 * The kernel's time facts as /proc files (kernel/fs/procfs.c lists them):
 *
 *   /proc/cmdline     the command line the loader passed, as Linux's
 *   /proc/dynhz       the boot report as "name: value" lines: HZ and where
 *                     it came from, the tick device, the exact period and
 *                     the rate's error in ppm, USER_HZ, tickless idle,
 *                     high resolution and the wakeups since boot; its last
 *                     line is the boot's machine-readable time: line, the
 *                     same text
 *   /proc/timer_list  in the spirit of Linux's: the time, the hrtimer
 *                     queue's state, the pending jiffies timers with their
 *                     expiries, the tick device
 *
 * Each is made when the file is opened (a snapshot, see procfs.c), into a
 * buffer of PROCFS_BUF_SIZE bytes: a longer timer list is cut, and says so.
 */
#include "vfs-internal.h"
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/arch.h>
#include <kernel/console.h>
#include <dynhz/clockevent.h>
#include <dynhz/clocksource.h>
#include <dynhz/hrtimer.h>
#include <dynhz/hz.h>
#include <dynhz/jiffies.h>
#include <dynhz/printk.h>
#include <dynhz/tick.h>
#include <dynhz/timekeeping.h>
#include <dynhz/timer.h>

/* Text into a /proc buffer: what does not fit is cut, never overrun. */
struct text {
	char *buf;
	u32 size, len;
	bool cut;
};

static void put(struct text *t, const char *fmt, ...) DZ_PRINTF(2, 3);
static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->len + 1 >= t->size) {
		t->cut = true;
		return;
	}
	va_start(ap, fmt);
	n = dz_vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((u32)n >= t->size - t->len) {
		t->len = t->size - 1;
		t->cut = true;
	} else {
		t->len += (u32)n;
	}
}

/* Thousandths as "N.NNN". */
static void put_milli(struct text *t, const char *before, u64 milli, const char *after)
{
	put(t, "%s%llu.%03llu%s", before, (unsigned long long)(milli / 1000),
	    (unsigned long long)(milli % 1000), after);
}

/* --- /proc/cmdline --- */

int procfs_gen_cmdline(char *buf, u32 size)
{
	struct text t = { buf, size, 0, false };

	put(&t, "%s\n", boot_params.cmdline);
	return (int)t.len;
}

/* --- /proc/dynhz --- */

/* The rate's offset from HZ in parts per billion, as the boot report rounds it. */
static s64 rate_error_ppb(unsigned int hz, struct dz_tick_period p)
{
	s64 diff = (s64)p.den - (s64)hz * (s64)p.num;
	s64 d = (s64)hz * (s64)p.num;
	s64 q = diff * 1000000000LL;

	return (q >= 0 ? q + d / 2 : q - d / 2) / d;
}

/* Where the tick goes while idle: tickless on what, or periodic. */
static const char *idle_mode(const struct dz_hz_state *st)
{
	if (!dz_tick_nohz_active())
		return "periodic (no tickless idle)";
	if (arch_tick_idle_on_lapic())
		return "tickless, one-shot on the local APIC timer";
	return st->device && st->device[0] == 'p' ? "tickless, one-shot in PIT mode 0"
						  : "tickless, one-shot";
}

static void dynhz_period(struct text *t, const struct dz_hz_state *st)
{
	u64 ps = dz_tick_ps(st->period);
	u64 mhz = (st->period.den * 1000 + st->period.num / 2) / st->period.num;
	s64 ppb = rate_error_ppb(st->hz, st->period);

	put(t, "tick_period_s: %llu/%llu\n", (unsigned long long)st->period.num,
	    (unsigned long long)st->period.den);
	put_milli(t, "tick_ns: ", ps, "\n");
	put_milli(t, "rate_hz: ", mhz, "\n");
	put_milli(t, ppb < 0 ? "ppm: -" : "ppm: +", (u64)(ppb < 0 ? -ppb : ppb), "\n");
}

static void dynhz_wakeups(struct text *t)
{
	struct dz_tick_stats ts;
	u64 ns = ktime_get_ns();

	dz_tick_stats(&ts);
	put(t, "uptime_ns: %llu\njiffies_64: %llu\n", (unsigned long long)ns,
	    (unsigned long long)get_jiffies_64());
	put(t, "timer_interrupts: %llu\nidle_entries: %llu\ntick_stops: %llu\n",
	    (unsigned long long)ts.interrupts, (unsigned long long)ts.idle_entries,
	    (unsigned long long)ts.stops);
	put(t, "idle_jiffies: %llu\n", (unsigned long long)ts.idle_jiffies);
	put_milli(t, "wakeups_per_s: ", ns ? ts.interrupts * 1000 * NSEC_PER_SEC / ns : 0, "\n");
}

int procfs_gen_dynhz(char *buf, u32 size)
{
	struct text t = { buf, size, 0, false };
	struct dz_hz_state st = dz_hz_state_get();
	struct clocksource *cs = dz_clocksource_current();
	u64 ps = dz_tick_ps(st.period);

	put(&t, "hz: %u\nsource: %s\nclockevent: %s\n", st.hz, dz_hz_source_name(st.source),
	    st.device);
	dynhz_period(&t, &st);
	put(&t, "user_hz: %u\nnohz: %s\nidle: %s\nhighres: %s\n", (unsigned int)USER_HZ,
	    dz_tick_nohz_active() ? "on" : "off", idle_mode(&st),
	    dz_hrtimer_highres() ? "on" : "off");
	put(&t, "clocksource: %s %llu Hz\nlapic_timer_hz: %llu\n", cs ? cs->name : "none",
	    (unsigned long long)(cs ? cs->freq_hz : 0), (unsigned long long)lapic_timer_hz());
	put(&t, "timeslice_jiffies: %lu\n", sched_timeslice());
	dynhz_wakeups(&t);
	put(&t, "time: hz=%u source=%s clockevent=%s tick_ns=%llu.%03llu user_hz=%u\n", st.hz,
	    dz_hz_source_name(st.source), st.device, (unsigned long long)(ps / 1000),
	    (unsigned long long)(ps % 1000), (unsigned int)USER_HZ);
	return (int)t.len;
}

/* --- /proc/timer_list --- */

#define LIST_MAX 64 /* timers shown; more are counted */

/* A pending timer as the walk saw it: never dereferenced afterwards (it may be gone). */
struct pending {
	const void *addr;
	void (*fn)(struct timer_list *);
	unsigned long expires;
};

/* The wheel at one instant: taken with interrupts off, printed with them on. */
struct snapshot {
	struct pending t[LIST_MAX];
	unsigned int n, total;
	struct dz_timer_stats st;
	unsigned long now;
	bool have_stats;
};

/* Interrupts off (the walk): the counters at the same instant, then each timer. */
static bool snap_timer(const struct timer_list *tm, void *arg)
{
	struct snapshot *s = arg;

	if (!s->have_stats) {
		dz_timer_stats(&s->st);
		s->now = jiffies;
		s->have_stats = true;
	}
	if (s->n < LIST_MAX)
		s->t[s->n++] = (struct pending){ tm, tm->function, tm->expires };
	s->total++;
	return true;
}

/* What the kernel can tell of a timer's owner from where it lies. */
struct owners {
	struct proc *procs[PROC_MAX];
	unsigned int nprocs;
	struct thread *threads[MAX_THREADS];
	unsigned int nthreads;
};

/* A timer on a thread's kernel stack: a sleep of that thread (schedule_timeout). */
static struct thread *stack_owner(const struct owners *o, const void *addr)
{
	uintptr_t a = (uintptr_t)addr;

	for (unsigned int i = 0; i < o->nthreads; i++) {
		uintptr_t lo = (uintptr_t)o->threads[i]->stack;

		if (a >= lo && a < lo + THREAD_STACK_SIZE)
			return o->threads[i];
	}
	return NULL;
}

static void put_owner(struct text *t, const struct owners *o, const struct pending *pt)
{
	struct thread *th;

	if (pt->addr == loadavg_timer()) {
		put(t, "the load average (/proc/loadavg)");
		return;
	}
	if (pt->addr == console_poll_timer()) {
		put(t, "the console's receiver poll (serial_poll=)");
		return;
	}
	th = stack_owner(o, pt->addr);
	if (th)
		put(t, "a timeout of thread %d (%s), %s", th->id, th->name,
		    th->doing ? th->doing : "sleeping");
	else
		put(t, "function <%p>", (void *)pt->fn);
}

static void timer_section(struct text *t)
{
	struct snapshot s = { .n = 0 };
	struct owners o;
	struct dz_timer_stats geo;

	dz_timer_for_each_pending(snap_timer, &s);
	if (!s.have_stats) { /* nothing pending */
		dz_timer_stats(&s.st);
		s.now = jiffies;
	}
	o.nprocs = proc_list(o.procs, PROC_MAX);
	o.nthreads = sched_threads(o.threads, MAX_THREADS);
	dz_timer_stats(&geo);
	put(t, "jiffies timers (the timer wheel, %u levels of %u slots):\n", geo.levels,
	    geo.slots_per_level);
	put(t, "  pending %lu, expired %llu, cascaded %llu, now at jiffy %lu\n", s.st.pending,
	    (unsigned long long)s.st.expired, (unsigned long long)s.st.cascaded, s.now);
	for (unsigned int i = 0; i < s.n; i++) {
		long in = (long)(s.t[i].expires - s.now);

		put(t, " #%u: <%p>, ", i, s.t[i].addr);
		put_owner(t, &o, &s.t[i]);
		put(t, ", expires at %lu jiffies (in %ld jiffies = %llu nsecs)\n", s.t[i].expires,
		    in, (unsigned long long)(in > 0 ? jiffies_to_nsecs((unsigned long)in) : 0));
	}
	if (s.total > s.n)
		put(t, " (%u more not shown)\n", s.total - s.n);
	put(t, "\n");
}

/* The queued hrtimers, copied with interrupts off, printed with them on. */
#define HR_SHOWN 32
struct hr_snapshot {
	struct {
		const void *addr;
		void *fn;
		int clock;
		s64 soft, hard;
	} t[HR_SHOWN];
	unsigned int n, total;
};

static bool snap_hrtimer(const struct hrtimer *h, void *arg)
{
	struct hr_snapshot *s = arg;

	if (s->n < HR_SHOWN) {
		s->t[s->n].addr = h;
		s->t[s->n].fn = (void *)h->function;
		s->t[s->n].clock = dz_hrtimer_clock(h);
		s->t[s->n].soft = hrtimer_get_softexpires(h);
		s->t[s->n].hard = hrtimer_get_expires(h);
		s->n++;
	}
	s->total++;
	return true;
}

static const char *clock_name(int clock)
{
	switch (clock) {
	case DZ_CLOCK_REALTIME:
		return "CLOCK_REALTIME";
	case DZ_CLOCK_BOOTTIME:
		return "CLOCK_BOOTTIME";
	case DZ_CLOCK_TAI:
		return "CLOCK_TAI";
	default:
		return "CLOCK_MONOTONIC";
	}
}

/* The shown timers by clock, then by latest expiry (an insertion sort of at most 32). */
static void sort_hrtimers(struct hr_snapshot *s)
{
	for (unsigned int i = 1; i < s->n; i++)
		for (unsigned int j = i; j > 0; j--) {
			bool later = s->t[j - 1].clock > s->t[j].clock ||
				     (s->t[j - 1].clock == s->t[j].clock &&
				      s->t[j - 1].hard > s->t[j].hard);

			if (!later)
				break;
			__typeof__(s->t[0]) tmp = s->t[j];
			s->t[j] = s->t[j - 1];
			s->t[j - 1] = tmp;
		}
}

/*
 * High-resolution timers (the core's queue, time/hrtimer.c): how they run,
 * then each queued one as Linux prints them, by clock: its expiry and the
 * latest it may run (the slack), and how far ahead that is on its clock.
 */
static void hrtimer_section(struct text *t)
{
	static struct hr_snapshot
		s; /* too big for a kernel stack; /proc files are made one at a time */
	struct dz_hrtimer_stats st;
	int clock = -1;

	s.n = s.total = 0;
	dz_hrtimer_stats(&st);
	dz_hrtimer_for_each_queued(snap_hrtimer, &s);
	put(t, "hrtimers: %s, %u queued, %llu expired\n",
	    dz_hrtimer_highres() ? "high resolution" : "tick resolution", st.queued,
	    (unsigned long long)st.expired);
	sort_hrtimers(&s);
	for (unsigned int i = 0; i < s.n; i++) {
		s64 now = 0;

		if (s.t[i].clock != clock) {
			clock = s.t[i].clock;
			put(t, " clock %s:\n", clock_name(clock));
		}
		dz_clock_get_ns(clock, &now);
		put(t, " #%u: <%p>, function <%p>\n", i, s.t[i].addr, s.t[i].fn);
		put(t, " # expires at %lld-%lld nsecs [in %lld to %lld nsecs]\n",
		    (long long)s.t[i].soft, (long long)s.t[i].hard, (long long)(s.t[i].soft - now),
		    (long long)(s.t[i].hard - now));
	}
	if (s.total > s.n)
		put(t, " (%u more not shown)\n", s.total - s.n);
	put(t, "\n");
}

static const char *state_name(enum clock_event_state s)
{
	switch (s) {
	case CLOCK_EVT_STATE_PERIODIC:
		return "periodic";
	case CLOCK_EVT_STATE_ONESHOT:
		return "oneshot";
	case CLOCK_EVT_STATE_SHUTDOWN:
		return "shutdown";
	default:
		return "detached";
	}
}

static void tick_section(struct text *t)
{
	struct clock_event_device *dev = dz_tick_device();
	struct dz_hz_state st = dz_hz_state_get();
	struct dz_tick_stats ts;
	u64 ps = dz_tick_ps(st.period);

	dz_tick_stats(&ts);
	if (dz_hrtimer_highres())
		put(t, "Tick Device: mode: oneshot (high resolution: the tick is an event on the "
		       "jiffy grid)\n");
	else
		put(t, "Tick Device: mode: %s\n",
		    dz_tick_nohz_active() ? "periodic, tickless idle" : "periodic");
	put(t, "Per CPU device: 0\nClock Event Device: %s\n", dev ? dev->name : "none");
	if (dev) {
		put(t, " features: %s%s\n",
		    (dev->features & CLOCK_EVT_FEAT_PERIODIC) ? "periodic " : "",
		    (dev->features & CLOCK_EVT_FEAT_ONESHOT) ? "oneshot" : "");
		put(t, " max_delta_ns: %llu\n min_delta_ns: %llu\n",
		    (unsigned long long)dev->max_delta_ns, (unsigned long long)dev->min_delta_ns);
		put(t, " state: %s\n", state_name(dev->state));
	}
	put(t, " HZ: %u\n period: %llu/%llu s\n", st.hz, (unsigned long long)st.period.num,
	    (unsigned long long)st.period.den);
	put_milli(t, " period_ns: ", ps, "\n");
	put(t, " idle: %s\n", idle_mode(&st));
	put(t, " .interrupts: %llu\n .idle_calls: %llu\n .tick_stops: %llu\n",
	    (unsigned long long)ts.interrupts, (unsigned long long)ts.idle_entries,
	    (unsigned long long)ts.stops);
	put(t, " .idle_jiffies: %llu\n .next_timer: %lu\n", (unsigned long long)ts.idle_jiffies,
	    dz_timer_next_expiry());
}

int procfs_gen_timer_list(char *buf, u32 size)
{
	/* Room kept at the end to say the list was cut. */
	static const char cut_note[] = "(cut: the file holds 4096 bytes)\n";
	struct text t = { buf, size - (u32)sizeof(cut_note), 0, false };
	struct dz_hz_state st = dz_hz_state_get();

	put(&t, "Timer List Version: dynhz 1 (after Linux's v0.9)\n");
	put(&t, "HZ: %u (%s), USER_HZ: %u\n", st.hz, dz_hz_source_name(st.source),
	    (unsigned int)USER_HZ);
	put(&t, "now at %llu nsecs\njiffies: %llu\n\n", (unsigned long long)ktime_get_ns(),
	    (unsigned long long)get_jiffies_64());
	hrtimer_section(&t);
	timer_section(&t);
	tick_section(&t);
	if (t.cut) {
		memcpy(buf + t.len, cut_note, sizeof(cut_note));
		t.len += (u32)sizeof(cut_note) - 1;
	}
	return (int)t.len;
}
