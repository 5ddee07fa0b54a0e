// SPDX-License-Identifier: MIT
/*
 * usertest on the command line: the user-space check program (from the
 * initramfs), built with musl and with glibc, checks the system calls from
 * ring 3 and prints what it saw; then programs that fault on purpose must
 * be killed with a message while the kernel carries on; then the in-kernel
 * self-test must still pass.
 */
#include <kernel/user.h>
#include <kernel/proc.h>
#include <kernel/kernel.h>
#include <kernel/test.h>
#include <dynhz/printk.h>

/* Faults the check program commits when asked. */
static const char *const faults[] = { "fault=segment", "fault=ud", "fault=privileged",
				      "fault=div" };

int usertest_program(const char *path, const char *arg)
{
	const char *const argv[] = { path, arg, NULL };
	const char *const envp[] = { "HOME=/", NULL };
	int pid = proc_spawn(path, argv, envp);

	return pid < 0 ? pid : proc_wait(pid);
}

/* The checks, once per C library: the kernel must look the same to both. */
static int run_checks(void)
{
	static const char *const progs[] = { USERTEST_PROGRAM, USERTEST_GLIBC };
	int bad = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(progs); i++) {
		int status = usertest_program(progs[i], "test");

		dz_printk("user: %s test: wait status 0x%x\n", progs[i], (unsigned int)status);
		bad += status != 0;
	}
	return bad;
}

static int run_faults(void)
{
	int bad = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(faults); i++) {
		int status = usertest_program(USERTEST_PROGRAM, faults[i]);
		bool killed = status > 0 && (status & 0x7f);

		dz_printk("usertest: %s killed=%d\n", faults[i], killed);
		bad += !killed;
	}
	return bad;
}

int usertest_run(void)
{
	int init_bad = run_checks(), fault_bad = run_faults(), self;

	user_stat_print();
	self = selftest_run();
	dz_printk("usertest: init %s, %d of %u faulting programs not killed, selftest %s\n",
		  init_bad ? "FAILED" : "ok", fault_bad, (unsigned int)ARRAY_SIZE(faults),
		  self ? "FAILED" : "ok");
	return init_bad + fault_bad + self;
}
