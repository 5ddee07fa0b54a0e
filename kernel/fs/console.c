// SPDX-License-Identifier: MIT
/*
 * The console: a tty on the serial port that behaves as Linux's n_tty
 * line discipline does for one terminal, so that BusyBox's sh can edit
 * lines, Ctrl-C a foreground command and take Ctrl-D for the end.
 *
 * Bytes typed arrive by interrupt into a ring (rx). The signal characters
 * are acted on there and then, as Linux's receive path does: with ISIG,
 * VINTR (Ctrl-C), VQUIT (Ctrl-\) and VSUSP (Ctrl-Z) send SIGINT, SIGQUIT
 * and SIGTSTP to the foreground process group and drop the input not yet
 * read (unless NOFLSH), so a program that never reads (sleep 100) is
 * still reached. Everything else waits for a reader: in canonical mode
 * (ICANON, the default) a line at a time, edited with VERASE, VWERASE and
 * VKILL, ended by NL, VEOL, VEOL2 or VEOF (which at the start of a line
 * reads as the end of file), echoed as it is gathered (ECHO, ECHOE,
 * ECHOCTL, ECHONL); in raw mode what has arrived, as VMIN and VTIME say.
 * Input maps CR and NL as ICRNL, INLCR and IGNCR say; output turns LF
 * into CR LF with OPOST and ONLCR.
 *
 * The controlling terminal (tty.c, with the ioctls): the console controls
 * the session of the program the kernel starts on it (init, or the kernel
 * shell's run), with that program's group in the foreground, as a login
 * would leave it.
 * Linux's /dev/console never becomes a controlling terminal (init=/bin/sh
 * there has no job control and Ctrl-C reaches nobody); this one does, so
 * that a shell run as init is usable. TIOCSPGRP moves the foreground
 * within the session; TIOCSCTTY and TIOCNOTTY take and give up the
 * console as Linux's do; when the session's leader ends, the foreground
 * group gets SIGHUP and the console is free. There are no stopped
 * processes here, so background reads, writes and TIOCSPGRP are not
 * stopped by SIGTTIN or SIGTTOU, and SIGTSTP does nothing by default.
 *
 * The kernel's own shell reads raw bytes with console_getc(), while no
 * session has the console (a signal character is then a byte like any).
 */
#include "vfs-internal.h"
#include "tty-internal.h"
#include <kernel/console.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <kernel/string.h>
#include <kernel/arch.h>
#include <dynhz/bootparam.h>
#include <dynhz/jiffies.h>
#include <dynhz/retune.h>
#include <dynhz/timer.h>
#include <dynhz/printk.h>

#define RX_SIZE	   256	/* a power of two */
#define LINE_SIZE  1024 /* a canonical line; Linux's N_TTY_BUF_SIZE is 4096 */
#define WRITE_STEP 128
#define READ_STEP  64

static char rx[RX_SIZE];
static volatile unsigned int rx_head, rx_tail;
static DECLARE_WAIT_QUEUE_HEAD(rx_wq);
static bool rx_on;

/* --- the termios, as Linux i386's TCGETS passes it (struct termios, NCCS 19) --- */

#define VINTR	0
#define VQUIT	1
#define VERASE	2
#define VKILL	3
#define VEOF	4
#define VTIME	5
#define VMIN	6
#define VSUSP	10
#define VEOL	11
#define VWERASE 14
#define VEOL2	16
/* c_iflag */
#define INLCR 0000100
#define IGNCR 0000200
#define ICRNL 0000400
/* c_oflag */
#define OPOST 0000001
#define ONLCR 0000004
/* c_lflag */
#define ISIG	0000001
#define ICANON	0000002
#define ECHO	0000010
#define ECHOE	0000020
#define ECHONL	0000100
#define NOFLSH	0000200
#define ECHOCTL 0001000
#define IEXTEN	0100000

/* Linux's tty_std_termios at 115200 baud: ICRNL IXON, OPOST ONLCR, CS8 CREAD HUPCL, ISIG ICANON ECHO... */
struct termios_abi termios = {
	.c_iflag = 0002400,
	.c_oflag = 0000005,
	.c_cflag = 0012262,
	.c_lflag = 0105073,
	.c_cc = { 003, 034, 0177, 025, 004, 0, 1, 0, 021, 023, 032, 0, 022, 017, 027, 026 },
};

/*
 * A canonical line: gathered until its end, then read out, maybe in
 * pieces. Changed with interrupts off: a signal character empties it.
 */
static char line[LINE_SIZE];
static u32 line_len, line_pos;
static bool line_ready;

/* --- output --- */

static void out(const char *s, size_t n)
{
	if ((termios.c_oflag & (OPOST | ONLCR)) == (OPOST | ONLCR))
		dz_port_console_write(s, n);
	else
		arch_console_write_raw(s, n);
}

/* A typed byte as echo shows it: a control character as ^X with ECHOCTL. */
static void echo_char(char c)
{
	u8 u = (u8)c;

	if ((termios.c_lflag & ECHOCTL) && (u < 0x20 || u == 0x7f) && c != '\n' && c != '\t') {
		char ctl[2] = { '^', (char)(u ^ 0x40) };

		out(ctl, 2);
		return;
	}
	out(&c, 1);
}

static bool echo_on(void)
{
	return termios.c_lflag & ECHO;
}

/* --- receiving --- */

/* Is c the special character cc[i]? An entry of 0 is disabled (_POSIX_VDISABLE). */
static bool is_cc(char c, int i)
{
	return termios.c_cc[i] && (u8)c == termios.c_cc[i];
}

void console_flush_input(void)
{
	rx_tail = rx_head;
	line_len = line_pos = 0;
	line_ready = false;
}

/* The signal a typed byte raises (ISIG) when a session has the console; 0 for none. */
static int signal_char(char c)
{
	if (!tty_sid || !(termios.c_lflag & ISIG))
		return 0;
	if (is_cc(c, VINTR))
		return SIGINT;
	if (is_cc(c, VQUIT))
		return SIGQUIT;
	if (is_cc(c, VSUSP))
		return SIGTSTP;
	return 0;
}

/* Interrupt context: a byte typed. A full ring drops it (a human cannot type that fast). */
void console_rx(char c)
{
	int sig = signal_char(c);

	if (sig) {
		if (!(termios.c_lflag & NOFLSH))
			console_flush_input();
		if (echo_on() && (termios.c_lflag & ECHOCTL))
			echo_char(c);
		tty_signal_group(tty_pgrp, sig);
	} else if (rx_head - rx_tail < RX_SIZE) {
		rx[rx_head % RX_SIZE] = c;
		rx_head++;
	}
	wake_up(&rx_wq);
}

/* --- serial_poll=: the receiver polled on a timer too --- */

#define POLL_MAX 6000 /* USER_HZ ticks: one minute */

static unsigned long poll_jiffies; /* 0: no polling */
static unsigned long poll_user;	   /* the same in USER_HZ ticks, as given */
static struct timer_list poll_timer;

static void poll_fn(struct timer_list *t)
{
	arch_console_poll();
	mod_timer(t, jiffies + poll_jiffies);
}

/* HZ changed: the period again from its USER_HZ value (the pending poll is the core's). */
static void poll_retune(const struct dz_retune_info *info)
{
	(void)info;
	poll_jiffies = user_to_kernel_hz(DZ_UCLOCK(poll_user));
}

void console_setup_poll(const char *cmdline)
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
	dz_hz_retune_hook(poll_retune);
	dz_printk("serial: receive polled every %lu USER_HZ ticks = %lu jiffies = %u us\n", ticks,
		  poll_jiffies, jiffies_to_usecs(poll_jiffies));
}

const struct timer_list *console_poll_timer(void)
{
	return poll_jiffies ? &poll_timer : NULL;
}

/**
 * console_init() - takes bytes from the serial port into the console's ring
 *
 * The shell calls it, and so does the first open of the console; the UART
 * keeps what was typed before it. With serial_poll=, the receiver is
 * polled from here on too.
 */
void console_init(void)
{
	unsigned long flags = dz_irq_save();
	bool was = rx_on;

	rx_on = true;
	dz_irq_restore(flags);
	if (was)
		return;
	arch_console_rx_enable();
	if (poll_jiffies) {
		timer_setup(&poll_timer, poll_fn, 0);
		mod_timer(&poll_timer, jiffies + poll_jiffies);
	}
}

/* The next byte of the ring, or -1 when it is empty. */
static int rx_take(void)
{
	unsigned long flags = dz_irq_save();
	int c = -1;

	if (rx_head != rx_tail) {
		c = (u8)rx[rx_tail % RX_SIZE];
		rx_tail++;
	}
	dz_irq_restore(flags);
	return c;
}

/**
 * console_getc() - the next byte typed, for the kernel's shell
 *
 * Return: the byte; it waits uninterruptibly, as a kernel thread has no signals.
 */
char console_getc(void)
{
	int c;

	wait_event(rx_wq, (c = rx_take()) >= 0);
	return (char)c;
}

#define RX_TIMEOUT (-1000) /* rx_get_user(): no byte within the time given (not an errno) */

/*
 * A byte for a user reader, waiting interruptibly up to *timeout jiffies
 * of HZ generation *gen (MAX_SCHEDULE_TIMEOUT: for ever; what is left
 * stays in *timeout, in the generation left in *gen):
 * -EAGAIN for O_NONBLOCK, -ERESTARTSYS when a signal is to be delivered,
 * RX_TIMEOUT when the time is up.
 */
static int rx_get_user(struct file *f, long *timeout, u32 *gen)
{
	struct proc *p = proc_current();
	DEFINE_WAIT(w);
	int ret;

	for (;;) {
		prepare_to_wait(&rx_wq, &w, TASK_INTERRUPTIBLE);
		ret = rx_take();
		if (ret >= 0)
			break;
		if (!*timeout) {
			ret = RX_TIMEOUT; /* before O_NONBLOCK: VMIN 0 VTIME 0 reads 0, as Linux's */
			break;
		}
		if (f->flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		if (p && signal_pending(p)) {
			ret = -ERESTARTSYS;
			break;
		}
		*timeout = schedule_timeout_gen(*timeout, gen);
	}
	finish_wait(&rx_wq, &w);
	return ret;
}

/* --- reading --- */

/* CR and NL as the input flags map them; -1 for a CR that IGNCR drops. */
static int input_map(int c)
{
	u32 i = termios.c_iflag;

	if (c == '\r')
		return (i & IGNCR) ? -1 : (i & ICRNL) ? '\n' : '\r';
	if (c == '\n' && (i & INLCR))
		return '\r';
	return c;
}

/* Interrupts off: the last character of the line goes, and off the screen with ECHOE. */
static void erase_one(void)
{
	u8 c;

	if (!line_len)
		return;
	c = (u8)line[--line_len];
	if (!echo_on())
		return;
	if (!(termios.c_lflag & ECHOE)) {
		echo_char((char)termios.c_cc[VERASE]);
		return;
	}
	out("\b \b", 3);
	/* It was echoed as ^X: two columns. */
	if ((termios.c_lflag & ECHOCTL) && (c < 0x20 || c == 0x7f) && c != '\t')
		out("\b \b", 3);
}

/* Interrupts off: the word before the cursor (VWERASE): blanks, then what is not blank. */
static void erase_word(void)
{
	while (line_len && (line[line_len - 1] == ' ' || line[line_len - 1] == '\t'))
		erase_one();
	while (line_len && line[line_len - 1] != ' ' && line[line_len - 1] != '\t')
		erase_one();
}

/* Interrupts off: one byte into the line being gathered; whether the line is complete. */
static bool line_add(char c)
{
	bool end = c == '\n' || is_cc(c, VEOL) || is_cc(c, VEOL2);

	if (is_cc(c, VERASE)) {
		erase_one();
		return false;
	}
	if ((termios.c_lflag & IEXTEN) && is_cc(c, VWERASE)) {
		erase_word();
		return false;
	}
	if (is_cc(c, VKILL)) {
		while (line_len)
			erase_one();
		return false;
	}
	if (is_cc(c, VEOF))
		return true; /* ends the line without itself; an empty line reads as end of file */
	if (line_len < LINE_SIZE - 1 || end)
		line[line_len++] = c;
	if (echo_on())
		echo_char(c);
	else if (c == '\n' && (termios.c_lflag & ECHONL))
		out("\n", 1);
	return end;
}

/* Interrupts off: up to len bytes of the complete line to the reader. */
static long line_out(u32 ubuf, u32 len)
{
	u32 n = line_len - line_pos < len ? line_len - line_pos : len;

	if (n && copy_to_user(ubuf, line + line_pos, n))
		return -EFAULT;
	line_pos += n;
	if (line_pos == line_len)
		line_ready = false, line_len = line_pos = 0;
	return (long)n;
}

static long read_canonical(struct file *f, u32 ubuf, u32 len)
{
	long forever = MAX_SCHEDULE_TIMEOUT;
	u32 gen = 0; /* for ever is for ever at any HZ */

	for (;;) {
		unsigned long flags = dz_irq_save();
		int c;

		if (line_ready) {
			long n = line_out(ubuf, len);

			dz_irq_restore(flags);
			return n;
		}
		dz_irq_restore(flags);
		c = rx_get_user(f, &forever, &gen);
		if (c < 0)
			return c;
		c = input_map(c);
		if (c < 0)
			continue;
		flags = dz_irq_save();
		if (line_add((char)c))
			line_ready = true, line_pos = 0;
		dz_irq_restore(flags);
	}
}

/*
 * Raw, as Linux's VMIN and VTIME: VMIN > 0 waits for that many bytes (or
 * len), with VTIME > 0 at most VTIME tenths of a second between two after
 * the first; VMIN 0 takes what has arrived, waiting up to VTIME tenths of
 * a second for a first byte (not at all with VTIME 0). Then whatever else
 * has arrived comes too.
 */
static long read_raw(struct file *f, u32 ubuf, u32 len)
{
	u32 vmin = termios.c_cc[VMIN], want = vmin < len ? vmin : len, n = 0, k = 0;
	char buf[READ_STEP];

	while (n + k < len) {
		/* In jiffies of the generation read first: a change of HZ rebases it. */
		u32 gen = dz_hz_generation();
		long gap = termios.c_cc[VTIME] ? (long)msecs_to_jiffies(termios.c_cc[VTIME] * 100u)
					       : 0;
		long t = n + k < want ? (vmin && (!gap || !(n + k)) ? MAX_SCHEDULE_TIMEOUT : gap)
				      : (!vmin && !(n + k) ? gap : 0);
		int c = rx_get_user(f, &t, &gen);

		if (c < 0) {
			if (n + k || c == RX_TIMEOUT)
				break;
			return c;
		}
		c = input_map(c);
		if (c < 0)
			continue;
		buf[k++] = (char)c;
		if (echo_on())
			echo_char((char)c);
		if (k == sizeof(buf)) {
			if (copy_to_user(ubuf + n, buf, k))
				return n ? (long)n : -EFAULT;
			n += k;
			k = 0;
		}
	}
	if (k && copy_to_user(ubuf + n, buf, k))
		return n ? (long)n : -EFAULT;
	return (long)(n + k);
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
		out(buf, n);
		done += n;
	}
	return (long)done;
}

/* The input waiting: the rest of a complete line, then the ring. */
int console_input_waiting(void)
{
	unsigned long flags = dz_irq_save();
	int n = (int)(rx_head - rx_tail) + (line_ready ? (int)(line_len - line_pos) : 0);

	dz_irq_restore(flags);
	return n;
}

void console_drop_line(void)
{
	line_len = line_pos = 0;
	line_ready = false;
}
