// SPDX-License-Identifier: MIT
/*
 * Kernel start: the console, descriptor tables and interrupt controller,
 * then time (clocksource, clock-event device, HZ from the command line), then
 * the scheduler. The boot thread becomes the idle thread; the init thread
 * runs the self-tests (selftest), or the demonstration and the shell.
 *
 * Parameters of the kernel itself (those of time are in the README):
 *	selftest		run the in-kernel tests and exit
 *	usertest		run the user-space checks (init in ring 3), the self-test, exit
 *	init			run the init program in ring 3 once before the demonstration
 *	idletest=<s>		idle s seconds with one 1 Hz timer, count the wakeups, exit
 *	cputest=<s>		init, a busy thread that exits, s seconds idle, cpu times, exit
 *	noshell			power off after the demonstration
 *	nowrap			test hook: the self-test skips its wait for the jiffies wrap
 *	timeslice=<n>		round-robin slice in USER_HZ ticks (default 10)
 *	serial_poll=<n>		also poll the console's receiver every n USER_HZ ticks (default 0: off)
 *	clockevent=pit|lapic	the tick device (default pit)
 *	crash=ud|div|gp|panic	fail on purpose once booted (tests the reports)
 */
#include <asm/irq.h>
#include <asm/pic.h>
#include <asm/serial.h>
#include <asm/exit.h>
#include <asm/cpu.h>
#include <asm/tsc.h>
#include <asm/multiboot.h>
#include <kernel/kernel.h>
#include <kernel/clock.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/user.h>
#include <dynhz/bootparam.h>
#include <dynhz/printk.h>

_Noreturn void kernel_main(u32 magic, const struct multiboot_info *mbi);

const char *boot_cmdline = "";

bool cmdline_has(const char *name)
{
	const char *const names[] = { name, NULL };
	struct dz_param p;

	return dz_cmdline_find(boot_cmdline, names, &p);
}

u64 tsc_now_ns(void)
{
	return tsc_to_ns(rdtsc());
}

static const char *build_name(void)
{
#if defined(CONFIG_HZ)
#define STR2(x) #x
#define STR(x)	STR2(x)
	return "constant HZ=" STR(CONFIG_HZ);
#elif defined(DYNHZ_DEBUG)
	return "debug, HZ chosen at boot";
#else
	return "HZ chosen at boot";
#endif
}

/* crash=...: the exception and panic reports, on demand. */
static void crash_on_request(void)
{
	static const char *const names[] = { "crash", NULL };
	struct dz_param p;
	volatile int zero = 0;

	if (!dz_cmdline_find(boot_cmdline, names, &p) || !p.val)
		return;
	thread_doing("crashing on purpose (crash=)");
	if (p.val_len == 2 && !memcmp(p.val, "ud", 2))
		__asm__ volatile("ud2");
	if (p.val_len == 3 && !memcmp(p.val, "div", 3)) {
		u32 q, r;

		/* in assembly: the compiler turns 1 / x into a compare, no divide */
		__asm__ volatile("divl %2" : "=a"(q), "=d"(r) : "rm"((u32)zero), "a"(1), "d"(0));
		dz_printk("%u %u\n", q, r);
	}
	if (p.val_len == 2 && !memcmp(p.val, "gp", 2))
		__asm__ volatile("mov %0, %%ds" : : "r"(0x1234));
	dz_panic("crash=%.*s requested", (int)p.val_len, p.val);
}

static void init_thread(void *arg)
{
	(void)arg;
	crash_on_request();
	if (cmdline_has("selftest"))
		machine_exit(selftest_run() ? QEMU_EXIT_FAILURE : QEMU_EXIT_SUCCESS);
	if (cmdline_has("usertest"))
		machine_exit(usertest_run() ? QEMU_EXIT_FAILURE : QEMU_EXIT_SUCCESS);
	if (cmdline_has("cputest"))
		machine_exit(cputest_run() ? QEMU_EXIT_FAILURE : QEMU_EXIT_SUCCESS);
	if (cmdline_has("init")) {
		int status;

		user_run("init", "", &status);
	}
	if (cmdline_has("idletest"))
		machine_exit(idletest_run() ? QEMU_EXIT_FAILURE : QEMU_EXIT_SUCCESS);
	demo_run();
	if (!cmdline_has("noshell"))
		shell_run();
	dz_printk("dynhz: powering off\n");
	machine_poweroff();
}

_Noreturn void kernel_main(u32 magic, const struct multiboot_info *mbi)
{
	serial_init();
	gdt_init();
	idt_init();
	pic_init();
	if (magic == MULTIBOOT_BOOTLOADER_MAGIC && (mbi->flags & MULTIBOOT_INFO_CMDLINE))
		boot_cmdline = (const char *)(uintptr_t)mbi->cmdline;
	dz_printk("\ndynhz reference kernel, i386 (%s)\n", build_name());
	dz_printk("cmdline: %s\n", boot_cmdline);
	local_irq_enable();
	clock_init(boot_cmdline);
	sched_init(boot_cmdline);
	serial_setup_poll(boot_cmdline);
	user_init();
	if (!kthread_run(init_thread, NULL, "init"))
		dz_panic("cannot start the init thread");
	cpu_idle();
}
