#!/bin/bash
# The Linux series' boot-time generator against Linux's build-time one
# (docs/LINUX.md, "One source of truth"). A kernel booted with hz=N must
# convert as one built with CONFIG_HZ=N, so hz_timeconst_init() of
# kernel/time/hz.c (patch 0008) must make, at every HZ hz= accepts, the
# very constants stock's kernel/time/timeconst.bc prints into timeconst.h,
# and every hz_div64() reciprocal it builds must divide exactly.
#
#   the generator: hz_recip_init(), hz_saturation(), hz_div64_init(),
#     hz_round_up_init() and hz_timeconst_init() cut by name out of the patched tree's hz.c,
#     compiled in user space with the tree's hz-conv.h and shim.h (the
#     kernel helpers), warnings as errors; built plain, under ASan + UBSan
#     and 32-bit (under qemu-i386: BITS_PER_LONG 32).
#   the referee: the pristine tree's timeconst.bc run by bc over
#     HZ_MIN..HZ_MAX of the series' include/linux/hz.h; every constant it
#     prints is compared (timeconst_test.c maps each name to its field).
#   hz_div64 and hz_round_up: every reciprocal of the table at every HZ
#     against a plain division by the divisor stock's formula has, on edge
#     and random dividends.
#   the test of the test: a table with one constant wrong, one with a
#     reciprocal wrong, and a timeconst.bc output with one line wrong must
#     each be caught, and only there.
#
# LINUX_TIMECONST_TREE=DIR reads the patched tree from DIR, and
# LINUX_TIMECONST_STOCK=DIR the pristine one, instead of making or finding
# them with scripts/linux/source.sh. Files in build/linux-timeconst/.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C
out=build/linux-timeconst
t=tests/linux-timeconst
rm -rf "$out"
mkdir -p "$out/src" "$out/bc"
n="linux timeconst"

# pass_with NAME DETAIL [MORE...]: report's pass, with its counts on its
# line and MORE on lines of their own.
pass_with() {
	record pass "$1"
	printf '%-50s ok: %s\n' "$1" "$2"
	shift 2
	[ $# -eq 0 ] || printf '  %s\n' "$@"
}

command -v bc >/dev/null || { report "$n: bc" "bc is not installed (scripts/deps.sh check)"; exit 0; }

# The trees. Their files are copied at once: source.sh's lock is not held
# after it prints, and the copies are what every step below reads.
tree=${LINUX_TIMECONST_TREE:-}
stock=${LINUX_TIMECONST_STOCK:-}
if [ -z "$tree" ] && ! tree=$(bash scripts/linux/source.sh patched 2>"$out/source.log"); then
	report "$n: the patched tree" "scripts/linux/source.sh patched failed:" "$(tail -3 "$out/source.log")"
	exit 0
fi
if [ -z "$stock" ] && ! stock=$(bash scripts/linux/source.sh pristine 2>"$out/source.log"); then
	report "$n: the pristine tree" "scripts/linux/source.sh pristine failed:" "$(tail -3 "$out/source.log")"
	exit 0
fi
for f in kernel/time/hz.c kernel/time/hz-conv.h include/linux/hz.h kernel/time/timeconst.bc; do
	cp "$tree/$f" "$out/src/" 2>/dev/null || { report "$n: $f in $tree" "missing"; exit 0; }
done
cp "$stock/kernel/time/timeconst.bc" "$out/timeconst.bc" 2>/dev/null ||
	{ report "$n: timeconst.bc in $stock" "missing"; exit 0; }

# A CONFIG_HZ_DYNAMIC=n kernel of the series still takes its constants
# from timeconst.bc: the series must leave it as it is.
if cmp -s "$out/timeconst.bc" "$out/src/timeconst.bc"; then
	report "$n: the series leaves timeconst.bc as stock's"
else
	report "$n: the series leaves timeconst.bc as stock's" "$(diff "$out/timeconst.bc" "$out/src/timeconst.bc" | head -5)"
fi

lo=$(sed -n 's/^#define[[:space:]]*HZ_MIN[[:space:]]*\([0-9]*\).*/\1/p' "$out/src/hz.h")
hi=$(sed -n 's/^#define[[:space:]]*HZ_MAX[[:space:]]*\([0-9]*\).*/\1/p' "$out/src/hz.h")
if [ -z "$lo" ] || [ -z "$hi" ]; then
	report "$n: HZ_MIN and HZ_MAX in include/linux/hz.h" "not found"
	exit 0
fi

# The referee. Kbuild runs `echo $HZ | bc -q timeconst.bc`: the script
# reads one HZ, prints timeconst.h and halts. A bc a HZ costs about 18 ms
# here, three minutes for the range, so the script runs with its halt and
# its last two lines (the read and the call) replaced by a loop over a part
# of the range, two parts at once. That this prints, HZ by HZ, what Kbuild's
# command prints is checked on a sample: the rates Kconfig offers, the
# bounds and a few drawn at random (LINUX_TIMECONST_SEED draws them again).
bcs=$out/timeconst-loop.bc
if [ "$(grep -c '^[[:space:]]*halt$' "$out/timeconst.bc")" = 1 ] &&
	[ "$(grep -v '^$' "$out/timeconst.bc" | tail -2 | tr '\n' '|')" = "hz = read();|timeconst(hz)|" ]; then
	grep -v -e '^[[:space:]]*halt$' -e '^hz = read();$' -e '^timeconst(hz)$' "$out/timeconst.bc" >"$bcs"
else
	report "$n: timeconst.bc run over HZ $lo..$hi" \
		"timeconst.bc no longer ends with one halt, 'hz = read();' and 'timeconst(hz)'"
	exit 0
fi
mid=$(((lo + hi) / 2))
for part in "$lo $mid" "$((mid + 1)) $hi"; do
	read -r a b <<<"$part"
	{
		cat "$bcs"
		echo "for (hz = $a; hz <= $b; hz++) x = timeconst(hz)"
	} | BC_LINE_LENGTH=0 bc -q >"$out/bc/part-$a.txt" 2>"$out/bc/part-$a.err" &
done
wait
for f in "$out"/bc/*.err; do
	[ -s "$f" ] && report "$n: timeconst.bc run over HZ $lo..$hi" "$(head -3 "$f")"
done

seed=${LINUX_TIMECONST_SEED:-$RANDOM}
RANDOM=$seed
sample=(100 250 300 1000 "$lo" "$hi")
for _ in 1 2 3 4 5 6; do
	sample+=($((lo + RANDOM % (hi - lo + 1))))
done
bad=()
for hz in "${sample[@]}"; do
	# The loop's output for that HZ: from its first line to the next HZ's.
	echo "$hz" | bc -q "$out/timeconst.bc" >"$out/alone.txt" 2>&1
	awk -v hz="$hz" '/^\/\* Automatically generated/ { keep = 0; held = $0; next }
		/^\/\* Time conversion constants for HZ == / { keep = ($(NF - 1) == hz); if (keep) print held }
		keep' "$out"/bc/part-*.txt >"$out/batched.txt"
	cmp -s "$out/alone.txt" "$out/batched.txt" || bad+=("HZ $hz: $(diff "$out/alone.txt" "$out/batched.txt" | head -3 | tr '\n' ' ')")
done
if [ ${#bad[@]} -eq 0 ]; then
	pass_with "$n: timeconst.bc batched prints as Kbuild's run" \
		"HZ ${sample[*]} (seed $seed), byte for byte"
else
	report "$n: timeconst.bc batched prints as Kbuild's run" "${bad[@]}" "(seed $seed)"
fi

# The generator, cut out of hz.c: each function named, from its first line
# at column 0 to the brace that closes it at column 0, with #line so that a
# compiler's message points into hz.c. A function missing fails here; a
# helper added to hz.c and not named here fails the build.
awk -v names="hz_recip_init hz_saturation hz_div64_init hz_round_up_init hz_timeconst_init" '
	BEGIN { k = split(names, a, " "); for (i = 1; i <= k; i++) want[a[i]] = 1 }
	!body && /^[a-z]/ && !/;$/ && match($0, /[a-z_0-9]+\(/) {
		f = substr($0, RSTART, RLENGTH - 1)
		if (f in want) { body = 1; found[f] = 1; printf "#line %d \"kernel/time/hz.c\"\n", NR }
	}
	body { print }
	body && /^}/ { body = 0 }
	END { for (f in want) if (!(f in found)) { print "no " f "() in hz.c" > "/dev/stderr"; bad = 1 }
		exit bad }' "$out/src/hz.c" >"$out/src/hz-gen.inc" 2>"$out/extract.log" || {
	report "$n: the generator in hz.c" "$(cat "$out/extract.log")"
	exit 0
}
# hz-conv.h's #includes are the kernel's headers: shim.h stands for them.
mkdir -p "$out/src/include"
sed -n 's/^#include <\(.*\)>.*/\1/p' "$out/src/hz-conv.h" | while read -r h; do
	mkdir -p "$out/src/include/$(dirname "$h")"
	echo "/* $h: tests/linux-timeconst/shim.h */" >"$out/src/include/$h"
done

CC=${CC:-gcc}
flags=(-std=gnu11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -g
	-I "$t" -I "$out/src" -I "$out/src/include")
builds=(plain san m32 wrong)
declare -A bflags=(
	[plain]="-O2"
	[san]="-O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
	[m32]="-O2 -m32"
	[wrong]="-O2 -DHZ_TEST_WRONG=250"
)
# Random dividends a divisor (on top of some 600 edge ones): ASan and
# qemu-i386 are slower, and the edges are where a reciprocal goes wrong.
declare -A count=([plain]=1000 [san]=100 [m32]=10)
declare -A runner=([m32]=qemu-i386)
declare -A bin=()
for b in "${builds[@]}"; do
	# shellcheck disable=SC2086
	if $CC "${flags[@]}" ${bflags[$b]} "$t/timeconst_test.c" -o "$out/timeconst_test-$b" \
		>"$out/build-$b.log" 2>&1; then
		report "$n: build [$b]"
		bin[$b]="${runner[$b]:-} $out/timeconst_test-$b"
	else
		report "$n: build [$b]" "$(head -20 "$out/build-$b.log")"
	fi
done

# judge NAME LOG RC: the result of a run, passed when RC is 0: its
# line of counts, or its problems (the indented lines).
judge() {
	local name=$1 log=$2 rc=$3 counts problems
	counts=$(grep -m1 -v -e '^  ' -e '^members:' "$log")
	if [ "$rc" -eq 0 ]; then
		pass_with "$name" "$counts"
	else
		mapfile -t problems < <(sed -n 's/^  //p' "$log"; tail -5 "$log.err")
		report "$name" "exit status $rc: $counts" "${problems[@]}"
	fi
}

for b in plain san m32; do
	[ -n "${bin[$b]:-}" ] || continue
	# shellcheck disable=SC2086
	${bin[$b]} table "$lo" "$hi" "$out"/bc/part-*.txt >"$out/table-$b.log" 2>"$out/table-$b.log.err"
	judge "$n: HZ $lo..$hi constants as timeconst.bc [$b]" "$out/table-$b.log" $?
	# shellcheck disable=SC2086
	${bin[$b]} div64 "$lo" "$hi" "${count[$b]}" >"$out/div64-$b.log" 2>"$out/div64-$b.log.err"
	judge "$n: hz_div64, hz_round_up exact at HZ $lo..$hi [$b]" "$out/div64-$b.log" $?
done

# Every reciprocal the table holds was checked: the members of struct
# hz_timeconst of type hz_div64 or hz_round_up, against the ones the check
# divided by.
if [ -f "$out/div64-plain.log" ]; then
	held=$(awk '/^struct hz_timeconst \{/ { s = 1 } s && /^};/ { s = 0 }
		s && sub(/^[[:space:]]*struct hz_(div64|round_up)[[:space:]]+/, "") { sub(/;.*/, ""); gsub(/,/, " "); print }' \
		"$out/src/hz-conv.h" | tr -s ' \t' '\n' | grep . | sort | tr '\n' ' ')
	checked=$(sed -n 's/^members: //p' "$out/div64-plain.log" | tr ' ' '\n' | grep . | sort | tr '\n' ' ')
	if [ -n "$held" ] && [ "$held" = "$checked" ]; then
		pass_with "$n: every reciprocal of the table is checked" "$(echo "$held" | wc -w) members"
	else
		report "$n: every reciprocal of the table is checked" "in struct hz_timeconst: $held" \
			"checked: $checked"
	fi
fi

# The test of the test. expect_caught NAME LOG RC PATTERN: the run failed,
# and every problem it printed matches PATTERN (what was made wrong).
expect_caught() {
	local name=$1 log=$2 rc=$3 pattern=$4 found other problems
	found=$(grep -Ec "^  $pattern" "$log")
	other=$(grep '^  ' "$log" | grep -Evc "^  $pattern")
	if [ "$rc" -ne 0 ] && [ "$found" -gt 0 ] && [ "$other" -eq 0 ]; then
		pass_with "$name" "$(grep -m1 -v -e '^  ' -e '^members:' "$log")" \
			"$(grep -Em1 "^  $pattern" "$log" | sed 's/^  //')"
	else
		mapfile -t problems < <(sed -n 's/^  //p' "$log" | head -5)
		report "$name" "exit status $rc, $found problems as '$pattern', $other others:" \
			"${problems[@]}"
	fi
}

if [ -n "${bin[wrong]:-}" ]; then
	"$out/timeconst_test-wrong" table "$lo" "$hi" "$out"/bc/part-*.txt >"$out/wrong-table.log" 2>&1
	expect_caught "$n: a wrong table constant is caught" "$out/wrong-table.log" $? \
		"HZ 250: MSEC_TO_HZ_ADJ32: "
	"$out/timeconst_test-wrong" div64 245 255 "${count[plain]}" >"$out/wrong-div64.log" 2>&1
	expect_caught "$n: a wrong hz_div64 reciprocal is caught" "$out/wrong-div64.log" $? \
		"HZ 250: hz_d "
	"$out/timeconst_test-wrong" div64 200 200 "${count[plain]}" >"$out/wrong-round-up.log" 2>&1
	expect_caught "$n: a wrong hz_round_up constant is caught" "$out/wrong-round-up.log" $? \
		"HZ 200: usec_per_jiffy_ru "
fi
if [ -n "${bin[plain]:-}" ]; then
	# USEC_TO_HZ_SHR32 one more at HZ 300, in a copy of the referee's output.
	awk '/^\/\* Time conversion constants for HZ == / { hz = $(NF - 1) }
		hz == 300 && $2 == "USEC_TO_HZ_SHR32" { sub(/[0-9]+$/, $3 + 1) }
		{ print }' "$out"/bc/part-*.txt >"$out/wrong-timeconst.txt"
	"$out/timeconst_test-plain" table "$lo" "$hi" "$out/wrong-timeconst.txt" >"$out/wrong-bc.log" 2>&1
	expect_caught "$n: a wrong timeconst.bc line is caught" "$out/wrong-bc.log" $? \
		"HZ 300: USEC_TO_HZ_SHR32: "
fi
exit 0
