// SPDX-License-Identifier: MIT
/*
 * nanosleep and clock_nanosleep (and its _time64 form), as Linux's.
 *
 * A sleep is an hrtimer on the clock asked (REALTIME, MONOTONIC, BOOTTIME,
 * TAI) with the thread's timer slack (prctl PR_SET_TIMERSLACK, 50 us by
 * default): it ends between its time and its time plus the slack, at any
 * HZ, where the core runs in high resolution, or at the first tick after
 * its time at tick resolution (highres=off). A relative sleep on
 * CLOCK_REALTIME runs on CLOCK_MONOTONIC, an absolute one follows the
 * clock when it is set: set forward past it, it ends; set back, it waits
 * longer.
 *
 * Linux's errors, in its order: a clock without sleeps (the thread CPU
 * clock 3, MONOTONIC_RAW, the coarse clocks) -EOPNOTSUPP before the time
 * is read; the time -EFAULT or -EINVAL; then the alarm clocks -EOPNOTSUPP
 * (no RTC that wakes the machine) and a CPU clock of a thread or of a
 * process that does not exist -EINVAL. The process CPU clock can be slept
 * on: a sleeper's own never moves (one thread a process), so that sleep
 * ends only by a signal, as on Linux; another process's is polled at each
 * tick.
 *
 * A signal (with a handler: nothing else ends a sleep here) ends the
 * sleep with EINTR; a relative one writes the time left to the latest
 * end (the slack included, as Linux) in *rem, or returns 0 if none is
 * left. The kernel returns -errno from clock_nanosleep too; the C library
 * makes it the positive return value.
 */
#include <kernel/posix-clock.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/syscall.h>
#include <kernel/errno.h>
#include <dynhz/hrtimer.h>

/* Where *rem goes and how, for a relative sleep a signal ends; none for an absolute one. */
struct sleep_rem {
	u32 urem;
	long (*put)(u32 uts, u64 ns);
};

/* The time left, or 0 (success) when none is: Linux's nanosleep_copyout. */
static long copy_rem(const struct sleep_rem *r, s64 left)
{
	if (left <= 0)
		return 0;
	if (r->urem && r->put(r->urem, (u64)left))
		return -EFAULT;
	return -ERESTART_RESTARTBLOCK; /* EINTR: no sleep here ends without a handler */
}

static long hrtimer_nanosleep(int clock, int flags, u64 req, const struct sleep_rem *r)
{
	int mode = (flags & TIMER_ABSTIME) ? HRTIMER_MODE_ABS : HRTIMER_MODE_REL;
	struct hrtimer_sleeper sl;

	hrtimer_sleeper_setup(&sl, clock, mode);
	hrtimer_set_expires_range_ns(&sl.timer, req > (u64)KTIME_MAX ? KTIME_MAX : (ktime_t)req,
				     current->timer_slack_ns);
	thread_doing("nanosleep");
	do {
		set_current_state(TASK_INTERRUPTIBLE);
		hrtimer_start_expires(&sl.timer, (enum hrtimer_mode)mode);
		if (sl.task)
			schedule();
		hrtimer_cancel(&sl.timer);
		mode = HRTIMER_MODE_ABS; /* the expiry is absolute once started */
	} while (sl.task && !signal_pending(proc_current()));
	__set_current_state(TASK_RUNNING);
	thread_doing("running a user program");
	if (!sl.task)
		return 0;
	if (flags & TIMER_ABSTIME)
		return -ERESTARTNOHAND;
	return copy_rem(r, hrtimer_get_remaining(&sl.timer));
}

/* The process CPU clock cpu_id (posix_clock_read's id) until it reaches end. */
static long cpu_nanosleep(s32 cpu_id, int flags, u64 req, const struct sleep_rem *r)
{
	struct proc *self = proc_current();
	u64 now, end;
	long err = posix_clock_read(cpu_id, &now);
	bool own = cpu_id == CLOCK_PROCESS_CPUTIME_ID || ~(cpu_id >> 3) == 0 ||
		   ~(cpu_id >> 3) == self->pid;

	if (err)
		return err;
	end = (flags & TIMER_ABSTIME) ? req : now + req < now ? U64_MAX : now + req;
	thread_doing("nanosleep on a CPU clock");
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (posix_clock_read(cpu_id, &now) || now >= end) {
			err = 0; /* reached, or the process is gone: its clock stops */
			break;
		}
		if (signal_pending(self)) {
			err = (flags & TIMER_ABSTIME) ? -ERESTARTNOHAND
						      : copy_rem(r, (s64)(end - now));
			break;
		}
		if (own)
			schedule(); /* only a signal ends it */
		else
			schedule_timeout(1);
	}
	__set_current_state(TASK_RUNNING);
	thread_doing("running a user program");
	return err;
}

/* Can one sleep on id? 0, or Linux's answer before the time is read. */
static long sleep_clock_ok(s32 id)
{
	if (id < 0)
		return (id & 3) == 3 ? -EOPNOTSUPP : 0; /* a file's clock has no sleep */
	switch (id) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
	case CLOCK_TAI:
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_REALTIME_ALARM:
	case CLOCK_BOOTTIME_ALARM:
		return 0;
	case CLOCK_THREAD_CPUTIME_ID:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

static long do_clock_nanosleep(s32 id, int flags, u64 req, const struct sleep_rem *r)
{
	if (id == CLOCK_REALTIME_ALARM || id == CLOCK_BOOTTIME_ALARM)
		return -EOPNOTSUPP;
	if (posix_clock_is_cputime(id)) {
		/* As Linux: no sleeping on a thread's CPU clock (it is the sleeper's own here). */
		if (id < 0 && (id & 4))
			return -EINVAL;
		return cpu_nanosleep(id, flags, req, r);
	}
	return hrtimer_nanosleep(id, flags, req, r);
}

SYSCALL_DEFINE2(nanosleep, u32, ureq, u32, urem)
{
	const struct sleep_rem r = { urem, put_ts32 };
	u64 req;
	long err = get_ts32(ureq, &req);

	return err ? err : hrtimer_nanosleep(CLOCK_MONOTONIC, 0, req, &r);
}

SYSCALL_DEFINE4(clock_nanosleep, s32, id, int, flags, u32, ureq, u32, urem)
{
	const struct sleep_rem r = { (flags & TIMER_ABSTIME) ? 0 : urem, put_ts32 };
	u64 req;
	long err = sleep_clock_ok(id);

	if (!err)
		err = get_ts32(ureq, &req);
	return err ? err : do_clock_nanosleep(id, flags, req, &r);
}

SYSCALL_DEFINE4(clock_nanosleep_time64, s32, id, int, flags, u32, ureq, u32, urem)
{
	const struct sleep_rem r = { (flags & TIMER_ABSTIME) ? 0 : urem, put_ts64 };
	u64 req;
	long err = sleep_clock_ok(id);

	if (!err)
		err = get_ts64(ureq, &req);
	return err ? err : do_clock_nanosleep(id, flags, req, &r);
}
