#!/bin/bash
# The boot harness of the Linux port's tests: one Linux kernel, an
# initramfs and a command line under QEMU, the serial console captured in
# a log, no input, a timeout.
#
#   scripts/linux/boot.sh ARCH KERNEL INITRD LOG [CMDLINE]
#       one boot; exit status 0 when the machine powered off by itself
#       ("reboot: Power down" in LOG and QEMU's status 0), 124 when it was
#       cut by the timeout, 1 otherwise; one line says which
#   source scripts/linux/boot.sh; lx_boot ...; lx_boot_list DIR SPEC...
#       the same as functions, and a list of boots two at a time
#
# The machines: x86_64 on QEMU's pc machine, arm64 on virt with a
# cortex-a57, both with 2 CPUs and 512 MB, no reboot (a reboot or a panic
# ends QEMU: panic=-1 is added to the command line), the console on the
# first UART (console=ttyS0 or ttyAMA0 is put first). LINUX_QEMU_ARGS adds
# QEMU arguments, LINUX_BOOT_TIMEOUT is the timeout in seconds of wall time
# (300).
#
# Guest time: plain TCG by default, the guest's clocks following the
# host's real time. LINUX_ICOUNT="-icount shift=auto,sleep=off" asks for
# deterministic virtual time, as the reference kernel's tests have it, but
# on x86_64 with -smp 2 Linux 6.1 hangs at "smp: Bringing up secondary
# CPUs ..." under every -icount tried (shift=auto,sleep=off; shift=2,
# sleep=off; shift=auto): QEMU then runs the two vCPUs round-robin on one
# thread and the boot CPU spins waiting for the other (a known QEMU
# limitation). With LINUX_QEMU_ARGS="-smp 1" -icount works (the TSC is then
# Linux's clocksource, 1000 MHz, stable). So the SMP boots use plain TCG,
# where both vCPUs run, Linux finds the two TSCs unsynchronised and uses
# the HPET (x86_64) or the generic timer (arm64); timing results then
# depend on the host's load, and the tests judge them loosely. Measured
# boot times are in docs/LINUX.md.

lx_boot_timeout=${LINUX_BOOT_TIMEOUT:-300}

# lx_boot ARCH KERNEL INITRD LOG [CMDLINE]: one boot, as above; the wall
# time it took goes to LOG.time, QEMU's own messages to LOG.qemu.
lx_boot() {
	local arch=$1 kernel=$2 initrd=$3 log=$4 cmdline=${5:-} qemu console rc t0 icount extra
	case $arch in
	x86_64) qemu=(qemu-system-x86_64 -M pc) console=ttyS0 ;;
	arm64) qemu=(qemu-system-aarch64 -M virt -cpu cortex-a57) console=ttyAMA0 ;;
	*) echo "boot: unknown ARCH '$arch' (x86_64 or arm64)" >&2; return 1 ;;
	esac
	[ -f "$kernel" ] || { echo "boot: no kernel $kernel" >&2; return 1; }
	[ -f "$initrd" ] || { echo "boot: no initramfs $initrd" >&2; return 1; }
	read -ra icount <<<"${LINUX_ICOUNT:-}"
	read -ra extra <<<"${LINUX_QEMU_ARGS:-}"
	mkdir -p "$(dirname "$log")"
	: >"$log"
	t0=$(cut -d" " -f1 /proc/uptime)
	timeout "$lx_boot_timeout" "${qemu[@]}" -smp 2 -m 512 -no-reboot -display none \
		-monitor none -serial "file:$log" "${icount[@]}" "${extra[@]}" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=$console panic=-1 $cmdline" </dev/null >"$log.qemu" 2>&1
	rc=$?
	echo "$(cut -d" " -f1 /proc/uptime) $t0" | awk '{ printf "%.1f\n", $1 - $2 }' >"$log.time"
	[ -f "$log" ] && sed -i 's/\r$//' "$log"
	if [ $rc = 124 ]; then
		echo "boot: timed out after $lx_boot_timeout s ($log)" >&2
		return 124
	fi
	if [ $rc != 0 ] || ! grep -q '^\(\[ *[0-9.]*\] \)\?reboot: Power down' "$log" 2>/dev/null; then
		echo "boot: did not power off (QEMU status $rc; $log)" >&2
		return 1
	fi
	return 0
}

# lx_boot_list DIR SPEC...: the boots, two at a time (LINUX_BOOT_JOBS):
# each SPEC is "NAME|ARCH|KERNEL|INITRD|CMDLINE"; the console of NAME goes
# to DIR/NAME.log and lx_boot's status to DIR/NAME.rc. Returns when all
# have ended.
lx_boot_list() {
	local dir=$1 spec name arch kernel initrd cmdline running=0
	shift
	mkdir -p "$dir"
	for spec in "$@"; do
		IFS='|' read -r name arch kernel initrd cmdline <<<"$spec"
		rm -f "$dir/$name.rc"
		(
			lx_boot "$arch" "$kernel" "$initrd" "$dir/$name.log" "$cmdline" 2>"$dir/$name.err"
			echo $? >"$dir/$name.rc"
		) &
		running=$((running + 1))
		if [ $running -ge "${LINUX_BOOT_JOBS:-2}" ]; then
			wait -n
			running=$((running - 1))
		fi
	done
	wait
}

# Run, not sourced: one boot.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	[ $# -ge 4 ] || { echo "usage: scripts/linux/boot.sh ARCH KERNEL INITRD LOG [CMDLINE]" >&2; exit 1; }
	lx_boot "$@"
	rc=$?
	[ $rc = 0 ] && echo "boot: powered off after $(cat "$4.time") s ($4)"
	exit $rc
fi
