#!/bin/bash
# Signals and time for a real program (run by `make check`).
#
# tests/signal/sigtest.c, built static with glibc (gcc -m32 -static), is
# added to the initramfs and booted as init at several HZ and in the three
# builds: alarm and pause, setitimer intervals (never early), the FPU kept
# across handlers, siginfo from kill, masks, sigsuspend, nanosleep's EINTR
# and remaining time, the clocks, and a forged sigreturn frame that must
# not gain privilege. Then the default actions: an unhandled SIGALRM and
# SIGSEGV end init with one line each.
#
# Needs the root file system (vfs) in the kernel: without it init= cannot
# run, and the suite records that and stops.
#
#	tests/signal/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite signal "$1"
if ! gcc -m32 -static -O1 -Wall -Wextra -Werror tests/signal/sigtest.c -o "$out/sigtest" \
	>"$out/build.log" 2>&1; then
	record fail "signal: sigtest builds (gcc -m32 -static: libc6-dev-i386)"
	cat "$out/build.log" >&2
	exit 0
fi
if ! make --no-print-directory initramfs >"$out/initramfs.log" 2>&1; then
	record fail "signal: make initramfs"
	tail -5 "$out/initramfs.log" >&2
	exit 0
fi
root=$out/root
rm -rf "$root"
cp -a build/x86/initramfs-root "$root"
install -m 0755 "$out/sigtest" "$root/bin/sigtest"
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$out/initramfs.cpio"
build_kernels signal "$out"

boot() { # boot name build cmdline
	QEMU_ARGS="-initrd $out/initramfs.cpio -m 64" qemu_boot 120 "${elf[$2]}" "$3" "$out/$1.log"
}

cases=("hz100 variable 100" "hz24 variable 24" "hz1000 variable 1000" "hz10000 variable 10000"
	"constant constant 250" "debug debug 250")
for c in "${cases[@]}"; do
	read -r name build hz <<<"$c"
	[[ $name =~ $filter ]] || continue
	[ -n "${elf[$build]}" ] || continue
	boot "$name" "$build" "hz=$hz init=/bin/sigtest"
	rc=$?
	problems=()
	if grep -q '^init: no initramfs' "$out/$name.log"; then
		problems+=("the kernel has no root file system yet (init= needs the vfs)")
	else
		[ $rc -eq 33 ] || problems+=("exit status $rc, not 33")
		grep -qx 'sigtest: 0 failed' "$out/$name.log" || problems+=("no 'sigtest: 0 failed'")
		while read -r l; do problems+=("$l"); done < <(grep 'sigtest: .* FAIL' "$out/$name.log")
	fi
	report "signal: sigtest [$name]" "${problems[@]}"
done

for s in 14:SIGALRM 11:SIGSEGV; do
	n=${s%%:*} sig=${s#*:}
	[[ "die-$sig" =~ $filter ]] || continue
	[ -n "${elf[variable]}" ] || continue
	boot "die-$sig" variable "hz=100 init=/bin/sigtest -- die $n"
	rc=$?
	problems=()
	[ $rc -eq 35 ] || problems+=("exit status $rc, not 35")
	grep -qx "signal: pid 1 (sigtest) killed by $sig" "$out/die-$sig.log" ||
		problems+=("no 'signal: pid 1 (sigtest) killed by $sig'")
	grep -q 'sigtest: survived' "$out/die-$sig.log" && problems+=("the program survived")
	report "signal: default action of $sig ends the program" "${problems[@]}"
done
