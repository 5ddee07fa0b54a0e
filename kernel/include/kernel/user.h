/* SPDX-License-Identifier: MIT */
/*
 * CPU-time accounting of user programs (kernel/sched/user.c). A process's time
 * is charged in nanoseconds on the TSC at every change of mode (system
 * call in and out, switch in and out) and reaches user space only in
 * USER_HZ ticks.
 */
#ifndef KERNEL_USER_H
#define KERNEL_USER_H

#include <dynhz/jiffies.h>
#include <kernel/sched.h>

struct proc;

/* The nanoseconds-to-USER_HZ conversion. After clock_init(). */
void user_init(void);

/* From schedule(), interrupts off, at its TSC time now: charges prev's time, readies next's. */
void user_acct_switch(struct thread *prev, struct thread *next, u64 now);

/* From the system-call path: the process leaves and reenters ring 3. */
void user_acct_enter_kernel(struct proc *p);
void user_acct_exit_kernel(struct proc *p);

/* The process's time up to now, in ns. */
void user_acct_read(struct proc *p, u64 *utime_ns, u64 *stime_ns);
/* Brings the accounting up to now and reads it, in USER_HZ ticks. */
void user_times(struct proc *p, dz_uclock_t *utime, dz_uclock_t *stime);
/* The process ends, interrupts off: its last charge, and its user time joins the totals. */
void user_acct_exit(struct proc *p);

/*
 * The CPU's time since sched_init() by mode, in ns, read at one instant:
 * user is ring 3 (interrupts taken there included), system every other
 * thread's time but idle's, exited ones included, idle the idle thread's.
 * Their sum is the time elapsed since sched_acct_start_ns().
 */
struct cpu_times {
	u64 user_ns, system_ns, idle_ns;
};
void cpu_times_read(struct cpu_times *ct);

/* What getrusage and wait4 report of a process, before the ABI's rounding. */
struct rusage_ns {
	u64 utime_ns, stime_ns;
	u32 maxrss_kb, minflt;
};
/* Writes it as Linux i386's struct rusage (72 bytes) at uru: 0 or -EFAULT (kernel/time/posix-timers.c). */
long put_rusage(u32 uru, const struct rusage_ns *r);

/* Nanoseconds to USER_HZ ticks, rounded down (statistics). */
dz_uclock_t nsecs_to_clock_t(u64 ns);

/* The `cpu` line of /proc/stat and the processes' times (shell and usertest). */
void user_stat_print(void);

/* The scheduler's switch of address space, TLS and FPU (kernel/sched/proc.c). */
void proc_switch(struct thread *prev, struct thread *next);

#endif
