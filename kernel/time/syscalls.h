/* SPDX-License-Identifier: MIT */
/*
 * The time system calls (kernel/time/): clocks, sleeps, interval and POSIX
 * timers, process times, NTP.
 *
 * SYSCALL(Linux i386 number, name), one per line, the file that
 * implements each in the comment after it. The gate (kernel/syscall.c)
 * builds its table from every room's; a number none lists answers -ENOSYS.
 */
SYSCALL(13, time)		     /* posix-clock.c */
SYSCALL(25, stime)		     /* posix-clock.c */
SYSCALL(27, alarm)		     /* itimer.c */
SYSCALL(43, times)		     /* posix-timers.c */
SYSCALL(77, getrusage)		     /* posix-timers.c */
SYSCALL(78, gettimeofday)	     /* posix-clock.c */
SYSCALL(79, settimeofday)	     /* posix-clock.c */
SYSCALL(104, setitimer)		     /* itimer.c */
SYSCALL(105, getitimer)		     /* itimer.c */
SYSCALL(116, sysinfo)		     /* posix-timers.c */
SYSCALL(124, adjtimex)		     /* adjtimex.c */
SYSCALL(162, nanosleep)		     /* nanosleep.c */
SYSCALL(259, timer_create)	     /* timer_create.c */
SYSCALL(260, timer_settime)	     /* timer_create.c */
SYSCALL(261, timer_gettime)	     /* timer_create.c */
SYSCALL(262, timer_getoverrun)	     /* timer_create.c */
SYSCALL(263, timer_delete)	     /* timer_create.c */
SYSCALL(264, clock_settime)	     /* posix-clock.c */
SYSCALL(265, clock_gettime)	     /* posix-clock.c */
SYSCALL(266, clock_getres)	     /* posix-clock.c */
SYSCALL(267, clock_nanosleep)	     /* nanosleep.c */
SYSCALL(343, clock_adjtime)	     /* adjtimex.c */
SYSCALL(403, clock_gettime64)	     /* posix-clock.c */
SYSCALL(404, clock_settime64)	     /* posix-clock.c */
SYSCALL(405, clock_adjtime64)	     /* adjtimex.c */
SYSCALL(406, clock_getres_time64)    /* posix-clock.c */
SYSCALL(407, clock_nanosleep_time64) /* nanosleep.c */
SYSCALL(408, timer_gettime64)	     /* timer_create.c */
SYSCALL(409, timer_settime64)	     /* timer_create.c */
