/* SPDX-License-Identifier: MIT */
/*
 * The registers of an interrupted context (<kernel/arch.h> includes it):
 * what entry.S saves for every vector, which the kernel reads for a
 * system call's arguments, a signal's frame and a fork's child.
 */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#include <asm/segment.h>

/* The system-call vector: `int $0x80`, a trap gate ring 3 may raise. */
#define SYSCALL_VECTOR 0x80
/* The page-fault vector: its error code's bits, and CR2 the address (read_cr2()). */
#define PAGE_FAULT_VECTOR 14

#ifndef __ASSEMBLY__
#include <dynhz/types.h>

/* What entry.S pushes, lowest address first. */
struct irq_frame {
	u32 edi, esi, ebp, esp_unused, ebx, edx, ecx, eax; /* PUSHAL */
	u32 gs, fs, es, ds;    /* the interrupted segments (user ones from ring 3) */
	u32 vector, error;     /* error is 0 for vectors without one */
	u32 eip, cs, eflags;   /* pushed by the CPU */
	u32 user_esp, user_ss; /* pushed by the CPU only when it came from ring 3 */
};

/* Did the interrupt or exception come from user mode (ring 3)? */
static inline bool frame_from_user(const struct irq_frame *f)
{
	return (f->cs & 3) != 0;
}
#endif /* __ASSEMBLY__ */

#endif
