// SPDX-License-Identifier: MIT
/*
 * CPU exceptions. One raised in ring 3 is the user program's: the
 * kernel's user_fault() deals with it (a page filled, a signal, the
 * program's end) and the kernel carries on. One raised
 * in the kernel is a kernel bug: say which one, where, and what the kernel
 * was doing, then stop through the exit device with failure. Nothing here
 * may hang or fault again silently.
 */
#include <kernel/arch.h>
#include <asm/irq.h>
#include <dynhz/printk.h>

static const char *const exception_names[32] = {
	[0] = "#DE divide error",
	[1] = "#DB debug",
	[2] = "NMI",
	[3] = "#BP breakpoint",
	[4] = "#OF overflow",
	[5] = "#BR bound range exceeded",
	[6] = "#UD invalid opcode",
	[7] = "#NM device not available",
	[8] = "#DF double fault",
	[9] = "coprocessor segment overrun",
	[10] = "#TS invalid TSS",
	[11] = "#NP segment not present",
	[12] = "#SS stack-segment fault",
	[13] = "#GP general protection",
	[14] = "#PF page fault",
	[16] = "#MF x87 floating-point error",
	[17] = "#AC alignment check",
	[18] = "#MC machine check",
	[19] = "#XM SIMD floating-point",
	[20] = "#VE virtualization",
	[21] = "#CP control protection",
	[29] = "#VC VMM communication",
	[30] = "#SX security",
};

static int in_trap;

void trap_describe(void)
{
	/* A fault inside the report must not recurse forever. */
	if (in_trap++ == 0)
		sched_describe();
}

extern const char __kernel_end[];

/* Follows the frame-pointer chain while it stays inside the kernel image. */
static void backtrace(u32 ebp)
{
	dz_printk("  backtrace:");
	for (int i = 0; i < 12 && ebp >= (u32)(uintptr_t)__kernel_start &&
			ebp + 8 <= (u32)(uintptr_t)__kernel_end && !(ebp & 3);
	     i++) {
		const u32 *fp = (const u32 *)(uintptr_t)ebp;

		dz_printk(" 0x%x", (unsigned int)fp[1]);
		if (fp[0] <= ebp)
			break;
		ebp = fp[0];
	}
	dz_printk("\n");
}

void x86_exception(struct irq_frame *f)
{
	unsigned int v = f->vector;
	const char *name = v < 32 && exception_names[v] ? exception_names[v] : "reserved";
	/* No privilege change: the interrupted ESP is just above the frame. */
	u32 esp = (u32)(uintptr_t)&f->eflags + 4;

	if (frame_from_user(f) && user_fault(f, name))
		return;

	dz_printk("\nexception: vector %u (%s), error code 0x%x, at eip 0x%x\n", v, name,
		  (unsigned int)f->error, (unsigned int)f->eip);
	dz_printk("  eax=%08x ebx=%08x ecx=%08x edx=%08x esi=%08x edi=%08x\n", (unsigned int)f->eax,
		  (unsigned int)f->ebx, (unsigned int)f->ecx, (unsigned int)f->edx,
		  (unsigned int)f->esi, (unsigned int)f->edi);
	dz_printk("  ebp=%08x esp=%08x eflags=%08x cs=%04x\n", (unsigned int)f->ebp,
		  (unsigned int)esp, (unsigned int)f->eflags, (unsigned int)f->cs);
	if (v == 14)
		dz_printk("  cr2=%08x (faulting address)\n", (unsigned int)read_cr2());
	backtrace(f->ebp);
	trap_describe();
	machine_exit(false);
}
