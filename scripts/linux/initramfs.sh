#!/bin/bash
# The Linux port's initramfs: cpio newc, reproducible.
#   scripts/linux/initramfs.sh ARCH OUT.cpio [EXTRA_DIR...]
# Debian's busybox-static for the architecture (amd64 or arm64, fetched
# with scripts/fetch-deb.sh, never committed) as /bin/busybox with links
# for the applets below, linux/rootfs/ (/init, /etc/shrc, passwd, group),
# then each EXTRA_DIR's contents copied over it in order (the tests' own
# programs and Linux's selftests: a staging directory laid out as the
# root, e.g. EXTRA/kselftest/timers/nanosleep), and the device nodes of
# scripts/cpio-devnodes.sh (the kernel opens /dev/console before /init
# runs; dev/ first). Every file's time is set to 0 and the entries are sorted, so the
# same inputs give the same bytes; OUT is rewritten only when they change.
set -e -o pipefail
source "$(dirname "$0")/lib.sh"
arch=${1:?usage: scripts/linux/initramfs.sh ARCH OUT.cpio [EXTRA_DIR...]}
out=${2:?usage: scripts/linux/initramfs.sh ARCH OUT.cpio [EXTRA_DIR...]}
shift 2
case $arch in
x86_64) debarch=amd64 ;;
arm64) debarch=arm64 ;;
*) lx_die "unknown ARCH '$arch' (x86_64 or arm64)" ;;
esac
for d in "$@"; do [ -d "$d" ] || lx_die "initramfs: no directory $d"; done
command -v cpio >/dev/null || lx_die "no cpio (scripts/deps.sh linux installs it)"

applets="sh ash cat echo printf test [ true false ls mount umount mkdir rm cp mv ln
	sleep usleep uptime date hwclock ps top free kill dmesg grep head tail wc sed awk
	sort uniq cut tr seq env uname id time timeout taskset nproc sysctl stty setsid
	cttyhack poweroff reboot halt vi find xargs which watch"

bb=$(bash "$DZ_ROOT/scripts/fetch-deb.sh" "busybox-static:$debarch") || lx_die "cannot fetch busybox-static:$debarch"
[ -f "$DZ_ROOT/$bb/bin/busybox" ] || lx_die "no bin/busybox in $bb"
root=$out.root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,root}
install -m 0755 "$DZ_ROOT/$bb/bin/busybox" "$root/bin/busybox"
for a in $applets; do ln -s busybox "$root/bin/$a"; done
cp -R "$DZ_ROOT/linux/rootfs/." "$root/"
for d in "$@"; do cp -R "$d/." "$root/"; done
find "$root" -exec touch -h -d @0 {} +
mkdir -p "$(dirname "$out")"
# Three archives one after the other, as Linux unpacks them: dev/ alone
# (Linux's unpacker makes no parent directory, so it must come before the
# nodes in it), the nodes, then the tree.
(cd "$root" && echo dev | cpio -o -H newc -R 0:0 --reproducible --quiet &&
	bash "$DZ_ROOT/scripts/cpio-devnodes.sh" &&
	find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort | cpio -o -H newc -R 0:0 --reproducible --quiet) >"$out.tmp"
if cmp -s "$out.tmp" "$out"; then
	rm -f "$out.tmp"
else
	mv "$out.tmp" "$out"
fi
echo "linux: $out ($(stat -c %s "$out") bytes)" >&2
