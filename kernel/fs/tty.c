// SPDX-License-Identifier: MIT
/*
 * The console as a controlling terminal (kernel/include/kernel/console.h):
 * the session it belongs to and that session's foreground process group,
 * given by the kernel to a program it starts (console_attach()), taken
 * and changed by the programs' job control (TIOCSCTTY, TIOCSPGRP,
 * TIOCNOTTY), given up when the session leader ends (SIGHUP to the
 * foreground); and the tty requests of ioctl(2). The line discipline, the
 * reading and the writing are console.c.
 */
#include "vfs-internal.h"
#include "tty-internal.h"
#include <kernel/console.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/signal.h>
#include <kernel/uaccess.h>
#include <dynhz/port.h>

static struct winsize_abi winsize = { 24, 80, 0, 0 };

int tty_sid, tty_pgrp;

void tty_signal_group(int pgrp, int sig)
{
	struct proc *list[PROC_MAX];
	unsigned int n = proc_list(list, PROC_MAX);

	for (unsigned int i = 0; i < n; i++)
		if (pgrp > 0 && list[i]->pgid == pgrp)
			signal_send(list[i], sig);
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
	console_drop_line();
	tty_signal_group(pgrp, SIGHUP);
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
		console_flush_input();
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

static long flush_ioctl(u32 arg)
{
	unsigned long flags;

	if (arg > TCIOFLUSH)
		return -EINVAL;
	if (arg == TCIFLUSH || arg == TCIOFLUSH) {
		flags = dz_irq_save();
		console_flush_input();
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
		return put_int(arg, console_input_waiting());
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
