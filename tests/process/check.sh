#!/bin/bash
# Processes for a real program (run by `make check`).
#
# tests/process/proctest.c, built static with glibc (gcc -m32 -static), is
# added to the initramfs (with /bin/pt, a link to it, and /bin/notelf, a
# text file with the execute bit) and booted as init at several HZ and in
# the three builds: fork's return values and private memory, shared file
# offsets, what a child inherits, vfork until exit and until exec,
# posix_spawn, clone's refused flags, execve's errors and what it resets,
# wait4's statuses, WNOHANG, ECHILD, process groups, SIGCHLD's siginfo,
# orphans reaped by init, the children's CPU time (times, getrusage,
# /proc/self/stat) against what the child counted itself, and 200 forks
# that leave MemFree where it was. One result per boot; the boot's line
# with the rate of fork+exit+wait in guest time is shown with it.
#
#	tests/process/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite process "$1"
if ! gcc -m32 -static -O1 -Wall -Wextra -Werror tests/process/proctest.c -o "$out/proctest" \
	-lm >"$out/build.log" 2>&1; then
	record fail "process: proctest builds (gcc -m32 -static: libc6-dev-i386)"
	cat "$out/build.log" >&2
	exit 0
fi
if ! make --no-print-directory initramfs >"$out/initramfs.log" 2>&1; then
	record fail "process: make initramfs"
	tail -5 "$out/initramfs.log" >&2
	exit 0
fi
root=$out/root
rm -rf "$root"
cp -a build/x86/initramfs-root "$root"
install -m 0755 "$out/proctest" "$root/bin/proctest"
ln -s proctest "$root/bin/pt"
printf 'not a program\n' >"$root/bin/notelf"
chmod 0755 "$root/bin/notelf"
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$out/initramfs.cpio"
build_kernels process "$out"

cases=("hz100 variable 100" "hz24 variable 24" "hz10000 variable 10000"
	"constant constant 250" "debug debug 250")
running=0
for c in "${cases[@]}"; do
	read -r name build hz <<<"$c"
	[[ $name =~ $filter ]] || continue
	[ -n "${elf[$build]}" ] || continue
	(
		QEMU_ARGS="-initrd $out/initramfs.cpio -m 64" qemu_boot 120 "${elf[$build]}" \
			"hz=$hz init=/bin/proctest" "$out/$name.log"
		echo $? >"$out/$name.rc"
	) &
	throttle
done
wait

for c in "${cases[@]}"; do
	read -r name build hz <<<"$c"
	[[ $name =~ $filter ]] || continue
	[ -f "$out/$name.rc" ] || continue
	rc=$(cat "$out/$name.rc")
	problems=()
	[ "$rc" -eq 33 ] || problems+=("exit status $rc, not 33")
	grep -qx 'proctest: 0 failed' "$out/$name.log" || problems+=("no 'proctest: 0 failed'")
	while read -r l; do problems+=("$l"); done < <(grep 'proctest: .* FAIL' "$out/$name.log")
	report "process: proctest [$name]" "${problems[@]}"
	grep -m1 '^proctest: rate:' "$out/$name.log" | sed "s/^proctest: /  [$name] /"
done
exit 0
