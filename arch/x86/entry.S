/* SPDX-License-Identifier: MIT */
/*
 * Interrupt and exception entry: one 16-byte stub per vector, all 256 of
 * them, so that whatever fires (an exception, a PIC line, a spurious or
 * stray vector) lands in x86_interrupt() with a frame that says which,
 * instead of triple-faulting the machine.
 *
 * The CPU pushes an error code for vectors 8, 10-14, 17, 21, 29 and 30 only;
 * the other stubs push a zero in its place so that every frame has one shape.
 */
#include <asm/irq.h>
#include <asm/desc.h>

	.altmacro
	.macro vector_stub v
	.balign 16
	.if (\v == 8) || ((\v >= 10) && (\v <= 14)) || (\v == 17) || (\v == 21) || (\v == 29) || (\v == 30)
	.else
	pushl	$0
	.endif
	pushl	$\v
	jmp	isr_common
	.endm

	.text
	.balign 16
	.globl isr_stubs
isr_stubs:
	.set vec, 0
	.rept NR_VECTORS
	vector_stub %vec
	.set vec, vec + 1
	.endr

/*
 * From ring 3 the data segments are the user's (based at the user region),
 * so they are saved and the kernel's loaded before any C code runs.
 */
isr_common:
	push	%ds
	push	%es
	push	%fs
	push	%gs
	pushal
	cld
	mov	$KERNEL_DS, %ax
	mov	%ax, %ds
	mov	%ax, %es
	mov	%ax, %fs
	mov	%ax, %gs
	mov	%esp, %eax
	push	%eax
	call	x86_interrupt
	add	$4, %esp
isr_return:
	popal
	pop	%gs
	pop	%fs
	pop	%es
	pop	%ds
	add	$8, %esp		/* vector and error code */
	iret

/*
 * void arch_enter_user_frame(struct irq_frame *f): returns to ring 3 through
 * a frame made by hand (a forked child's copy of its parent's), as if an
 * interrupt were ending. Interrupts off; the frame is the stack from here.
 */
	.globl arch_enter_user_frame
	.type arch_enter_user_frame, @function
arch_enter_user_frame:
	mov	4(%esp), %esp
	jmp	isr_return
	.size arch_enter_user_frame, . - arch_enter_user_frame
