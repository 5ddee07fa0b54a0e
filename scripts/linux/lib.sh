# Shared by scripts/linux/*.sh: where the Linux port's things live, and the
# few helpers every one of them needs. Sourced, not run.
#
#   build/debs/linux-source-6.12_*_all.deb  Debian's source (scripts/fetch-deb.sh)
#   build/linux/src/<deb name>/             the pristine tree, unpacked once (LX_PRISTINE)
#   build/linux/src/patched/                pristine + linux/series
#   build/linux/<ARCH>/ ...                 kernels built with O= (build.sh)
#   build/ccache/                           the compiler cache (DYNHZ_CCACHE_DIR)

# The project's root, absolute.
DZ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# LINUX_BUILD_DIR, LINUX_SERIES, LINUX_PATCHES and LINUX_CONFIG_DIR are for
# tests/linux/long.sh, which builds with a series of its own in a place of
# its own; the pristine
# tree (LX_PRISTINE) is always the one cache.
LX_BUILD=${LINUX_BUILD_DIR:-$DZ_ROOT/build/linux}
LX_SRC=$LX_BUILD/src
LX_PRISTINE=$DZ_ROOT/build/linux/src
LX_PATCHED=$LX_SRC/patched
LX_SERIES=${LINUX_SERIES:-$DZ_ROOT/linux/series}
LX_PATCHES=${LINUX_PATCHES:-$DZ_ROOT/linux/patches}
LX_CONFIG=${LINUX_CONFIG_DIR:-$DZ_ROOT/linux/config}
LX_PKG=linux-source-6.12:all

# The make that called us (make linux ARCH=arm64 CONFIG_HZ=300) passes its
# command-line variables down in MAKEFLAGS and the environment; Linux's
# make would take them as its own command-line overrides (CONFIG_HZ=300
# over its auto.conf). Every call into Linux's make states what it means.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL CONFIG_HZ CONFIG_HZ_DYNAMIC

lx_die() { # lx_die message: one line on stderr, then fail
	echo "linux: $*" >&2
	exit 1
}

# lx_series: the patch names of linux/series, one a line, in order (blank
# lines and # comments dropped, surrounding blanks trimmed).
lx_series() {
	[ -f "$LX_SERIES" ] || return 0
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$LX_SERIES"
}

# lx_fixes: the independent fixes that lead the series, the patches of
# linux/series before its line "#@ feature" (none when it has no such
# line). The tree with them alone is what CONFIG_HZ_DYNAMIC=n must equal.
lx_fixes() {
	[ -f "$LX_SERIES" ] && grep -q '^#@ feature' "$LX_SERIES" || return 0
	sed -e '/^#@ feature/,$d' "$LX_SERIES" |
		sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d'
}

# lx_arch_vars ARCH: sets karch (Linux's ARCH), ktool (the compiler
# arguments of Linux's make), cc (the compiler, for the checks), image (the
# boot image, relative to the build directory) and console.
#
# arm64 is cross-compiled with clang and LLVM's tools (LLVM=1), not with
# Debian's gcc-aarch64-linux-gnu: on Debian 12 that package (through
# gcc-12-aarch64-linux-gnu) conflicts with gcc-multilib, which the rest of
# the project needs (the i386 kernel, make M32=1); installing either
# removes the other. clang targets arm64 by itself, and Linux 6.12 builds
# with clang 14. x86_64 is built with gcc, as Debian builds its kernels.
lx_arch_vars() {
	case $1 in
	x86_64)
		karch=x86_64 cc=gcc image=arch/x86/boot/bzImage console=ttyS0
		ktool=(CC="ccache gcc" HOSTCC="ccache gcc") ;;
	arm64)
		karch=arm64 cc=clang image=arch/arm64/boot/Image console=ttyAMA0
		ktool=(LLVM=1 CC="ccache clang" HOSTCC="ccache clang") ;;
	*) lx_die "unknown ARCH '$1' (x86_64 or arm64)" ;;
	esac
}

# lx_hash FILE...: one sha256 over the names and contents of the files.
lx_hash() {
	local f
	for f in "$@"; do
		printf '%s\n' "${f#"$DZ_ROOT"/}"
		cat "$f"
	done | sha256sum | cut -c1-16
}

# lx_now: seconds since boot, with two decimals. Durations are measured on
# it, not on the time of day: a test on this machine may set the clock.
lx_now() {
	cut -d' ' -f1 /proc/uptime
}

# lx_random_hz SEED: an HZ in 24..10000 (HZ_MIN..HZ_MAX) drawn from SEED, a
# number 0..2^31-1 (Knuth's multiplicative hash: the same SEED, the same HZ,
# on every machine and shell).
lx_random_hz() {
	case $1 in '' | *[!0-9]*) echo "linux: LINUX_HZ_SEED='$1' is not a number" >&2; return 1 ;; esac
	echo $((((10#$1 * 2654435761) % 4294967296) % 9977 + 24))
}

# lx_code_size FILE: the sizes of an object's functions summed (nm -S: its
# t and T symbols), 0 when nm cannot read it. The code's size, where
# size(1)'s text is not: x86_64 pads vmlinux's .text to the 2 MB boundary
# where its entry code begins, so a few KB more or less do not move it.
lx_code_size() {
	nm -S "$1" 2>/dev/null | awk '
	function hex(x,   i, v) {
		v = 0; x = tolower(x)
		for (i = 1; i <= length(x); i++) v = v * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1
		return v
	}
	NF == 4 && ($3 == "t" || $3 == "T") { n += hex($2) } END { printf "%d\n", n }'
}
