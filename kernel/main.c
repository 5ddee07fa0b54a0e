// SPDX-License-Identifier: MIT
/*
 * Kernel start (start_kernel(), which the arch's entry calls): the boot
 * CPU's bring-up (arch_setup(): the console, descriptor tables, interrupt
 * controller, the loader's facts), memory and paging, the initramfs, then
 * time (clocksource, clock-event device, HZ from the command line), then
 * the scheduler. The boot thread becomes the idle thread; the init thread
 * runs the self-tests (selftest), or the first program (init=), or the
 * demonstration and the shell.
 *
 * Parameters of the kernel itself (those of time are in the README):
 *	selftest		run the in-kernel tests and exit
 *	usertest		run the user-space checks (init in ring 3), the self-test, exit
 *	init=<path> [-- args]	the first program, from the initramfs (default /init);
 *				the tokens after "--" are its arguments (quotes as Linux). When it
 *				exits the machine powers off: success if its status
 *				is 0. With no initramfs or no such program: the
 *				demonstration and the shell
 *	selftest_after_init	when init has ended, the self-test too (tests/sysfuzz)
 *	idletest=<s>		idle s seconds with one 1 Hz timer, count the wakeups, exit
 *	cputest=<s>		init, a busy thread that exits, s seconds idle, cpu times, exit
 *	ticktest=<n>		the cost of the timer tick over n ticks of a busy CPU, exit
 *	retunetest[=<ms>]	HZ changed under sleepers and a program, each rate <ms>, exit
 *	retunebench		the interrupt-off window of a change of HZ, 1 to 100000 timers, exit
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
 * selftest, usertest, cputest, ticktest, idletest) the first wins, and
 * init= runs only when none is given. One line says what the winner
 * overrides.
 */
#include <kernel/arch.h>
#include <kernel/kernel.h>
#include <kernel/clock.h>
#include <kernel/console.h>
#include <kernel/realtime.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/user.h>
#include <kernel/proc.h>
#include <kernel/mm.h>
#include <kernel/vfs.h>
#include "kimage.h"
#include <kernel/retune.h>
#include <kernel/shell.h>
#include <kernel/test.h>
#include <kernel/timers.h>
#include <dynhz/bootparam.h>
#include <dynhz/printk.h>

/* boot_params.cmdline, once arch_setup() has read it. */
static const char *boot_cmdline = "";
static const void *initrd;
static u32 initrd_size;

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
	static const char *const flags[] = { "selftest", "usertest",	"noshell",
					     "nowrap",	 "retunebench", "selftest_after_init" };

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
	{ "selftest", true }, { "usertest", true },   { "cputest", true },     { "ticktest", true },
	{ "idletest", true }, { "retunetest", true }, { "retunebench", true }, { "init", false },
};

/*
 * The first mode that ends the boot (crash= before all) means that those
 * after it never run: one line says so, rather than drop them quietly.
 */
static void modes_check(void)
{
	const char *winner = crash_kind != CRASH_NONE ? "crash" : NULL;
	char lost[96]; /* all the names fit */
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
	retunetest_setup(boot_cmdline);
	modes_check();
}

#define INIT_ARGS_MAX 32
#define INIT_DEFAULT  "/init"

/*
 * Appends one init argument to buf at *used: the token as Linux gives it
 * to init, its quotes removed ("a b" and x="a b" become a b and x=a b).
 */
static const char *init_arg(char *buf, size_t size, size_t *used, const struct dz_param *p)
{
	size_t n = p->name_len + (p->val ? 1 + p->val_len : 0);
	char *a = buf + *used;

	if (n + 1 > size - *used)
		return NULL;
	memcpy(a, p->name, p->name_len);
	if (p->val) {
		a[p->name_len] = '=';
		memcpy(a + p->name_len + 1, p->val, p->val_len);
	}
	a[n] = '\0';
	*used += n + 1;
	return a;
}

/* init=PATH, and the tokens after a bare "--" as its arguments. */
static const char *init_argv(const char **argv, char *path, size_t pathlen)
{
	static const char *const names[] = { "init", NULL };
	static char args[BOOT_CMDLINE_MAX];
	struct dz_param p;
	size_t pos = 0, used = 0;
	unsigned int n = 1;
	bool after_end = false;

	memcpy(path, INIT_DEFAULT, sizeof(INIT_DEFAULT));
	if (dz_cmdline_find(boot_cmdline, names, &p)) {
		if (p.val_len && p.val_len < pathlen) {
			memcpy(path, p.val, p.val_len);
			path[p.val_len] = '\0';
		} else {
			dz_param_report(&p, p.val_len ? "path too long" : "empty value",
					INIT_DEFAULT);
		}
	}
	argv[0] = path;
	while (n < INIT_ARGS_MAX - 1 && dz_cmdline_next(boot_cmdline, &pos, &p)) {
		if (!after_end) {
			after_end = dz_cmdline_is_end(&p);
			continue;
		}
		argv[n] = init_arg(args, sizeof(args), &used, &p);
		if (!argv[n])
			break;
		n++;
	}
	argv[n] = NULL;
	return path;
}

/* The TSC when the loader jumped to the kernel */
static u64 entry_tsc;

/*
 * The first program: when it ends, so does the machine. Without an
 * initramfs, or without the program, the demonstration and shell run.
 */
static void run_init(void)
{
	static char path[256];
	const char *argv[INIT_ARGS_MAX];
	static const char *const envp[] = { "HOME=/", "TERM=linux",
					    "PATH=/sbin:/bin:/usr/sbin:/usr/bin", NULL };
	int pid, status;

	if (!vfs_have_root()) {
		if (cmdline_has("init"))
			dz_printk("init: no initramfs, running the kernel's shell\n");
		return;
	}
	init_argv(argv, path, sizeof(path));
	/* The milestones before init's first instruction (bench/syscall) */
	dz_printk("boot: kernel entered at guest ns %llu, init started at guest ns %llu\n",
		  (unsigned long long)tsc_to_ns(entry_tsc), (unsigned long long)tsc_now_ns());
	pid = proc_spawn(path, argv, envp);
	if (pid < 0) {
		dz_printk("init: cannot run %s, running the kernel's shell\n", path);
		return;
	}
	status = proc_wait(pid);
	proc_report_status("init", status);
	/* What init did may have harmed the kernel: its image, then its own tests. */
	if (!kimage_check())
		status = -1;
	if (cmdline_has("selftest_after_init") && selftest_run())
		status = -1;
	machine_exit(!status);
}

static void init_thread(void *arg)
{
	(void)arg;
	crash_on_request();
	if (cmdline_has("selftest"))
		machine_exit(!selftest_run());
	if (cmdline_has("usertest"))
		machine_exit(!usertest_run());
	if (cmdline_has("cputest"))
		machine_exit(!cputest_run());
	if (cmdline_has("ticktest"))
		machine_exit(!ticktest_run());
	if (cmdline_has("idletest"))
		machine_exit(!idletest_run());
	if (cmdline_has("retunetest"))
		machine_exit(!retunetest_run());
	if (cmdline_has("retunebench"))
		machine_exit(!retunebench_run());
	run_init();
	demo_run();
	if (!cmdline_has("noshell"))
		shell_run();
	dz_printk("dynhz: powering off\n");
	machine_poweroff();
}

/*
 * The pages: the RAM the loader reported, but the kernel's image and the
 * initramfs, which stays where the loader put it.
 */
static void memory_init(void)
{
	const struct boot_params *bp = &boot_params;

	page_alloc_init(bp->image_start, bp->image_end);
	if (!bp->have_initrd)
		return;
	/* Reserved where the loader put it: nothing is given those pages. */
	if (bp->initrd_end <= bp->initrd_start || bp->initrd_end > KERNEL_MAP_TOP) {
		dz_printk("initramfs: module at 0x%x-0x%x is outside the kernel's memory, "
			  "ignored\n",
			  (unsigned int)bp->initrd_start, (unsigned int)bp->initrd_end);
		return;
	}
	page_reserve(bp->initrd_start, bp->initrd_end);
	initrd = (const void *)(uintptr_t)bp->initrd_start;
	initrd_size = bp->initrd_end - bp->initrd_start;
}

static void print_memory(void)
{
	struct page_stats st;

	page_stats_read(&st);
	dz_printk("memory: %u KiB usable, %u KiB free, %u KiB kernel and initramfs (%u bytes "
		  "at 0x%x)\n",
		  st.total * 4, st.free * 4, st.kernel * 4, (unsigned int)initrd_size,
		  (unsigned int)(uintptr_t)initrd);
}

_Noreturn void start_kernel(void)
{
	entry_tsc = rdtsc(); /* what the firmware and the loader took */
	kimage_sum_at_boot();
	arch_setup();
	boot_cmdline = boot_params.cmdline;
	memory_init();
	paging_init();
	dz_printk("\ndynhz reference kernel, i386 (%s)\n", build_name());
	print_cmdline();
	local_irq_enable();
	clock_init(boot_cmdline);
	retune_init();
	realtime_init();
	print_memory();
	vfs_init(initrd, initrd_size);
	sched_init(boot_cmdline);
	console_setup_poll(boot_cmdline);
	params_check();
	user_init();
	proc_init();
	proc_timers_init();
	if (!kthread_run(init_thread, NULL, "init"))
		dz_panic("cannot start the init thread");
	cpu_idle();
}
