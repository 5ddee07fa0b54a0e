#!/bin/bash
# make run-linux: boots the Linux port under QEMU with the demonstration
# initramfs (linux/rootfs/init), as scripts/run-kernel.sh boots the
# reference kernel.
#   scripts/linux/run.sh ARCH KIND HZ "COMMAND LINE"
# ARCH, KIND and HZ choose the kernel as scripts/linux/build.sh does (it is
# built first, and the initramfs, build/linux/initramfs-ARCH.cpio).
# On a terminal: the serial console is this terminal (Ctrl-A X quits QEMU;
# poweroff or Ctrl-D in BusyBox's sh stops the machine), guest time is real
# time, the console= parameter comes first. Without a terminal (a pipe,
# CI): noshell is added, so /init powers off after the demonstration, the
# boot goes through the tests' harness (scripts/linux/boot.sh: a
# timeout) and the console is shown as it comes; the status is 0 only
# when the demonstration ran to its end and the machine powered off.
set -e -o pipefail
source "$(dirname "$0")/lib.sh"
source "$DZ_ROOT/scripts/linux/boot.sh"
arch=${1:-x86_64} kind=${2:-dynhz} hz=${3:-} cmdline=${4:-hz=250}
lx_arch_vars "$arch"
bash "$DZ_ROOT/scripts/linux/build.sh" "$arch" "$kind" $hz
kernel=$(bash "$DZ_ROOT/scripts/linux/build.sh" --print "$arch" "$kind" $hz)
initrd=$LX_BUILD/initramfs-$arch.cpio
bash "$DZ_ROOT/scripts/linux/initramfs.sh" "$arch" "$initrd"

if [ -t 0 ] && [ -t 1 ]; then
	case $arch in
	x86_64) qemu=(qemu-system-x86_64 -M pc) ;;
	arm64) qemu=(qemu-system-aarch64 -M virt -cpu cortex-a57) ;;
	esac
	echo "linux: booting ${kernel#"$DZ_ROOT"/} with '$cmdline' (Ctrl-A X quits QEMU)"
	exec "${qemu[@]}" -smp 2 -m 512 -nographic -no-reboot -kernel "$kernel" -initrd "$initrd" \
		-append "console=$console $cmdline"
fi

log=$LX_BUILD/run-$arch.log
: >"$log"
set +e
lx_boot "$arch" "$kernel" "$initrd" "$log" "$cmdline noshell" &
boot=$!
tail -n +1 -f --pid=$boot "$log"
wait $boot
rc=$?
if [ $rc = 0 ] && grep -q '^init: demonstration done' "$log"; then
	echo "linux: the demonstration ran and the machine powered off ($(cat "$log.time") s)"
	exit 0
fi
grep -q '^init: demonstration done' "$log" || echo "linux: the demonstration did not run to its end ($log)" >&2
exit 1
