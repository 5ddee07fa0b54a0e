/* SPDX-License-Identifier: MIT */
/*
 * What the kernel runs on its console when no init program does
 * (kernel/shell/): the boot demonstration, then the serial shell.
 */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

/* Boot demonstration: sleeps, timers, preemption, with measured durations. */
void demo_run(void);

/* The serial shell; returns when the user asks to power off. */
void shell_run(void);
/* Runs one line as if typed at the shell ("hz 100"): the same path. */
void shell_exec(const char *line);

#endif
