/* SPDX-License-Identifier: MIT */
/*
 * Inside kernel/time/: what its files share and no other room calls.
 */
#ifndef KERNEL_TIME_INTERNAL_H
#define KERNEL_TIME_INTERNAL_H

#include <dynhz/types.h>

struct proc;

/*
 * Signals left p's pending set (delivered: sig, or discarded: the bits of
 * gone), interrupts off: the POSIX timers whose signal it was re-arm, and
 * the delivered one's overrun count goes into its origin (timer_create.c).
 */
void ptimer_signals_taken(struct proc *p, u64 gone, int sig);
/* SIGALRM left the pending set (taken or discarded): a periodic ITIMER_REAL goes on (itimer.c). */
void itimer_real_signal_taken(struct proc *p);

#endif
