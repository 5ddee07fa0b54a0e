/* SPDX-License-Identifier: MIT */
/*
 * The boot modes of kernel/test/: each runs instead of init, prints its
 * lines and returns the number of failures (0: the machine exits with
 * success). Their *_setup() reads the mode's parameter at boot, whatever
 * then runs, so that a bad value gets its one line at once.
 */
#ifndef KERNEL_TEST_H
#define KERNEL_TEST_H

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
 * (kernel/test/cputest.c); returns 0 unless init failed.
 */
int cputest_run(void);
void cputest_setup(const char *cmdline);

/*
 * ticktest=<ticks>: the cost of the timer tick to a busy CPU under QEMU
 * -icount (empty, with timers due, and as throughput lost by a loop), one
 * "ticktest:" line per measurement (kernel/test/ticktest.c); returns 0
 * unless a tick went missing or the TSC does not count instructions (no
 * -icount).
 */
int ticktest_run(void);
void ticktest_setup(const char *cmdline);

/*
 * idletest=<seconds> (default 10): one 1 Hz timer while the CPU idles, then
 * the timer interrupts and jiffies against the TSC; returns 0 if all is
 * well (kernel/test/idletest.c).
 */
void idletest_setup(const char *cmdline);
int idletest_run(void);

/* The selftest of the retune boot mode (kernel/test/retunetest.c). */
void retunetest_setup(const char *cmdline);
int retunetest_run(void);
/* The interrupt-off window of a change with 1, 1000, 100000 timers pending (kernel/test/retunebench.c). */
int retunebench_run(void);

#endif
