/* SPDX-License-Identifier: MIT */
/*
 * Thread switch. Only the callee-saved registers need saving: the switch
 * is an ordinary function call, so the compiler has already saved the rest.
 *
 *	void arch_switch_to(unsigned long *prev_sp, unsigned long next_sp);
 *
 * A new thread's stack is prepared by arch_thread_stack_init() to look as
 * if it had called arch_switch_to() from arch_thread_entry.
 */
	.text
	.globl arch_switch_to
	.type arch_switch_to, @function
arch_switch_to:
	mov	4(%esp), %eax
	mov	8(%esp), %edx
	push	%ebp
	push	%ebx
	push	%esi
	push	%edi
	mov	%esp, (%eax)
	mov	%edx, %esp
	pop	%edi
	pop	%esi
	pop	%ebx
	pop	%ebp
	ret
	.size arch_switch_to, . - arch_switch_to

	.globl arch_thread_entry
	.type arch_thread_entry, @function
arch_thread_entry:
	xor	%ebp, %ebp		/* ends backtraces */
	call	sched_thread_start	/* never returns */
	ud2
	.size arch_thread_entry, . - arch_thread_entry
