#!/bin/bash
# make run: boots the reference kernel under QEMU.
#   scripts/run-kernel.sh <kernel.elf> "<command line>" [initramfs.cpio]
# On a terminal: the serial console is this terminal (Ctrl-A X quits QEMU,
# `poweroff` in the shell stops the machine), and guest time is real time;
# the initramfs's /init ends in BusyBox's sh there (the kernel's own shell
# without one). Without a terminal (a pipe, CI): the machine powers off
# after the demonstration (noshell, which /init reads too), under
# deterministic virtual time (-icount, see tests/boot/check.sh), so it ends
# at once.
kernel=$1
cmdline=$2
initrd=${3:-}
if [ ! -f "$kernel" ]; then
	echo "run-kernel: no kernel at $kernel (make kernel)" >&2
	exit 1
fi
qemu=(qemu-system-i386 -kernel "$kernel" -m 64 -no-reboot
	-device isa-debug-exit,iobase=0xf4,iosize=0x04)
[ -n "$initrd" ] && qemu+=(-initrd "$initrd")
if [ -t 0 ]; then
	echo "dynhz: booting $kernel with '$cmdline' (Ctrl-A X quits QEMU)"
	"${qemu[@]}" -append "$cmdline" -nographic
else
	timeout 300 "${qemu[@]}" -append "$cmdline noshell" -icount shift=2,sleep=off \
		-rtc clock=vm -display none -serial stdio </dev/null
fi
rc=$?
# The exit device: 0x10 -> 33 is a clean power-off, 0x11 -> 35 a failure.
case $rc in
33 | 0) exit 0 ;;
35) echo "dynhz: the kernel stopped with a failure" >&2; exit 1 ;;
*) echo "dynhz: QEMU exited with status $rc" >&2; exit "$rc" ;;
esac
