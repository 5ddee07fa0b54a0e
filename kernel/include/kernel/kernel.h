/* SPDX-License-Identifier: MIT */
/* The kernel's parts, as main.c starts them. */
#ifndef KERNEL_KERNEL_H
#define KERNEL_KERNEL_H

#include <dynhz/types.h>

/* The boot command line (the multiboot one: it starts with the kernel's path). */
extern const char *boot_cmdline;

/* Is the bare flag (or name=...) present on the command line? */
bool cmdline_has(const char *name);

/* Boot demonstration: sleeps, timers, preemption, with measured durations. */
void demo_run(void);

/* The serial shell; returns when the user asks to power off. */
void shell_run(void);
/* Runs one line as if typed at the shell ("hz 100"): the same path. */
void shell_exec(const char *line);

/* In-kernel tests; prints "selftest: N passed, M failed"; returns M. */
int selftest_run(void);

/*
 * The user-space test: the check program's system-call checks from ring 3,
 * built with musl and with glibc, faulting programs, then selftest_run();
 * returns the number of failures.
 */
int usertest_run(void);

/*
 * The user-space check program in the initramfs (user/usertest.c), built
 * with musl and with glibc; runs `path arg` and returns its wait status
 * (or -errno).
 */
#define USERTEST_PROGRAM "/sbin/usertest"
#define USERTEST_GLIBC	 "/sbin/usertest-glibc"
int usertest_program(const char *path, const char *arg);

/*
 * cputest=<seconds>: user, kernel-thread and idle time made on purpose,
 * then one "cputest:" line of the cpu times against the elapsed time
 * (kernel/test/cputest.c); returns 0 unless init failed. cputest_setup()
 * reads the seconds, at boot.
 */
int cputest_run(void);
void cputest_setup(const char *cmdline);

/*
 * ticktest=<ticks>: the cost of the timer tick to a busy CPU under QEMU
 * -icount (empty, with timers due, and as throughput lost by a loop), one
 * "ticktest:" line per measurement (kernel/test/ticktest.c); returns 0 unless
 * a tick went missing or the TSC does not count instructions (no
 * -icount). ticktest_setup() reads the ticks, at boot.
 */
int ticktest_run(void);
void ticktest_setup(const char *cmdline);

/* Shared by the demo, the shell and the self-tests: TSC nanoseconds now. */
u64 tsc_now_ns(void);

#endif
