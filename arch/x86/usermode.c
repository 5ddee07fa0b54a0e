// SPDX-License-Identifier: MIT
/* Entering ring 3: an IRET with a frame built by hand. */
#include <kernel/arch.h>

#define EFLAGS_RESERVED (1U << 1) /* always reads as 1 */

_Noreturn void arch_enter_user(u32 eip, u32 esp)
{
	/* IOPL stays 0: CLI, HLT and port I/O fault in ring 3. */
	static const u32 flags = X86_EFLAGS_IF | EFLAGS_RESERVED;

	__asm__ volatile("cli\n\t"
			 "mov %0, %%ds\n\t"
			 "mov %0, %%es\n\t"
			 "mov %0, %%fs\n\t"
			 "mov %0, %%gs\n\t"
			 "pushl %0\n\t" /* ss */
			 "pushl %1\n\t" /* esp */
			 "pushl %2\n\t" /* eflags */
			 "pushl %3\n\t" /* cs */
			 "pushl %4\n\t" /* eip */
			 "xor %%eax, %%eax\n\t"
			 "xor %%ebx, %%ebx\n\t"
			 "xor %%ecx, %%ecx\n\t"
			 "xor %%edx, %%edx\n\t"
			 "xor %%esi, %%esi\n\t"
			 "xor %%edi, %%edi\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "iret"
			 :
			 : "r"(USER_DS), "r"(esp), "m"(flags), "i"(USER_CS), "r"(eip)
			 : "memory");
	__builtin_unreachable();
}
