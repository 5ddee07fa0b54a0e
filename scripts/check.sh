#!/bin/bash
# make check: every test of every build, then one closing line
# "N passed, N failed". Packages it needs are installed first.
cd "$(dirname "$0")/.."
source scripts/lib.sh
scripts/deps.sh check || exit 1

mkdir -p build
DZ_RESULTS=$PWD/build/results.txt
# Durations on /proc/uptime (a test may set this machine's clock): the
# closing lines say where CI's time went.
now() { cut -d' ' -f1 /proc/uptime; }
start=$(now)
took=()
lap() { # NAME T0
	took+=("$(echo "$(now) $2" | awk '{ printf "%6.0f", $1 - $2 }') s  $1")
}
: >"$DZ_RESULTS"
MAKE="make --no-print-directory -j$(nproc)"

# The unit suite in every build: variable, constant, debug, sanitized,
# 32-bit (the kernel's word size) and two other USER_HZ values.
variants=(
	""
	"CONFIG_HZ=100" "CONFIG_HZ=250" "CONFIG_HZ=300" "CONFIG_HZ=1000"
	"DEBUG=1"
	"SAN=1"
	"M32=1" "M32=1 CONFIG_HZ=250" "M32=1 DEBUG=1"
	"USER_HZ=32" "USER_HZ=1024" "M32=1 USER_HZ=1024"
)
t0=$(now)
for v in "${variants[@]}"; do
	# shellcheck disable=SC2086
	dir=$($MAKE $v print-builddir)
	# shellcheck disable=SC2086
	runner=$($MAKE $v print-runner)
	# shellcheck disable=SC2086
	if ! $MAKE $v unit-bins >"build/make-$(echo "${v:-default}" | tr ' =' '_-').log" 2>&1; then
		record fail "build [$v]"
		tail -30 "build/make-$(echo "${v:-default}" | tr ' =' '_-').log" >&2
		continue
	fi
	for t in "$dir"/tests/test_*; do
		[ -x "$t" ] || continue
		run_cmocka "$(basename "$t") [${v:-variable}]" "$dir/logs/$(basename "$t").log" $runner "$t"
	done
done

# The constant build on another input clock (1 GHz, HZ 300: a 3333333 ns
# tick): its generator takes the clock. Only the conversion tests, the
# others simulate the PIT.
v="CONFIG_HZ=300 CLOCK_HZ=1000000000"
# shellcheck disable=SC2086
dir=$($MAKE $v print-builddir)
# shellcheck disable=SC2086
if $MAKE $v "$dir/tests/test_conv" >build/make-clk1g.log 2>&1; then
	run_cmocka "test_conv [$v]" "$dir/logs/test_conv.log" "$dir/tests/test_conv"
else
	record fail "build [$v]"
	tail -30 build/make-clk1g.log >&2
fi
lap "the unit suites in ${#variants[@]} + 1 builds" "$t0"

# Further suites: each tests/<area>/check.sh records its own results.
for s in tests/*/check.sh; do
	[ -f "$s" ] || continue
	echo "== $s"
	t0=$(now)
	bash "$s" || record fail "$s"
	lap "$s" "$t0"
done

echo "where the time went (longest first):"
printf '%s\n' "${took[@]}" | sort -rn | head -12
lap "in all" "$start"
echo "${took[-1]}"

passed=$(grep -c '^pass ' "$DZ_RESULTS")
failed=$(grep -c '^fail ' "$DZ_RESULTS")
skipped=$(grep -c '^skip ' "$DZ_RESULTS")
if [ "$failed" -ne 0 ]; then
	echo "failures:"
	grep '^fail ' "$DZ_RESULTS" | sort | uniq -c
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
