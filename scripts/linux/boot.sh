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
# cortex-a57, 512 MB, no reboot (a reboot or a panic ends QEMU: panic=-1
# is added to the command line), the console on the first UART
# (console=ttyS0 or ttyAMA0 is put first), the RTC on the guest's clock
# (-rtc clock=vm: rtcpie and the alarm timers compare it with the guest's
# CLOCK_MONOTONIC, which under -icount is virtual time). LINUX_BOOT_TIMEOUT
# is the timeout in seconds of wall time (300).
#
# The mode of a boot (lx_mode; LINUX_MODE for boot.sh run alone):
#   icount  -smp 1 -icount shift=1,sleep=off: the tests' mode. Guest
#           time from the instruction count, 2 ns an instruction; idle time
#           costs no wall time (sleep=off jumps to the next timer), so
#           Linux's timer selftests, which mostly sleep, take a fraction of
#           their guest time. A fixed shift, not auto: auto makes an
#           instruction take longer on a loaded host, so that at hz=7315 a
#           tick's interrupt took 425 us of a 137 us period, ticks ran
#           together and tick-sampled CPU time (/proc/stat, si_utime)
#           counted a tenth of what ran; with a fixed shift the guest sees
#           the same machine however loaded the host is. One CPU because
#           x86_64 Linux 6.1 with -smp 2 under every -icount tried
#           (shift=auto,sleep=off; shift=2,sleep=off; shift=auto) hangs at
#           "smp: Bringing up secondary CPUs ...": QEMU runs the vCPUs
#           round-robin on one thread and the boot CPU spins waiting for
#           the other. With one CPU the TSC (x86_64) or the generic timer
#           (arm64) is the clocksource, stable.
#   tcg     -smp 2, plain TCG: both CPUs run (per-CPU ticks, LOC
#           interrupts, the broadcast), the guest's clocks follow the
#           host's real time, so its timings depend on the host's load;
#           x86_64 Linux finds the two TSCs unsynchronised and uses the
#           HPET. make run-linux and the demonstration boot of make check.
#   bench   -smp 1 -icount shift=0,sleep=off: one guest nanosecond is one
#           instruction, the cost benchmark's mode (bench/linux/run.sh).
# LINUX_QEMU_ARGS adds QEMU arguments after the mode's.

# lx_mode MODE: the QEMU arguments of a mode (above), one a line.
lx_mode() {
	case $1 in
	icount) printf '%s\n' -smp 1 -icount shift=1,sleep=off ;;
	tcg) printf '%s\n' -smp 2 ;;
	bench) printf '%s\n' -smp 1 -icount shift=0,sleep=off ;;
	*) echo "boot: unknown mode '$1' (icount, tcg or bench)" >&2; return 1 ;;
	esac
}

# lx_boot ARCH KERNEL INITRD LOG [CMDLINE [MODE]]: one boot, as above, in
# MODE (LINUX_MODE, else tcg); the wall time it took goes to LOG.time,
# QEMU's own messages to LOG.qemu.
lx_boot() {
	local arch=$1 kernel=$2 initrd=$3 log=$4 cmdline=${5:-} mode=${6:-${LINUX_MODE:-tcg}}
	local qemu console rc t0 margs extra lx_boot_timeout=${LINUX_BOOT_TIMEOUT:-300}
	case $arch in
	x86_64) qemu=(qemu-system-x86_64 -M pc) console=ttyS0 ;;
	arm64) qemu=(qemu-system-aarch64 -M virt -cpu cortex-a57) console=ttyAMA0 ;;
	*) echo "boot: unknown ARCH '$arch' (x86_64 or arm64)" >&2; return 1 ;;
	esac
	[ -f "$kernel" ] || { echo "boot: no kernel $kernel" >&2; return 1; }
	[ -f "$initrd" ] || { echo "boot: no initramfs $initrd" >&2; return 1; }
	mapfile -t margs < <(lx_mode "$mode")
	[ ${#margs[@]} -gt 0 ] || return 1
	# The interface before modes, kept for a caller of lx_boot without a mode:
	# LINUX_ICOUNT's words added to a tcg boot (with LINUX_QEMU_ARGS="-smp 1").
	if [ "$mode" = tcg ] && [ -n "${LINUX_ICOUNT:-}" ]; then
		read -ra extra <<<"$LINUX_ICOUNT"
		margs+=("${extra[@]}")
	fi
	read -ra extra <<<"${LINUX_QEMU_ARGS:-}"
	mkdir -p "$(dirname "$log")"
	: >"$log"
	t0=$(cut -d" " -f1 /proc/uptime)
	timeout "$lx_boot_timeout" "${qemu[@]}" "${margs[@]}" -m 512 -no-reboot -display none \
		-rtc clock=vm -monitor none -serial "file:$log" "${extra[@]}" \
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
# each SPEC is "NAME|ARCH|KERNEL|INITRD|CMDLINE[|MODE[|TIMEOUT[|QEMU]]]":
# the console of NAME goes to DIR/NAME.log and lx_boot's status to
# DIR/NAME.rc; QEMU, when given, replaces LINUX_QEMU_ARGS for that boot.
# Returns when all have ended. It waits for any child of the shell: call it
# in a subshell when the caller has other jobs running.
lx_boot_list() {
	local dir=$1 spec name arch kernel initrd cmdline mode limit qargs running=0
	shift
	mkdir -p "$dir"
	for spec in "$@"; do
		IFS='|' read -r name arch kernel initrd cmdline mode limit qargs <<<"$spec"
		rm -f "$dir/$name.rc"
		(
			[ -n "$qargs" ] && export LINUX_QEMU_ARGS=$qargs
			LINUX_BOOT_TIMEOUT=${limit:-${LINUX_BOOT_TIMEOUT:-300}} \
				lx_boot "$arch" "$kernel" "$initrd" "$dir/$name.log" "$cmdline" "$mode" 2>"$dir/$name.err"
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
