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
 *	ticktest=<n>		the cost of the timer tick over n ticks of a busy CPU, exit
 *	noshell			power off after the demonstration
 *	nowrap			test hook: the self-test skips its wait for the jiffies wrap
 *	timeslice=<n>		round-robin slice in USER_HZ ticks (default 10)
 *	serial_poll=<n>		also poll the console's receiver every n USER_HZ ticks (default 0: off)
 *	clockevent=pit|lapic	the tick device (default pit)
 *	crash=ud|div|gp|panic	a test hook, not for use: once booted, fail on purpose
 *				with an invalid opcode, a divide error, a general
 *				protection fault or a panic, so that tests/boot can
 *				check the reports; any other value is reported, and
 *				nothing crashes
 *
 * Every parameter is read at boot, whatever then runs, so that a bad value
 * gets its one line at once. Of the modes that end the boot (crash=, then
 * selftest, usertest, cputest, ticktest, idletest) the first wins; init
 * runs before idletest but not before the others. One line says what the
 * winner overrides.
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
#include <kernel/realtime.h>
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

/* At most this much of the command line is echoed: one printk line holds it. */
#define CMDLINE_SHOWN 240

/* The command line is anybody's text: shown escaped and bounded, on one line. */
static void print_cmdline(void)
{
	char shown[CMDLINE_SHOWN + 1];

	dz_escape(shown, sizeof(shown), boot_cmdline, strlen(boot_cmdline), CMDLINE_SHOWN);
	dz_printk("cmdline: %s\n", shown);
}

static bool value_is(const struct dz_param *p, const char *v)
{
	return p->val && p->val_len == strlen(v) && !memcmp(p->val, v, p->val_len);
}

/* crash=...: the exception and panic reports, on demand (tests/boot). */
enum crash_kind { CRASH_NONE, CRASH_UD, CRASH_DIV, CRASH_GP, CRASH_PANIC };

static const char *const crash_names[] = {
	[CRASH_UD] = "ud",
	[CRASH_DIV] = "div",
	[CRASH_GP] = "gp",
	[CRASH_PANIC] = "panic",
};
static enum crash_kind crash_kind;

static void crash_setup(void)
{
	static const char *const names[] = { "crash", NULL };
	struct dz_param p;

	if (!dz_cmdline_find(boot_cmdline, names, &p))
		return;
	for (unsigned int k = CRASH_UD; k < ARRAY_SIZE(crash_names); k++)
		if (value_is(&p, crash_names[k])) {
			crash_kind = (enum crash_kind)k;
			return;
		}
	/* A typo in a test hook must not take the machine down. */
	dz_param_report(&p, p.val_len ? "not ud, div, gp or panic" : "empty value", "none");
}

static void crash_on_request(void)
{
	volatile int zero = 0;
	u32 q, r;

	if (crash_kind == CRASH_NONE)
		return;
	thread_doing("crashing on purpose (crash=)");
	switch (crash_kind) {
	case CRASH_UD:
		__asm__ volatile("ud2");
		break;
	case CRASH_DIV:
		/* in assembly: the compiler turns 1 / x into a compare, no divide */
		__asm__ volatile("divl %2" : "=a"(q), "=d"(r) : "rm"((u32)zero), "a"(1), "d"(0));
		dz_printk("%u %u\n", q, r);
		break;
	case CRASH_GP:
		__asm__ volatile("mov %0, %%ds" : : "r"(0x1234));
		break;
	default:
		break;
	}
	/* crash=panic, or an exception that did not stop the kernel */
	dz_panic("crash=%s requested", crash_names[crash_kind]);
}

/*
 * The bare flags. One given a value (selftest=1) is still honoured, as
 * cmdline_has() finds it, but told that the value means nothing.
 */
static void flags_check(void)
{
	static const char *const flags[] = { "selftest", "usertest", "init", "noshell", "nowrap" };

	for (unsigned int i = 0; i < ARRAY_SIZE(flags); i++) {
		const char *const names[] = { flags[i], NULL };
		struct dz_param p;

		if (dz_cmdline_find(boot_cmdline, names, &p) && p.val)
			dz_param_report(&p, "a flag takes no value", flags[i]);
	}
}

/* The modes init_thread() looks for, in its order. */
static const struct {
	const char *name;
	bool ends_boot;
} modes[] = {
	{ "selftest", true }, { "usertest", true }, { "cputest", true },
	{ "ticktest", true }, { "init", false },    { "idletest", true },
};

/*
 * The first mode that ends the boot (crash= before all) means that those
 * after it never run: one line says so, rather than drop them quietly.
 */
static void modes_check(void)
{
	const char *winner = crash_kind != CRASH_NONE ? "crash" : NULL;
	char lost[64]; /* all the names fit */
	int n = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(modes); i++) {
		if (!cmdline_has(modes[i].name))
			continue;
		if (winner)
			n += dz_snprintf(lost + n, sizeof(lost) - (size_t)n, "%s%s", n ? ", " : "",
					 modes[i].name);
		else if (modes[i].ends_boot)
			winner = modes[i].name;
	}
	if (n)
		dz_printk("%s: overrides %s\n", winner, lost);
}

/*
 * The kernel's own parameters, read once at boot, before anything runs:
 * clockevent=, timeslice= and serial_poll= were read as their parts came
 * up; these are the rest.
 */
static void params_check(void)
{
	crash_setup();
	flags_check();
	idletest_setup(boot_cmdline);
	cputest_setup(boot_cmdline);
	ticktest_setup(boot_cmdline);
	modes_check();
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
	if (cmdline_has("ticktest"))
		machine_exit(ticktest_run() ? QEMU_EXIT_FAILURE : QEMU_EXIT_SUCCESS);
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
	print_cmdline();
	local_irq_enable();
	clock_init(boot_cmdline);
	realtime_init();
	sched_init(boot_cmdline);
	serial_setup_poll(boot_cmdline);
	params_check();
	user_init();
	if (!kthread_run(init_thread, NULL, "init"))
		dz_panic("cannot start the init thread");
	cpu_idle();
}
