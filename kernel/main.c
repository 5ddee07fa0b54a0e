// SPDX-License-Identifier: MIT
#include <asm/irq.h>
#include <asm/pic.h>
#include <asm/serial.h>
#include <asm/exit.h>
#include <asm/cpu.h>
#include <asm/multiboot.h>
#include <dynhz/printk.h>

_Noreturn void kernel_main(u32 magic, const struct multiboot_info *mbi);

_Noreturn void kernel_main(u32 magic, const struct multiboot_info *mbi)
{
	const char *cmdline = "";

	serial_init();
	gdt_init();
	idt_init();
	pic_init();
	if (magic == MULTIBOOT_BOOTLOADER_MAGIC && (mbi->flags & MULTIBOOT_INFO_CMDLINE))
		cmdline = (const char *)(uintptr_t)mbi->cmdline;
	dz_printk("dynhz: cmdline '%s' tsc %llu\n", cmdline, (unsigned long long)rdtsc());
	machine_exit(QEMU_EXIT_SUCCESS);
}
void sched_thread_start(void);
void sched_thread_start(void) {}
