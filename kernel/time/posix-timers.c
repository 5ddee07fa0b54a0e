// SPDX-License-Identifier: MIT
/*
 * The process times of the Linux i386 ABI: times, getrusage, sysinfo.
 * Tick values reach user space in USER_HZ only. The clocks are in
 * kernel/time/posix-clock.c, the sleeps in kernel/time/nanosleep.c.
 */
#include <kernel/proc.h>
#include <kernel/posix-clock.h>
#include <kernel/sched.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <kernel/user.h>
#include <kernel/mm.h>
#include <dynhz/jiffies.h>
#include <dynhz/timekeeping.h>

#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD	1

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
