#!/bin/bash
# The libFuzzer harnesses: built by clang (mk/fuzz.mk) into build/fuzz/,
# then run side by side for FUZZ_TIME seconds each (30 unless told), from
# the seeds in tests/fuzz/corpus/<name>/ (the binary ones made at test time
# into build/fuzz/seeds/<name>/) plus what earlier runs found
# (build/fuzz/corpus/<name>/; the seeds are never written to). One result
# per harness. A failing input is kept in build/fuzz/ and the log says how
# to replay it.
#
# FUZZ_RUNS=N (make check-long) runs each harness for N executions instead
# of a time, and passes only if it got through all of them.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

FUZZ_TIME=${FUZZ_TIME:-30}
FUZZ_RUNS=${FUZZ_RUNS:-}
if [ -n "$FUZZ_RUNS" ]; then
	limit=(-runs="$FUZZ_RUNS")
	what=" ($FUZZ_RUNS runs)"
else
	limit=(-max_total_time="$FUZZ_TIME")
	what=""
fi
out=build/fuzz
mkdir -p "$out"

# name  seeds  libFuzzer options
harnesses=(
	"fuzz_cmdline fuzz_cmdline -max_len=1024 -dict=tests/fuzz/fuzz_cmdline.dict"
	"fuzz_conv fuzz_conv -max_len=32"
	"fuzz_conv_noint128 fuzz_conv -max_len=32"
	"fuzz_trace fuzz_trace -max_len=8192 -dict=tests/fuzz/fuzz_trace.dict"
	"fuzz_initramfs fuzz_initramfs -max_len=4096 -dict=tests/fuzz/fuzz_initramfs.dict"
	"fuzz_elf fuzz_elf -max_len=4096"
	"fuzz_vfs fuzz_vfs -max_len=8192 -dict=tests/fuzz/fuzz_vfs.dict"
)

if ! make --no-print-directory -j"$(nproc)" fuzz-bins >"$out/build.log" 2>&1; then
	tail -30 "$out/build.log" >&2
	for h in "${harnesses[@]}"; do
		record fail "fuzz: ${h%% *} (does not build)"
	done
	exit 0
fi

# Seeds that are archives or executables are made here, at test time, from
# text in the tree (no binary file is committed): build/fuzz/seeds/<name>/.
make_seeds() {
	local s=$out/seeds t=$out/seeds/tree
	rm -rf "$s" && mkdir -p "$s/fuzz_initramfs" "$s/fuzz_elf" "$s/fuzz_vfs" "$t/bin" "$t/etc"
	# fuzz_vfs: flags byte, cwd, NUL, path (see the harness's root)
	printf '\001/a\000../bin/sh' >"$s/fuzz_vfs/rel"
	printf '\003\000/proc/self/../1/exe/' >"$s/fuzz_vfs/proc"
	printf '\000a/b\000dots/up/../a/b/top/l1' >"$s/fuzz_vfs/links"
	printf '\001\000//self///cwd/./pexe' >"$s/fuzz_vfs/self"
	echo 'hello' >"$t/etc/motd"
	printf 'abc' >"$t/bin/prog"
	ln -s prog "$t/bin/link"
	ln -s /etc/motd "$t/motd"
	ln "$t/bin/prog" "$t/bin/hard"
	(cd "$t" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$s/fuzz_initramfs/tree.cpio"
	(cd "$t" && find . | LC_ALL=C sort | cpio -o -H crc --quiet) >"$s/fuzz_initramfs/crc.cpio"
	(cd "$t" && echo bin/link | cpio -o -H newc --quiet) >"$s/fuzz_initramfs/link.cpio"
	local cf=(-m32 -nostdlib -Os -fno-asynchronous-unwind-tables -Wl,--build-id=none
		-Wl,-z,noseparate-code)
	gcc "${cf[@]}" -static -fno-pic tests/fuzz/fuzz_elf_seed.c -o "$s/fuzz_elf/static" &&
		gcc "${cf[@]}" -static-pie -fpie -Wl,-z,norelro tests/fuzz/fuzz_elf_seed.c \
			-o "$s/fuzz_elf/static-pie" &&
		strip "$s/fuzz_elf/static" "$s/fuzz_elf/static-pie"
}
make_seeds 2>"$out/seeds.log" || { echo "fuzz: seeds: $(tail -1 "$out/seeds.log")" >&2; }

run() { # name seeds options...
	local name=$1 seeds=() rc
	[ -d "tests/fuzz/corpus/$2" ] && seeds+=("tests/fuzz/corpus/$2")
	[ -d "$out/seeds/$2" ] && seeds+=("$out/seeds/$2")
	shift 2
	mkdir -p "$out/corpus/$name"
	rm -f "$out/$name"-crash-* "$out/$name"-leak-* "$out/$name"-timeout-* "$out/$name"-oom-*
	"$out/$name" "${limit[@]}" -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$out/$name-" "$@" "$out/corpus/$name" "${seeds[@]}" \
		>"$out/$name.log" 2>&1
	rc=$?
	echo $rc >"$out/$name.rc"
}

for h in "${harnesses[@]}"; do
	# shellcheck disable=SC2086
	run $h &
done
wait

for h in "${harnesses[@]}"; do
	name=${h%% *}
	rc=$(cat "$out/$name.rc" 2>/dev/null || echo 1)
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$out/$name.log")
	secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$out/$name.log")
	if [ "$rc" -eq 0 ] && [ -n "$runs" ] && [ "$runs" -ge "${FUZZ_RUNS:-0}" ]; then
		record pass "fuzz: $name$what"
		printf '%-50s ok, %s runs in %s s\n' "fuzz: $name" "$runs" "$secs"
	else
		record fail "fuzz: $name$what"
		echo "---- $out/$name.log" >&2
		grep -v -e '^#[0-9]' -e '^INFO:' -e '^MS:' "$out/$name.log" | tail -25 >&2
		for a in "$out/$name"-crash-* "$out/$name"-timeout-* "$out/$name"-oom-*; do
			[ -f "$a" ] && echo "replay: $out/$name $a" >&2
		done
	fi
done
exit 0
