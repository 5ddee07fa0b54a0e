// SPDX-License-Identifier: MIT
/*
 * alarm, setitimer and getitimer: ITIMER_REAL, which sends SIGALRM on
 * CLOCK_MONOTONIC time; ITIMER_VIRTUAL (SIGVTALRM after user CPU time) and
 * ITIMER_PROF (SIGPROF after user + system time), on kernel/sched/cputimer.c.
 *
 * ITIMER_REAL is an hrtimer on CLOCK_MONOTONIC with no slack, as Linux's
 * it_real_fn timer: SIGALRM at the asked time, not at a tick, whatever
 * HZ (and a change of HZ leaves it alone). An interval re-arms from the
 * expiry, not from when the interrupt came, so a periodic timer does not
 * drift, when the signal is taken, as Linux's; periods missed are skipped.
 */
#include <kernel/signal.h>
#include <kernel/proc.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <kernel/cputimer.h>
#include <kernel/timers.h>
#include "time-internal.h"
#include <dynhz/hrtimer.h>
#include <dynhz/timekeeping.h>
#include <dynhz/port.h>

#define ITIMER_REAL    0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF    2

/* As i386 user space has it: the interval first. */
struct user_itimerval {
	s32 interval_sec, interval_usec;
	s32 value_sec, value_usec;
};

/* Interrupts off: the hrtimer for the expiry held (CLOCK_MONOTONIC ns). */
static void arm(struct proc_timers *t)
{
	hrtimer_start(&t->real, (ktime_t)t->real_expires_ns, HRTIMER_MODE_ABS);
}

/*
 * SIGALRM; a periodic timer is re-armed when the signal is taken
 * (itimer_real_signal_taken()), as Linux's dequeue_signal() does, so a
 * 1 us interval gives one expiry per signal taken, not an interrupt
 * storm. Until then getitimer() says 1 us left, as Linux.
 */
static enum hrtimer_restart real_timer_fn(struct hrtimer *ht)
{
	struct proc *p = container_of(ht, struct proc, timers.real);
	struct proc_timers *t = &p->timers;

	if (!t->real_expires_ns)
		return HRTIMER_NORESTART;
	if (!t->real_interval_ns)
		t->real_expires_ns = 0;
	signal_send(p, SIGALRM);
	return HRTIMER_NORESTART;
}

void itimer_real_signal_taken(struct proc *p)
{
	struct proc_timers *t = &p->timers;
	u64 now = ktime_get_ns();

	if (!t->real_interval_ns || !t->real_expires_ns || hrtimer_is_queued(&t->real) ||
	    t->real_expires_ns > now)
		return;
	/* From the expiry, not from now: no drift; the periods missed are skipped. */
	t->real_expires_ns +=
		((now - t->real_expires_ns) / t->real_interval_ns + 1) * t->real_interval_ns;
	arm(t);
}

/*
 * ITIMER_VIRTUAL or ITIMER_PROF reached its CPU time: the signal, and an
 * interval re-arms from the expiry, once, as Linux's check_cpu_itimer().
 */
static void cpu_itimer_fn(struct cpu_timer *ct, u64 now)
{
	struct proc_timers *t = &ct->proc->timers;
	int i = ct == &t->cpu[0] ? 0 : 1;

	(void)now;
	signal_send(ct->proc, i ? SIGPROF : SIGVTALRM);
	if (t->cpu_interval_ns[i])
		cpu_timer_start(ct, ct->expires + t->cpu_interval_ns[i]);
}

void proc_timers_init(void)
{
	static const struct signal_timer_hooks hooks = {
		.taken = ptimer_signals_taken,
		.alarm_taken = itimer_real_signal_taken,
	};

	signal_set_timer_hooks(&hooks);
}

void itimer_proc_init(struct proc *p)
{
	struct proc_timers *t = &p->timers;

	if (hrtimer_active(&t->real))
		hrtimer_cancel(&t->real);
	hrtimer_setup(&t->real, real_timer_fn, DZ_CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	t->real_expires_ns = 0;
	t->real_interval_ns = 0;
	cpu_timer_proc_init(p);
	cpu_timer_setup(&t->cpu[0], p, CPUCLOCK_VIRT, cpu_itimer_fn);
	cpu_timer_setup(&t->cpu[1], p, CPUCLOCK_PROF, cpu_itimer_fn);
	t->cpu_interval_ns[0] = t->cpu_interval_ns[1] = 0;
	t->next_timer_id = 0;
}

void itimer_proc_exit(struct proc *p)
{
	unsigned long flags = dz_irq_save();

	hrtimer_cancel(&p->timers.real);
	p->timers.real_expires_ns = 0;
	cpu_timer_cancel(&p->timers.cpu[0]);
	cpu_timer_cancel(&p->timers.cpu[1]);
	dz_irq_restore(flags);
}

/*
 * The time left, as Linux reports it: never 0 while armed (a timer due
 * but not yet run shows 1 us), 0 when off.
 */
static u64 remaining_ns(const struct proc_timers *t, u64 now)
{
	if (!t->real_expires_ns)
		return 0;
	if (t->real_expires_ns <= now + NSEC_PER_USEC)
		return NSEC_PER_USEC;
	return t->real_expires_ns - now;
}

/* Interrupts off: reads the old setting and starts the new (value 0: off). */
static void real_swap(struct proc *p, u64 value, u64 interval, u64 *old_value, u64 *old_interval)
{
	struct proc_timers *t = &p->timers;
	u64 now = ktime_get_ns();

	*old_value = remaining_ns(t, now);
	*old_interval = t->real_interval_ns;
	hrtimer_cancel(&t->real);
	t->real_interval_ns = value ? interval : 0;
	t->real_expires_ns = value ? now + value : 0;
	if (value)
		arm(t);
}

static void set_real(struct proc *p, u64 value, u64 interval, u64 *old_value, u64 *old_interval)
{
	unsigned long flags = dz_irq_save();

	real_swap(p, value, interval, old_value, old_interval);
	dz_irq_restore(flags);
}

static bool timeval_ok(s32 sec, s32 usec)
{
	return sec >= 0 && usec >= 0 && usec < (s32)USEC_PER_SEC;
}

static u64 timeval_ns(s32 sec, s32 usec)
{
	return (u64)sec * NSEC_PER_SEC + (u64)usec * NSEC_PER_USEC;
}

/* Truncated to microseconds, as Linux's put_itimerval; the value is never made 0 by it. */
static void ns_timeval(u64 ns, s32 *sec, s32 *usec)
{
	*sec = (s32)(ns / NSEC_PER_SEC);
	*usec = (s32)(ns % NSEC_PER_SEC / NSEC_PER_USEC);
}

static long put_itimerval(u32 uval, u64 value, u64 interval)
{
	struct user_itimerval v;

	ns_timeval(interval, &v.interval_sec, &v.interval_usec);
	ns_timeval(value, &v.value_sec, &v.value_usec);
	return copy_to_user(uval, &v, sizeof(v)) ? -EFAULT : 0;
}

/* The CPU time left, as Linux's get_cpu_itimer(): a jiffy when due but not yet sent. */
static u64 cpu_remaining(struct cpu_timer *ct)
{
	u64 now;

	if (!ct->armed)
		return 0;
	now = cpu_timer_now(ct->proc, ct->clock);
	return ct->expires > now ? ct->expires - now : jiffy_ns();
}

/*
 * As Linux's set_cpu_itimer(): a value is lengthened by a jiffy (a tiny
 * one still counts), then counted from the CPU time now.
 */
static void set_cpu(struct proc *p, int i, u64 value, u64 interval, u64 *old_value,
		    u64 *old_interval)
{
	struct cpu_timer *ct = &p->timers.cpu[i];
	unsigned long flags = dz_irq_save();

	*old_value = cpu_remaining(ct);
	*old_interval = p->timers.cpu_interval_ns[i];
	p->timers.cpu_interval_ns[i] = interval;
	if (value)
		cpu_timer_start(ct, cpu_timer_now(p, ct->clock) + value + jiffy_ns());
	else
		cpu_timer_cancel(ct);
	dz_irq_restore(flags);
}

static void get_cpu(struct proc *p, int i, u64 *value, u64 *interval)
{
	unsigned long flags = dz_irq_save();

	*value = cpu_remaining(&p->timers.cpu[i]);
	*interval = p->timers.cpu_interval_ns[i];
	dz_irq_restore(flags);
}

SYSCALL_DEFINE3(setitimer, int, which, u32, unew, u32, uold)
{
	struct user_itimerval v = { 0, 0, 0, 0 };
	u64 ov, oi;

	if (which < ITIMER_REAL || which > ITIMER_PROF)
		return -EINVAL;
	/* NULL is an old way of saying "off" that Linux still takes. */
	if (unew && copy_from_user(&v, unew, sizeof(v)))
		return -EFAULT;
	if (!timeval_ok(v.value_sec, v.value_usec) || !timeval_ok(v.interval_sec, v.interval_usec))
		return -EINVAL;
	if (which == ITIMER_REAL)
		set_real(proc_current(), timeval_ns(v.value_sec, v.value_usec),
			 timeval_ns(v.interval_sec, v.interval_usec), &ov, &oi);
	else
		set_cpu(proc_current(), which - 1, timeval_ns(v.value_sec, v.value_usec),
			timeval_ns(v.interval_sec, v.interval_usec), &ov, &oi);
	return uold ? put_itimerval(uold, ov, oi) : 0;
}

SYSCALL_DEFINE2(getitimer, int, which, u32, uval)
{
	struct proc *p = proc_current();
	unsigned long flags;
	u64 value, interval;

	if (which == ITIMER_VIRTUAL || which == ITIMER_PROF) {
		get_cpu(p, which - 1, &value, &interval);
		return put_itimerval(uval, value, interval);
	}
	if (which != ITIMER_REAL)
		return -EINVAL;
	flags = dz_irq_save();
	value = remaining_ns(&p->timers, ktime_get_ns());
	interval = p->timers.real_interval_ns;
	dz_irq_restore(flags);
	return put_itimerval(uval, value, interval);
}

/*
 * Linux's alarm: seconds capped at INT_MAX on 32 bits; the old time left
 * rounded to the nearest second, but never 0 while one was pending.
 */
SYSCALL_DEFINE1(alarm, u32, seconds)
{
	u64 ov, oi;
	u32 sec, usec;

	if (seconds > INT_MAX)
		seconds = INT_MAX;
	set_real(proc_current(), (u64)seconds * NSEC_PER_SEC, 0, &ov, &oi);
	sec = (u32)(ov / NSEC_PER_SEC);
	usec = (u32)(ov % NSEC_PER_SEC / NSEC_PER_USEC);
	if ((!sec && usec) || usec >= 500000)
		sec++;
	return (long)sec;
}
