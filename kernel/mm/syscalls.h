/* SPDX-License-Identifier: MIT */
/*
 * The memory system calls (kernel/mm/).
 *
 * SYSCALL(Linux i386 number, name), one per line, the file that
 * implements each in the comment after it. The gate (kernel/syscall.c)
 * builds its table from every room's; a number none lists answers -ENOSYS.
 */
SYSCALL(45, brk)       /* mmap.c */
SYSCALL(91, munmap)    /* mmap.c */
SYSCALL(125, mprotect) /* mmap.c */
SYSCALL(192, mmap2)    /* mmap.c */
SYSCALL(219, madvise)  /* mmap.c */
