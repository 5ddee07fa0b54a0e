/* SPDX-License-Identifier: MIT */
/*
 * The console as a character device (kernel/fs/console.c): output to the
 * serial port, input from its receive interrupt into a ring. User programs
 * reach it through descriptors 0-2 (a tty with a termios and a window
 * size); the kernel's shell reads it with console_getc().
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

/* Starts taking bytes from the serial port into the ring; once is enough, more is harmless. */
void console_init(void);

/*
 * serial_poll=<USER_HZ ticks> on the command line: also poll the receiver
 * every so many ticks once input is taken (0, the default: interrupts
 * only), for a UART whose interrupt is lost. Read at boot, after HZ is
 * known; converted again at every change of HZ.
 */
void console_setup_poll(const char *cmdline);

struct timer_list;
/* The receiver's poll timer when serial_poll= set one, else NULL (/proc/timer_list). */
const struct timer_list *console_poll_timer(void);

/* The next byte typed, waiting (uninterruptibly) until there is one. */
char console_getc(void);

struct proc;

/*
 * The console becomes the controlling terminal of p's session, p's
 * process group in the foreground: for a program the kernel starts on it.
 */
void console_attach(struct proc *p);

/* The console's foreground group if it is p's controlling terminal, else -1 (/proc's tpgid). */
int console_foreground_of(const struct proc *p);

/* p has ended (a zombie): if it led the console's session, the console is free again. */
void console_proc_exit(struct proc *p);

#endif
