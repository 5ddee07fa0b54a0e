#!/bin/bash
# scripts/hzadvise-pgo.sh OUT DIR LIB CC CFLAGS...: tools/hzadvise built
# guided by a profile (mk/hzadvise.mk runs it when the compiler is gcc).
#
# Built once counting what runs, run over traces, built again from the
# counts: the compiler then lays out the reader's and the replay's hot
# paths by what real traces do. Against plain -O3, a tenth off the bench's
# 10 M-line trace (docs/ADVISOR.md, "Speed and memory").
#
# The training set is not the bench's: the real traces build, idle and
# sleeps (tests/data/traces; the bench stretches net), read from plain
# files as a user's recording is; the three formats of
# tests/data/traces/synthetic (trace-cmd report, trace_pipe, an old
# kernel's), so that no format's path is laid out as never taken; and
# one --retune-auto run. Code no run reaches keeps plain -O3
# (-fprofile-partial-training).
#
# A training run that fails (no xz to unpack a trace) only thins the
# profile: it says so on one line and the build goes on.
set -eo pipefail
out=$1 dir=$2 lib=$3
shift 3
cc=("$@")
src=(tools/hzadvise/*.c)

# compile FLAGS...: every source to DIR/NAME.o. Both builds write the same
# paths: the profile of a file's static functions is found by its object's.
compile() {
	local f
	for f in "${src[@]}"; do
		"${cc[@]}" "$@" -c "$f" -o "$dir/$(basename "$f" .c).o"
	done
}

train() { # train ARGS...: one run of the counting build; a failure is a note
	"$dir/hzadvise-train" -q "$@" >/dev/null 2>"$dir/train.err" ||
		echo "hzadvise-pgo: training run ($*) failed: $(head -1 "$dir/train.err")" >&2
}

rm -rf "$dir"
mkdir -p "$dir/traces"
compile -fprofile-generate
"${cc[@]}" -fprofile-generate "$dir"/*.o "$lib" -lm -o "$dir/hzadvise-train"

for t in build idle sleeps; do
	if xz -dc "tests/data/traces/$t.txt.xz" >"$dir/traces/$t.txt" 2>/dev/null; then
		train "$dir/traces/$t.txt"
	else
		echo "hzadvise-pgo: cannot unpack tests/data/traces/$t.txt.xz (is xz installed?)" >&2
	fi
done
for t in tests/data/traces/synthetic/*.txt; do
	train "$t"
done
[ -s "$dir/traces/sleeps.txt" ] && train --retune-auto 1000:100 "$dir/traces/sleeps.txt"

compile -fprofile-use -fprofile-partial-training -Wno-missing-profile
"${cc[@]}" "$dir"/*.o "$lib" -lm -o "$out"
rm -rf "$dir/traces"
