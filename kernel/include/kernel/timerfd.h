/* SPDX-License-Identifier: MIT */
/*
 * What the rest of the kernel tells timerfd.c (the calls and the file's
 * operations are in vfs-internal.h).
 */
#ifndef KERNEL_TIMERFD_H
#define KERNEL_TIMERFD_H

/**
 * timerfd_clock_was_set() - the realtime clock was just set
 *
 * Wakes the readers and pollers of every TFD_TIMER_CANCEL_ON_SET timerfd,
 * so that a read already waiting fails with ECANCELED now, as Linux's
 * timerfd_clock_was_set(), not at the timer's next expiry. Interrupts off.
 */
void timerfd_clock_was_set(void);

#endif
