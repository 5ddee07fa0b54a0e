// SPDX-License-Identifier: MIT
/*
 * The console: writes go straight to the serial port (dz_port_console_write
 * turns LF into CR LF, as a tty's ONLCR); bytes typed arrive by interrupt
 * into a ring that readers sleep on. For user programs it is a tty with
 * one termios: canonical mode (the default) gives a line at a time with
 * echo and erase, as a Linux tty does, so that `cat` and a shell reading
 * stdin behave; raw mode gives what has arrived, at least one byte.
 */
#include "vfs-internal.h"
#include <kernel/console.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/signal.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <kernel/string.h>
#include <asm/serial.h>
#include <dynhz/port.h>

/* The signals engineer's; until it is linked in, nothing is ever pending. */
extern bool signal_pending(const struct proc *p) __attribute__((weak));

#define RX_SIZE	   256 /* a power of two */
#define LINE_SIZE  256 /* a canonical line, as Linux's N_TTY_BUF_SIZE is 4096 */
#define WRITE_STEP 128

static char rx[RX_SIZE];
static volatile unsigned int rx_head, rx_tail;
static DECLARE_WAIT_QUEUE_HEAD(rx_wq);
static bool rx_on;

/* --- the termios, as Linux i386's TCGETS passes it (struct termios, NCCS 19) --- */

#define NCCS   19
#define VINTR  0
#define VERASE 2
#define VKILL  3
#define VEOF   4
#define VMIN   6
#define ICRNL  0000400
#define ICANON 0000002
#define ECHO   0000010

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

/* Linux's tty_std_termios at 115200 baud: ICRNL IXON, OPOST ONLCR, CS8 CREAD HUPCL, ISIG ICANON ECHO... */
static struct termios_abi termios = {
	.c_iflag = 0002400,
	.c_oflag = 0000005,
	.c_cflag = 0012262,
	.c_lflag = 0105073,
	.c_cc = { 003, 034, 0177, 025, 004, 0, 1, 0, 021, 023, 032, 0, 022, 017, 027, 026 },
};
static struct winsize_abi winsize = { 24, 80, 0, 0 };

/* A canonical line: gathered until NL or EOF, then read out, maybe in pieces. */
static char line[LINE_SIZE];
static u32 line_len, line_pos;
static bool line_ready;

/* --- receiving --- */

/* Interrupt context: a full ring drops the byte (a human cannot type that fast). */
static void rx_byte(char c)
{
	if (rx_head - rx_tail < RX_SIZE) {
		rx[rx_head % RX_SIZE] = c;
		rx_head++;
	}
	wake_up(&rx_wq);
}

/**
 * console_init() - takes bytes from the serial port into the console's ring
 *
 * The shell calls it, and so does the first open of the console; the UART
 * keeps what was typed before it.
 */
void console_init(void)
{
	unsigned long flags = dz_irq_save();
	bool was = rx_on;

	rx_on = true;
	dz_irq_restore(flags);
	if (!was)
		serial_enable_rx(rx_byte);
}

static char rx_take(void)
{
	char c = rx[rx_tail % RX_SIZE];

	rx_tail++;
	return c;
}

/**
 * console_getc() - the next byte typed, for the kernel's shell
 *
 * Return: the byte; it waits uninterruptibly, as a kernel thread has no signals.
 */
char console_getc(void)
{
	wait_event(rx_wq, rx_head != rx_tail);
	return rx_take();
}

/* A byte for a user reader: waits interruptibly; -EINTR when a signal comes, -EAGAIN for O_NONBLOCK. */
static int rx_get_user(struct file *f)
{
	struct proc *p = proc_current();
	DEFINE_WAIT(w);
	int ret;

	for (;;) {
		prepare_to_wait(&rx_wq, &w, TASK_INTERRUPTIBLE);
		if (rx_head != rx_tail) {
			ret = (u8)rx_take();
			break;
		}
		if (f->flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		if (p && signal_pending && signal_pending(p)) {
			ret = -EINTR;
			break;
		}
		schedule();
	}
	finish_wait(&rx_wq, &w);
	return ret;
}

/* --- reading --- */

static void echo(const char *s, size_t n)
{
	if (termios.c_lflag & ECHO)
		dz_port_console_write(s, n);
}

static char input_map(char c)
{
	return c == '\r' && (termios.c_iflag & ICRNL) ? '\n' : c;
}

/* One byte into the line being gathered; whether the line is complete. */
static bool line_add(char c)
{
	const u8 *cc = termios.c_cc;

	if ((u8)c == cc[VERASE] || c == '\b') {
		if (line_len) {
			line_len--;
			echo("\b \b", 3);
		}
		return false;
	}
	if ((u8)c == cc[VKILL]) {
		for (; line_len; line_len--)
			echo("\b \b", 3);
		return false;
	}
	if ((u8)c == cc[VEOF])
		return true; /* ends the line without itself; an empty line reads as end of file */
	if (line_len < LINE_SIZE - 1 || c == '\n')
		line[line_len++] = c;
	echo(&c, 1);
	return c == '\n';
}

static long read_canonical(struct file *f, u32 ubuf, u32 len)
{
	u32 n;

	while (!line_ready) {
		int c = rx_get_user(f);

		if (c < 0)
			return c;
		if (line_add(input_map((char)c))) {
			line_ready = true;
			line_pos = 0;
		}
	}
	n = line_len - line_pos < len ? line_len - line_pos : len;
	if (n && copy_to_user(ubuf, line + line_pos, n))
		return -EFAULT;
	line_pos += n;
	if (line_pos == line_len)
		line_ready = false, line_len = 0;
	return (long)n;
}

/* Raw: waits for one byte (VMIN 1), then takes what else has arrived. */
static long read_raw(struct file *f, u32 ubuf, u32 len)
{
	char buf[64];
	u32 n = 0;
	int c = rx_get_user(f);

	if (c < 0)
		return c;
	buf[n++] = input_map((char)c);
	while (n < len && n < sizeof(buf) && rx_head != rx_tail)
		buf[n++] = input_map(rx_take());
	echo(buf, n);
	if (copy_to_user(ubuf, buf, n))
		return -EFAULT;
	return (long)n;
}

long console_read(struct file *f, u32 ubuf, u32 len)
{
	if (!len)
		return 0;
	if (!user_access_ok(ubuf, len, true))
		return -EFAULT;
	console_init();
	if (termios.c_lflag & ICANON)
		return read_canonical(f, ubuf, len);
	return read_raw(f, ubuf, len);
}

/**
 * console_poll_in() - whether a read would find input now (poll)
 * @w: when not NULL, queued to be woken when a byte arrives
 *
 * A line being gathered counts: in canonical mode a read then waits for
 * its end, where Linux's poll would wait for it instead.
 */
bool console_poll_in(struct wait_queue_entry *w)
{
	console_init();
	if (w)
		prepare_to_wait(&rx_wq, w, TASK_INTERRUPTIBLE);
	return line_ready || rx_head != rx_tail;
}

/* --- writing --- */

long console_write(struct file *f, u32 ubuf, u32 len)
{
	char buf[WRITE_STEP];
	u32 done = 0;

	(void)f;
	while (done < len) {
		u32 n = len - done < WRITE_STEP ? len - done : WRITE_STEP;

		if (copy_from_user(buf, ubuf + done, n))
			return done ? (long)done : -EFAULT;
		dz_port_console_write(buf, n);
		done += n;
	}
	return (long)done;
}

/* --- ioctl --- */

#define TCGETS	   0x5401
#define TCSETS	   0x5402
#define TCSETSW	   0x5403
#define TCSETSF	   0x5404
#define TCSBRK	   0x5409
#define TCXONC	   0x540A
#define TCFLSH	   0x540B
#define TIOCSCTTY  0x540E
#define TIOCGPGRP  0x540F
#define TIOCSPGRP  0x5410
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD   0x541B
#define FIONBIO	   0x5421
#define TIOCNOTTY  0x5422
#define TIOCGSID   0x5429

static long put_int(u32 uarg, int v)
{
	return copy_to_user(uarg, &v, sizeof(v)) ? -EFAULT : 0;
}

static long set_termios(u32 cmd, u32 arg)
{
	struct termios_abi t;

	if (copy_from_user(&t, arg, sizeof(t)))
		return -EFAULT;
	termios = t;
	if (cmd == TCSETSF)
		rx_tail = rx_head; /* the input not yet read is dropped */
	return 0;
}

static long set_nonblock(struct file *f, u32 arg)
{
	int on;

	if (copy_from_user(&on, arg, sizeof(on)))
		return -EFAULT;
	if (on)
		f->flags |= O_NONBLOCK;
	else
		f->flags &= ~(u32)O_NONBLOCK;
	return 0;
}

static long session_ioctl(u32 cmd, u32 arg)
{
	struct proc *p = proc_current();

	switch (cmd) {
	case TIOCGPGRP:
		return put_int(arg, p ? p->pgid : 0);
	case TIOCGSID:
		return put_int(arg, p ? p->sid : 0);
	case TIOCSPGRP: {
		int pg;

		return copy_from_user(&pg, arg, sizeof(pg)) ? -EFAULT : pg < 0 ? -EINVAL : 0;
	}
	default: /* TIOCSCTTY, TIOCNOTTY: the console is everyone's controlling tty */
		return 0;
	}
}

/**
 * console_ioctl() - the tty requests programs make of their terminal
 * @f: the open console
 * @cmd: the request
 * @arg: its argument, a user pointer for most
 *
 * Return: 0 or a value, -EFAULT for a bad pointer, -EINVAL for a bad
 * argument, -ENOTTY for a request a tty does not know, as Linux.
 */
long console_ioctl(struct file *f, u32 cmd, u32 arg)
{
	switch (cmd) {
	case TCGETS:
		return copy_to_user(arg, &termios, sizeof(termios)) ? -EFAULT : 0;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return set_termios(cmd, arg);
	case TIOCGWINSZ:
		return copy_to_user(arg, &winsize, sizeof(winsize)) ? -EFAULT : 0;
	case TIOCSWINSZ:
		return copy_from_user(&winsize, arg, sizeof(winsize)) ? -EFAULT : 0;
	case FIONREAD:
		return put_int(arg, (int)(rx_head - rx_tail));
	case FIONBIO:
		return set_nonblock(f, arg);
	case TCFLSH:
		if (arg > 2)
			return -EINVAL;
		if (arg != 1)
			rx_tail = rx_head;
		return 0;
	case TCSBRK:
	case TCXONC:
		return 0;
	case TIOCGPGRP:
	case TIOCSPGRP:
	case TIOCGSID:
	case TIOCSCTTY:
	case TIOCNOTTY:
		return session_ioctl(cmd, arg);
	default:
		return -ENOTTY;
	}
}
