// SPDX-License-Identifier: MIT
#include <asm/irq.h>
#include <asm/pic.h>
#include <asm/serial.h>
#include <asm/exit.h>
#include <asm/cpu.h>
#include <asm/tsc.h>
#include <asm/multiboot.h>
#include <kernel/clock.h>
#include <dynhz/printk.h>
#include <dynhz/jiffies.h>
#include <dynhz/timekeeping.h>

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
	dz_printk("dynhz: cmdline '%s'\n", cmdline);
	local_irq_enable();
	clock_init(cmdline);
	{
		unsigned long j0;
		u64 t0, t1;
		j0 = jiffies;
		while (jiffies == j0)
			safe_halt();
		j0 = jiffies;
		t0 = rdtsc();
		while (jiffies - j0 < HZ)
			safe_halt();
		t1 = rdtsc();
		dz_printk("HZ ticks took %llu ns, ktime %llu\n", (unsigned long long)tsc_to_ns(t1 - t0), (unsigned long long)ktime_get_ns());
	}
	machine_exit(QEMU_EXIT_SUCCESS);
}
void sched_thread_start(void);
void sched_thread_start(void) {}
