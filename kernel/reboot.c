// SPDX-License-Identifier: MIT
/*
 * reboot(2), with Linux's magic numbers and commands: BusyBox's poweroff,
 * reboot and halt (with -f, or from the init that handles their signal)
 * end the machine through it. Power-off is QEMU's exit device (status 33,
 * the clean end tests and `make run` expect), restart a reset (QEMU with
 * -no-reboot exits), halt stops the CPU with the machine left on, as
 * Linux's does. Ctrl-Alt-Del is not a key a serial console has: CAD_ON
 * and CAD_OFF succeed and change nothing. Every process is root's, so
 * there is no EPERM. Linux does not stop the processes first (init's
 * part): neither does this.
 */
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/errno.h>
#include <kernel/arch.h>
#include <dynhz/printk.h>

#define LINUX_REBOOT_MAGIC1  0xfee1deadU
#define LINUX_REBOOT_MAGIC2  672274793U
#define LINUX_REBOOT_MAGIC2A 85072278U
#define LINUX_REBOOT_MAGIC2B 369367448U
#define LINUX_REBOOT_MAGIC2C 537993216U

#define LINUX_REBOOT_CMD_RESTART    0x01234567U
#define LINUX_REBOOT_CMD_HALT	    0xCDEF0123U
#define LINUX_REBOOT_CMD_CAD_ON	    0x89ABCDEFU
#define LINUX_REBOOT_CMD_CAD_OFF    0x00000000U
#define LINUX_REBOOT_CMD_POWER_OFF  0x4321FEDCU
#define LINUX_REBOOT_CMD_RESTART2   0xA1B2C3D4U
#define LINUX_REBOOT_CMD_SW_SUSPEND 0xD000FCE2U
#define LINUX_REBOOT_CMD_KEXEC	    0x45584543U

#define RESTART2_MAX 256 /* the command string Linux copies for RESTART2 */

static bool magic_ok(u32 magic1, u32 magic2)
{
	return magic1 == LINUX_REBOOT_MAGIC1 &&
	       (magic2 == LINUX_REBOOT_MAGIC2 || magic2 == LINUX_REBOOT_MAGIC2A ||
		magic2 == LINUX_REBOOT_MAGIC2B || magic2 == LINUX_REBOOT_MAGIC2C);
}

/* RESTART2's argument: a string Linux copies (and may print) before the reset. */
static long restart2(u32 uarg)
{
	static char cmd[RESTART2_MAX];
	long len = strncpy_from_user(cmd, uarg, sizeof(cmd) - 1);

	if (len == -EFAULT)
		return -EFAULT;
	cmd[sizeof(cmd) - 1] = '\0';
	dz_printk("reboot: Restarting system with command '%s'\n", cmd);
	machine_restart();
}

SYSCALL_DEFINE4(reboot, u32, magic1, u32, magic2, u32, cmd, u32, arg)
{
	if (!magic_ok(magic1, magic2))
		return -EINVAL;
	switch (cmd) {
	case LINUX_REBOOT_CMD_POWER_OFF:
		dz_printk("reboot: Power down\n");
		machine_poweroff();
	case LINUX_REBOOT_CMD_RESTART:
		dz_printk("reboot: Restarting system\n");
		machine_restart();
	case LINUX_REBOOT_CMD_RESTART2:
		return restart2(arg);
	case LINUX_REBOOT_CMD_HALT:
		dz_printk("reboot: System halted\n");
		machine_halt();
	case LINUX_REBOOT_CMD_CAD_ON:
	case LINUX_REBOOT_CMD_CAD_OFF:
		return 0;
	case LINUX_REBOOT_CMD_SW_SUSPEND:
		return -ENOSYS; /* Linux without CONFIG_HIBERNATION */
	case LINUX_REBOOT_CMD_KEXEC:
		return -EINVAL; /* no kexec image loaded */
	default:
		return -EINVAL;
	}
}
