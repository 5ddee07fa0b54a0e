/* SPDX-License-Identifier: MIT */
/*
 * The system calls of kernel/sched/: signals, the process's ids and
 * limits, getrandom, the thread pointer.
 *
 * SYSCALL(Linux i386 number, name), one per line, the file that
 * implements each in the comment after it. The gate (kernel/syscall.c)
 * builds its table from every room's; a number none lists answers -ENOSYS.
 */
SYSCALL(20, getpid)	      /* sys.c */
SYSCALL(24, getuid)	      /* sys.c */
SYSCALL(29, pause)	      /* signal.c */
SYSCALL(36, sync)	      /* sys.c */
SYSCALL(37, kill)	      /* signal.c */
SYSCALL(47, getgid)	      /* sys.c */
SYSCALL(49, geteuid)	      /* sys.c */
SYSCALL(50, getegid)	      /* sys.c */
SYSCALL(57, setpgid)	      /* sys.c */
SYSCALL(60, umask)	      /* sys.c */
SYSCALL(64, getppid)	      /* sys.c */
SYSCALL(65, getpgrp)	      /* sys.c */
SYSCALL(66, setsid)	      /* sys.c */
SYSCALL(76, getrlimit)	      /* sys.c */
SYSCALL(119, sigreturn)	      /* sigframe.c */
SYSCALL(122, uname)	      /* sys.c */
SYSCALL(132, getpgid)	      /* sys.c */
SYSCALL(147, getsid)	      /* sys.c */
SYSCALL(158, sched_yield)     /* sys.c */
SYSCALL(172, prctl)	      /* sys.c */
SYSCALL(173, rt_sigreturn)    /* sigframe.c */
SYSCALL(174, rt_sigaction)    /* signal.c */
SYSCALL(175, rt_sigprocmask)  /* signal.c */
SYSCALL(176, rt_sigpending)   /* signal.c */
SYSCALL(179, rt_sigsuspend)   /* signal.c */
SYSCALL(191, ugetrlimit)      /* sys.c */
SYSCALL(199, getuid32)	      /* sys.c */
SYSCALL(200, getgid32)	      /* sys.c */
SYSCALL(201, geteuid32)	      /* sys.c */
SYSCALL(202, getegid32)	      /* sys.c */
SYSCALL(224, gettid)	      /* sys.c */
SYSCALL(238, tkill)	      /* signal.c */
SYSCALL(243, set_thread_area) /* tls.c */
SYSCALL(244, get_thread_area) /* tls.c */
SYSCALL(258, set_tid_address) /* sys.c */
SYSCALL(270, tgkill)	      /* signal.c */
SYSCALL(311, set_robust_list) /* sys.c */
SYSCALL(340, prlimit64)	      /* sys.c */
SYSCALL(355, getrandom)	      /* sys.c */
