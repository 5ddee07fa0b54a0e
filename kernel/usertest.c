// SPDX-License-Identifier: MIT
/*
 * usertest on the command line: the user-space check program (from the
 * initramfs) checks the system calls from ring 3 and prints what it saw;
 * then programs that fault on purpose must be killed with a message while
 * the kernel carries on; then the in-kernel self-test must still pass.
 */
#include <kernel/user.h>
#include <kernel/proc.h>
#include <kernel/kernel.h>
#include <dynhz/printk.h>

/* Faults the check program commits when asked. */
static const char *const faults[] = { "fault=segment", "fault=ud", "fault=privileged",
				      "fault=div" };

int usertest_program(const char *arg)
{
	const char *const argv[] = { USERTEST_PROGRAM, arg, NULL };
	const char *const envp[] = { "HOME=/", NULL };
	int pid = proc_spawn(USERTEST_PROGRAM, argv, envp);

	return pid < 0 ? pid : proc_wait(pid);
}

static int run_init(void)
{
	int status = usertest_program("test");

	dz_printk("user: %s test: wait status 0x%x\n", USERTEST_PROGRAM, (unsigned int)status);
	return status != 0;
}

static int run_faults(void)
{
	int bad = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(faults); i++) {
		int status = usertest_program(faults[i]);
		bool killed = status > 0 && (status & 0x7f);

		dz_printk("usertest: %s killed=%d\n", faults[i], killed);
		bad += !killed;
	}
	return bad;
}

int usertest_run(void)
{
	int init_bad = run_init(), fault_bad = run_faults(), self;

	user_stat_print();
	self = selftest_run();
	dz_printk("usertest: init %s, %d of %u faulting programs not killed, selftest %s\n",
		  init_bad ? "FAILED" : "ok", fault_bad, (unsigned int)ARRAY_SIZE(faults),
		  self ? "FAILED" : "ok");
	return init_bad + fault_bad + self;
}
