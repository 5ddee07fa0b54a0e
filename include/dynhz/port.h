/* SPDX-License-Identifier: MIT */
/*
 * What the core needs from the platform it runs on: somewhere to print and
 * a way to stop. The hosted port (host/) and the x86 kernel (arch/x86/)
 * each implement these two functions.
 */
#ifndef DYNHZ_PORT_H
#define DYNHZ_PORT_H

#include <dynhz/types.h>

void dz_port_console_write(const char *s, size_t len);
_Noreturn void dz_port_panic_exit(void);

#endif
