#!/bin/bash
# Installs the Debian packages a target needs, when they are missing.
#   scripts/deps.sh check|bench|run|kernel|initramfs|user|linux
# As root it uses apt-get; otherwise it says what to install and fails.
set -e
want=(gcc make)
case "${1:-check}" in
# bc: tests/linux-timeconst runs Linux's kernel/time/timeconst.bc.
check) want+=(bc libcmocka-dev libcmocka-dev:i386 gcc-multilib binutils valgrind clang clang-tools libclang-rt-14-dev qemu-system-x86 qemu-user pkgconf clang-format xz-utils gzip gnuplot-nox cpio python3 tmux) ;;
bench) want+=(valgrind libev-dev libevent-dev libuv1-dev gnuplot-nox gcc-multilib libcmocka-dev qemu-system-x86 time xz-utils cpio gdb) ;;
initramfs) want+=(cpio gcc-multilib) ;;
user) want+=(gcc-multilib) ;;
run | kernel) want+=(qemu-system-x86 qemu-user gcc-multilib) ;;
# The Linux port (mk/linux.mk): Linux's build needs flex, bison, bc and
# libelf (objtool); arm64 is cross-compiled with clang and lld (never
# gcc-aarch64-linux-gnu: it conflicts with gcc-multilib, see
# scripts/linux/lib.sh); both boot under QEMU. The checks' programs for
# arm64 (tests/linux/payload.sh) link statically with clang and lld against
# Debian's cross glibc and libgcc, which live beside gcc-multilib.
linux) want+=(flex bison bc python3-ply python3-git libelf-dev ccache clang lld llvm qemu-system-x86 qemu-system-arm cpio xz-utils
	libc6-dev-arm64-cross libgcc-12-dev-arm64-cross) ;;
esac

missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "dynhz: missing Debian packages: ${missing[*]}" >&2
	echo "dynhz: install them with: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "dynhz: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
for p in "${missing[@]}"; do
	case "$p" in *:i386)
		dpkg --print-foreign-architectures | grep -qx i386 || dpkg --add-architecture i386 ;;
	esac
done
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
