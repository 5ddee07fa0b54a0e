// SPDX-License-Identifier: MIT
/*
 * POSIX timers: timer_create, timer_settime (and _time64), timer_gettime
 * (and _time64), timer_getoverrun, timer_delete, as Linux i386 has them.
 *
 * A timer counts on CLOCK_REALTIME, MONOTONIC, BOOTTIME or TAI (an
 * hrtimer: an absolute realtime or TAI timer follows clock_settime, a
 * relative realtime one runs on the monotonic clock), or on the process's
 * CPU time (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID and Linux's
 * encoded ids of the caller's clocks, -6 and -2: kernel/sched/cputimer.c). As on
 * Linux there is no slack: a timer runs at its expiry, at the device's
 * resolution.
 *
 * Overruns as Linux counts them: a periodic timer whose signal is queued
 * stops; when the signal leaves the pending set (delivered, or discarded)
 * it is re-armed at the first period after now, and the periods skipped
 * are the overrun count that the siginfo carries and timer_getoverrun
 * returns until the next delivery (capped at INT_MAX, Linux's
 * DELAYTIMER_MAX). A signal that the process ignores is not queued: a
 * periodic timer then goes on, at least a jiffy apart.
 *
 * Signals are one bit each here (kernel/sched/signal.c): two timers on the same
 * signal, both pending, are delivered once (the later one's siginfo); both
 * are re-armed.
 *
 * Timers belong to the process (ids from 0, per process, as Linux hands
 * them out); exec and exit delete them, fork does not copy them.
 */
#include <kernel/signal.h>
#include <kernel/sigframe.h>
#include <kernel/proc.h>
#include <kernel/cputimer.h>
#include <kernel/timers.h>
#include "time-internal.h"
#include <kernel/posix-clock.h>
#include <kernel/itimerspec.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <dynhz/hrtimer.h>
#include <dynhz/timekeeping.h>
#include <dynhz/port.h>

#define PTIMER_MAX 128 /* in the whole system: timer_create's -EAGAIN beyond */

#define SIGEV_SIGNAL	0
#define SIGEV_NONE	1
#define SIGEV_THREAD	2
#define SIGEV_THREAD_ID 4

#define OVERRUN_MAX INT_MAX /* DELAYTIMER_MAX */

/* struct sigevent on i386: 64 bytes, of which these are read. */
struct user_sigevent {
	u32 value;
	s32 signo, notify, tid;
	u8 pad[48];
};

struct k_itimer {
	struct proc *owner; /* NULL: the slot is free */
	int id;
	bool cpu;	     /* on CPU time (ct), else an hrtimer (hr) */
	bool active;	     /* armed, its callback to come */
	bool sigq_pending;   /* its signal is pending: re-armed when it leaves */
	int clock;	     /* the hrtimer's clock (DZ_CLOCK_*) or the enum cpu_clock */
	int notify, signo;   /* SIGEV_*, the signal */
	u32 value;	     /* sigev_value, for si_value */
	u64 interval;	     /* ns; 0: one-shot */
	s64 overrun;	     /* periods skipped since the last delivery, -1 based (Linux's) */
	s64 overrun_last;    /* those of the last delivery: timer_getoverrun */
	struct hrtimer hr;   /* the wall-clock timers' */
	struct cpu_timer ct; /* the CPU-time timers' */
};

static struct k_itimer timers[PTIMER_MAX];
static unsigned int nr_sigq_pending; /* timers with sigq_pending: most deliveries need no look */

static s32 overrun_to_int(s64 last, s64 base)
{
	s64 sum = last + base;

	return sum > OVERRUN_MAX ? OVERRUN_MAX : (s32)sum;
}

static void sigq_clear(struct k_itimer *k)
{
	if (k->sigq_pending)
		nr_sigq_pending--;
	k->sigq_pending = false;
}

/* Interrupts off: the timer's time now on its clock. */
static s64 timer_now(struct k_itimer *k)
{
	if (k->cpu)
		return (s64)cpu_timer_now(k->owner, k->ct.clock);
	return hrtimer_cb_get_time(&k->hr);
}

/* Moves a stopped timer's expiry past now by whole intervals; how many. */
static u64 timer_forward(struct k_itimer *k, s64 now, u64 interval)
{
	u64 n;

	if (!k->cpu)
		return hrtimer_forward(&k->hr, now, (ktime_t)interval);
	if ((s64)k->ct.expires > now)
		return 0;
	n = ((u64)now - k->ct.expires) / interval + 1;
	k->ct.expires += n * interval;
	return n;
}

static void timer_restart(struct k_itimer *k)
{
	if (k->cpu)
		cpu_timer_start(&k->ct, k->ct.expires);
	else
		hrtimer_start_expires(&k->hr, HRTIMER_MODE_ABS);
	k->active = true;
}

/* Interrupts off: the signal, or for an ignored one, whether to go on (periodic). */
static bool timer_fire(struct k_itimer *k)
{
	struct sig_origin o = { .code = SI_TIMER, .timerid = k->id, .value = k->value };
	u64 iv = k->interval, tick = jiffy_ns();

	k->active = false;
	if (k->notify == SIGEV_NONE)
		return false;
	if (signal_send_timer(k->owner, k->signo, &o)) {
		if (!k->sigq_pending)
			nr_sigq_pending++;
		k->sigq_pending = true;
		return false;
	}
	if (!iv)
		return false;
	/* Ignored: on, but not faster than a jiffy, so it cannot take the CPU. */
	k->overrun += (s64)timer_forward(k, timer_now(k) + (s64)(iv < tick ? tick : 0), iv);
	k->active = true;
	return true;
}

static enum hrtimer_restart hr_fn(struct hrtimer *t)
{
	struct k_itimer *k = dz_hrtimer_entry(t, struct k_itimer, hr);

	return timer_fire(k) ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

static void cpu_fn(struct cpu_timer *ct, u64 now)
{
	struct k_itimer *k = container_of(ct, struct k_itimer, ct);

	(void)now;
	if (timer_fire(k))
		cpu_timer_start(ct, ct->expires);
}

/* Interrupts off: the signal of k left the pending set; o: its origin if it was delivered. */
static void timer_rearm(struct k_itimer *k, struct sig_origin *o)
{
	sigq_clear(k);
	if (!k->interval)
		return;
	k->overrun += (s64)timer_forward(k, timer_now(k), k->interval);
	timer_restart(k);
	k->overrun_last = k->overrun;
	k->overrun = -1;
	if (o)
		o->overrun = overrun_to_int(k->overrun_last, o->overrun);
}

void ptimer_signals_taken(struct proc *p, u64 gone, int sig)
{
	struct sig_origin *o = sig ? &p->sig.origin[sig - 1] : NULL;

	if (!nr_sigq_pending)
		return;
	if (sig)
		gone |= 1ULL << (sig - 1);
	for (int i = 0; i < PTIMER_MAX; i++) {
		struct k_itimer *k = &timers[i];

		if (k->owner != p || !k->sigq_pending || !(gone & (1ULL << (k->signo - 1))))
			continue;
		timer_rearm(k, o && k->signo == sig && o->code == SI_TIMER && o->timerid == k->id
				       ? o
				       : NULL);
	}
}

static struct k_itimer *timer_find(struct proc *p, s32 id)
{
	if (id < 0)
		return NULL;
	for (int i = 0; i < PTIMER_MAX; i++)
		if (timers[i].owner == p && timers[i].id == id)
			return &timers[i];
	return NULL;
}

/* Interrupts off: stops the timer; its pending signal (if any) stays, without a re-arm. */
static void timer_disarm(struct k_itimer *k)
{
	if (k->cpu)
		cpu_timer_cancel(&k->ct);
	else
		hrtimer_cancel(&k->hr);
	k->active = false;
	sigq_clear(k);
}

static void timer_free(struct k_itimer *k)
{
	timer_disarm(k);
	k->owner = NULL;
}

void ptimer_proc_exit(struct proc *p)
{
	unsigned long flags = dz_irq_save();

	for (int i = 0; i < PTIMER_MAX; i++)
		if (timers[i].owner == p)
			timer_free(&timers[i]);
	dz_irq_restore(flags);
}

/* ---- timer_create ---- */

/*
 * Which clock id, as Linux's clockid_to_kclock() and the clock's
 * timer_create: 0 with *cpu and *clock set; -EINVAL for no such clock;
 * -EOPNOTSUPP for a clock with no timers (raw, coarse, the fd clocks).
 * The alarm clocks are told apart later: their -EOPNOTSUPP (no RTC
 * wakeup) comes after the sigevent's checks, as Linux's.
 */
static int clock_pick(struct proc *p, s32 id, bool *cpu, int *clock)
{
	*cpu = false;
	if (id < 0) {
		int pid = CPUCLOCK_PID(id);

		if (CPUCLOCK_IS_FD_CLOCK(id))
			return -EOPNOTSUPP;
		if (CPUCLOCK_WHICH(id) == CPUCLOCK_FD)
			return -EINVAL;
		/* One thread per process; another process's clock is not offered. */
		if (pid != 0 && pid != p->pid)
			return -EINVAL;
		*cpu = true;
		*clock = CPUCLOCK_WHICH(id);
		return 0;
	}
	switch (id) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
	case CLOCK_TAI:
	case CLOCK_REALTIME_ALARM:
	case CLOCK_BOOTTIME_ALARM:
		*clock = id;
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
		*cpu = true;
		*clock = CPUCLOCK_SCHED;
		return 0;
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

/* Linux's good_sigevent(): the notification must name a signal and, for a thread, ours. */
static bool sigevent_ok(struct proc *p, const struct user_sigevent *ev)
{
	switch (ev->notify) {
	case SIGEV_SIGNAL | SIGEV_THREAD_ID:
		if (ev->tid != p->pid)
			return false;
		/* fall through */
	case SIGEV_SIGNAL:
	case SIGEV_THREAD:
		return ev->signo > 0 && ev->signo <= NSIG;
	case SIGEV_NONE:
		return true;
	default:
		return false;
	}
}

/* Interrupts off: a free slot with the process's next id (Linux: from 0, wrapping at INT_MAX). */
static struct k_itimer *timer_alloc(struct proc *p)
{
	struct k_itimer *k = NULL;
	int id;

	for (int i = 0; i < PTIMER_MAX && !k; i++)
		if (!timers[i].owner)
			k = &timers[i];
	if (!k)
		return NULL;
	do {
		id = p->timers.next_timer_id;
		p->timers.next_timer_id = id == INT_MAX ? 0 : id + 1;
	} while (timer_find(p, id));
	memset(k, 0, sizeof(*k));
	k->owner = p;
	k->id = id;
	k->overrun = -1;
	return k;
}

static void timer_setup_clock(struct k_itimer *k, struct proc *p, bool cpu, int clock)
{
	k->cpu = cpu;
	k->clock = clock;
	if (cpu)
		cpu_timer_setup(&k->ct, p, clock, cpu_fn);
	else
		hrtimer_setup(&k->hr, hr_fn, clock, HRTIMER_MODE_ABS);
}

static long timer_create_locked(struct proc *p, s32 clock_id, const struct user_sigevent *ev,
				u32 uid)
{
	struct k_itimer *k;
	bool cpu;
	int clock, err = clock_pick(p, clock_id, &cpu, &clock);

	if (err)
		return err;
	k = timer_alloc(p);
	if (!k)
		return -EAGAIN;
	if (ev && !sigevent_ok(p, ev)) {
		k->owner = NULL;
		return -EINVAL;
	}
	k->notify = ev ? ev->notify : SIGEV_SIGNAL;
	k->signo = ev ? ev->signo : SIGALRM;
	k->value = ev ? ev->value : (u32)k->id;
	if (copy_to_user(uid, &k->id, sizeof(k->id))) {
		k->owner = NULL;
		return -EFAULT;
	}
	if (clock == CLOCK_REALTIME_ALARM || clock == CLOCK_BOOTTIME_ALARM) {
		k->owner = NULL;
		return -EOPNOTSUPP; /* Linux without an RTC wakeup: no alarm timers */
	}
	timer_setup_clock(k, p, cpu, clock);
	return 0;
}

SYSCALL_DEFINE3(timer_create, s32, clock_id, u32, uevent, u32, uid)
{
	struct user_sigevent ev;
	unsigned long flags;
	long ret;

	if (uevent && copy_from_user(&ev, uevent, sizeof(ev)))
		return -EFAULT;
	flags = dz_irq_save();
	ret = timer_create_locked(proc_current(), clock_id, uevent ? &ev : NULL, uid);
	dz_irq_restore(flags);
	return ret;
}

/* ---- timer_gettime, timer_settime ---- */

/* Interrupts off: Linux's common_timer_get(). */
static void timer_get(struct k_itimer *k, struct kitimerspec *cur)
{
	bool sig_none = k->notify == SIGEV_NONE;
	s64 now, left;

	cur->interval = k->interval;
	cur->value = 0;
	if (!k->interval && !k->active && !sig_none)
		return;
	now = timer_now(k);
	/* A signal pending or no signal at all: the expiry moves on by intervals. */
	if (k->interval && (k->sigq_pending || sig_none))
		k->overrun += (s64)timer_forward(k, now, k->interval);
	left = (k->cpu ? (s64)k->ct.expires : hrtimer_get_expires(&k->hr)) - now;
	if (left > 0)
		cur->value = (u64)left;
	else if (!sig_none)
		cur->value = 1; /* due: not 0, which would say disarmed */
}

static long timer_gettime_common(s32 id, u32 usetting, bool time64)
{
	struct proc *p = proc_current();
	struct kitimerspec cur;
	unsigned long flags = dz_irq_save();
	struct k_itimer *k = timer_find(p, id);

	if (!k) {
		dz_irq_restore(flags);
		return -EINVAL;
	}
	timer_get(k, &cur);
	dz_irq_restore(flags);
	return itimerspec_put(usetting, time64, &cur);
}

SYSCALL_DEFINE2(timer_gettime, s32, id, u32, usetting)
{
	return timer_gettime_common(id, usetting, false);
}

SYSCALL_DEFINE2(timer_gettime64, s32, id, u32, usetting)
{
	return timer_gettime_common(id, usetting, true);
}

/* Interrupts off: arms k for its value (relative, or absolute on its clock). */
static void timer_arm(struct k_itimer *k, u64 value, bool abs)
{
	bool sig_none = k->notify == SIGEV_NONE;

	if (k->cpu) {
		k->ct.expires = abs ? value : cpu_timer_now(k->owner, k->ct.clock) + value;
		if (!sig_none)
			cpu_timer_start(&k->ct, k->ct.expires);
	} else {
		/* A relative realtime timer runs on the monotonic clock. */
		hrtimer_setup(&k->hr, hr_fn, k->clock, abs ? HRTIMER_MODE_ABS : HRTIMER_MODE_REL);
		hrtimer_set_expires(
			&k->hr, abs ? (ktime_t)value
				    : ktime_add_safe(hrtimer_cb_get_time(&k->hr), (ktime_t)value));
		if (!sig_none)
			hrtimer_start_expires(&k->hr, HRTIMER_MODE_ABS);
	}
	k->active = !sig_none;
}

/* Interrupts off: Linux's common_timer_set(). */
static void timer_set(struct k_itimer *k, int flags, const struct kitimerspec *new)
{
	timer_disarm(k);
	k->interval = 0;
	k->overrun_last = 0;
	k->overrun = -1;
	if (!k->cpu)
		hrtimer_set_expires(&k->hr, 0);
	if (!new->value)
		return;
	k->interval = new->interval;
	timer_arm(k, new->value, flags & TIMER_ABSTIME);
}

static long timer_settime_common(s32 id, int tflags, u32 unew, u32 uold, bool time64)
{
	struct proc *p = proc_current();
	struct kitimerspec new, old;
	struct k_itimer *k;
	unsigned long flags;
	int err;

	if (!unew)
		return -EINVAL;
	err = itimerspec_get(unew, time64, &new);
	if (err)
		return err;
	flags = dz_irq_save();
	k = timer_find(p, id);
	if (!k) {
		dz_irq_restore(flags);
		return -EINVAL;
	}
	if (uold)
		timer_get(k, &old);
	timer_set(k, tflags, &new);
	dz_irq_restore(flags);
	return uold ? itimerspec_put(uold, time64, &old) : 0;
}

SYSCALL_DEFINE4(timer_settime, s32, id, int, flags, u32, unew, u32, uold)
{
	return timer_settime_common(id, flags, unew, uold, false);
}

SYSCALL_DEFINE4(timer_settime64, s32, id, int, flags, u32, unew, u32, uold)
{
	return timer_settime_common(id, flags, unew, uold, true);
}

/* ---- timer_getoverrun, timer_delete ---- */

SYSCALL_DEFINE1(timer_getoverrun, s32, id)
{
	unsigned long flags = dz_irq_save();
	struct k_itimer *k = timer_find(proc_current(), id);
	long ret = k ? overrun_to_int(k->overrun_last, 0) : -EINVAL;

	dz_irq_restore(flags);
	return ret;
}

SYSCALL_DEFINE1(timer_delete, s32, id)
{
	unsigned long flags = dz_irq_save();
	struct k_itimer *k = timer_find(proc_current(), id);

	if (k)
		timer_free(k);
	dz_irq_restore(flags);
	return k ? 0 : -EINVAL;
}
