/* SPDX-License-Identifier: MIT */
/*
 * The system calls of a process's life (kernel/proc/): fork, exec, exit,
 * wait.
 *
 * SYSCALL(Linux i386 number, name), one per line, the file that
 * implements each in the comment after it. The gate (kernel/syscall.c)
 * builds its table from every room's; a number none lists answers -ENOSYS.
 */
SYSCALL(1, exit)	 /* exit.c */
SYSCALL(2, fork)	 /* fork.c */
SYSCALL(7, waitpid)	 /* exit.c */
SYSCALL(11, execve)	 /* exec.c */
SYSCALL(114, wait4)	 /* exit.c */
SYSCALL(120, clone)	 /* fork.c */
SYSCALL(190, vfork)	 /* fork.c */
SYSCALL(252, exit_group) /* exit.c */
