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
 * The controlling terminal: the console controls the session of the
 * program the kernel starts on it (init, or the kernel shell's run), with
 * that program's group in the foreground, as a login would leave it.
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

#define NCCS	19
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

/* The session the console controls (0: none) and its foreground process group. */
static int tty_sid, tty_pgrp;

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

/* Interrupts off: the input not yet read goes (a signal character, TCFLSH, TCSETSF). */
static void flush_input(void)
{
	rx_tail = rx_head;
	line_len = line_pos = 0;
	line_ready = false;
}

/* Interrupts off: sig to every process of group pgrp. */
static void signal_group(int pgrp, int sig)
{
	struct proc *list[PROC_MAX];
	unsigned int n = proc_list(list, PROC_MAX);

	for (unsigned int i = 0; i < n; i++)
		if (pgrp > 0 && list[i]->pgid == pgrp)
			signal_send(list[i], sig);
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
			flush_input();
		if (echo_on() && (termios.c_lflag & ECHOCTL))
			echo_char(c);
		signal_group(tty_pgrp, sig);
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

/* --- the controlling terminal --- */

/**
 * console_attach() - the console controls p's session, p's group in front
 * @p: a program the kernel starts on the console (init, the shell's run)
 *
 * Input is taken from here on (console_init()), so that the signal
 * characters reach a program that never reads.
 */
void console_attach(struct proc *p)
{
	unsigned long flags = dz_irq_save();

	tty_sid = p->sid;
	tty_pgrp = p->pgid;
	dz_irq_restore(flags);
	console_init(); /* Ctrl-C must reach a program that never reads */
}

/*
 * Interrupts off: the session gives the console up; its foreground group
 * is hung up. A line half gathered goes; what was typed ahead stays for
 * the next reader (the kernel's shell after its run, say).
 */
static void detach(void)
{
	int pgrp = tty_pgrp;

	tty_sid = tty_pgrp = 0;
	line_len = line_pos = 0;
	line_ready = false;
	signal_group(pgrp, SIGHUP);
}

/**
 * console_proc_exit() - a process ends: if it led the console's session, the console is free
 * @p: the process, its state already ZOMBIE (it gets no signal)
 *
 * As Linux's disassociate_ctty() at a session leader's exit, the
 * foreground group gets SIGHUP.
 */
void console_proc_exit(struct proc *p)
{
	unsigned long flags = dz_irq_save();

	if (tty_sid && p->pid == tty_sid)
		detach();
	dz_irq_restore(flags);
}

static bool is_ctty(const struct proc *p)
{
	return p && tty_sid && p->sid == tty_sid;
}

int console_foreground_of(const struct proc *p)
{
	return is_ctty(p) ? tty_pgrp : -1;
}

/* --- ioctl --- */

#define TCGETS	   0x5401
#define TCSETS	   0x5402
#define TCSETSW	   0x5403
#define TCSETSF	   0x5404
#define TCSBRK	   0x5409
#define TCXONC	   0x540A
#define TCFLSH	   0x540B
#define TIOCEXCL   0x540C
#define TIOCNXCL   0x540D
#define TIOCSCTTY  0x540E
#define TIOCGPGRP  0x540F
#define TIOCSPGRP  0x5410
#define TIOCOUTQ   0x5411
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD   0x541B
#define FIONBIO	   0x5421
#define TIOCNOTTY  0x5422
#define TIOCGETD   0x5424
#define TIOCGSID   0x5429

#define TCIFLUSH  0
#define TCIOFLUSH 2

static long put_int(u32 uarg, int v)
{
	return copy_to_user(uarg, &v, sizeof(v)) ? -EFAULT : 0;
}

static long set_termios(u32 cmd, u32 arg)
{
	struct termios_abi t;
	unsigned long flags;

	if (copy_from_user(&t, arg, sizeof(t)))
		return -EFAULT;
	/* TCSETSW and TCSETSF wait for the output to drain: the port's writes are done already. */
	flags = dz_irq_save();
	termios = t;
	if (cmd == TCSETSF)
		flush_input();
	dz_irq_restore(flags);
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

/* Interrupts off: may the console's foreground be group pgrp (Linux's tiocspgrp)? */
static long check_pgrp(const struct proc *me, int pgrp)
{
	struct proc *list[PROC_MAX], *leader = NULL;
	unsigned int n = proc_list(list, PROC_MAX);

	for (unsigned int i = 0; i < n; i++) {
		if (list[i]->state != PROC_RUNNING)
			continue;
		if (list[i]->pgid == pgrp)
			return list[i]->sid == me->sid ? 0 : -EPERM;
		if (list[i]->pid == pgrp)
			leader = list[i];
	}
	/* No group of that number: Linux takes the number of a process of the session. */
	if (!leader)
		return -ESRCH;
	return leader->sid == me->sid ? 0 : -EPERM;
}

static long set_pgrp(struct proc *me, u32 arg)
{
	unsigned long flags;
	long err;
	int pg;

	if (!is_ctty(me))
		return -ENOTTY;
	if (copy_from_user(&pg, arg, sizeof(pg)))
		return -EFAULT;
	if (pg < 0)
		return -EINVAL;
	flags = dz_irq_save();
	err = check_pgrp(me, pg);
	if (!err)
		tty_pgrp = pg;
	dz_irq_restore(flags);
	return err;
}

/*
 * TIOCSCTTY: a session leader without a terminal takes the console; one
 * another session has only with arg 1 (root may steal it: every process
 * here is root's).
 */
static long set_ctty(struct proc *me, u32 arg)
{
	unsigned long flags;
	long err = 0;

	if (!me)
		return -EPERM;
	flags = dz_irq_save();
	if (me->pid == me->sid && me->sid == tty_sid)
		err = 0;
	else if (me->pid != me->sid || (tty_sid && arg != 1))
		err = -EPERM;
	else
		tty_sid = me->sid, tty_pgrp = me->pgid;
	dz_irq_restore(flags);
	return err;
}

/*
 * TIOCNOTTY: the session's leader gives the console up (its foreground
 * group gets SIGHUP, as Linux's disassociate_ctty). For another member
 * Linux forgets the terminal for that process alone; here the console is
 * kept by the session, so nothing changes.
 */
static long give_up_ctty(struct proc *me)
{
	unsigned long flags;

	if (!is_ctty(me))
		return -ENOTTY;
	flags = dz_irq_save();
	if (me->pid == me->sid)
		detach();
	dz_irq_restore(flags);
	return 0;
}

static long session_ioctl(u32 cmd, u32 arg)
{
	struct proc *p = proc_current();

	switch (cmd) {
	case TIOCGPGRP:
		return is_ctty(p) ? put_int(arg, tty_pgrp) : -ENOTTY;
	case TIOCGSID:
		return is_ctty(p) ? put_int(arg, tty_sid) : -ENOTTY;
	case TIOCSPGRP:
		return set_pgrp(p, arg);
	case TIOCSCTTY:
		return set_ctty(p, arg);
	default: /* TIOCNOTTY */
		return give_up_ctty(p);
	}
}

/* The input waiting: the rest of a complete line, then the ring. */
static int input_waiting(void)
{
	unsigned long flags = dz_irq_save();
	int n = (int)(rx_head - rx_tail) + (line_ready ? (int)(line_len - line_pos) : 0);

	dz_irq_restore(flags);
	return n;
}

static long flush_ioctl(u32 arg)
{
	unsigned long flags;

	if (arg > TCIOFLUSH)
		return -EINVAL;
	if (arg == TCIFLUSH || arg == TCIOFLUSH) {
		flags = dz_irq_save();
		flush_input();
		dz_irq_restore(flags);
	}
	return 0;
}

/**
 * console_ioctl() - the tty requests programs make of their terminal
 * @f: the open console
 * @cmd: the request
 * @arg: its argument, a user pointer for most
 *
 * Return: 0 or a value, -EFAULT for a bad pointer, -EINVAL for a bad
 * argument, -ENOTTY for a request a tty does not know or a session
 * request from a process the console does not control, -EPERM and -ESRCH
 * as Linux's for TIOCSPGRP and TIOCSCTTY.
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
		return put_int(arg, input_waiting());
	case TIOCOUTQ:
		return put_int(arg, 0); /* the port's writes are done when write returns */
	case TIOCGETD:
		return put_int(arg, 0); /* N_TTY */
	case FIONBIO:
		return set_nonblock(f, arg);
	case TCFLSH:
		return flush_ioctl(arg);
	case TCSBRK:
	case TCXONC:
	case TIOCEXCL:
	case TIOCNXCL:
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
