#!/bin/bash
# Configures and builds a Linux kernel of the port (make linux, make
# linux-stock: mk/linux.mk).
#   scripts/linux/build.sh ARCH KIND [HZ]           builds (Linux's output on stdout,
#                                                   one line with the image on stderr)
#   scripts/linux/build.sh --print ARCH KIND [HZ]   only prints where the image goes
#   scripts/linux/build.sh --config ARCH KIND [HZ]  only configures (and checks)
# ARCH: x86_64 (gcc) or arm64 (cross-compiled with clang, LLVM=1: see
# lx_arch_vars in lib.sh for why not Debian's gcc-aarch64-linux-gnu).
# KIND, and the build directory (O=), all under build/linux/:
#   dynhz   the patched tree (linux/series), HZ_DYNAMIC on     ARCH[-hzHZ]/
#   release the patched tree, HZ_DYNAMIC on without its debug   ARCH-release[-hzHZ]/
#           check (HZ_DYNAMIC_DEBUG tests a flag on every read of
#           HZ): as a distribution would ship it; bench/linux's kernel
#   nodyn   the patched tree, HZ_DYNAMIC off (compile-time HZ)  ARCH-nodyn[-hzHZ]/
#           (and the series' KUnit suite off: constant.sh compares it)
#   stock   the pristine tree, no patch, HZ fixed at HZ (250)   stock-hzHZ-ARCH/
#   fixes   the series' leading fixes alone (lx_fixes), as stock fixes-hzHZ-ARCH/
# LINUX_TREE (with LINUX_TREE_KEY) builds a tree the caller made instead of
# the patched one (check-series.sh).
# HZ sets CONFIG_HZ (the default of hz= with HZ_DYNAMIC on). Stock Linux 6.12
# offers 100, 250, 300 and 1000 only: CONFIG_HZ is an int without a prompt,
# computed from the choice HZ_100/250/300/1000, so CONFIG_HZ=333 in a
# fragment is silently recomputed as 250 (measured), and any other value
# is refused here.
#
# Configuration: make tinyconfig, then Linux's scripts/kconfig/merge_config.sh
# -m of linux/config/base.config, ARCH.config, dynhz.config (not for stock)
# and the build's own choices (BUILD/dynhz-args.config: HZ, HZ_DYNAMIC off),
# then olddefconfig; then every option the fragments ask for is checked in
# the resulting .config (check_config below), and a list of those that did
# not come out as asked fails the build. Configured again only when its key
# changes (the fragments, the tree's key, the kind and HZ), so an unchanged
# .config never makes Linux's make rebuild anything.
#
# Build: Linux's make -j2 under nice -n 10 (LINUX_JOBS, LINUX_NICE change
# them: the machine's two cores are shared), through ccache
# (DYNHZ_CCACHE_DIR, build/ccache by default). Linux's make runs every time
# and decides what to rebuild itself, unless nothing at all has changed
# since the last build (see "Up to date" below): then it is not run.
set -e -o pipefail
source "$(dirname "$0")/lib.sh"

print_only=0 config_only=0
case ${1:-} in
--print) print_only=1 && shift ;;
--config) config_only=1 && shift ;;
esac
arch=${1:-x86_64}
kind=${2:-dynhz}
hz=${3:-}
lx_arch_vars "$arch"
case $kind in
dynhz) dir=$LX_BUILD/$arch${hz:+-hz$hz} ;;
release) dir=$LX_BUILD/$arch-release${hz:+-hz$hz} ;;
nodyn) dir=$LX_BUILD/$arch-nodyn${hz:+-hz$hz} ;;
stock)
	hz=${hz:-250}
	dir=$LX_BUILD/stock-hz$hz-$arch
	;;
fixes)
	hz=${hz:-250}
	dir=$LX_BUILD/fixes-hz$hz-$arch
	;;
*) lx_die "unknown kind '$kind' (dynhz, release, nodyn, stock or fixes)" ;;
esac
case $hz in
'' | 100 | 250 | 300 | 1000) ;;
*[!0-9]*) lx_die "CONFIG_HZ=$hz is not a number" ;;
*) [ "$kind" = stock ] || [ "$kind" = fixes ] && lx_die "stock Linux 6.12 has CONFIG_HZ 100, 250, 300 or 1000 only, not $hz (a choice of four; CONFIG_HZ itself has no prompt)" ;;
esac
if [ $print_only = 1 ]; then
	echo "$dir/$image"
	exit 0
fi

command -v "$cc" >/dev/null || lx_die "no $cc (scripts/deps.sh linux installs it)"
if [ "$arch" = arm64 ]; then
	command -v ld.lld >/dev/null || lx_die "no ld.lld (scripts/deps.sh linux installs lld)"
fi
command -v ccache >/dev/null || lx_die "no ccache (scripts/deps.sh linux installs it)"

# The tree, then a shared lock on it for the rest: another build may read
# it at the same time, but source.sh does not make it again meanwhile.
if [ "$kind" = stock ]; then
	tree=$(bash "$DZ_ROOT/scripts/linux/source.sh" pristine)
	tree_key=$(basename "$tree")
	series=0
elif [ "$kind" = fixes ]; then
	tree=$(bash "$DZ_ROOT/scripts/linux/source.sh" fixes)
	tree_key=fixes-$(cat "$LX_SRC/fixes.key")
	series=0
elif [ -n "${LINUX_TREE:-}" ]; then
	# A tree made by the caller (check-series.sh: the series applied
	# patch by patch in place), under its own key.
	[ -f "$LINUX_TREE/Makefile" ] || lx_die "LINUX_TREE=$LINUX_TREE is no Linux tree"
	tree=$LINUX_TREE
	tree_key=${LINUX_TREE_KEY:-tree}
	series=1
else
	tree=$(bash "$DZ_ROOT/scripts/linux/source.sh" patched)
	exec 9>"$LX_SRC/.lock"
	flock -s 9
	[ -f "$LX_SRC/patched.key" ] || lx_die "the patched tree was being made again: run again"
	tree_key=$(cat "$LX_SRC/patched.key")
	series=$(lx_series | wc -l)
fi

# A build directory belongs to one source tree: built from another
# (a new Debian version, stock against patched), it starts afresh.
ident="$tree"
if [ -f "$dir/.dynhz-source" ] && [ "$(cat "$dir/.dynhz-source")" != "$ident" ]; then
	echo "linux: $dir was built from $(cat "$dir/.dynhz-source"): starting afresh" >&2
	rm -rf "$dir"
fi
mkdir -p "$dir"
echo "$ident" >"$dir/.dynhz-source"

# The build's own choices, as one more fragment.
{
	echo "# Written by scripts/linux/build.sh for this build: $kind ${hz:+HZ $hz}"
	if [ -n "$hz" ]; then
		case $hz in 100 | 250 | 300 | 1000)
			# The choice sets CONFIG_HZ (the line after checks it); the
			# others are off, base.config's HZ_250 among them.
			for c in 100 250 300 1000; do
				[ "$c" = "$hz" ] && echo "CONFIG_HZ_$c=y" || echo "# CONFIG_HZ_$c is not set"
			done ;;
		esac
		echo "CONFIG_HZ=$hz"
	fi
	# The constant build without the series' own options, so that its
	# vmlinux can be held against the fixes-only tree's (constant.sh).
	[ "$kind" = nodyn ] && echo "# CONFIG_HZ_DYNAMIC is not set" &&
		echo "# CONFIG_HZ_KUNIT_TEST is not set"
	# (HZ_DYNAMIC_DEBUG depends on HZ_DYNAMIC: nodyn cannot have it either.)
	case $kind in nodyn | release) echo "# CONFIG_HZ_DYNAMIC_DEBUG is not set" ;; esac
	true
} >"$dir/dynhz-args.config.tmp"
cmp -s "$dir/dynhz-args.config.tmp" "$dir/dynhz-args.config" ||
	mv "$dir/dynhz-args.config.tmp" "$dir/dynhz-args.config"
rm -f "$dir/dynhz-args.config.tmp"
frags=("$LX_CONFIG/base.config" "$LX_CONFIG/$arch.config")
[ "$kind" = stock ] || [ "$kind" = fixes ] || frags+=("$LX_CONFIG/dynhz.config")
frags+=("$dir/dynhz-args.config")
for f in "${frags[@]}"; do [ -f "$f" ] || lx_die "no fragment $f"; done

export CCACHE_DIR=${DYNHZ_CCACHE_DIR:-$DZ_ROOT/build/ccache}
export CCACHE_BASEDIR=$DZ_ROOT
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export KBUILD_BUILD_USER=dynhz KBUILD_BUILD_HOST=dynhz
# The constant kinds are compared byte for byte (constant.sh): no date.
case $kind in stock | fixes | nodyn) export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 1970" ;; esac
kmake=(make -C "$tree" O="$dir" ARCH="$karch" "${ktool[@]}")
# ccache's base_dir hands the compiler a source path relative to $dir,
# which the kernel's -fmacro-prefix-map (absolute $tree) does not match:
# __FILE__ would name the tree, src/fixes or src/patched. Map the
# relative path too, so that the two constant kinds differ in nothing but
# their sources. (Not for the other kinds: their ccache stays warm.)
case $kind in fixes | nodyn)
	kmake+=(KCFLAGS="-fmacro-prefix-map=$(realpath -m --relative-to="$dir" "$tree")/=") ;;
esac

# check_config: every option of the fragments against .config, a later
# fragment's value replacing an earlier one's (as merge_config.sh merges
# them: dynhz-args.config's "HZ_DYNAMIC is not set" over dynhz.config's
# "=y"). "=value" must be in .config with that value; "is not set" is met
# by "is not set" or by absence (an option Kconfig cannot show is off).
# After a line "#@ series-only", a fragment's options are checked only when
# linux/series names a patch; skipped ones are listed on one line.
check_config() {
	local f line opt want got only bad=() skipped=()
	local -A wants=() from=() later=()
	local order=()
	for f in "${frags[@]}"; do
		only=0
		while IFS= read -r line; do
			case $line in
			'#@ series-only'*) only=1; continue ;;
			CONFIG_*=*) opt=${line%%=*} want=${line#*=} ;;
			'# CONFIG_'*' is not set') opt=${line#\# } opt=${opt%% *} want=n ;;
			*) continue ;;
			esac
			[ -n "${wants[$opt]+set}" ] || order+=("$opt")
			wants[$opt]=$want from[$opt]=$(basename "$f") later[$opt]=$only
		done <"$f"
	done
	for opt in "${order[@]}"; do
		want=${wants[$opt]}
		if [ "${later[$opt]}" = 1 ] && [ "$series" -eq 0 ]; then
			skipped+=("$opt=$want")
			continue
		fi
		got=$(grep -m1 -E "^$opt=|^# $opt is not set" "$dir/.config" || true)
		case $got in
		"$opt="*) got=${got#*=} ;;
		*) got=n ;;
		esac
		[ "$got" = "$want" ] || bad+=("$opt=$want (got $got, ${from[$opt]})")
	done
	[ ${#skipped[@]} -eq 0 ] || echo "linux: the series is empty: not checked: ${skipped[*]}" >&2
	if [ ${#bad[@]} -gt 0 ]; then
		rm -f "$dir/.dynhz-config"
		lx_die "options not as the fragments ask: ${bad[*]}"
	fi
}

config_key=$( (echo "$kind $arch $hz $tree_key $series ${ktool[*]}"; "$cc" --version | head -1
	lx_hash "${frags[@]}") | sha256sum | cut -c1-16)
if [ ! -f "$dir/.config" ] || [ "$(cat "$dir/.dynhz-config" 2>/dev/null)" != "$config_key" ]; then
	echo "linux: configuring $dir" >&2
	rm -f "$dir/.dynhz-config"
	{
		"${kmake[@]}" tinyconfig &&
			(cd "$dir" && bash "$tree/scripts/kconfig/merge_config.sh" -m -O "$dir" "$dir/.config" "${frags[@]}") &&
			"${kmake[@]}" olddefconfig
	} >"$dir/config.log" 2>&1 || lx_die "configuration failed (see $dir/config.log)"
	check_config
	echo "$config_key" >"$dir/.dynhz-config"
fi

[ $config_only = 1 ] && echo "linux: ${dir#"$DZ_ROOT"/}/.config" >&2 && exit 0

# Up to date: the last build of this directory was of this tree, this
# configuration and these make arguments, and no file of the tree
# nor .config has changed since it began. One find over
# the tree (a second) instead of Linux's make walking it (tens of seconds
# when the machine is busy). LINUX_FORCE=1 runs Linux's make anyway.
built="$tree_key $config_key $(echo "${kmake[*]}" | md5sum | cut -c1-12)"
if [ -z "${LINUX_FORCE:-}" ] && [ -f "$dir/$image" ] &&
	[ "$(cat "$dir/.dynhz-built" 2>/dev/null)" = "$built" ] &&
	[ -z "$(find -L "$tree" "$dir/.config" -newer "$dir/.dynhz-built" -print -quit)" ]; then
	echo "linux: ${dir#"$DZ_ROOT"/}/$image is up to date" >&2
	exit 0
fi
target=$(basename "$image")
start=$(lx_now)
rm -f "$dir/.dynhz-built"
echo "$built" >"$dir/.dynhz-built.new" # its time: when this build began
nice -n "${LINUX_NICE:-10}" "${kmake[@]}" -j"${LINUX_JOBS:-2}" "$target" ||
	lx_die "the build failed ($kind $arch${hz:+ HZ $hz}, $dir)"
mv "$dir/.dynhz-built.new" "$dir/.dynhz-built"
[ -f "$dir/$image" ] || lx_die "no $dir/$image after the build"
echo "linux: ${dir#"$DZ_ROOT"/}/$image ($(stat -c %s "$dir/$image") bytes, $(echo "$(lx_now) $start" | awk '{ printf "%.0f", $1 - $2 }') s)" >&2
