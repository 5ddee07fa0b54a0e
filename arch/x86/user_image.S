/* SPDX-License-Identifier: MIT */
/*
 * The user program (built from user/ as a flat binary linked at its place
 * in the user region), carried inside the kernel image: the kernel copies
 * it into the user region before each run.
 */
	.section .rodata
	.balign 16
	.globl user_image_start, user_image_end
user_image_start:
	.incbin USER_IMAGE
user_image_end:
