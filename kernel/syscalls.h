/* SPDX-License-Identifier: MIT */
/*
 * The system calls of the kernel's top: reboot (kernel/reboot.c). The
 * other rooms' tables are beside their calls (kernel/<room>/syscalls.h);
 * dynhz's own call, 1014 dynhz_hz (kernel/time/retune.c, NR_DYNHZ_HZ in
 * <kernel/retune.h>), has no Linux number and so no line in any table.
 *
 * SYSCALL(Linux i386 number, name), one per line, the file that
 * implements each in the comment after it. The gate (kernel/syscall.c)
 * builds its table from every room's; a number none lists answers -ENOSYS.
 */
SYSCALL(88, reboot) /* reboot.c */
