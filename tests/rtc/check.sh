#!/bin/bash
# The CMOS clock and CLOCK_REALTIME (run by `make check`).
#
# On the host: arch/x86/rtc.c's decoding and date arithmetic against the C
# library (tests/rtc/test_rtc.c), once under ASan and UBSan and once as a
# 32-bit program (the kernel's word size); the Linux i386 signal frame
# layout (kernel/include/kernel/sigframe.h) is checked by its own
# _Static_asserts in both. Then under QEMU: the boot line names exactly the
# time QEMU's RTC was given (-rtc base=...), and by default the host's UTC
# time within a few seconds.
#
#	tests/rtc/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite rtc "$1"
CC=${CC:-gcc}
FLAGS=(-std=gnu11 -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64 -g -O1 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
	-Iinclude -Iarch/x86/include -Ikernel/include)
SRC=(tests/rtc/test_rtc.c tests/rtc/sigframe.c arch/x86/rtc.c)

# This host may not run i386 programs: the 32-bit one runs under qemu-user.
declare -A bins=() runner=([san]="" [m32]="${QEMU_USER:-qemu-i386}")
if $CC "${FLAGS[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all "${SRC[@]}" \
	-o "$out/test_rtc" >"$out/build.log" 2>&1; then
	bins[san]=$out/test_rtc
else
	record fail "rtc: the test program builds [san]"
	cat "$out/build.log" >&2
fi
if $CC "${FLAGS[@]}" -m32 "${SRC[@]}" -o "$out/test_rtc32" >"$out/build32.log" 2>&1; then
	bins[m32]=$out/test_rtc32
else
	record fail "rtc: the test program builds [m32]"
	cat "$out/build32.log" >&2
fi
for b in san m32; do
	[ -n "${bins[$b]}" ] || continue
	for t in $(${runner[$b]} "${bins[$b]}" list); do
		[[ $t =~ $filter ]] || continue
		problems=()
		${runner[$b]} "${bins[$b]}" "$t" >"$out/$t-$b.log" 2>&1 || problems+=("$(head -12 "$out/$t-$b.log")")
		report "rtc: $t [$b]" "${problems[@]}"
	done
done

# QEMU: the kernel's boot line against the RTC QEMU was given.
build_kernels rtc "$out"
rtc_line() { # rtc_line log: the seconds of the boot line, or nothing
	sed -n 's/^rtc: [0-9-]* [0-9:]* UTC (\([0-9]*\))$/\1/p' "$1" | head -1
}
for b in variable constant debug; do
	kernel=${elf[$b]}
	[ -n "$kernel" ] || continue
	[[ "boot-$b" =~ $filter ]] || continue
	problems=()
	QEMU_ARGS="-rtc base=2031-05-17T12:34:56" qemu_boot 60 "$kernel" "hz=100 noshell" "$out/base-$b.log"
	rc=$?
	[ $rc -eq 33 ] || problems+=("base: exit status $rc, not 33")
	grep -qx 'rtc: 2031-05-17 12:34:56 UTC (1936787696)' "$out/base-$b.log" ||
		problems+=("base: $(grep -m1 '^rtc:' "$out/base-$b.log" || echo 'no rtc: line')")
	t0=$(date -u +%s)
	qemu_boot 60 "$kernel" "hz=100 noshell" "$out/now-$b.log"
	rc=$?
	t1=$(date -u +%s)
	[ $rc -eq 33 ] || problems+=("now: exit status $rc, not 33")
	got=$(rtc_line "$out/now-$b.log")
	if [ -z "$got" ] || [ "$got" -lt $((t0 - 1)) ] || [ "$got" -gt $((t1 + 1)) ]; then
		problems+=("now: rtc line '${got:-none}' not within $t0..$t1 (date -u)")
	fi
	report "rtc: boot [$b]: -rtc base exactly, the host's UTC by default" "${problems[@]}"
done
