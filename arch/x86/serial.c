// SPDX-License-Identifier: MIT
/*
 * COM1, a 16550 UART: the kernel's console (dz_port_console_write) and the
 * shell's keyboard. Output polls the transmitter, so it works from any
 * context including exceptions; input arrives by interrupt (IRQ 4), each
 * byte handed to the kernel's console_rx(), and whenever the kernel polls
 * (arch_console_poll(): its serial_poll= timer, for a UART whose interrupt
 * line is not wired, or a host that drops it).
 *
 * Nothing typed before the shell listens is lost: the UART keeps it, with
 * its receive interrupt off, until arch_console_rx_enable() takes it in.
 */
#include <kernel/arch.h>
#include <asm/serial.h>
#include <asm/pic.h>
#include <asm/io.h>

#define COM1	 0x3f8
#define COM1_IRQ 4

#define UART_RBR 0 /* receive buffer (read) */
#define UART_THR 0 /* transmit holding (write) */
#define UART_DLL 0 /* divisor latch low (DLAB=1) */
#define UART_IER 1 /* interrupt enable */
#define UART_DLM 1 /* divisor latch high (DLAB=1) */
#define UART_FCR 2 /* FIFO control */
#define UART_LCR 3 /* line control */
#define UART_MCR 4 /* modem control */
#define UART_LSR 5 /* line status */

#define LCR_8N1	     0x03
#define LCR_DLAB     0x80
#define MCR_DTR_RTS  0x03
#define MCR_OUT2     0x08 /* gates the UART's interrupt onto the ISA bus */
#define IER_RX	     0x01
#define LSR_DR	     0x01   /* a byte is waiting */
#define LSR_THRE     0x20   /* the transmitter can take a byte */
#define UART_CLOCK   115200 /* the divisor's base rate */
#define CONSOLE_BAUD 115200

static bool rx_on;

void serial_init(void)
{
	unsigned int div = UART_CLOCK / CONSOLE_BAUD;

	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1 + UART_DLL, (u8)div);
	outb(COM1 + UART_DLM, (u8)(div >> 8));
	outb(COM1 + UART_LCR, LCR_8N1);
	/*
	 * The FCR is left alone: enabling or resetting the FIFOs drops what
	 * the UART received, and a byte typed at once (or fed by a test) is
	 * often there at power-on, when QEMU's 16550 holds it in the receive
	 * buffer and keeps the rest back until that one is read.
	 */
	outb(COM1 + UART_MCR, MCR_DTR_RTS | MCR_OUT2);
}

static void put_raw(char c)
{
	while (!(inb(COM1 + UART_LSR) & LSR_THRE))
		;
	outb(COM1 + UART_THR, (u8)c);
}

/*
 * Interrupts are off for one character at a time, not for the message:
 * the host end of the port may be slow to take output, and the guest polls
 * meanwhile, so a long line could otherwise keep the tick out for several
 * ticks (and ticks would be lost at high HZ).
 */
void dz_port_console_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned long flags = dz_irq_save();

		if (s[i] == '\n')
			put_raw('\r'); /* terminals want CR LF */
		put_raw(s[i]);
		dz_irq_restore(flags);
	}
}

void arch_console_write_raw(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned long flags = dz_irq_save();

		put_raw(s[i]);
		dz_irq_restore(flags);
	}
}

static void serial_interrupt(void *data)
{
	(void)data;
	while (inb(COM1 + UART_LSR) & LSR_DR)
		console_rx((char)inb(COM1 + UART_RBR));
}

/* Before the kernel takes input, what was typed stays in the UART. */
void arch_console_poll(void)
{
	if (rx_on)
		serial_interrupt(NULL);
}

/*
 * Takes what was typed before first, in order, with interrupts off so
 * that no new byte comes in between.
 */
void arch_console_rx_enable(void)
{
	unsigned long flags = dz_irq_save();

	rx_on = true;
	serial_interrupt(NULL);
	irq_register(COM1_IRQ, serial_interrupt, NULL);
	outb(COM1 + UART_IER, IER_RX);
	dz_irq_restore(flags);
}
