/* SPDX-License-Identifier: MIT */
/*
 * The console: COM1, a 16550 UART at 115200 8N1. Its output, input and
 * poll are <kernel/arch.h>'s console (dz_port_console_write(),
 * arch_console_write_raw(), arch_console_rx_enable(), arch_console_poll()).
 */
#ifndef ASM_SERIAL_H
#define ASM_SERIAL_H

/* First of the boot CPU's bring-up: everything after it may print. */
void serial_init(void);

#endif
