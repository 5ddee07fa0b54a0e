/* SPDX-License-Identifier: MIT */
/*
 * The user program's entry. The kernel leaves the argument string's
 * address on top of the stack; main(arg)'s result is the exit status.
 */
	.section .text.entry, "ax"
	.globl _start
	.type _start, @function
_start:
	xor	%ebp, %ebp		/* ends backtraces */
	mov	(%esp), %eax
	and	$-16, %esp		/* the i386 ABI's alignment at a call */
	sub	$12, %esp
	push	%eax
	call	main
	mov	%eax, (%esp)
	call	_exit
	ud2
	.size _start, . - _start
