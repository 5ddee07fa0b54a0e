# shellcheck shell=bash
# Shared by tests/kselftest/*.sh (sourced after scripts/lib.sh, from the
# top of the tree): Linux's timer selftests built for the reference kernel.
#
# ks_build OUT: fetches the sources (tests/kselftest/fetch.sh), builds every
# program of tools/testing/selftests/timers static for i386 with glibc into
# build/kselftest/bin/ (a program is rebuilt when its source is newer;
# logs beside them), and writes OUT/initramfs.cpio: `make initramfs`'s tree
# with the programs in /kselftest/ (their own scripts run ./raw_skew and
# the like through system(), so they run with /kselftest as their working
# directory). Sets ks_src (the timers/ directory) and fills ks_built (a map:
# program -> 1 when built). Returns non-zero, with one line on stderr, when
# the sources or the initramfs cannot be had; a program that does not build
# is only missing from ks_built (its log says why).
#
# Build flags are their Makefile's (CFLAGS += -O3 -Wl,-no-as-needed -Wall,
# LDLIBS += -lrt -lpthread -lm) plus gcc -m32 -static; their warnings are
# theirs (no -Werror). One addition, on the command line rather than in
# their source: valid-adjtimex defines its own clock_adjtime(), which a
# static glibc also defines (adjtimex is built on it), so it is compiled
# with -Dclock_adjtime=ksft_clock_adjtime (its definition and its callers
# renamed alike; it still makes the raw syscall).
ks_build() {
	local out=$1 bin=build/kselftest/bin p src extra pids=() names=() i
	declare -gA ks_built=()
	ks_src=$(bash tests/kselftest/fetch.sh) || return 1
	ks_src=$ks_src/timers
	mkdir -p "$bin"
	for src in "$ks_src"/*.c; do
		p=$(basename "$src" .c)
		extra=()
		[ "$p" = valid-adjtimex ] && extra=(-Dclock_adjtime=ksft_clock_adjtime)
		if [ "$bin/$p" -nt "$src" ] && [ "$bin/$p" -nt "$ks_src/../kselftest.h" ]; then
			ks_built[$p]=1
			continue
		fi
		gcc -m32 -static -O3 -Wl,-no-as-needed -Wall "${extra[@]}" "$src" -o "$bin/$p" \
			-lrt -lpthread -lm >"$bin/$p.log" 2>&1 &
		pids+=($!)
		names+=("$p")
		if [ ${#pids[@]} -ge "$(nproc)" ]; then
			wait "${pids[0]}" && ks_built[${names[0]}]=1
			pids=("${pids[@]:1}")
			names=("${names[@]:1}")
		fi
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" && ks_built[${names[$i]}]=1
	done
	if ! make --no-print-directory initramfs >"$out/initramfs.log" 2>&1; then
		echo "kselftest: make initramfs failed (see $out/initramfs.log)" >&2
		return 1
	fi
	local root=$out/root
	rm -rf "$root"
	cp -a build/x86/initramfs-root "$root"
	mkdir -p "$root/kselftest"
	for p in "${!ks_built[@]}"; do
		install -m 0755 "$bin/$p" "$root/kselftest/$p"
	done
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) \
		>"$out/initramfs.cpio"
}
