/* SPDX-License-Identifier: MIT */
/*
 * The clocks of the Linux i386 ABI (kernel/time/posix-clock.c): their ids, the
 * time values user space passes (timespec of 32 and 64 bits, timeval),
 * and reading them, for the system calls that take a clock or a time.
 */
#ifndef KERNEL_POSIX_CLOCK_H
#define KERNEL_POSIX_CLOCK_H

#include <dynhz/types.h>

#define CLOCK_REALTIME		 0
#define CLOCK_MONOTONIC		 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID	 3
#define CLOCK_MONOTONIC_RAW	 4
#define CLOCK_REALTIME_COARSE	 5
#define CLOCK_MONOTONIC_COARSE	 6
#define CLOCK_BOOTTIME		 7
#define CLOCK_REALTIME_ALARM	 8
#define CLOCK_BOOTTIME_ALARM	 9
#define CLOCK_TAI		 11

#define TIMER_ABSTIME 1

/*
 * Linux's encoding of a CPU-time clock as a negative id: ~pid << 3, bit 2
 * for a thread, the low two bits the time counted (cputimer.h's
 * CPUCLOCK_PROF, _VIRT, _SCHED) or 3, a posix clock file (none here).
 */
#define CPUCLOCK_FD		 3
#define CPUCLOCK_PERTHREAD_BIT	 4
#define CPUCLOCK_PID(id)	 ((int)~((id) >> 3))
#define CPUCLOCK_WHICH(id)	 ((id)&3)
#define CPUCLOCK_PERTHREAD(id)	 (((id)&CPUCLOCK_PERTHREAD_BIT) != 0)
#define CPUCLOCK_IS_FD_CLOCK(id) (((id)&7) == CPUCLOCK_FD)

struct old_timespec32 {
	s32 tv_sec, tv_nsec;
};

struct kernel_timespec {
	s64 tv_sec, tv_nsec;
} __attribute__((packed, aligned(4))); /* i386 aligns s64 to 4 */

struct user_timeval {
	s32 tv_sec, tv_usec;
};

/*
 * Reading user time values: 0, -EFAULT, or -EINVAL unless tv_sec >= 0 and
 * the fraction is in [0, 1 s) (the upper half of a 64-bit tv_nsec is
 * ignored, as Linux's get_timespec64 for a 32-bit caller). Times beyond
 * 584 years saturate at U64_MAX.
 */
long get_ts32(u32 uts, u64 *ns);
long get_ts64(u32 uts, u64 *ns);
long put_ts32(u32 uts, u64 ns);
long put_ts64(u32 uts, u64 ns);
long put_timeval(u32 utv, u64 ns); /* microseconds rounded down */
/* A valid timespec as ns; -EINVAL otherwise. */
long ts_to_ns(s64 sec, s64 nsec, u64 *ns);

/*
 * posix_clock_read() - a clock's time now, in ns
 * @id: any clock id of Linux's, the CPU-time clocks of other processes in
 *	Linux's encoding (negative) too
 *
 * Return: 0, or -EINVAL as Linux for an id it does not have, a CPU clock of
 * a process or thread that does not exist (or a thread of another process),
 * and the alarm clocks (Linux without an RTC that can wake the machine).
 */
int posix_clock_read(s32 id, u64 *ns);

/* The clock's resolution in ns (clock_getres); the same errors. */
int posix_clock_getres(s32 id, u64 *ns);

/* Is id one of Linux's CPU-time clocks (2, 3 or a negative encoding other than a file's)? */
bool posix_clock_is_cputime(s32 id);

#endif
