// SPDX-License-Identifier: MIT
/*
 * usertest on the command line: the init program checks the system calls
 * from ring 3 and prints what it saw; then programs that fault on purpose
 * must be killed with a message while the kernel carries on; then the
 * in-kernel self-test must still pass.
 */
#include <kernel/user.h>
#include <kernel/kernel.h>
#include <dynhz/printk.h>

/* Faults the init program commits when asked (user/init.c). */
static const char *const faults[] = { "fault=segment", "fault=ud", "fault=privileged",
				      "fault=div" };

static int run_init(void)
{
	int status;

	if (user_run("init", "test", &status))
		return 1;
	return status != 0;
}

static int run_faults(void)
{
	int status, bad = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(faults); i++) {
		bool killed = user_run("init", faults[i], &status) != 0;

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
