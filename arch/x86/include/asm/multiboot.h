/* SPDX-License-Identifier: MIT */
/*
 * The parts of the Multiboot v1 specification the kernel uses: the header
 * that makes it loadable and the information structure the loader hands
 * over (we read only the flags and the command line).
 */
#ifndef ASM_MULTIBOOT_H
#define ASM_MULTIBOOT_H

#define MULTIBOOT_HEADER_MAGIC	   0x1BADB002
#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002
/* Bit 0: page-align modules; bit 1: give us the memory map. */
#define MULTIBOOT_HEADER_FLAGS 0x00000003
#define MULTIBOOT_INFO_CMDLINE (1U << 2)

/* The boot CPU's stack: the boot thread runs on it until the idle loop. */
#define BOOT_STACK_SIZE 16384

#ifndef __ASSEMBLY__
#include <dynhz/types.h>

struct multiboot_info {
	u32 flags;
	u32 mem_lower, mem_upper;
	u32 boot_device;
	u32 cmdline;
	/* further fields unused */
};
#endif

#endif
