#!/bin/bash
# Linux's timer selftests built for the Linux port's guests (issue 29,
# item 6): every program of tools/testing/selftests/timers, static, for
# x86_64 (gcc) and arm64 (aarch64-linux-gnu-gcc, or clang: lc_cc in
# tests/linux/checks-lib.sh).
#
#	tests/linux/kselftest-build.sh ARCH...   (x86_64, arm64; both when none)
#
# The sources come from Debian's linux-source-6.1 through
# tests/kselftest/fetch.sh (fetched at test time, cached in build/; nothing
# of them is committed). Each program lands in build/linux-kselftest/ARCH/,
# its compiler's output beside it in PROG.log; a program is rebuilt only
# when its source or kselftest.h is newer. Flags are their Makefile's
# (-O3 -Wl,-no-as-needed -Wall, -lrt -lpthread -lm) plus -static; their
# warnings are theirs. valid-adjtimex defines a clock_adjtime() of its own,
# which a static glibc also defines, so it is compiled with
# -Dclock_adjtime=ksft_clock_adjtime (as tests/kselftest/lib.sh does for
# the reference kernel).
#
# Prints one line per architecture: how many programs built, and the names
# of those that did not; exits non-zero, with one line on stderr, when the
# sources or the compiler cannot be had, or a program failed to build.
cd "$(dirname "$0")/../.." || exit 1
set -o pipefail
source tests/linux/checks-lib.sh
[ $# -gt 0 ] || set -- x86_64 arm64

sel=$(bash tests/kselftest/fetch.sh) || {
	echo "linux-kselftest: cannot fetch the selftests (tests/kselftest/fetch.sh)" >&2
	exit 1
}
src=$sel/timers
rc=0
for arch in "$@"; do
	read -ra cc <<<"$(lc_cc "$arch")" && [ ${#cc[@]} -gt 0 ] || exit 1
	bin=build/linux-kselftest/$arch
	mkdir -p "$bin"
	pids=() names=() failed=() n=0
	for c in "$src"/*.c; do
		p=$(basename "$c" .c)
		n=$((n + 1))
		[ "$bin/$p" -nt "$c" ] && [ "$bin/$p" -nt "$sel/kselftest.h" ] && continue
		extra=()
		[ "$p" = valid-adjtimex ] && extra=(-Dclock_adjtime=ksft_clock_adjtime)
		"${cc[@]}" -static -O3 -Wl,-no-as-needed -Wall "${extra[@]}" "$c" -o "$bin/$p" \
			-lrt -lpthread -lm >"$bin/$p.log" 2>&1 &
		pids+=($!) names+=("$p")
		if [ ${#pids[@]} -ge "$(nproc)" ]; then
			wait "${pids[0]}" || failed+=("${names[0]}")
			pids=("${pids[@]:1}") names=("${names[@]:1}")
		fi
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || failed+=("${names[$i]}")
	done
	if [ ${#failed[@]} -eq 0 ]; then
		echo "linux-kselftest: $arch: $n programs in $bin"
	else
		echo "linux-kselftest: $arch: $((n - ${#failed[@]})) of $n built; not: ${failed[*]} (see $bin/NAME.log)"
		rc=1
	fi
done
exit $rc
