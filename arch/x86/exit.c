// SPDX-License-Identifier: MIT
/*
 * Stopping the machine: QEMU's isa-debug-exit device when it is there,
 * ACPI power-off otherwise, and if neither works a halt loop with
 * interrupts off, so a failed kernel never spins or reboots.
 */
#include <kernel/arch.h>
#include <asm/exit.h>
#include <asm/io.h>
#include <asm/irq.h>

/* QEMU's PIIX4 power-management block as SeaBIOS maps it, and QEMU's older default. */
#define PIIX4_PM1A_CNT	 0x604
#define PIIX4_PM1A_CNT_2 0xb004
#define ACPI_SLP_S5	 0x2000

static _Noreturn void halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

static _Noreturn void qemu_exit(unsigned char code)
{
	local_irq_disable();
	outb(QEMU_EXIT_PORT, code);
	/* Still here: no exit device. Power off, whatever the outcome. */
	outw(PIIX4_PM1A_CNT, ACPI_SLP_S5);
	outw(PIIX4_PM1A_CNT_2, ACPI_SLP_S5);
	halt_forever();
}

_Noreturn void machine_exit(bool success)
{
	qemu_exit(success ? QEMU_EXIT_SUCCESS : QEMU_EXIT_FAILURE);
}

_Noreturn void machine_poweroff(void)
{
	qemu_exit(QEMU_EXIT_SUCCESS);
}

_Noreturn void machine_halt(void)
{
	halt_forever();
}

#define KBD_STATUS_PORT 0x64
#define KBD_PULSE_RESET 0xfe

/*
 * A reset, as Linux's reboot=k then reboot=t: the keyboard controller
 * pulses the CPU's reset line; if that does nothing, an empty interrupt
 * table makes the next exception a triple fault, which resets the CPU.
 * QEMU with -no-reboot exits instead of booting again.
 */
_Noreturn void machine_restart(void)
{
	static const struct {
		u16 limit;
		u32 base;
	} __attribute__((packed)) no_idt = { 0, 0 };

	local_irq_disable();
	outb(KBD_STATUS_PORT, KBD_PULSE_RESET);
	__asm__ volatile("lidt %0; int3" : : "m"(no_idt) : "memory");
	halt_forever();
}

/* The core's panic ends here: say what the kernel was doing, then fail. */
_Noreturn void dz_port_panic_exit(void)
{
	trap_describe();
	qemu_exit(QEMU_EXIT_FAILURE);
}
