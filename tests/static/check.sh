#!/bin/bash
# Static analysis (issue 22): clang's analyzer (scan-build) over everything
# the project compiles for itself: the core and the hosted port, the tools,
# the reference kernel. One result: no report. The reports, if any, are
# kept in build/static/report (scan-view opens them).
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

out=build/static
if ! command -v scan-build >/dev/null; then
	record fail "static: scan-build is not installed (clang-tools)"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
# Own build directories (B, KB): the analyzer must see every file compiled.
scan-build -o "$out/report" --status-bugs make --no-print-directory -j"$(nproc)" \
	B="$out/host" KB="$out/x86" lib kernel >"$out/scan.log" 2>&1
rc=$?
bugs=$(grep -c 'warning:' "$out/scan.log")
if [ $rc -eq 0 ] && grep -q 'No bugs found' "$out/scan.log"; then
	report "static: scan-build finds nothing in the core and the kernel"
else
	report "static: scan-build finds nothing in the core and the kernel" \
		"$bugs report(s), exit $rc:" "$(grep 'warning:' "$out/scan.log" | sort -u | head -10)"
fi
