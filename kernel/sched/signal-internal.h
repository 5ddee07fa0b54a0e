/* SPDX-License-Identifier: MIT */
/*
 * Inside signals (kernel/sched/signal.c, sigframe.c): what the sending
 * side and the delivery side share.
 */
#ifndef KERNEL_SCHED_SIGNAL_INTERNAL_H
#define KERNEL_SCHED_SIGNAL_INTERNAL_H

#include <kernel/signal.h>

#define SIG_BIT(sig) (1ULL << ((sig)-1))
#define UNBLOCKABLE  (SIG_BIT(SIGKILL) | SIG_BIT(SIGSTOP))
#define SIG_SETSIZE  8 /* sizeof(sigset_t) in the kernel's ABI: 64 signals */

enum sig_default { DFL_TERM, DFL_CORE, DFL_IGN, DFL_STOP };

/* Linux's default actions; stopping is not implemented and counts as ignoring. */
enum sig_default sig_default_action(int sig);
/* p's action for sig (1..NSIG). */
struct k_sigaction *sig_action(struct proc *p, int sig);
/*
 * Pending, not blocked, not ignored: what delivery would act on. Asked on
 * every return to user mode, so only the signals pending are looked at.
 */
u64 sig_deliverable(const struct proc *p);
/* SIGKILL and SIGSTOP cannot be blocked, whatever the mask says. */
void sig_set_blocked(struct proc *p, u64 mask);
/* Who hears that signals left a pending set (signal_set_timer_hooks()). */
extern struct signal_timer_hooks sig_timer_hooks;

#endif
