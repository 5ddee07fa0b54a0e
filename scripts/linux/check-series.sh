#!/bin/bash
# check-series.sh -- the Linux series patch by patch, as upstream takes a
# series (make check-long): for every patch of linux/series, in order,
#   - it applies with patch -p1 to the tree so far;
#   - Linux's scripts/checkpatch.pl --strict has nothing to say of it;
#   - the tree so far builds (CONFIG_HZ_DYNAMIC=y, and the KUnit suite and
#     the debug option once a patch has added them) without a compiler
#     warning: Linux builds with -Wundef, so an #if on a name that is not
#     a macro warns, and with HZ a variable it does not compile at all.
# One result per patch and step ("linux series: 0005: builds").
#
#   scripts/linux/check-series.sh [ARCH]     (x86_64 by default; arm64)
#
# The tree is build/linux/series-check/src/, made afresh from the pristine
# tree (scripts/linux/source.sh: cp -al, so a patched file is a new file
# and the pristine one keeps its text) with the project's core linked as
# in the patched tree; each patch is applied to it in place, so Linux's
# make rebuilds after each only what depends on the files that patch
# touched (build.sh with LINUX_TREE, through ccache). The build directory
# (build/linux/series-check/ARCH/) starts afresh on every run: a file a
# later patch changed is pristine again in the new tree, older than the
# object the last run made from it. The first run compiles the tree once
# and each header a patch touches again (an hour or more on two cores);
# later runs are mostly ccache hits. Logs beside the tree. Prints the
# time each step took.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
source scripts/linux/lib.sh
export LC_ALL=C
arch=${1:-x86_64}
case $arch in x86_64 | arm64) ;; *) lx_die "check-series: unknown ARCH '$arch' (x86_64 or arm64)" ;; esac
since() { echo "$(lx_now) $1" | awk '{ printf "%.0f", $1 - $2 }'; }
bash scripts/deps.sh linux >/dev/null || exit 1

work=$DZ_ROOT/build/linux/series-check
src=$work/src/tree
cfg=$work/config-$arch
logs=$work/logs-$arch
start=$(lx_now)
pristine=$(bash scripts/linux/source.sh pristine) || { report "linux series: pristine tree" "source.sh failed"; exit 0; }
mkdir -p "$work/src" "$cfg" "$logs"
rm -rf "$src" "$work/${arch:?}" "${logs:?}"/*
cp -al "$pristine" "$src"
cp linux/config/base.config "linux/config/$arch.config" "$cfg/"

# The dynhz options the tree so far has (a Kconfig without them would drop
# them, and build.sh would fail on the difference).
fragment() {
	{
		echo "#@ series-only"
		echo "CONFIG_HZ_DYNAMIC=y"
		grep -q '^config HZ_KUNIT_TEST' "$src/kernel/Kconfig.hz" && echo "CONFIG_HZ_KUNIT_TEST=y"
		grep -q '^config HZ_DYNAMIC_DEBUG' "$src/kernel/Kconfig.hz" && echo "CONFIG_HZ_DYNAMIC_DEBUG=y"
		true
	} >"$cfg/dynhz.config"
}

n=0
while read -r p; do
	n=$((n + 1))
	id=${p%%-*}
	if ! patch -p1 -d "$src" --batch --forward --no-backup-if-mismatch <"linux/patches/$p" >"$logs/$id.patch.log" 2>&1; then
		report "linux series: $id: applies" "linux/patches/$p does not apply ($logs/$id.patch.log)"
		break
	fi
	report "linux series: $id: applies"
	(cd "$src" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict -q --no-summary --no-color "$DZ_ROOT/linux/patches/$p") >"$logs/$id.checkpatch.log" 2>&1
	# --strict: its CHECKs count too, and any other output (spdxcheck
	# failing to run, say) is a problem of its own.
	e=$(grep -c '^ERROR:' "$logs/$id.checkpatch.log")
	w=$(grep -c '^WARNING:' "$logs/$id.checkpatch.log")
	c=$(grep -c '^CHECK:' "$logs/$id.checkpatch.log")
	if [ ! -s "$logs/$id.checkpatch.log" ]; then
		report "linux series: $id: checkpatch --strict"
	else
		report "linux series: $id: checkpatch --strict" "$e errors, $w warnings, $c checks ($logs/$id.checkpatch.log):" \
			"$(grep -m4 -v '^$' "$logs/$id.checkpatch.log")"
	fi
	fragment
	t0=$(lx_now)
	if LINUX_TREE=$src LINUX_TREE_KEY=series-check LINUX_BUILD_DIR=$work LINUX_CONFIG_DIR=$cfg \
		bash scripts/linux/build.sh "$arch" dynhz >"$logs/$id.build.log" 2>&1; then
		if grep -q -E 'warning:' "$logs/$id.build.log"; then
			report "linux series: $id: builds" "compiler warnings ($logs/$id.build.log):" \
				"$(grep -m4 'warning:' "$logs/$id.build.log")"
		else
			report "linux series: $id: builds"
		fi
	else
		report "linux series: $id: builds" "the build failed ($logs/$id.build.log):" \
			"$(grep -m4 -E 'error:|linux:' "$logs/$id.build.log")"
	fi
	echo "  $p: $(since "$t0") s, $(grep -c '^  CC ' "$logs/$id.build.log") files compiled"
done < <(lx_series)
[ "$n" = "$(lx_series | wc -l)" ] || report "linux series: every patch applied" "stopped at patch $n"
echo "linux series: $arch, $n patches: $(since "$start") s"
