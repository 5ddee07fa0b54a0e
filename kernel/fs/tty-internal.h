/* SPDX-License-Identifier: MIT */
/*
 * Inside the console (kernel/fs/console.c, the line discipline; tty.c,
 * the controlling terminal and its ioctls): the state they share.
 */
#ifndef KERNEL_FS_TTY_INTERNAL_H
#define KERNEL_FS_TTY_INTERNAL_H

#include <dynhz/types.h>

/* As Linux i386's TCGETS passes it (struct termios, NCCS 19). */
#define NCCS 19
struct termios_abi {
	u32 c_iflag, c_oflag, c_cflag, c_lflag;
	u8 c_line;
	u8 c_cc[NCCS];
};
_Static_assert(sizeof(struct termios_abi) == 36, "Linux i386 struct termios is 36 bytes");

struct winsize_abi {
	u16 ws_row, ws_col, ws_xpixel, ws_ypixel;
};
_Static_assert(sizeof(struct winsize_abi) == 8, "struct winsize is 8 bytes");

/* The console's termios (console.c): Linux's tty_std_termios at first. */
extern struct termios_abi termios;

/* The session the console controls (0: none) and its foreground process group (tty.c). */
extern int tty_sid, tty_pgrp;

/* Interrupts off: sig to every process of group pgrp (a signal character, the hang-up). */
void tty_signal_group(int pgrp, int sig);

/* Interrupts off: the input not yet read goes (a signal character, TCFLSH, TCSETSF). */
void console_flush_input(void);
/* Interrupts off: a line half gathered goes; what was typed ahead stays. */
void console_drop_line(void);
/* The input waiting: the rest of a complete line, then the ring (FIONREAD). */
int console_input_waiting(void);

#endif
