/* SPDX-License-Identifier: MIT */
/*
 * The file system calls (kernel/fs/): descriptors, paths, pipes, poll and
 * select, timerfd.
 *
 * SYSCALL(Linux i386 number, name), one per line, the file that
 * implements each in the comment after it. The gate (kernel/syscall.c)
 * builds its table from every room's; a number none lists answers -ENOSYS.
 */
SYSCALL(3, read)		/* file.c */
SYSCALL(4, write)		/* file.c */
SYSCALL(5, open)		/* file.c */
SYSCALL(6, close)		/* file.c */
SYSCALL(12, chdir)		/* stat.c */
SYSCALL(19, lseek)		/* file.c */
SYSCALL(33, access)		/* stat.c */
SYSCALL(41, dup)		/* file.c */
SYSCALL(42, pipe)		/* file.c */
SYSCALL(54, ioctl)		/* file.c */
SYSCALL(63, dup2)		/* file.c */
SYSCALL(85, readlink)		/* stat.c */
SYSCALL(140, _llseek)		/* file.c */
SYSCALL(141, getdents)		/* stat.c */
SYSCALL(142, _newselect)	/* select.c */
SYSCALL(145, readv)		/* file.c */
SYSCALL(146, writev)		/* file.c */
SYSCALL(168, poll)		/* poll.c */
SYSCALL(183, getcwd)		/* stat.c */
SYSCALL(195, stat64)		/* stat.c */
SYSCALL(196, lstat64)		/* stat.c */
SYSCALL(197, fstat64)		/* stat.c */
SYSCALL(220, getdents64)	/* stat.c */
SYSCALL(221, fcntl64)		/* file.c */
SYSCALL(295, openat)		/* file.c */
SYSCALL(300, fstatat64)		/* stat.c */
SYSCALL(305, readlinkat)	/* stat.c */
SYSCALL(307, faccessat)		/* stat.c */
SYSCALL(308, pselect6)		/* select.c */
SYSCALL(309, ppoll)		/* select.c */
SYSCALL(322, timerfd_create)	/* timerfd.c */
SYSCALL(325, timerfd_settime)	/* timerfd.c */
SYSCALL(326, timerfd_gettime)	/* timerfd.c */
SYSCALL(330, dup3)		/* file.c */
SYSCALL(331, pipe2)		/* file.c */
SYSCALL(383, statx)		/* stat.c */
SYSCALL(410, timerfd_gettime64) /* timerfd.c */
SYSCALL(411, timerfd_settime64) /* timerfd.c */
SYSCALL(413, pselect6_time64)	/* select.c */
SYSCALL(414, ppoll_time64)	/* select.c */
SYSCALL(439, faccessat2)	/* stat.c */
