// SPDX-License-Identifier: MIT
/*
 * COM1, a 16550 UART: the kernel's console (dz_port_console_write) and the
 * shell's keyboard. Output polls the transmitter, so it works from any
 * context including exceptions; input arrives by interrupt (IRQ 4), and
 * with serial_poll=<USER_HZ ticks> also by polling on a timer, for a UART
 * whose interrupt line is not wired (or a host that drops it).
 *
 * Nothing typed before the shell listens is lost: the UART keeps it, with
 * its receive interrupt off, until serial_enable_rx() takes it in.
 */
#include <asm/serial.h>
#include <asm/pic.h>
#include <asm/io.h>
#include <dynhz/port.h>
#include <dynhz/bootparam.h>
#include <dynhz/jiffies.h>
#include <dynhz/retune.h>
#include <dynhz/timer.h>
#include <dynhz/printk.h>

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
#define POLL_MAX     6000 /* USER_HZ ticks: one minute */

static void (*rx_fn)(char c);
static unsigned long poll_jiffies; /* 0: no polling */
static unsigned long poll_user;	   /* the same in USER_HZ ticks, as given */
static struct timer_list poll_timer;

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

const struct timer_list *serial_poll_timer(void)
{
	return poll_jiffies ? &poll_timer : NULL;
}

void serial_write_raw(const char *s, size_t len)
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
	while (inb(COM1 + UART_LSR) & LSR_DR) {
		char c = (char)inb(COM1 + UART_RBR);

		if (rx_fn)
			rx_fn(c);
	}
}

static void serial_poll(struct timer_list *t)
{
	serial_interrupt(NULL);
	mod_timer(t, jiffies + poll_jiffies);
}

/*
 * Takes what was typed before first, in order, with interrupts off so
 * that no new byte comes in between.
 */
void serial_enable_rx(void (*fn)(char c))
{
	unsigned long flags = dz_irq_save();

	rx_fn = fn;
	serial_interrupt(NULL);
	irq_register(COM1_IRQ, serial_interrupt, NULL);
	outb(COM1 + UART_IER, IER_RX);
	dz_irq_restore(flags);
	if (poll_jiffies) {
		timer_setup(&poll_timer, serial_poll, 0);
		mod_timer(&poll_timer, jiffies + poll_jiffies);
	}
}

/* HZ changed: the period again from its USER_HZ value (the pending poll is the core's). */
static void serial_retune(const struct dz_retune_info *info)
{
	(void)info;
	poll_jiffies = user_to_kernel_hz(DZ_UCLOCK(poll_user));
}

/*
 * serial_poll=<USER_HZ ticks>, 0 (the default) for interrupts only:
 * converted here, and again at every change of HZ.
 */
void serial_setup_poll(const char *cmdline)
{
	static const char *const names[] = { "serial_poll", NULL };
	unsigned long ticks = 0;
	struct dz_param p;

	if (!dz_cmdline_find(cmdline, names, &p))
		return;
	dz_param_uint(&p, 0, POLL_MAX, 0, &ticks);
	if (!ticks)
		return;
	poll_user = ticks;
	poll_jiffies = user_to_kernel_hz(DZ_UCLOCK(ticks));
	dz_hz_retune_hook(serial_retune);
	dz_printk("serial: receive polled every %lu USER_HZ ticks = %lu jiffies = %u us\n", ticks,
		  poll_jiffies, jiffies_to_usecs(poll_jiffies));
}
