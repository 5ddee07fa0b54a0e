#!/bin/bash
# Bad input (issue 11), run by `make check`: the kernel abused by a program
# and by what it boots from, and carrying on.
#
#  - tests/sysfuzz/sysfuzz.c, built static with glibc and booted as init,
#    makes a million seeded random system calls in the variable build at
#    hz=1000, fewer in the debug (hz=24), constant and hz=10000 boots. Each
#    must end with "sysfuzz: 0 failed" and its summary, exit 33, print no
#    kernel exception, and leave the kernel's text and read-only data as
#    they were (the sum the kernel prints at init's end is also computed
#    here from the ELF file), and the self-test must pass after it
#    (selftest_after_init). After its calls it forks 12 children (4 rounds
#    of 3) that fuzz 2000 calls each: every one must come back to wait4
#    with its own exit number, none be left (wait4 then ECHILD, only
#    sysfuzz in /proc) and the free memory be what it was before.
#  - Corrupt initramfs archives (tests/sysfuzz/corrupt.py cpio, made from
#    build/x86/initramfs.cpio): exactly the expected "initramfs: at byte N:
#    ...: booting with an empty root" line, then the demonstration and the
#    shell still run.
#  - Corrupt programs as init= (corrupt.py elf, made from the sysfuzz
#    binary; #! lines without an interpreter or with a missing one; a
#    directory, a missing file, a path through a file): exactly
#    the expected "exec: PATH: reason: ERRNO" line, then the shell runs
#    BusyBox from the same initramfs.
#  - Programs that must die (sysfuzz -x: a signal with no stack to be
#    delivered on, a handler that faults, a forged frame with no stack):
#    killed by SIGSEGV, exit 35, the kernel unharmed and its self-test
#    passing after.
#
#	tests/sysfuzz/check.sh [name-regex]
#	SYSFUZZ_LONG=1: only the soak, 10 million calls for each of several
#	seeds (tests/sysfuzz/long.sh, make check-long)
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite sysfuzz "$1"
if ! gcc -m32 -static -O1 -Wall -Wextra -Werror -fno-stack-protector tests/sysfuzz/sysfuzz.c \
	-o "$out/sysfuzz" >"$out/build.log" 2>&1; then
	record fail "sysfuzz: sysfuzz builds (gcc -m32 -static: libc6-dev-i386)"
	cat "$out/build.log" >&2
	exit 0
fi
if ! make --no-print-directory initramfs >"$out/initramfs.log" 2>&1; then
	record fail "sysfuzz: make initramfs"
	tail -5 "$out/initramfs.log" >&2
	exit 0
fi

# The root: the usual one, sysfuzz, and the corrupt programs as /bin/bad-NAME.
root=$out/root
rm -rf "$root" "$out/elf" "$out/cpio"
cp -a build/x86/initramfs-root "$root"
install -m 0755 "$out/sysfuzz" "$root/bin/sysfuzz"
declare -A elf_want cpio_want cpio_file
while IFS=$'\t' read -r name file want; do
	cp -p "$file" "$root/bin/bad-$name"
	elf_want[/bin/bad-$name]=$want
done < <(python3 tests/sysfuzz/corrupt.py elf "$out/sysfuzz" "$out/elf")
elf_want[/bin/nonexistent]="no such file: ENOENT"
elf_want[/tmp]="not a regular file with an execute bit: EACCES"
elf_want[/bin/busybox/x]="a path component is not a directory: ENOTDIR"
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) \
	>"$out/initramfs.cpio"
while IFS=$'\t' read -r name file want; do
	cpio_file[$name]=$file
	cpio_want[$name]=$want
done < <(python3 tests/sysfuzz/corrupt.py cpio build/x86/initramfs.cpio "$out/cpio")
if [ ${#elf_want[@]} -lt 16 ] || [ ${#cpio_want[@]} -lt 9 ]; then
	record fail "sysfuzz: corrupt.py makes the corrupt files"
	exit 0
fi
build_kernels sysfuzz "$out"

# The sum kernel/kimage.c prints, of the ELF file's text and rodata as loaded.
image_sum() {
	local start end
	start=$(nm "$1" | awk '$3 == "__kernel_start" { print $1 }')
	end=$(nm "$1" | awk '$3 == "__rodata_end" { print $1 }')
	objcopy -O binary -j .text -j .rodata "$1" "$out/image.bin" || return
	python3 - "$out/image.bin" "$start" "$end" <<-'EOF'
		import struct, sys
		data = open(sys.argv[1], "rb").read()
		n = (int(sys.argv[3], 16) - int(sys.argv[2], 16)) & ~3
		h = 0x811c9dc5
		for (w,) in struct.iter_unpack("<I", data[:n]):
		    h = ((h ^ w) * 0x01000193) & 0xffffffff
		print("%d bytes, sum 0x%08x" % (n, h))
	EOF
	rm -f "$out/image.bin"
}
declare -A sums
for b in "${!elf[@]}"; do
	sums[$b]=$(image_sum "${elf[$b]}")
done

kernel_trouble() { # log: the lines that say the kernel itself failed
	grep -E '^(exception: |panic: )|BUG' "$1" | head -3
}

# fuzz NAME BUILD HZ CALLS SEED TIMEOUT: one boot of sysfuzz as init; the
# problems, one a line, in $out/NAME.res.
fuzz() {
	local name=$1 kernel=${elf[$2]} log=$out/$1.log rc sum summary distinct
	local -a p=()
	# The self-test waits for the jiffies wrap 300 s after boot: a soak is past it.
	QEMU_ARGS="-initrd $out/initramfs.cpio -m 64" qemu_boot "$6" "$kernel" \
		"hz=$3 selftest_after_init ${SYSFUZZ_LONG:+nowrap }init=/bin/sysfuzz -- -s $5 -n $4" \
		"$log"
	rc=$?
	[ $rc -eq 33 ] || p+=("exit status $rc, not 33")
	while read -r l; do p+=("$l"); done < <(kernel_trouble "$log")
	while read -r l; do p+=("$l"); done < <(grep -E '^sysfuzz: FAIL' "$log" | head -5)
	grep -qx 'sysfuzz: 0 failed' "$log" || p+=("no 'sysfuzz: 0 failed'")
	summary=$(grep -m1 -E '^sysfuzz: [0-9]+ calls, ' "$log")
	if [[ $summary =~ ^sysfuzz:\ ([0-9]+)\ calls,\ ([0-9]+)\ distinct\ numbers,\ 0\ errors\ outside ]]; then
		[ "${BASH_REMATCH[1]}" = "$4" ] || p+=("${BASH_REMATCH[1]} calls made, not $4")
		distinct=${BASH_REMATCH[2]}
		# A million calls reach every number of the table and many more.
		[ "$4" -lt 100000 ] || [ "$distinct" -ge 300 ] || p+=("only $distinct distinct numbers")
	else
		p+=("no summary with 0 errors outside Linux's set")
	fi
	[[ $summary == *"guard pages intact, input region intact, read-only pages intact" ]] ||
		p+=("the summary does not say the guard, input and read-only pages are intact")
	# The children that fuzz too: all back with their numbers, none left, no page lost.
	fork=$(grep -m1 '^sysfuzz: fork phase: ' "$log")
	if [[ $fork =~ ^sysfuzz:\ fork\ phase:\ ([0-9]+)\ children.*:\ ([0-9]+)\ reaped\ .*wait4\ then\ ECHILD,\ 1\ processes\ in\ /proc,\ ([0-9]+)\ KiB\ free\ before\ and\ ([0-9]+)\ after$ ]]; then
		[ "${BASH_REMATCH[1]}" = 12 ] && [ "${BASH_REMATCH[2]}" = 12 ] ||
			p+=("fork phase: ${BASH_REMATCH[2]} of ${BASH_REMATCH[1]} children reaped, not 12 of 12")
		[ "${BASH_REMATCH[3]}" = "${BASH_REMATCH[4]}" ] ||
			p+=("fork phase: ${BASH_REMATCH[3]} KiB free before, ${BASH_REMATCH[4]} after")
	else
		p+=("no fork phase line with wait4 then ECHILD and 1 process in /proc: $fork")
	fi
	grep -qx 'init: exited with status 0' "$log" || p+=("no 'init: exited with status 0'")
	sum=${sums[$2]}
	grep -qx "kernel: text and read-only data unchanged since boot ($sum)" "$log" ||
		p+=("no 'kernel: text and read-only data unchanged since boot ($sum)'")
	grep -qE '^selftest: [0-9]+ passed, 0 failed$' "$log" || p+=("the self-test after it failed")
	printf '%s\n' "${p[@]}" >"$out/$name.res"
	echo "${summary#sysfuzz: }" >"$out/$name.summary"
}

# boot_typing LOG KERNEL CMDLINE INITRD INPUT: a boot whose console is typed
# INPUT (QEMU reads it only as the UART takes it); QEMU's exit status.
boot_typing() {
	local rc
	printf '%b' "$5" | timeout 60 "$QEMU" -kernel "$2" -append "$3" "${icount[@]}" -rtc clock=vm \
		-m 32 -initrd "$4" -display none -no-reboot -serial stdio \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 >"$1" 2>"$1.qemu"
	rc=$?
	sed -i 's/\r$//' "$1"
	return $rc
}

# A corrupt archive: its one line, an empty root, the demonstration and shell.
bad_cpio() {
	local name=$1 log=$out/cpio-$1.log want=${cpio_want[$1]} rc lines
	local -a p=()
	boot_typing "$log" "${elf[variable]}" "hz=250" "${cpio_file[$name]}" 'uptime\npoweroff\n'
	rc=$?
	[ $rc -eq 33 ] || p+=("exit status $rc, not 33")
	while read -r l; do p+=("$l"); done < <(kernel_trouble "$log")
	lines=$(grep -c '^initramfs:' "$log")
	[ "$lines" = 1 ] || p+=("$lines lines start with initramfs:, not 1")
	grep -qxF -- "$want" "$log" || p+=("no '$want'")
	grep -q '^vfs: root from the initramfs' "$log" && p+=("a root was made of it")
	grep -qx 'demo: done' "$log" || p+=("the demonstration did not finish")
	grep -qE '^uptime: [0-9]+\.[0-9]+ s$' "$log" || p+=("the shell did not answer uptime")
	grep -qx 'dynhz: powering off' "$log" || p+=("the shell did not power off")
	printf '%s\n' "${p[@]}" >"$out/cpio-$name.res"
}

# A program that cannot run as init: its one line, then BusyBox runs from the shell.
bad_init() {
	local path=$1 name=$2 log=$out/init-$2.log want="exec: $1: ${elf_want[$1]}" rc lines
	local -a p=()
	boot_typing "$log" "${elf[variable]}" "hz=250 init=$path" "$out/initramfs.cpio" \
		'run /bin/busybox echo alive\npoweroff\n'
	rc=$?
	[ $rc -eq 33 ] || p+=("exit status $rc, not 33")
	while read -r l; do p+=("$l"); done < <(kernel_trouble "$log")
	lines=$(grep -c '^exec: /' "$log")
	[ "$lines" = 1 ] || p+=("$lines lines start with exec: /, not 1")
	grep -qxF -- "$want" "$log" || p+=("no '$want'")
	grep -qxF "init: cannot run $path, running the kernel's shell" "$log" ||
		p+=("no 'init: cannot run $path, running the kernel's shell'")
	if ! grep -qx 'alive' "$log" || ! grep -qx 'run: exited with status 0' "$log"; then
		p+=("BusyBox did not run from the shell afterwards")
	fi
	printf '%s\n' "${p[@]}" >"$out/init-$name.res"
}

# A program that must die, not the kernel (sysfuzz -x HOW): SIGSEGV, exit 35.
die_case() {
	local how=$1 log=$out/die-$1.log rc sum
	local -a p=()
	QEMU_ARGS="-initrd $out/initramfs.cpio -m 64" qemu_boot 60 "${elf[variable]}" \
		"hz=250 selftest_after_init init=/bin/sysfuzz -- -x $how" "$log"
	rc=$?
	[ $rc -eq 35 ] || p+=("exit status $rc, not 35")
	while read -r l; do p+=("$l"); done < <(kernel_trouble "$log")
	grep -qx "sysfuzz: dying by $how" "$log" || p+=("it did not start")
	grep -q '^sysfuzz: survived' "$log" && p+=("it survived")
	grep -qx 'init: killed by signal 11 (SIGSEGV)' "$log" ||
		p+=("no 'init: killed by signal 11 (SIGSEGV)'")
	sum=${sums[variable]}
	grep -qx "kernel: text and read-only data unchanged since boot ($sum)" "$log" ||
		p+=("no 'kernel: text and read-only data unchanged since boot ($sum)'")
	grep -qE '^selftest: [0-9]+ passed, 0 failed$' "$log" || p+=("the self-test after it failed")
	printf '%s\n' "${p[@]}" >"$out/die-$how.res"
}

die_ways=(stack handler sigreturn)

result() { # result NAME RESFILE [DETAIL]
	local -a p=()
	if [ -f "$2" ]; then
		while IFS= read -r l; do
			if [ -n "$l" ]; then p+=("$l"); fi
		done <"$2"
	else
		p=("no result")
	fi
	if [ ${#p[@]} -eq 0 ] && [ -n "$3" ]; then
		report "$1"
		printf '  %s\n' "$3" | cut -c1-240
	else
		report "$1" "${p[@]}"
	fi
}

running=0
if [ -n "${SYSFUZZ_LONG:-}" ]; then
	# The soak: 10 million calls a seed, the last seed new each run (it is printed).
	seeds=(0x5eed 0xdead 0x1234567 "$(date +%s)")
	fuzz_cases=()
	for s in "${seeds[@]}"; do fuzz_cases+=("long-$s variable 1000 10000000 $s 3600"); done
	fuzz_cases+=("long-debug debug 24 10000000 0xbad 3600")
else
	fuzz_cases=("variable-hz1000 variable 1000 1000000 0x5eed 300"
		"debug-hz24 debug 24 300000 0xd1b 300"
		"constant-hz250 constant 250 300000 0xc0 300"
		"variable-hz10000 variable 10000 200000 0x10000 300")
fi
for c in "${fuzz_cases[@]}"; do
	read -r name build hz calls seed t <<<"$c"
	[[ "fuzz-$name" =~ $filter ]] || continue
	[ -n "${elf[$build]}" ] || continue
	fuzz "$name" "$build" "$hz" "$calls" "$seed" "$t" &
	throttle
done
if [ -z "${SYSFUZZ_LONG:-}" ] && [ -n "${elf[variable]}" ]; then
	for name in "${!cpio_want[@]}"; do
		[[ "cpio-$name" =~ $filter ]] || continue
		bad_cpio "$name" &
		throttle
	done
	for path in "${!elf_want[@]}"; do
		name=${path##*/}
		name=${name#bad-}
		[[ "init-$name" =~ $filter ]] || continue
		bad_init "$path" "$name" &
		throttle
	done
	for how in "${die_ways[@]}"; do
		[[ "die-$how" =~ $filter ]] || continue
		die_case "$how" &
		throttle
	done
fi
wait

for c in "${fuzz_cases[@]}"; do
	read -r name build hz calls seed t <<<"$c"
	[[ "fuzz-$name" =~ $filter ]] || continue
	[ -n "${elf[$build]}" ] || continue
	result "sysfuzz: $calls calls, seed $seed [$build hz=$hz]" "$out/$name.res" \
		"$(cat "$out/$name.summary" 2>/dev/null)"
done
[ -z "${SYSFUZZ_LONG:-}" ] || exit 0
for name in $(printf '%s\n' "${!cpio_want[@]}" | sort); do
	[[ "cpio-$name" =~ $filter ]] || continue
	result "sysfuzz: corrupt initramfs: $name" "$out/cpio-$name.res"
done
for path in $(printf '%s\n' "${!elf_want[@]}" | sort); do
	name=${path##*/}
	name=${name#bad-}
	[[ "init-$name" =~ $filter ]] || continue
	result "sysfuzz: init=$path" "$out/init-$name.res"
done
for how in "${die_ways[@]}"; do
	[[ "die-$how" =~ $filter ]] || continue
	result "sysfuzz: a program that must die ($how) dies alone" "$out/die-$how.res"
done
