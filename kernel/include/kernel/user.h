/* SPDX-License-Identifier: MIT */
/*
 * User programs: one at a time, in ring 3, in the user region, talking to
 * the kernel through system calls only (kernel/uapi.h).
 *
 * A user task is a kernel thread that dropped to ring 3. Its CPU time is
 * accounted in nanoseconds on the TSC at every change of mode (system call
 * in and out, switch in and out), and reaches user space only in USER_HZ
 * ticks.
 */
#ifndef KERNEL_USER_H
#define KERNEL_USER_H

#include <dynhz/jiffies.h>
#include <kernel/sched.h>

struct irq_frame;

struct user_task {
	struct thread *thread;
	int pid;
	const char *name;
	u64 utime_ns, stime_ns;
	u64 stamp_ns; /* TSC time the running mode was last charged */
	bool in_user; /* running in ring 3 (not in a system call) */
	volatile bool done;
	bool killed;
	int status; /* exit status, when not killed */
};

/* Installs the system-call gate and the user-fault handler. After clock_init(). */
void user_init(void);

/*
 * Runs `image` (user_image_start) as a new task named `name` with the
 * argument string `arg`, and waits for it to end. Returns 0 when it
 * exited (its status in *status), -1 when it was killed.
 */
int user_run(const char *name, const char *arg, int *status);

/* From schedule(), interrupts off, at its TSC time now: charges prev's time, readies next's. */
void user_acct_switch(struct thread *prev, struct thread *next, u64 now);

/* From the system-call path: the task leaves and reenters ring 3. */
void user_acct_enter_kernel(struct user_task *u);
void user_acct_exit_kernel(struct user_task *u);

/* Brings the accounting up to now and reads it, in USER_HZ ticks. */
void user_times(struct user_task *u, dz_uclock_t *utime, dz_uclock_t *stime);

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

/* Nanoseconds to USER_HZ ticks, rounded down (statistics). */
dz_uclock_t nsecs_to_clock_t(u64 ns);

/* Ends the current user task (exit or fault); never returns. */
_Noreturn void user_task_end(bool killed, int status);

/* The `cpu` line of /proc/stat and the user tasks' times (shell and usertest). */
void user_stat_print(void);

/* The system-call dispatcher (kernel/syscall.c). */
void syscall_handle(struct irq_frame *f);

#endif
