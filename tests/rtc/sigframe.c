// SPDX-License-Identifier: MIT
/*
 * The signal frame layout (kernel/include/kernel/sigframe.h) against the
 * Linux UAPI headers of this host: every register of struct sigcontext_32
 * and the FPU frame's fields at the offsets Linux gives them. Compile-time
 * checks only: building this file is the test (the header adds its own
 * sizes, Linux's values written out).
 */
#include <kernel/sigframe.h>
#include <asm/sigcontext.h>
#include <stddef.h>

#define SAME(mine, member, linux_type, linux_member)                                               \
	_Static_assert(offsetof(struct mine, member) == offsetof(struct linux_type, linux_member), \
		       #mine "." #member)

SAME(sigcontext_i386, gs, sigcontext_32, gs);
SAME(sigcontext_i386, fs, sigcontext_32, fs);
SAME(sigcontext_i386, es, sigcontext_32, es);
SAME(sigcontext_i386, ds, sigcontext_32, ds);
SAME(sigcontext_i386, edi, sigcontext_32, di);
SAME(sigcontext_i386, esi, sigcontext_32, si);
SAME(sigcontext_i386, ebp, sigcontext_32, bp);
SAME(sigcontext_i386, esp, sigcontext_32, sp);
SAME(sigcontext_i386, ebx, sigcontext_32, bx);
SAME(sigcontext_i386, edx, sigcontext_32, dx);
SAME(sigcontext_i386, ecx, sigcontext_32, cx);
SAME(sigcontext_i386, eax, sigcontext_32, ax);
SAME(sigcontext_i386, trapno, sigcontext_32, trapno);
SAME(sigcontext_i386, err, sigcontext_32, err);
SAME(sigcontext_i386, eip, sigcontext_32, ip);
SAME(sigcontext_i386, cs, sigcontext_32, cs);
SAME(sigcontext_i386, eflags, sigcontext_32, flags);
SAME(sigcontext_i386, esp_at_signal, sigcontext_32, sp_at_signal);
SAME(sigcontext_i386, ss, sigcontext_32, ss);
SAME(sigcontext_i386, fpstate, sigcontext_32, fpstate);
SAME(sigcontext_i386, oldmask, sigcontext_32, oldmask);
SAME(sigcontext_i386, cr2, sigcontext_32, cr2);
_Static_assert(sizeof(struct sigcontext_i386) == sizeof(struct sigcontext_32), "size");
SAME(fpstate_i386, tag, _fpstate_32, tag);
SAME(fpstate_i386, datasel, _fpstate_32, datasel);
SAME(fpstate_i386, st, _fpstate_32, _st);
SAME(fpstate_i386, status, _fpstate_32, status);
SAME(fpstate_i386, magic, _fpstate_32, magic);
SAME(fpstate_i386, fxsave, _fpstate_32, _fxsr_env);
_Static_assert(sizeof(struct fpstate_i386) == sizeof(struct _fpstate_32), "fpstate size");
_Static_assert(offsetof(struct fpstate_i386, fxsave) + 24 == offsetof(struct _fpstate_32, mxcsr),
	       "mxcsr in the FXSAVE image");
