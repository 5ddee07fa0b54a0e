/* SPDX-License-Identifier: MIT */
/*
 * Multiboot v1 entry. The loader (QEMU's -kernel, GRUB) enters in 32-bit
 * protected mode with paging off, interrupts off, EAX = the multiboot magic
 * and EBX = the address of the multiboot information structure. Nothing
 * else can be trusted: no stack, a GDT we do not own, the BSS perhaps not
 * cleared. We clear the BSS, take our own stack, keep the loader's two
 * registers for arch_setup() and call the kernel's start_kernel().
 */
#include <asm/multiboot.h>

	.section .multiboot, "a"
	.balign 4
multiboot_header:
	.long MULTIBOOT_HEADER_MAGIC
	.long MULTIBOOT_HEADER_FLAGS
	.long -(MULTIBOOT_HEADER_MAGIC + MULTIBOOT_HEADER_FLAGS)

	.section .text.entry, "ax"
	.globl _start
	.type _start, @function
_start:
	cld
	/* Keep the loader's registers while the BSS is cleared. */
	mov	%eax, %esi
	mov	%ebx, %edx
	mov	$__bss_start, %edi
	mov	$__bss_end, %ecx
	sub	%edi, %ecx
	xor	%eax, %eax
	rep stosb

	mov	$boot_stack_top, %esp
	xor	%ebp, %ebp		/* ends backtraces */
	push	$0			/* EFLAGS: IF and DF clear */
	popf
	mov	%esi, multiboot_magic	/* for arch_setup() (setup.c) */
	mov	%edx, multiboot_info
	call	start_kernel		/* the kernel's, <kernel/arch.h> */
	/* start_kernel never returns; if it does, stop here. */
1:	cli
	hlt
	jmp	1b
	.size _start, . - _start

	.section .bss
	.balign 16
	.globl boot_stack_bottom
boot_stack_bottom:
	.skip BOOT_STACK_SIZE
boot_stack_top:
