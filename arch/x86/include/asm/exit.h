/* SPDX-License-Identifier: MIT */
/*
 * Leaving the machine. Under QEMU with -device isa-debug-exit,iobase=0xf4
 * a byte v written to port 0xf4 ends QEMU with status (v << 1) | 1, which
 * is how tests learn the result: 0x10 -> 33 (success), 0x11 -> 35.
 */
#ifndef ASM_EXIT_H
#define ASM_EXIT_H

#define QEMU_EXIT_PORT	  0xf4
#define QEMU_EXIT_SUCCESS 0x10
#define QEMU_EXIT_FAILURE 0x11

_Noreturn void machine_exit(unsigned char code);
_Noreturn void machine_poweroff(void);
/* Stops the CPU for good, the machine left on (reboot(2)'s halt). */
_Noreturn void machine_halt(void);
/* Resets the machine (reboot(2)'s restart); QEMU with -no-reboot exits, status 0. */
_Noreturn void machine_restart(void);

#endif
