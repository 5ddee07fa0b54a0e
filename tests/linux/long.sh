#!/bin/bash
# The Linux port's rebuild rules (make check-long; several x86_64 builds,
# minutes with a warm ccache): a changed patch is in the next build, a
# reverted one is gone from it, and an unchanged series rebuilds nothing.
#
# It builds with a series of its own (LINUX_SERIES, LINUX_PATCHES) in a
# place of its own (LINUX_BUILD_DIR=build/linux-rebuild-test), with the
# project's fragments less dynhz.config's options (LINUX_CONFIG_DIR): the
# real linux/series and build/linux/ are not touched. Its patch, made here from
# the pristine tree, changes init/main.c's "Run %s as init process" to
# carry a marker. Steps, one result each:
#   A        marker A in vmlinux
#   again    nothing changed: no file compiled, vmlinux not relinked
#   B        the patch changed to marker B: B in vmlinux, A not
#   empty    the series emptied: neither marker, the pristine text back
#            (init/main.c is the pristine file again, with the pristine's
#            old time: without the touch of source.sh its object would be
#            the stale one of B)
#   A again  the patch back
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
# lx_now (durations on /proc/uptime: tests may set this machine's clock).
source scripts/linux/lib.sh
since() { echo "$(lx_now) $1" | awk '{ printf "%.0f", $1 - $2 }'; }
export LC_ALL=C
t=$PWD/build/linux-rebuild-test
export LINUX_BUILD_DIR=$t LINUX_SERIES=$t/series LINUX_PATCHES=$t/patches LINUX_CONFIG_DIR=$t/config
mkdir -p "$t/patches" "$t/config"
# The project's fragments, but dynhz.config's options left out: this series
# is not the dynhz series and provides none of them (with a patch in the
# series, #@ series-only options are checked, and would fail).
cp linux/config/*.config "$t/config/"
sed -n '/^#@ series-only/q; p' linux/config/dynhz.config >"$t/config/dynhz.config"
bash scripts/deps.sh linux || exit 1
pristine=$(bash scripts/linux/source.sh pristine) || { record fail "linux rebuild: pristine tree"; exit 0; }
out=$t/x86_64
vmlinux=$out/vmlinux

# mkpatch MARK: the test patch with that marker.
mkpatch() {
	local w=$t/work
	rm -rf "$w" && mkdir -p "$w/a/init" "$w/b/init"
	cp "$pristine/init/main.c" "$w/a/init/"
	sed "s/Run %s as init process/Run %s as init process [$1]/" "$pristine/init/main.c" >"$w/b/init/main.c"
	(cd "$w" && diff -ruN a b) >"$t/patches/marker.patch"
	[ -s "$t/patches/marker.patch" ]
}

# step NAME WANT NOTWANT...: build, then one result: WANT (a string) in
# vmlinux, none of the NOTWANT.
step() {
	local name=$1 want=$2 problems=() s
	shift 2
	local t0=$(lx_now)
	if ! bash scripts/linux/build.sh x86_64 dynhz >"$t/$name.log" 2>&1; then
		report "linux rebuild: $name" "build failed: $(tail -1 "$t/$name.log")"
		return
	fi
	grep -qaF "$want" "$vmlinux" || problems+=("'$want' not in vmlinux")
	for s in "$@"; do
		grep -qaF "$s" "$vmlinux" && problems+=("'$s' still in vmlinux")
	done
	report "linux rebuild: $name" "${problems[@]}"
	echo "  $(since "$t0") s, $(grep -c '^  CC ' "$t/$name.log") files compiled"
}

A='Run %s as init process [dynhz-rebuild-A]'
B='Run %s as init process [dynhz-rebuild-B]'
P='Run %s as init process'

mkpatch dynhz-rebuild-A && echo marker.patch >"$t/series"
step A "$A" "$B"

before=$(stat -c %Y.%y "$vmlinux" 2>/dev/null)
t0=$(lx_now)
bash scripts/linux/build.sh x86_64 dynhz >"$t/again.log" 2>&1
n=$(grep -c '^  CC ' "$t/again.log")
if [ -n "$before" ] && [ "$n" -eq 0 ] && [ "$(stat -c %Y.%y "$vmlinux")" = "$before" ]; then
	report "linux rebuild: again"
	echo "  $(since "$t0") s"
else
	report "linux rebuild: again" "$n files compiled, vmlinux relinked: $(grep -m3 '^  CC ' "$t/again.log")"
fi

mkpatch dynhz-rebuild-B
step B "$B" "$A"

: >"$t/series"
step empty "$P" "$A" "$B"

mkpatch dynhz-rebuild-A && echo marker.patch >"$t/series"
step "A again" "$A" "$B"


# The rest of issue 29's long checks, each recording its own results:
# stock Linux at CONFIG_HZ=250 and 1000 beside the patched kernel, which
# rewrites tests/linux/stock-passes.txt and docs/LINUX.md's table (item
# 6); the whole boot matrix on both architectures (items 6 and 9);
# CONFIG_HZ_DYNAMIC=n against stock (item 5); every patch applied,
# checkpatch'ed and built on its own (item 8). Hours on two cores.
for a in x86_64 arm64; do
	bash scripts/linux/judge.sh "$a" || record fail "scripts/linux/judge.sh $a"
done
LINUX_CHECK=long bash tests/linux/check.sh || record fail "tests/linux/check.sh (LINUX_CHECK=long)"
for a in x86_64 arm64; do
	bash scripts/linux/constant.sh "$a" || record fail "scripts/linux/constant.sh $a"
	bash scripts/linux/check-series.sh "$a" || record fail "scripts/linux/check-series.sh $a"
done
