/* SPDX-License-Identifier: MIT */
/*
 * The Linux i386 signal frames, byte for byte, as kernel/sched/signal.c builds
 * them on the user stack and as glibc, musl and debuggers read them
 * (Linux: arch/x86/include/asm/sigframe.h, uapi/asm/sigcontext.h,
 * uapi/asm-generic/siginfo.h). Fixed-width members only, so the layout is
 * the same in the kernel and in a 64-bit host test; the sizes and offsets
 * below are Linux's, checked at compile time.
 *
 * Below the stack pointer the handler finds, lowest address first:
 *
 *	non-RT (no SA_SIGINFO)		RT (SA_SIGINFO)
 *	struct sigframe			struct rt_sigframe
 *	...				...
 *	struct fpstate_i386 (optional, its FXSAVE image 64-byte aligned)
 *	the interrupted stack
 *
 * and its stack pointer + 4 is 16-byte aligned, as after a call.
 */
#ifndef KERNEL_SIGFRAME_H
#define KERNEL_SIGFRAME_H

#include <dynhz/types.h>

/* The registers at the signal; the upper halves of the selectors are zero. */
struct sigcontext_i386 {
	u32 gs, fs, es, ds;
	u32 edi, esi, ebp, esp, ebx, edx, ecx, eax;
	u32 trapno, err, eip, cs, eflags, esp_at_signal, ss;
	u32 fpstate; /* user address of a struct fpstate_i386, or 0 */
	u32 oldmask; /* the blocked mask to restore, signals 1-32 */
	u32 cr2;
};

/*
 * The FPU state: the legacy FSAVE environment Linux converts from FXSAVE
 * (112 bytes), then the FXSAVE image itself (512 bytes). magic 0 says the
 * FXSAVE part is there.
 */
#define FPSTATE_LEGACY_SIZE 112
#define FXSAVE_SIZE	    512
#define X86_FXSR_MAGIC	    0x0000

struct fpstate_i386 {
	u32 cw, sw, tag, ipoff, cssel, dataoff, datasel;
	u8 st[8][10];
	u16 status, magic;
	u8 fxsave[FXSAVE_SIZE];
};

/* siginfo: 128 bytes; the fields a signal from kill or the kernel fills. */
struct siginfo_i386 {
	s32 si_signo, si_errno, si_code;
	union {
		struct {
			s32 pid;
			u32 uid;
		} kill;
		struct {
			u32 addr;
		} fault;
		struct {
			s32 pid;
			u32 uid;
			s32 status; /* the exit code, or the signal that ended it */
			s32 utime, stime;
		} chld;
		struct {
			s32 tid; /* the timer's id */
			s32 overrun;
			u32 sigval; /* sigev_value */
			s32 sys_private;
		} timer;
		u8 pad[128 - 12];
	} u;
};

#define SI_USER	  0
#define SI_KERNEL 0x80
#define SI_TKILL  (-6)
#define SI_TIMER  (-2)

/* SIGCHLD's si_code: how the child ended. */
#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_DUMPED 3

struct stack_i386 {
	u32 ss_sp;
	s32 ss_flags;
	u32 ss_size;
};

#define SS_DISABLE 2

struct ucontext_i386 {
	u32 uc_flags;
	u32 uc_link;
	struct stack_i386 uc_stack;
	struct sigcontext_i386 uc_mcontext;
	u32 uc_sigmask[2]; /* signals 1-32, 33-64 */
};

/* For a handler without SA_SIGINFO: handler(sig); its return pops pretcode. */
struct sigframe {
	u32 pretcode; /* the restorer: pops sig, calls sigreturn (119) */
	s32 sig;
	struct sigcontext_i386 sc;
	u8 fpstate_unused[624]; /* Linux's old place of the FPU state, kept for the offsets */
	u32 extramask[1];	/* blocked signals 33-64 */
	u8 retcode[8];		/* popl %eax; movl $119, %eax; int $0x80 */
};

/* For a handler with SA_SIGINFO: handler(sig, &info, &uc). */
struct rt_sigframe {
	u32 pretcode; /* the restorer: calls rt_sigreturn (173) */
	s32 sig;
	u32 pinfo, puc; /* user addresses of info and uc */
	struct siginfo_i386 info;
	struct ucontext_i386 uc;
	u8 retcode[8]; /* movl $173, %eax; int $0x80 */
};

#define SIGFRAME_CHECK(type, member, off) \
	_Static_assert(__builtin_offsetof(struct type, member) == (off), #type "." #member)

_Static_assert(sizeof(struct sigcontext_i386) == 88, "sigcontext_i386");
SIGFRAME_CHECK(sigcontext_i386, edi, 16);
SIGFRAME_CHECK(sigcontext_i386, eax, 44);
SIGFRAME_CHECK(sigcontext_i386, trapno, 48);
SIGFRAME_CHECK(sigcontext_i386, eip, 56);
SIGFRAME_CHECK(sigcontext_i386, eflags, 64);
SIGFRAME_CHECK(sigcontext_i386, ss, 72);
SIGFRAME_CHECK(sigcontext_i386, fpstate, 76);
SIGFRAME_CHECK(sigcontext_i386, oldmask, 80);
_Static_assert(sizeof(struct fpstate_i386) == 624, "fpstate_i386");
SIGFRAME_CHECK(fpstate_i386, status, 108);
SIGFRAME_CHECK(fpstate_i386, magic, 110);
SIGFRAME_CHECK(fpstate_i386, fxsave, FPSTATE_LEGACY_SIZE);
_Static_assert(sizeof(struct siginfo_i386) == 128, "siginfo_i386");
SIGFRAME_CHECK(siginfo_i386, u.kill.pid, 12);
SIGFRAME_CHECK(siginfo_i386, u.kill.uid, 16);
SIGFRAME_CHECK(siginfo_i386, u.fault.addr, 12);
_Static_assert(sizeof(struct ucontext_i386) == 116, "ucontext_i386");
SIGFRAME_CHECK(ucontext_i386, uc_mcontext, 20);
SIGFRAME_CHECK(ucontext_i386, uc_sigmask, 108);
_Static_assert(sizeof(struct sigframe) == 732, "sigframe");
SIGFRAME_CHECK(sigframe, sc, 8);
SIGFRAME_CHECK(sigframe, extramask, 720);
SIGFRAME_CHECK(sigframe, retcode, 724);
_Static_assert(sizeof(struct rt_sigframe) == 268, "rt_sigframe");
SIGFRAME_CHECK(rt_sigframe, info, 16);
SIGFRAME_CHECK(rt_sigframe, uc, 144);
SIGFRAME_CHECK(rt_sigframe, retcode, 260);

#endif
