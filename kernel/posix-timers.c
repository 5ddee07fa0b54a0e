// SPDX-License-Identifier: MIT
/*
 * The clocks and sleeps of the Linux i386 ABI: time, gettimeofday, times,
 * getrusage, sysinfo, clock_gettime/getres/nanosleep (and their _time64
 * forms), nanosleep.
 *
 * The clocks: CLOCK_MONOTONIC (and BOOTTIME, MONOTONIC_RAW: no suspend,
 * no slewing here) is ktime_get_ns(); CLOCK_REALTIME is it plus the RTC's
 * offset (kernel/realtime.c); the _COARSE clocks are the last tick's time;
 * the CPU-time clocks are the process's nanosecond accounting. Tick
 * values reach user space in USER_HZ only.
 *
 * Sleeps are jiffies timeouts that recheck the clock they sleep on: they
 * end at the first tick at or after the asked time, never before, or
 * early with -EINTR when a signal is to be delivered (the time left, for
 * relative sleeps, in *rem). Like Linux, the kernel returns -errno from
 * clock_nanosleep too; the C library makes it the positive return value.
 */
#include <kernel/proc.h>
#include <kernel/vfs.h>
#include <kernel/realtime.h>
#include <kernel/sched.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <kernel/user.h>
#include <kernel/mm.h>
#include <dynhz/jiffies.h>
#include <dynhz/tick.h>
#include <dynhz/timekeeping.h>
#include <dynhz/retune.h>

#define CLOCK_REALTIME		 0
#define CLOCK_MONOTONIC		 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID	 3
#define CLOCK_MONOTONIC_RAW	 4
#define CLOCK_REALTIME_COARSE	 5
#define CLOCK_MONOTONIC_COARSE	 6
#define CLOCK_BOOTTIME		 7

#define TIMER_ABSTIME 1

#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD	1

struct old_timespec32 {
	s32 tv_sec, tv_nsec;
};

struct kernel_timespec {
	s64 tv_sec, tv_nsec;
} __attribute__((packed, aligned(4))); /* i386 aligns s64 to 4 */

struct user_timeval {
	s32 tv_sec, tv_usec;
};

/* Optional: the load averages, Linux's name and fixed point (from /proc/loadavg's owner). */

/* The length of a jiffy, to the nearest ns: the coarse clocks' resolution (Linux's TICK_NSEC). */
static u64 tick_nsec(void)
{
	struct dz_tick_period p = dz_hz_period();

	return p.den ? (p.num * NSEC_PER_SEC + p.den / 2) / p.den : 0;
}

/*
 * The coarse monotonic time: the core's, the start of the current jiffy,
 * never ahead of the fine clock. Not the tick count times the period in
 * force: after a change of HZ that product is another time (1000 ticks at
 * 24 Hz are not 1000 at 1000 Hz) and would jump, backwards too.
 */
static u64 coarse_ns(void)
{
	return ktime_get_coarse_ns();
}

static u64 cputime_ns(void)
{
	u64 ut, st;

	proc_cputime_ns(proc_current(), &ut, &st);
	return ut + st;
}

/* A clock's time now in ns; -EINVAL for a clock that does not exist. */
static int clock_read(s32 id, u64 *ns)
{
	switch (id) {
	case CLOCK_REALTIME:
		*ns = realtime_get_ns();
		return 0;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_BOOTTIME:
		*ns = ktime_get_ns();
		return 0;
	case CLOCK_REALTIME_COARSE:
		*ns = realtime_offset_ns() + coarse_ns();
		return 0;
	case CLOCK_MONOTONIC_COARSE:
		*ns = coarse_ns();
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID: /* one thread per process */
		*ns = cputime_ns();
		return 0;
	default:
		return -EINVAL; /* negative ids, Linux's dynamic CPU clocks, too */
	}
}

static int clock_res(s32 id, u64 *ns)
{
	u64 now;
	int err = clock_read(id, &now);

	if (err)
		return err;
	*ns = (id == CLOCK_REALTIME_COARSE || id == CLOCK_MONOTONIC_COARSE) ? tick_nsec() : 1;
	return 0;
}

static long put_ts32(u32 uts, u64 ns)
{
	struct old_timespec32 ts = { (s32)(ns / NSEC_PER_SEC), (s32)(ns % NSEC_PER_SEC) };

	return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}

static long put_ts64(u32 uts, u64 ns)
{
	struct kernel_timespec ts = { (s64)(ns / NSEC_PER_SEC), (s64)(ns % NSEC_PER_SEC) };

	return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}

/* A valid timespec as ns: tv_sec >= 0, tv_nsec in [0, 1e9); -EINVAL otherwise. */
static long ts_to_ns(s64 sec, s64 nsec, u64 *ns)
{
	if (sec < 0 || nsec < 0 || nsec >= (s64)NSEC_PER_SEC)
		return -EINVAL;
	/* Beyond 584 years in ns: as good as for ever. */
	*ns = (u64)sec > (U64_MAX - (u64)nsec) / NSEC_PER_SEC ? U64_MAX
							      : (u64)sec * NSEC_PER_SEC + (u64)nsec;
	return 0;
}

static long get_ts32(u32 uts, u64 *ns)
{
	struct old_timespec32 ts;

	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	return ts_to_ns(ts.tv_sec, ts.tv_nsec, ns);
}

static long get_ts64(u32 uts, u64 *ns)
{
	struct kernel_timespec ts;

	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	/* As Linux's get_timespec64 for a 32-bit caller: the upper half of tv_nsec is ignored. */
	return ts_to_ns(ts.tv_sec, (s32)ts.tv_nsec, ns);
}

SYSCALL_DEFINE1(time, u32, tloc)
{
	s32 t = (s32)(realtime_get_ns() / NSEC_PER_SEC);

	if (tloc && copy_to_user(tloc, &t, sizeof(t)))
		return -EFAULT;
	return t;
}

SYSCALL_DEFINE2(gettimeofday, u32, utv, u32, utz)
{
	static const s32 tz[2] = { 0, 0 }; /* minutes west of UTC, DST: the clock is UTC */

	if (utv) {
		u64 ns = realtime_get_ns();
		struct user_timeval tv = { (s32)(ns / NSEC_PER_SEC),
					   (s32)(ns % NSEC_PER_SEC / NSEC_PER_USEC) };

		if (copy_to_user(utv, &tv, sizeof(tv)))
			return -EFAULT;
	}
	if (utz && copy_to_user(utz, tz, sizeof(tz)))
		return -EFAULT;
	return 0;
}

static long clock_t_of(u64 ns)
{
	return (long)dz_uclock_ticks(nsecs_to_clock_t(ns));
}

/* Returns the USER_HZ ticks since boot, as a clock_t that wraps (times(2)). */
SYSCALL_DEFINE1(times, u32, ubuf)
{
	struct proc *p = proc_current();
	u64 ut, st;

	if (ubuf) {
		s32 tms[4];

		proc_cputime_ns(p, &ut, &st);
		tms[0] = (s32)clock_t_of(ut);
		tms[1] = (s32)clock_t_of(st);
		tms[2] = (s32)clock_t_of(p->cutime_ns);
		tms[3] = (s32)clock_t_of(p->cstime_ns);
		if (copy_to_user(ubuf, tms, sizeof(tms)))
			return -EFAULT;
	}
	return clock_t_of(ktime_get_ns());
}

struct user_rusage {
	struct user_timeval ru_utime, ru_stime;
	s32 ru_maxrss, ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ru_majflt, ru_nswap;
	s32 ru_inblock, ru_oublock, ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};

_Static_assert(sizeof(struct user_rusage) == 72, "struct rusage, i386");

/* Truncated to microseconds, as Linux's ns_to_kernel_old_timeval. */
static struct user_timeval ns_to_timeval(u64 ns)
{
	return (struct user_timeval){ (s32)(ns / NSEC_PER_SEC),
				      (s32)(ns % NSEC_PER_SEC / NSEC_PER_USEC) };
}

long put_rusage(u32 uru, const struct rusage_ns *r)
{
	struct user_rusage ru = { 0 };

	ru.ru_utime = ns_to_timeval(r->utime_ns);
	ru.ru_stime = ns_to_timeval(r->stime_ns);
	ru.ru_maxrss = (s32)r->maxrss_kb;
	ru.ru_minflt = (s32)r->minflt;
	return copy_to_user(uru, &ru, sizeof(ru)) ? -EFAULT : 0;
}

SYSCALL_DEFINE2(getrusage, int, who, u32, uru)
{
	struct proc *p = proc_current();
	struct rusage_ns r = { 0 };

	if (who == RUSAGE_SELF || who == RUSAGE_THREAD) {
		proc_cputime_ns(p, &r.utime_ns, &r.stime_ns);
		r.maxrss_kb = p->mm.rss * (PAGE_SIZE / 1024); /* now, not the peak: close */
		r.minflt = p->minflt;
	} else if (who == RUSAGE_CHILDREN) {
		/* The children waited for, and theirs: what wait4 added up. */
		r.utime_ns = p->cutime_ns;
		r.stime_ns = p->cstime_ns;
	} else {
		return -EINVAL;
	}
	return put_rusage(uru, &r);
}

struct user_sysinfo {
	s32 uptime;
	u32 loads[3];
	u32 totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	u16 procs, pad;
	u32 totalhigh, freehigh, mem_unit;
	u8 _f[8];
};

_Static_assert(sizeof(struct user_sysinfo) == 64, "struct sysinfo, i386");

#define SI_LOAD_SHIFT 16

/*
 * As Linux's do_sysinfo: uptime in whole seconds rounded up; memory in
 * bytes (mem_unit 1) when that fits in 32 bits, else in pages.
 */
SYSCALL_DEFINE1(sysinfo, u32, uinfo)
{
	struct user_sysinfo si = { 0 };
	struct proc *list[PROC_MAX];
	struct page_stats ps;
	u64 up = ktime_get_ns();
	unsigned long loads[3] = { 0, 0, 0 };

	si.uptime = (s32)(up / NSEC_PER_SEC + (up % NSEC_PER_SEC != 0));
	get_avenrun(loads, 0, SI_LOAD_SHIFT - 11); /* FSHIFT 11 to 16 bits */
	for (int i = 0; i < 3; i++)
		si.loads[i] = (u32)loads[i];
	page_stats_read(&ps);
	si.procs = (u16)proc_list(list, PROC_MAX);
	si.mem_unit = PAGE_SIZE;
	si.totalram = ps.total;
	si.freeram = ps.free;
	if ((u64)ps.total * PAGE_SIZE <= U32_MAX) {
		si.mem_unit = 1;
		si.totalram *= PAGE_SIZE;
		si.freeram *= PAGE_SIZE;
	}
	return copy_to_user(uinfo, &si, sizeof(si)) ? -EFAULT : 0;
}

SYSCALL_DEFINE2(clock_gettime, s32, id, u32, uts)
{
	u64 ns;
	int err = clock_read(id, &ns);

	return err ? err : put_ts32(uts, ns);
}

SYSCALL_DEFINE2(clock_gettime64, s32, id, u32, uts)
{
	u64 ns;
	int err = clock_read(id, &ns);

	return err ? err : put_ts64(uts, ns);
}

SYSCALL_DEFINE2(clock_getres, s32, id, u32, uts)
{
	u64 ns;
	int err = clock_res(id, &ns);

	return err ? err : uts ? put_ts32(uts, ns) : 0;
}

SYSCALL_DEFINE2(clock_getres_time64, s32, id, u32, uts)
{
	u64 ns;
	int err = clock_res(id, &ns);

	return err ? err : uts ? put_ts64(uts, ns) : 0;
}

/*
 * Sleeps until CLOCK_MONOTONIC reaches end: 0, or -EINTR with *left the
 * time that remained when a signal is to be delivered.
 */
static long sleep_until(u64 end, u64 *left)
{
	struct proc *p = proc_current();
	long ret = 0;
	u32 gen;
	u64 now;

	thread_doing("nanosleep");
	while ((now = ktime_get_ns()) < end) {
		/* The state before the check: a signal between them still wakes the sleep. */
		set_current_state(TASK_INTERRUPTIBLE);
		if (signal_pending(p)) {
			__set_current_state(TASK_RUNNING);
			*left = end - now;
			ret = -EINTR;
			break;
		}
		gen = dz_hz_generation(); /* before the count: a change of HZ rebases it */
		schedule_timeout_gen((long)nsecs_to_jiffies(end - now), &gen);
	}
	thread_doing("running a user program");
	return ret;
}

/* Can one sleep on clock id? 0, or Linux's answer, which comes before the request is read. */
static long sleep_clock_ok(s32 id)
{
	switch (id) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
		/* Linux: the thread clock -EINVAL; the process one would wait for CPU time a lone sleeper never uses. */
		return -EINVAL;
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP; /* clocks Linux cannot sleep on */
	default:
		return -EINVAL;
	}
}

/* From a request on clock id to a CLOCK_MONOTONIC deadline. */
static void sleep_deadline(s32 id, int flags, u64 req, u64 *end)
{
	u64 now = ktime_get_ns();

	if (!(flags & TIMER_ABSTIME))
		*end = req > U64_MAX - now ? U64_MAX : now + req;
	else if (id == CLOCK_REALTIME) /* nothing sets the clock: a fixed offset */
		*end = req > realtime_offset_ns() ? req - realtime_offset_ns() : 0;
	else
		*end = req;
}

/* The common part; *rem is written (through put) only for an interrupted relative sleep. */
static long do_nanosleep(s32 id, int flags, u64 req, u32 urem, long (*put)(u32, u64))
{
	u64 end, left = 0;
	long err;

	sleep_deadline(id, flags, req, &end);
	err = sleep_until(end, &left);
	if (err == -EINTR && urem && !(flags & TIMER_ABSTIME) && put(urem, left))
		return -EFAULT;
	return err;
}

SYSCALL_DEFINE2(nanosleep, u32, ureq, u32, urem)
{
	u64 req;
	long err = get_ts32(ureq, &req);

	return err ? err : do_nanosleep(CLOCK_MONOTONIC, 0, req, urem, put_ts32);
}

SYSCALL_DEFINE4(clock_nanosleep, s32, id, int, flags, u32, ureq, u32, urem)
{
	u64 req;
	long err = sleep_clock_ok(id);

	if (!err)
		err = get_ts32(ureq, &req);

	return err ? err : do_nanosleep(id, flags, req, urem, put_ts32);
}

SYSCALL_DEFINE4(clock_nanosleep_time64, s32, id, int, flags, u32, ureq, u32, urem)
{
	u64 req;
	long err = sleep_clock_ok(id);

	if (!err)
		err = get_ts64(ureq, &req);

	return err ? err : do_nanosleep(id, flags, req, urem, put_ts64);
}
