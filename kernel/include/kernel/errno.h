/* SPDX-License-Identifier: MIT */
/*
 * Linux's errno values (asm-generic/errno-base.h and errno.h), as system
 * calls return them, negated. The kernel speaks only these to user space.
 */
#ifndef KERNEL_ERRNO_H
#define KERNEL_ERRNO_H

#define EPERM	     1
#define ENOENT	     2
#define ESRCH	     3
#define EINTR	     4
#define EIO	     5
#define ENXIO	     6
#define E2BIG	     7
#define ENOEXEC	     8
#define EBADF	     9
#define ECHILD	     10
#define EAGAIN	     11
#define ENOMEM	     12
#define EACCES	     13
#define EFAULT	     14
#define EBUSY	     16
#define EEXIST	     17
#define EXDEV	     18
#define ENODEV	     19
#define ENOTDIR	     20
#define EISDIR	     21
#define EINVAL	     22
#define ENFILE	     23
#define EMFILE	     24
#define ENOTTY	     25
#define EFBIG	     27
#define ENOSPC	     28
#define ESPIPE	     29
#define EROFS	     30
#define EMLINK	     31
#define EPIPE	     32
#define ERANGE	     34
#define ENAMETOOLONG 36
#define ENOSYS	     38
#define ENOTEMPTY    39
#define ELOOP	     40
#define ENODATA	     61
#define EOVERFLOW    75
#define ENOTSUP	     95
#define EOPNOTSUPP   95
#define ECANCELED    125
/*
 * Kernel-internal, never seen by user space: a sleep a signal ended.
 * On the way out (kernel/sched/signal.c) the call is made again or ends with
 * EINTR, as Linux decides: ERESTARTSYS is made again unless a handler
 * without SA_RESTART runs, ERESTARTNOINTR always, ERESTARTNOHAND only
 * when no handler runs; ERESTART_RESTARTBLOCK (Linux's restart_syscall,
 * for sleeps that must not start over) is EINTR here.
 */
#define ERESTARTSYS	      512
#define ERESTARTNOINTR	      513
#define ERESTARTNOHAND	      514
#define ERESTART_RESTARTBLOCK 516

#endif
