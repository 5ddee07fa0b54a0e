#!/bin/bash
# The Linux port's user-space checks as an initramfs payload (issue 29,
# item 6; the contract is at the top of tests/linux/run-checks.sh and in
# docs/LINUX.md, "User-space checks").
#
#	tests/linux/payload.sh ARCH...    (x86_64, arm64; both when none)
#
# Makes build/linux-payload/ARCH/, laid out as the guest's root:
#     sbin/run-checks          tests/linux/run-checks.sh
#     sbin/hzcheck             tests/linux/hzcheck.c, static (lc_cc of
#                              tests/linux/checks-lib.sh), -Wall -Wextra -Werror
#     sbin/timerload           tests/linux/timerload.c, the same way
#     kselftest/timers/PROG    every program tests/linux/kselftest-build.sh built
# for scripts/linux/initramfs.sh ARCH OUT.cpio build/linux-payload/ARCH.
# Prints the directory, one line per ARCH; fails with one line on stderr.
cd "$(dirname "$0")/../.." || exit 1
source tests/linux/checks-lib.sh
[ $# -gt 0 ] || set -- x86_64 arm64
for arch in "$@"; do
	read -ra cc <<<"$(lc_cc "$arch")" && [ ${#cc[@]} -gt 0 ] || exit 1
	dir=build/linux-payload/$arch
	rm -rf "$dir"
	mkdir -p "$dir/sbin" "$dir/kselftest/timers"
	if ! "${cc[@]}" -static -O2 -Wall -Wextra -Werror -o "$dir/sbin/hzcheck" tests/linux/hzcheck.c \
		-lpthread -lrt >"$dir.hzcheck.log" 2>&1; then
		echo "linux-payload: $arch: hzcheck does not build: $(grep -m1 -E 'error|warning' "$dir.hzcheck.log")" >&2
		exit 1
	fi
	if ! "${cc[@]}" -static -O2 -Wall -Wextra -Werror -o "$dir/sbin/timerload" \
		tests/linux/timerload.c >"$dir.timerload.log" 2>&1; then
		echo "linux-payload: $arch: timerload does not build: $(grep -m1 -E 'error|warning' "$dir.timerload.log")" >&2
		exit 1
	fi
	install -m 0755 tests/linux/run-checks.sh "$dir/sbin/run-checks"
	# A program that did not build is only missing (run-checks says so).
	bash tests/linux/kselftest-build.sh "$arch" >"$dir.kselftest.log" 2>&1 ||
		echo "linux-payload: $arch: $(tail -1 "$dir.kselftest.log")" >&2
	for p in build/linux-kselftest/"$arch"/*; do
		case $p in *.log) continue ;; esac
		[ -x "$p" ] && install -m 0755 "$p" "$dir/kselftest/timers/"
	done
	echo "$dir"
done
