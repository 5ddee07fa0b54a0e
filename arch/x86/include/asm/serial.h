/* SPDX-License-Identifier: MIT */
/* The console: COM1, a 16550 UART at 115200 8N1. */
#ifndef ASM_SERIAL_H
#define ASM_SERIAL_H

#include <dynhz/types.h>

void serial_init(void);

/*
 * Output as it is, no CR before LF (a tty with OPOST or ONLCR off);
 * dz_port_console_write() is the console's usual way, CR LF.
 */
void serial_write_raw(const char *s, size_t len);

/*
 * Receive: after serial_enable_rx(fn), fn runs in interrupt context for
 * every byte that arrives.
 */
void serial_enable_rx(void (*fn)(char c));

/*
 * serial_poll=<n> on the command line: also poll the receiver every n
 * USER_HZ ticks once receiving is enabled. Needs HZ (after clock_init()).
 */
void serial_setup_poll(const char *cmdline);

struct timer_list;
/* The receiver's poll timer when serial_poll= set one, else NULL (/proc/timer_list). */
const struct timer_list *serial_poll_timer(void);

#endif
