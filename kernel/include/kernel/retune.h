/* SPDX-License-Identifier: MIT */
/*
 * HZ changed at runtime, the kernel's side (kernel/time/retune.c; the core's is
 * <dynhz/retune.h>): the interfaces that change it (the shell's `hz N`,
 * /proc/sys/kernel/hz, the dynhz_hz system call) and the rebasing of a
 * jiffies count a thread carries across a change.
 *
 * The core re-expresses what it holds (the timer wheel, the tickless grid)
 * and calls the hooks of those who hold more (the scheduler's timeslice,
 * serial_poll=). A count of jiffies on a thread's stack is neither: it is
 * carried with the generation it was counted in, and rebased with
 * interrupts off just before it is used (schedule_timeout_gen()).
 */
#ifndef KERNEL_RETUNE_H
#define KERNEL_RETUNE_H

#include <dynhz/types.h>

/*
 * dynhz's own system call, above Linux's numbers (i386 ends below 470):
 * long dynhz_hz(unsigned int hz, unsigned int flags). Documented in
 * kernel/syscalls.h and docs/KERNEL.md.
 */
#define NR_DYNHZ_HZ 1014

/* The changes remembered for rebasing: a count older than this many is rebased approximately. */
#define RETUNE_HISTORY 16

void retune_init(void);

/* The TSC when the first retune hook ran, at the last change (kernel/test/retunebench.c). */
extern u64 retune_hooks_tsc;

/**
 * retune_rebase() - a count of jiffies of generation *gen in the current unit
 * @timeout: jiffies still to wait, counted in generation *gen
 * @gen: its generation; set to the current one
 *
 * Interrupts off (a change comes from the tick). Each change in between
 * re-expresses the count from its real time, rounded up: never early, at
 * most one tick of the old rate late when the count was made in the tick
 * before the change. MAX_SCHEDULE_TIMEOUT stays as it is.
 *
 * Return: the count in the current generation's jiffies.
 */
long retune_rebase(long timeout, u32 *gen);

/**
 * hz_set_str() - change HZ from text ("300"), as the shell and /proc do
 * @s: the value; blanks around it are skipped, as Linux's sysctls do
 *     (echo 300 > ... writes "300\n")
 * @len: its length (a write's bytes need no NUL)
 *
 * Return: 0, or a negative errno: -EINVAL (not a number, or the device
 * cannot make the rate), -ERANGE (outside 19..10000), -EPERM (constant
 * build); the core has printed its one line.
 */
int hz_set_str(const char *s, u32 len);

#endif
