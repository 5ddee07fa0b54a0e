// SPDX-License-Identifier: MIT
/*
 * The boot CPU's bring-up and the loader's facts (arch_setup() and
 * boot_params of <kernel/arch.h>), first thing in start_kernel().
 *
 * The console comes up first, so that everything after it can print;
 * then our own descriptor tables (the loader's GDT may be anywhere), the
 * system call's gate, the interrupt controller with every line masked,
 * the FPU and SSE for ring 3. Interrupts stay off.
 *
 * Multiboot v1 gives the command line, the modules (the first one is the
 * initramfs) and the memory map, in memory the kernel will hand out: the
 * command line is copied and the module's bounds kept before any page is;
 * the memory map is read by page_alloc_init(), before the first page too.
 */
#include <kernel/arch.h>
#include <asm/setup.h>
#include <asm/serial.h>
#include <asm/pic.h>
#include <asm/multiboot.h>

u32 multiboot_magic, multiboot_info;
struct boot_params boot_params = { .cmdline = "" };

/* The loader's copy may lie in memory the kernel hands out: this one stays. */
static char cmdline_copy[BOOT_CMDLINE_MAX];

extern const char __kernel_end[];

static const struct multiboot_info *loader_info(void)
{
	if (multiboot_magic != MULTIBOOT_BOOTLOADER_MAGIC)
		return NULL;
	return (const struct multiboot_info *)(uintptr_t)multiboot_info;
}

static void take_loader_info(void)
{
	const struct multiboot_info *mbi = loader_info();
	const struct multiboot_module *mod;

	boot_params.image_start = (u32)(uintptr_t)__kernel_start;
	boot_params.image_end = (u32)(uintptr_t)__kernel_end;
	if (mbi && (mbi->flags & MULTIBOOT_INFO_CMDLINE)) {
		const char *c = (const char *)(uintptr_t)mbi->cmdline;
		size_t n = strlen(c);

		if (n >= sizeof(cmdline_copy))
			n = sizeof(cmdline_copy) - 1;
		memcpy(cmdline_copy, c, n);
		boot_params.cmdline = cmdline_copy;
	}
	if (!mbi || !(mbi->flags & MULTIBOOT_INFO_MODS) || !mbi->mods_count)
		return;
	mod = (const struct multiboot_module *)(uintptr_t)mbi->mods_addr;
	boot_params.have_initrd = true;
	boot_params.initrd_start = mod->mod_start;
	boot_params.initrd_end = mod->mod_end;
}

bool arch_ram_range(unsigned int i, u64 *start, u64 *end)
{
	const struct multiboot_info *mbi = loader_info();

	if (mbi && (mbi->flags & MULTIBOOT_INFO_MMAP)) {
		u32 off = 0;

		while (off + sizeof(struct multiboot_mmap_entry) <= mbi->mmap_length) {
			const struct multiboot_mmap_entry *e =
				(const void *)(uintptr_t)(mbi->mmap_addr + off);

			off += e->size + 4;
			if (e->type != MULTIBOOT_MEMORY_AVAILABLE || i--)
				continue;
			*start = e->addr;
			*end = e->addr + e->len;
			return true;
		}
		return false;
	}
	/* No map: the memory from 1 MiB up to the first hole. */
	if (mbi && (mbi->flags & MULTIBOOT_INFO_MEMORY) && i == 0) {
		*start = 0x100000;
		*end = 0x100000 + (u64)mbi->mem_upper * 1024;
		return true;
	}
	return false;
}

void arch_setup(void)
{
	serial_init();
	gdt_init();
	idt_init();
	idt_allow_user(SYSCALL_VECTOR);
	pic_init();
	fpu_init();
	take_loader_info();
}
