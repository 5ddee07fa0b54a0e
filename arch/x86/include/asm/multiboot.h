/* SPDX-License-Identifier: MIT */
/*
 * The parts of the Multiboot v1 specification the kernel uses: the header
 * that makes it loadable and the information structure the loader hands
 * over: the command line, the modules (the initramfs) and the memory map.
 */
#ifndef ASM_MULTIBOOT_H
#define ASM_MULTIBOOT_H

#define MULTIBOOT_HEADER_MAGIC	   0x1BADB002
#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002
/* Bit 0: page-align modules; bit 1: give us the memory map. */
#define MULTIBOOT_HEADER_FLAGS	   0x00000003
#define MULTIBOOT_INFO_MEMORY	   (1U << 0)
#define MULTIBOOT_INFO_CMDLINE	   (1U << 2)
#define MULTIBOOT_INFO_MODS	   (1U << 3)
#define MULTIBOOT_INFO_MMAP	   (1U << 6)
#define MULTIBOOT_MEMORY_AVAILABLE 1

/* The boot CPU's stack: the boot thread runs on it until the idle loop. */
#define BOOT_STACK_SIZE 16384

#ifndef __ASSEMBLY__
#include <dynhz/types.h>

struct multiboot_info {
	u32 flags;
	u32 mem_lower, mem_upper; /* KiB below 1 MiB, and from 1 MiB to the first hole */
	u32 boot_device;
	u32 cmdline;
	u32 mods_count, mods_addr;
	u32 syms[4];
	u32 mmap_length, mmap_addr;
	/* further fields unused */
};

struct multiboot_module {
	u32 mod_start, mod_end; /* physical, end exclusive */
	u32 string;
	u32 reserved;
};

/* One entry of the memory map; size counts the bytes after itself. */
struct multiboot_mmap_entry {
	u32 size;
	u64 addr, len;
	u32 type;
} __attribute__((packed));
#endif

#endif
