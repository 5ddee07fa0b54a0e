#!/bin/bash
# clang builds everything gcc does (issue 22): the core and the hosted port,
# the tools and the reference kernel, with no warning, and the unit tests
# built by clang pass. Its own build directories, so gcc's stay as they are.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

out=build/clang
mkdir -p "$out"
if ! command -v clang >/dev/null; then
	record fail "clang: clang is not installed"
	exit 0
fi
make="make --no-print-directory -j$(nproc) CC=clang B=$out/host KB=$out/x86"
if $make lib unit-bins kernel >"$out/build.log" 2>&1; then
	warnings=$(grep -c 'warning:' "$out/build.log")
	if [ "$warnings" -eq 0 ]; then
		report "clang: core, tests and kernel build without a warning"
	else
		report "clang: core, tests and kernel build without a warning" \
			"$(grep 'warning:' "$out/build.log" | sort -u | head -5)"
	fi
else
	report "clang: core, tests and kernel build without a warning" \
		"$(grep -m5 'error' "$out/build.log")"
	exit 0
fi
$make HZA_DIR="$out/tools" HZA_LIB="$out/host/libdynhz.a" hzadvise >"$out/hzadvise.log" 2>&1
if grep -q 'warning:\|error:' "$out/hzadvise.log" || [ ! -x "$out/tools/hzadvise" ]; then
	report "clang: hzadvise builds without a warning" "$(grep -m5 'warning:\|error:' "$out/hzadvise.log")"
else
	report "clang: hzadvise builds without a warning"
fi
for t in "$out"/host/tests/test_*; do
	[ -x "$t" ] || continue
	run_cmocka "$(basename "$t") [clang]" "$out/logs/$(basename "$t").log" "$t"
done
