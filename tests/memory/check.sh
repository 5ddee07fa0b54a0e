#!/bin/bash
# Memory for real programs (run by `make check`): the reference kernel's
# mmap, munmap, mprotect, madvise and brk against Linux's, and its use of
# the memory the loader reports.
#
# tests/memory/memcheck.c is built twice: for this host, where it runs on
# Linux itself (the reference), and static for i386, where the reference
# kernel boots it as init from a one-file initramfs. What the two print
# must be the same, line by line: random operations in a window of 32
# pages with each page's state after each (seeds 1-4, 400 steps), and the
# argument errors. Then the memory QEMU gives (-m 32 and -m 1024) must be
# what the kernel reports at boot, and a program must fill most of it
# (pages above the kernel's direct view included, at -m 1024) and find
# every word it wrote; asking for more than there is kills it with one
# line, as Linux's out-of-memory killer does.
#
#	tests/memory/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite memory "$1"
JOBS=2
build_kernels memory "$out"

# The two builds of the program, and its initramfs.
if ! gcc -O2 -Wall -Wextra -o "$out/memcheck-host" tests/memory/memcheck.c >"$out/build-host.log" 2>&1 ||
	! gcc -m32 -static -O2 -Wall -Wextra -o "$out/memcheck-i386" tests/memory/memcheck.c \
		>"$out/build-i386.log" 2>&1; then
	record fail "memory: build memcheck"
	cat "$out"/build-*.log >&2
	exit 0
fi
rm -rf "$out/root"
mkdir -p "$out/root/bin"
cp "$out/memcheck-i386" "$out/root/bin/memcheck"
(cd "$out/root" && find . | cpio -o -H newc --quiet) >"$out/memcheck.cpio"

# name|build|-m MiB|program arguments|expected exit status
cases=()
for seed in 1 2 3 4; do
	cases+=("ops-seed$seed|variable|64|ops $seed 400|33")
done
cases+=("errors|variable|64|errors|33")
cases+=("errors-debug|debug|64|errors|33")
cases+=("ops-constant|constant|64|ops 5 400|33")
cases+=("fill-m32|variable|32|big 20|33")
cases+=("fill-m1024|variable|1024|big 900|33")
cases+=("oom-m32|variable|32|big 64|35")

# The program's output in a boot log: between the exec line and init's end.
program_output() {
	sed -n '/^exec: pid 1 /,/^init: /p' "$1" | sed '1d;$d'
}

# The memory line against what QEMU was given: all of it but the first MiB
# and the BIOS's few reserved pages.
check_memory_line() { # check_memory_line log mib
	local kib
	kib=$(sed -n 's/^memory: \([0-9]*\) KiB usable.*/\1/p' "$1")
	[ -n "$kib" ] || { echo "no memory line"; return; }
	if [ "$kib" -gt $(($2 * 1024 - 1024)) ] || [ "$kib" -lt $(($2 * 1024 - 1024 - 512)) ]; then
		echo "memory line says $kib KiB usable for -m $2"
	fi
}

judge() { # judge name args want rc log mib
	local name=$1 args=$2 want=$3 rc=$4 log=$5 mib=$6 why=""
	[ "$rc" -eq "$want" ] || why="exit status $rc, not $want"
	case $args in
	ops* | errors)
		# shellcheck disable=SC2086
		"$out/memcheck-host" $args >"$out/$name.linux" 2>&1
		program_output "$log" >"$out/$name.dynhz"
		if ! diff -q "$out/$name.linux" "$out/$name.dynhz" >/dev/null; then
			why="${why:+$why; }differs from Linux: $(diff "$out/$name.linux" "$out/$name.dynhz" |
				grep -m1 '^>' | cut -c1-120)"
		fi
		;;
	"big 64")
		grep -q '^user: pid 1 (memcheck) killed by SIGKILL: out of memory at address 0x' "$log" ||
			why="${why:+$why; }no out-of-memory line"
		grep -q '^init: killed by signal 9 (SIGKILL)$' "$log" || why="${why:+$why; }no init line"
		;;
	big*)
		grep -q "^memcheck: big ${args#big } MiB twice: 0 bad words$" "$log" ||
			why="${why:+$why; }no clean fill line"
		;;
	esac
	local m
	m=$(check_memory_line "$log" "$mib")
	[ -z "$m" ] || why="${why:+$why; }$m"
	if [ -z "$why" ]; then echo "pass"; else echo "fail $why"; fi
}

run_case() { # run_case name build mib args want
	local name=$1 kernel=${elf[$2]} log=$out/$1.log
	if [ -z "$kernel" ]; then
		echo "fail no $2 kernel" >"$out/$name.res"
		return
	fi
	QEMU_ARGS="-initrd $out/memcheck.cpio -m $3" \
		qemu_boot 300 "$kernel" "hz=1000 init=/bin/memcheck -- $4" "$log"
	judge "$name" "$4" "$5" $? "$log" "$3" >"$out/$name.res"
}

start=$SECONDS
running=0
for c in "${cases[@]}"; do
	IFS='|' read -r name build mib args want <<<"$c"
	[[ $name =~ $filter ]] || continue
	run_case "$name" "$build" "$mib" "$args" "$want" &
	throttle
done
wait
for c in "${cases[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	[[ $name =~ $filter ]] || continue
	boot_result memory "$name"
done
echo "memory: took $((SECONDS - start)) s of wall time with $JOBS parallel boots"
