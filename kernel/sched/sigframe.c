// SPDX-License-Identifier: MIT
/*
 * Signals delivered (kernel/include/kernel/signal.h): on the way back to
 * ring 3, a handler's frame on the user stack, as Linux i386 builds it
 * (kernel/include/kernel/sigframe.h), or the default action; sigreturn
 * and rt_sigreturn, which undo the frame; the restart of a system call a
 * signal interrupted. Sending, actions and masks are signal.c.
 *
 * The FPU: the process's registers are live while it runs (kernel/sched/proc.c
 * saves them only when its thread is switched out), so delivery saves
 * them with FXSAVE into the frame, in Linux's place and format (an
 * fpstate_i386: the FSAVE header converted as Linux does, then the FXSAVE
 * image; the handler starts with a clean FPU, as on Linux), and sigreturn
 * loads the FXSAVE image back. The FSAVE header is not read back (Linux
 * converts it back over the image): a handler that edits the x87
 * registers must edit the FXSAVE part.
 */
#include <kernel/signal.h>
#include "signal-internal.h"
#include <kernel/sigframe.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/arch.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

#define NR_SIGRETURN	119
#define NR_RT_SIGRETURN 173

/* EFLAGS */
#define X86_EFLAGS_CF	0x00000001U
#define X86_EFLAGS_PF	0x00000004U
#define X86_EFLAGS_AF	0x00000010U
#define X86_EFLAGS_ZF	0x00000040U
#define X86_EFLAGS_SF	0x00000080U
#define X86_EFLAGS_TF	0x00000100U
#define X86_EFLAGS_DF	0x00000400U
#define X86_EFLAGS_OF	0x00000800U
#define X86_EFLAGS_IOPL 0x00003000U
#define X86_EFLAGS_NT	0x00004000U
#define X86_EFLAGS_RF	0x00010000U
#define X86_EFLAGS_VM	0x00020000U
#define X86_EFLAGS_AC	0x00040000U
/* What a signal frame may change: the arithmetic flags, direction, trap, AC (Linux's FIX_EFLAGS). */
#define FIX_EFLAGS                                                                       \
	(X86_EFLAGS_AC | X86_EFLAGS_OF | X86_EFLAGS_DF | X86_EFLAGS_TF | X86_EFLAGS_SF | \
	 X86_EFLAGS_ZF | X86_EFLAGS_AF | X86_EFLAGS_PF | X86_EFLAGS_CF | X86_EFLAGS_RF)

/* ---- delivery ---- */

static u32 mxcsr_mask; /* the MXCSR bits this CPU accepts (FXRSTOR faults on others) */
static u8 clean_fpu[FPU_STATE_SIZE] __attribute__((aligned(16)));
static bool fpu_known;

/* From the first delivery on, interrupts off: what a clean FPU is, and the MXCSR mask. */
static void fpu_facts(void)
{
	static u8 probe[FPU_STATE_SIZE] __attribute__((aligned(16)));
	u32 mask;

	if (fpu_known)
		return;
	fpu_save(probe);
	memcpy(&mask, probe + 28, 4);
	mxcsr_mask = mask ? mask : 0x0000ffbfU; /* 0: the default the manuals give */
	fpu_init_state(clean_fpu);
	fpu_known = true;
}

/*
 * The FSAVE tag word from FXSAVE's abridged one, as Linux's
 * convert_from_fxsr(): empty (3), or from the register's exponent and
 * integer bit: valid (0), zero (1) or special (2).
 */
static u32 fsave_tag(const u8 *fx)
{
	u16 swd, ftw;
	u32 tag = 0;
	unsigned int top;

	memcpy(&swd, fx + 2, 2);
	ftw = fx[4];
	top = (swd >> 11) & 7;
	for (unsigned int phys = 0; phys < 8; phys++) {
		const u8 *r = fx + 32 + 16 * ((phys - top) & 7);
		u16 exp;
		u64 mant;
		u32 t;

		memcpy(&mant, r, 8);
		memcpy(&exp, r + 8, 2);
		exp &= 0x7fff;
		if (!(ftw & (1U << phys)))
			t = 3;
		else if (exp == 0x7fff)
			t = 2;
		else if (exp == 0)
			t = mant ? 2 : 1;
		else
			t = (mant >> 63) ? 0 : 2;
		tag |= t << (2 * phys);
	}
	return tag | 0xffff0000U;
}

static struct fpstate_i386 fpbuf __attribute__((aligned(16)));

/* The live FPU into fpbuf, Linux's format; then a clean FPU for the handler. */
static void fpu_to_frame(void)
{
	const u8 *fx = fpbuf.fxsave;
	u16 w;
	u32 d;

	fpu_facts();
	memset(&fpbuf, 0, sizeof(fpbuf));
	fpu_save(fpbuf.fxsave);
	memcpy(&w, fx, 2);
	fpbuf.cw = w | 0xffff0000U;
	memcpy(&w, fx + 2, 2);
	fpbuf.sw = w | 0xffff0000U;
	fpbuf.status = w;
	fpbuf.tag = fsave_tag(fx);
	memcpy(&fpbuf.ipoff, fx + 8, 4);
	memcpy(&w, fx + 12, 2);
	memcpy(&d, fx + 6, 2); /* the opcode */
	fpbuf.cssel = w | ((d & 0x7ffU) << 16);
	memcpy(&fpbuf.dataoff, fx + 16, 4);
	memcpy(&w, fx + 20, 2);
	fpbuf.datasel = w | 0xffff0000U;
	for (int i = 0; i < 8; i++)
		memcpy(fpbuf.st[i], fx + 32 + 16 * i, 10);
	fpbuf.magic = X86_FXSR_MAGIC;
	fpu_restore(clean_fpu);
}

static void fill_sigcontext(struct sigcontext_i386 *sc, const struct irq_frame *f, u32 fpstate,
			    u64 mask, u32 cr2)
{
	*sc = (struct sigcontext_i386){
		.gs = f->gs & 0xffff,
		.fs = f->fs & 0xffff,
		.es = f->es & 0xffff,
		.ds = f->ds & 0xffff,
		.edi = f->edi,
		.esi = f->esi,
		.ebp = f->ebp,
		.esp = f->user_esp,
		.ebx = f->ebx,
		.edx = f->edx,
		.ecx = f->ecx,
		.eax = f->eax,
		.trapno = f->vector,
		.err = f->error,
		.eip = f->eip,
		.cs = f->cs & 0xffff,
		.eflags = f->eflags,
		.esp_at_signal = f->user_esp,
		.ss = f->user_ss & 0xffff,
		.fpstate = fpstate,
		.oldmask = (u32)mask,
		.cr2 = cr2,
	};
}

/*
 * Where the frame goes: the FPU state just below the stack (its FXSAVE
 * image 64-byte aligned), the frame below that, aligned so that the
 * handler's stack pointer + 4 is a multiple of 16, as Linux places them.
 */
static u32 frame_place(u32 sp, u32 size, u32 *fp)
{
	*fp = ((sp - FXSAVE_SIZE) & ~63U) - FPSTATE_LEGACY_SIZE;
	return ((*fp - size + 4) & ~15U) - 4;
}

static void enter_handler(struct irq_frame *f, u32 frame, const struct k_sigaction *ka)
{
	f->user_esp = frame;
	f->eip = ka->handler;
	f->cs = USER_CS;
	f->ds = f->es = f->user_ss = USER_DS;
	f->eflags &= ~(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF);
}

static struct sigframe kframe;
static struct rt_sigframe krtframe;

static bool setup_frame(int sig, const struct k_sigaction *ka, u64 mask, struct irq_frame *f,
			const struct sig_origin *o)
{
	static const u8 retcode[8] = { 0x58, 0xb8, NR_SIGRETURN, 0, 0, 0, 0xcd, 0x80 };
	u32 fp, frame = frame_place(f->user_esp, sizeof(kframe), &fp);

	memset(&kframe, 0, sizeof(kframe));
	kframe.sig = sig;
	fill_sigcontext(&kframe.sc, f, fp, mask, o->addr);
	kframe.extramask[0] = (u32)(mask >> 32);
	memcpy(kframe.retcode, retcode, sizeof(retcode));
	kframe.pretcode = (ka->flags & SA_RESTORER)
				  ? ka->restorer
				  : frame + (u32) __builtin_offsetof(struct sigframe, retcode);
	fpu_to_frame();
	if (copy_to_user(fp, &fpbuf, sizeof(fpbuf)) || copy_to_user(frame, &kframe, sizeof(kframe)))
		return false;
	enter_handler(f, frame, ka);
	f->eax = (u32)sig;
	f->edx = f->ecx = 0;
	return true;
}

static bool setup_rt_frame(int sig, const struct k_sigaction *ka, u64 mask, struct irq_frame *f,
			   const struct sig_origin *o)
{
	static const u8 retcode[8] = { 0xb8, NR_RT_SIGRETURN, 0, 0, 0, 0xcd, 0x80, 0 };
	u32 fp, frame = frame_place(f->user_esp, sizeof(krtframe), &fp);
	struct rt_sigframe *k = &krtframe;

	memset(k, 0, sizeof(*k));
	k->sig = sig;
	k->pinfo = frame + (u32) __builtin_offsetof(struct rt_sigframe, info);
	k->puc = frame + (u32) __builtin_offsetof(struct rt_sigframe, uc);
	k->info.si_signo = sig;
	k->info.si_code = o->code;
	if (o->code == SI_USER || o->code == SI_TKILL) {
		k->info.u.kill.pid = o->pid; /* uid 0: every process is root's */
	} else if (o->code == SI_TIMER) {
		k->info.u.timer.tid = o->timerid;
		k->info.u.timer.overrun = o->overrun;
		k->info.u.timer.sigval = o->value;
	} else if (sig == SIGCHLD && o->code >= CLD_EXITED && o->code <= CLD_DUMPED) {
		k->info.u.chld.pid = o->pid;
		k->info.u.chld.status = o->status;
		k->info.u.chld.utime = (s32)o->utime;
		k->info.u.chld.stime = (s32)o->stime;
	} else {
		k->info.u.fault.addr = o->addr;
	}
	k->uc.uc_stack.ss_flags = SS_DISABLE;
	fill_sigcontext(&k->uc.uc_mcontext, f, fp, mask, o->addr);
	k->uc.uc_sigmask[0] = (u32)mask;
	k->uc.uc_sigmask[1] = (u32)(mask >> 32);
	memcpy(k->retcode, retcode, sizeof(retcode));
	k->pretcode = (ka->flags & SA_RESTORER)
			      ? ka->restorer
			      : frame + (u32) __builtin_offsetof(struct rt_sigframe, retcode);
	fpu_to_frame();
	if (copy_to_user(fp, &fpbuf, sizeof(fpbuf)) || copy_to_user(frame, k, sizeof(*k)))
		return false;
	enter_handler(f, frame, ka);
	f->eax = (u32)sig;
	f->edx = k->pinfo;
	f->ecx = k->puc;
	return true;
}

/*
 * The default action that ends the process. One line when it matters
 * beyond the parent's wait status: init's end (the machine's), or a
 * signal whose default is a core dump; a shell's Ctrl-C or kill of a
 * child is quiet, as on Linux. No core file is written (the root is
 * read-only), so the status has no core flag (WCOREDUMP), as Linux's
 * when a dump fails.
 */
static int die(struct proc *p, int sig)
{
	const char *name = signal_name_of(sig);
	bool core = sig_default_action(sig) == DFL_CORE;

	local_irq_enable();
	if (p->pid == 1 || core) {
		if (name)
			dz_printk("signal: pid %d (%s) killed by %s\n", p->pid, p->comm, name);
		else
			dz_printk("signal: pid %d (%s) killed by signal %d\n", p->pid, p->comm,
				  sig);
	}
	return sig; /* the caller ends the process: proc_exit(W_SIGNALED(sig)) */
}

static int take_signal(struct proc *p)
{
	u64 m = sig_deliverable(p);
	u64 gone = (p->sig.pending & ~p->sig.blocked) & ~m;
	int sig = 0;

	/* Those pending, unblocked and ignored would only wake sleeps for nothing. */
	p->sig.pending &= ~gone;
	if (m) {
		sig = __builtin_ctzll(m) + 1;
		p->sig.pending &= ~SIG_BIT(sig);
	}
	if ((gone || sig) && sig_timer_hooks.taken)
		sig_timer_hooks.taken(p, gone, sig);
	if (((gone | (sig ? SIG_BIT(sig) : 0)) & SIG_BIT(SIGALRM)) && sig_timer_hooks.alarm_taken)
		sig_timer_hooks.alarm_taken(p);
	return sig;
}

/* ---- restarting an interrupted system call ---- */

/* Does f return from a system call that a signal ended with one of the restart codes? */
static bool restart_pending(const struct proc *p, const struct irq_frame *f)
{
	s32 ret = (s32)f->eax;

	return f->vector == SYSCALL_VECTOR && p->syscall_nr >= 0 && ret <= -ERESTARTSYS &&
	       ret >= -ERESTART_RESTARTBLOCK;
}

/* The call is made again: its number back in EAX, EIP back on the 2-byte int $0x80. */
static void restart_call(struct proc *p, struct irq_frame *f)
{
	f->eax = (u32)p->syscall_nr;
	f->eip -= 2;
}

/* Before a handler's frame saves the registers, as Linux's handle_signal(). */
static void restart_for_handler(struct proc *p, struct irq_frame *f, u32 sa_flags)
{
	if (!restart_pending(p, f))
		return;
	switch (-(s32)f->eax) {
	case ERESTARTSYS:
		if (sa_flags & SA_RESTART) {
			restart_call(p, f);
			break;
		}
		f->eax = (u32)-EINTR;
		break;
	case ERESTARTNOINTR:
		restart_call(p, f);
		break;
	default: /* ERESTARTNOHAND, ERESTART_RESTARTBLOCK */
		f->eax = (u32)-EINTR;
		break;
	}
}

/*
 * No handler ran (the signal was ignored by the time it was taken): the
 * call is made again, as Linux's. A restart block would need Linux's
 * restart_syscall, which the sleeps here do not use: EINTR.
 */
static void restart_without_handler(struct proc *p, struct irq_frame *f)
{
	if (!restart_pending(p, f))
		return;
	if (-(s32)f->eax == ERESTART_RESTARTBLOCK)
		f->eax = (u32)-EINTR;
	else
		restart_call(p, f);
}

/*
 * A handler runs: its frame is built, the mask grows by the action's.
 * Returns 0, or SIGSEGV when the frame did not fit and that ends the
 * process (die()).
 */
static int handle(struct proc *p, int sig, struct irq_frame *f)
{
	struct k_sigaction *ka = sig_action(p, sig);
	struct k_sigaction act = *ka;
	u64 saved = p->sig.restore_blocked ? p->sig.saved_blocked : p->sig.blocked;
	bool ok;

	restart_for_handler(p, f, act.flags);
	if (act.flags & SA_SIGINFO)
		ok = setup_rt_frame(sig, &act, saved, f, &p->sig.origin[sig - 1]);
	else
		ok = setup_frame(sig, &act, saved, f, &p->sig.origin[sig - 1]);
	if (!ok) {
		/* No room for the frame: Linux's answer is SIGSEGV, by default fatal. */
		if (sig == SIGSEGV)
			return die(p, SIGSEGV);
		signal_force(p, SIGSEGV, SI_KERNEL, 0);
		return 0;
	}
	p->sig.restore_blocked = false;
	p->sig.blocked |= act.mask;
	if (!(act.flags & SA_NODEFER))
		p->sig.blocked |= SIG_BIT(sig);
	p->sig.blocked &= ~UNBLOCKABLE;
	if (act.flags & SA_RESETHAND)
		*ka = (struct k_sigaction){ 0 };
	return 0;
}

int signal_return_to_user(struct irq_frame *f)
{
	struct proc *p = proc_current();

	if (!p || !frame_from_user(f))
		return 0;
	for (int n = 0; n < NSIG; n++) {
		int sig = take_signal(p), fatal;

		if (!sig)
			break;
		if (sig_action(p, sig)->handler == SIG_DFL)
			return die(p, sig); /* ignored defaults are not sig_deliverable */
		fatal = handle(p, sig, f);
		if (fatal)
			return fatal;
	}
	/* The restart codes never reach user space. */
	restart_without_handler(p, f);
	if (p->sig.restore_blocked) {
		p->sig.blocked = p->sig.saved_blocked;
		p->sig.restore_blocked = false;
	}
	return 0;
}

/* ---- sigreturn ---- */

/* Is sel one the process may load: USER_DS, null, or one of its TLS entries (present, DPL 3, data)? */
static bool user_selector_ok(const struct proc *p, u32 sel)
{
	u32 idx = sel >> 3;
	u64 d;

	if (sel == 0 || sel == USER_DS)
		return true;
	if ((sel & 7) != 3 || idx < GDT_TLS_FIRST || idx >= GDT_TLS_FIRST + GDT_TLS_ENTRIES)
		return false;
	d = p->tls[idx - GDT_TLS_FIRST];
	/* present (bit 47), DPL 3 (45-46), code or data (44), data (43 clear) */
	return ((d >> 47) & 1) && ((d >> 45) & 3) == 3 && ((d >> 44) & 1) && !((d >> 43) & 1);
}

static u32 user_selector(const struct proc *p, u32 sel, u32 fallback)
{
	sel &= 0xffff;
	return user_selector_ok(p, sel) ? sel : fallback;
}

static u8 fxbuf[FPU_STATE_SIZE] __attribute__((aligned(16)));

/* The FXSAVE image of the frame back into the FPU, MXCSR made acceptable. */
static bool fpu_from_frame(u32 fpstate)
{
	u32 mxcsr;

	fpu_facts();
	if (!fpstate) {
		fpu_restore(clean_fpu); /* no state saved: a clean FPU, as Linux */
		return true;
	}
	if (copy_from_user(fxbuf, fpstate + FPSTATE_LEGACY_SIZE, FXSAVE_SIZE))
		return false;
	memcpy(&mxcsr, fxbuf + 24, 4);
	mxcsr &= mxcsr_mask; /* a reserved bit would make FXRSTOR fault in the kernel */
	memcpy(fxbuf + 24, &mxcsr, 4);
	fpu_restore(fxbuf);
	return true;
}

/*
 * The registers of a frame that user space may have forged: the code and
 * stack segments are forced to the user's, other selectors must be ones
 * ring 3 may hold, and of EFLAGS only what user code may change itself
 * is taken (no IOPL, no VM or NT; IF stays on).
 */
static bool restore_sigcontext(struct proc *p, struct irq_frame *f,
			       const struct sigcontext_i386 *sc)
{
	f->gs = user_selector(p, sc->gs, 0);
	f->fs = user_selector(p, sc->fs, 0);
	f->es = user_selector(p, sc->es, USER_DS);
	f->ds = user_selector(p, sc->ds, USER_DS);
	f->edi = sc->edi;
	f->esi = sc->esi;
	f->ebp = sc->ebp;
	f->ebx = sc->ebx;
	f->edx = sc->edx;
	f->ecx = sc->ecx;
	f->eax = sc->eax;
	f->eip = sc->eip;
	f->cs = USER_CS;
	f->user_esp = sc->esp;
	f->user_ss = USER_DS;
	f->eflags = (f->eflags & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS);
	f->eflags &= ~(X86_EFLAGS_IOPL | X86_EFLAGS_NT | X86_EFLAGS_VM);
	f->eflags |= X86_EFLAGS_IF;
	return fpu_from_frame(sc->fpstate);
}

static long bad_frame(struct proc *p)
{
	signal_force(p, SIGSEGV, SI_KERNEL, 0);
	return -EFAULT;
}

/* Interrupts off around the restore: the FPU must not be switched out half loaded. */
static long sigreturn_common(struct proc *p, struct irq_frame *f, const struct sigcontext_i386 *sc,
			     u64 mask)
{
	unsigned long flags;
	bool ok;

	sig_set_blocked(p, mask);
	p->syscall_nr = -1; /* the EAX restored is the program's, never a restart code */
	flags = dz_irq_save();
	ok = restore_sigcontext(p, f, sc);
	dz_irq_restore(flags);
	if (!ok)
		return bad_frame(p);
	return (long)f->eax; /* the dispatcher puts it back in EAX */
}

/* The restorer popped the signal number: the frame began 8 bytes below. */
SYSCALL_DEFINE0(sigreturn)
{
	struct proc *p = proc_current();
	struct irq_frame *f = args->frame;
	struct sigframe *k = &kframe;
	unsigned long flags = dz_irq_save();
	long ret;

	if (copy_from_user(k, f->user_esp - 8, sizeof(*k))) {
		dz_irq_restore(flags);
		return bad_frame(p);
	}
	ret = sigreturn_common(p, f, &k->sc, k->sc.oldmask | (u64)k->extramask[0] << 32);
	dz_irq_restore(flags);
	return ret;
}

/* The handler's return popped pretcode: the frame began 4 bytes below. */
SYSCALL_DEFINE0(rt_sigreturn)
{
	struct proc *p = proc_current();
	struct irq_frame *f = args->frame;
	struct rt_sigframe *k = &krtframe;
	unsigned long flags = dz_irq_save();
	long ret;

	if (copy_from_user(k, f->user_esp - 4, sizeof(*k))) {
		dz_irq_restore(flags);
		return bad_frame(p);
	}
	ret = sigreturn_common(p, f, &k->uc.uc_mcontext,
			       k->uc.uc_sigmask[0] | (u64)k->uc.uc_sigmask[1] << 32);
	dz_irq_restore(flags);
	return ret;
}
