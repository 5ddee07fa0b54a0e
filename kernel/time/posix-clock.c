// SPDX-License-Identifier: MIT
/*
 * The clocks of the Linux i386 ABI: time, gettimeofday, settimeofday,
 * stime, clock_gettime, clock_getres, clock_settime (and their _time64
 * forms).
 *
 *	id	clock			resolution (clock_getres)
 *	0	REALTIME		1 ns in high resolution, else a tick (*)
 *	1	MONOTONIC		the same (*)
 *	2, 3	PROCESS/THREAD_CPUTIME	1 ns (the TSC's accounting)
 *	4	MONOTONIC_RAW		(*) (MONOTONIC without NTP's steering)
 *	5	REALTIME_COARSE		a tick, always
 *	6	MONOTONIC_COARSE	a tick, always
 *	7	BOOTTIME		(*) (MONOTONIC: nothing suspends)
 *	8, 9	the alarm clocks	-EINVAL: Linux's answer without an RTC
 *					that can wake the machine (none here)
 *	11	TAI			(*) REALTIME + the TAI offset
 *	< 0	CPU clocks by pid	Linux's encoding: ~pid << 3 | 4 (thread)
 *					| 0 prof, 1 virt, 2 sched; 3 is a
 *					file's clock (none here: -EINVAL)
 *
 * (*) The resolution of an hrtimer on that clock, as Linux reports it: 1
 * ns when hrtimers run from a one-shot device, the tick's length at tick
 * resolution (highres=off). The coarse clocks are where the tick's length
 * shows to user space: they move only at jiffy boundaries, whatever the
 * resolution of the others, as on Linux.
 *
 * Setting: CLOCK_REALTIME only (clock_settime, settimeofday, stime; every
 * process is root's, so no EPERM), through kernel/realtime.c, which
 * refuses a time before the boot as Linux does. The CPU clocks by pid
 * answer EPERM to a set, the others EINVAL. settimeofday's time zone is kept and
 * given back by gettimeofday; it changes no clock (the RTC keeps UTC).
 */
#include <kernel/posix-clock.h>
#include <kernel/proc.h>
#include <kernel/realtime.h>
#include <kernel/sched.h>
#include <kernel/cputimer.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <dynhz/jiffies.h>
#include <dynhz/hz.h>
#include <dynhz/timekeeping.h>

#define CLOCKS_LINUX 12 /* ids 0..11; 10 (CLOCK_SGI_CYCLE) is gone */

/* ---- user time values ---- */

long ts_to_ns(s64 sec, s64 nsec, u64 *ns)
{
	if (sec < 0 || nsec < 0 || nsec >= (s64)NSEC_PER_SEC)
		return -EINVAL;
	*ns = (u64)sec > (U64_MAX - (u64)nsec) / NSEC_PER_SEC ? U64_MAX
							      : (u64)sec * NSEC_PER_SEC + (u64)nsec;
	return 0;
}

long get_ts32(u32 uts, u64 *ns)
{
	struct old_timespec32 ts;

	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	return ts_to_ns(ts.tv_sec, ts.tv_nsec, ns);
}

long get_ts64(u32 uts, u64 *ns)
{
	struct kernel_timespec ts;

	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	return ts_to_ns(ts.tv_sec, (s32)ts.tv_nsec, ns);
}

long put_ts32(u32 uts, u64 ns)
{
	struct old_timespec32 ts = { (s32)(ns / NSEC_PER_SEC), (s32)(ns % NSEC_PER_SEC) };

	return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}

long put_ts64(u32 uts, u64 ns)
{
	struct kernel_timespec ts = { (s64)(ns / NSEC_PER_SEC), (s64)(ns % NSEC_PER_SEC) };

	return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}

long put_timeval(u32 utv, u64 ns)
{
	struct user_timeval tv = { (s32)(ns / NSEC_PER_SEC),
				   (s32)(ns % NSEC_PER_SEC / NSEC_PER_USEC) };

	return copy_to_user(utv, &tv, sizeof(tv)) ? -EFAULT : 0;
}

/* ---- the clocks ---- */

bool posix_clock_is_cputime(s32 id)
{
	return id == CLOCK_PROCESS_CPUTIME_ID || id == CLOCK_THREAD_CPUTIME_ID ||
	       (id < 0 && CPUCLOCK_WHICH(id) != CPUCLOCK_FD);
}

/*
 * The process a CPU clock counts, and which of its times: as Linux's
 * pid_for_clock(), a thread clock only of the caller's own process (one
 * thread each here), a process clock of any process that exists.
 */
static int cpu_clock_proc(s32 id, struct proc **pp, int *which)
{
	struct proc *self = proc_current(), *p;
	int pid;

	if (id == CLOCK_PROCESS_CPUTIME_ID || id == CLOCK_THREAD_CPUTIME_ID) {
		*pp = self;
		*which = CPUCLOCK_SCHED;
		return self ? 0 : -EINVAL;
	}
	*which = CPUCLOCK_WHICH(id);
	pid = CPUCLOCK_PID(id);
	p = pid ? proc_find(pid) : self;
	if (!p || (pid && CPUCLOCK_PERTHREAD(id) && p != self))
		return -EINVAL;
	*pp = p;
	return 0;
}

static int cpu_clock_read(s32 id, u64 *ns)
{
	struct proc *p;
	int which, err = cpu_clock_proc(id, &p, &which);
	u64 ut, st;

	if (err)
		return err;
	proc_cputime_ns(p, &ut, &st);
	*ns = which == CPUCLOCK_VIRT ? ut : ut + st;
	return 0;
}

int posix_clock_read(s32 id, u64 *ns)
{
	s64 t;

	if (posix_clock_is_cputime(id))
		return cpu_clock_read(id, ns);
	/* The alarm clocks need an RTC that wakes the machine; 10 is unused. */
	if (id < 0 || id >= CLOCKS_LINUX || id == CLOCK_REALTIME_ALARM ||
	    id == CLOCK_BOOTTIME_ALARM || id == 10)
		return -EINVAL;
	if (dz_clock_get_ns(id, &t))
		return -EINVAL;
	*ns = t < 0 ? 0 : (u64)t;
	return 0;
}

/* A tick, rounded up: Linux's (NSEC_PER_SEC + HZ - 1) / HZ for the sampled CPU clocks. */
static u64 tick_nsec_up(void)
{
	struct dz_tick_period p = dz_hz_period();

	return p.den ? (p.num * NSEC_PER_SEC + p.den - 1) / p.den : 1;
}

int posix_clock_getres(s32 id, u64 *ns)
{
	u64 now;
	int err = posix_clock_read(id, &now);
	struct proc *p;
	int which;

	if (err)
		return err;
	if (posix_clock_is_cputime(id)) {
		cpu_clock_proc(id, &p, &which);
		/* As Linux: the scheduler's clock to the ns, prof and virt by the tick. */
		*ns = which == CPUCLOCK_SCHED ? 1 : tick_nsec_up();
		return 0;
	}
	*ns = (u64)dz_clock_getres_ns(id);
	return 0;
}

/* ---- reading ---- */

/* settimeofday's time zone: minutes west of Greenwich and a DST type, as given. */
static s32 sys_tz[2];

SYSCALL_DEFINE1(time, u32, tloc)
{
	s32 t = (s32)(realtime_get_ns() / NSEC_PER_SEC);

	if (tloc && copy_to_user(tloc, &t, sizeof(t)))
		return -EFAULT;
	return t;
}

SYSCALL_DEFINE2(gettimeofday, u32, utv, u32, utz)
{
	if (utv && put_timeval(utv, realtime_get_ns()))
		return -EFAULT;
	if (utz && copy_to_user(utz, sys_tz, sizeof(sys_tz)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE2(clock_gettime, s32, id, u32, uts)
{
	u64 ns;
	int err = posix_clock_read(id, &ns);

	return err ? err : put_ts32(uts, ns);
}

SYSCALL_DEFINE2(clock_gettime64, s32, id, u32, uts)
{
	u64 ns;
	int err = posix_clock_read(id, &ns);

	return err ? err : put_ts64(uts, ns);
}

SYSCALL_DEFINE2(clock_getres, s32, id, u32, uts)
{
	u64 ns;
	int err = posix_clock_getres(id, &ns);

	return err ? err : uts ? put_ts32(uts, ns) : 0;
}

SYSCALL_DEFINE2(clock_getres_time64, s32, id, u32, uts)
{
	u64 ns;
	int err = posix_clock_getres(id, &ns);

	return err ? err : uts ? put_ts64(uts, ns) : 0;
}

/* ---- setting ---- */

/*
 * As Linux's clock_settime: a clock that cannot be set is -EINVAL before
 * the time is read, a CPU clock that exists -EPERM after.
 */
static long clock_settime(s32 id, s64 sec, s64 nsec)
{
	u64 ns;

	if (posix_clock_is_cputime(id))
		return posix_clock_read(id, &ns) ?: -EPERM;
	return realtime_settime(sec, nsec);
}

/* Linux's clock_set: realtime's and the CPU clocks' by pid (2 and 3 have none). */
static bool clock_settable(s32 id)
{
	return id == CLOCK_REALTIME || (id < 0 && posix_clock_is_cputime(id));
}

SYSCALL_DEFINE2(clock_settime, s32, id, u32, uts)
{
	struct old_timespec32 ts;

	if (!clock_settable(id))
		return -EINVAL;
	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	return clock_settime(id, ts.tv_sec, ts.tv_nsec);
}

SYSCALL_DEFINE2(clock_settime64, s32, id, u32, uts)
{
	struct kernel_timespec ts;

	if (!clock_settable(id))
		return -EINVAL;
	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	return clock_settime(id, ts.tv_sec, (s32)ts.tv_nsec);
}

/*
 * As Linux: both read before anything is set; tv_usec above 10^6 or
 * negative, and a zone beyond +-15 h, are -EINVAL; the zone is set before
 * the time (a bad time leaves the new zone).
 */
SYSCALL_DEFINE2(settimeofday, u32, utv, u32, utz)
{
	struct user_timeval tv;
	s32 tz[2];

	if (utv) {
		if (copy_from_user(&tv, utv, sizeof(tv)))
			return -EFAULT;
		if (tv.tv_usec > (s32)USEC_PER_SEC || tv.tv_usec < 0)
			return -EINVAL;
	}
	if (utz && copy_from_user(tz, utz, sizeof(tz)))
		return -EFAULT;
	if (utv && !realtime_settime_valid(tv.tv_sec, (s64)tv.tv_usec * NSEC_PER_USEC))
		return -EINVAL;
	if (utz) {
		if (tz[0] > 15 * 60 || tz[0] < -15 * 60)
			return -EINVAL;
		sys_tz[0] = tz[0];
		sys_tz[1] = tz[1];
	}
	return utv ? realtime_settime(tv.tv_sec, (s64)tv.tv_usec * NSEC_PER_USEC) : 0;
}

SYSCALL_DEFINE1(stime, u32, utime)
{
	s32 t;

	if (copy_from_user(&t, utime, sizeof(t)))
		return -EFAULT;
	return realtime_settime(t, 0);
}
