#!/bin/bash
# make check-long: the exhaustive and long-running checks (not run in CI).
# Closing line "N passed, N failed" like make check.
cd "$(dirname "$0")/.."
source scripts/lib.sh
scripts/deps.sh check || exit 1
mkdir -p build
DZ_RESULTS=$PWD/build/results-long.txt
: >"$DZ_RESULTS"
make --no-print-directory lib long-bins >/dev/null || exit 1

# The whole 2^32 millisecond (and 32-bit jiffies) domain, five HZ on two cores.
pids=()
for hz in 333 1200 "100 250" "1000 19"; do
	# shellcheck disable=SC2086
	build/host/conv_exhaustive $hz >"build/long-conv-${hz// /-}.log" 2>&1 &
	pids+=($!)
done
i=0
for hz in 333 1200 "100 250" "1000 19"; do
	if wait "${pids[$i]}"; then record pass "exhaustive conversions HZ $hz"; else record fail "exhaustive conversions HZ $hz"; fi
	cat "build/long-conv-${hz// /-}.log"
	i=$((i + 1))
done

# The unit suites with their long settings.
export DYNHZ_LONG=1
make --no-print-directory unit-bins >/dev/null || record fail "build unit tests"
for t in build/host/tests/test_*; do
	run_cmocka "$(basename "$t") [long]" "build/host/logs/$(basename "$t")-long.log" "$t"
done

# Every libFuzzer harness for at least 10 million executions (35 minutes
# on two cores, fuzz_cmdline the longest: it boots the core on every input), from
# the seeds and what the CI runs found. One result per harness.
FUZZ_RUNS=${FUZZ_RUNS:-10000000} bash tests/fuzz/check.sh || record fail "tests/fuzz/check.sh"

# Other areas' long runs.
for s in tests/*/long.sh; do
	[ -f "$s" ] || continue
	bash "$s" || record fail "$s"
done

passed=$(grep -c '^pass ' "$DZ_RESULTS")
failed=$(grep -c '^fail ' "$DZ_RESULTS")
skipped=$(grep -c '^skip ' "$DZ_RESULTS")
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
