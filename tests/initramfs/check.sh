#!/bin/bash
# The initramfs reader (kernel/fs/initramfs.c) on the host, under ASan and
# UBSan, against archives the real cpio(1) makes here from a tree this
# script builds: every node's mode, owner, mtime, size and link target as
# stat and readlink tell them, every file's bytes as cat does, lookups
# through links, "." and "..", Linux's errno values; then every truncation
# and many byte flips of the archives (a truncated archive must fail, the
# zero padding after TRAILER!!! may go), and hand-made malformed ones.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

CC=${CC:-gcc}
out=build/initramfs
rm -rf "$out"
mkdir -p "$out"
bin=$out/test_initramfs

if ! command -v cpio >/dev/null; then
	record fail "initramfs: cpio is not installed (scripts/deps.sh check)"
	exit 0
fi
if ! $CC -std=gnu11 -g -O1 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Werror -fsanitize=address,undefined -fno-sanitize-recover=all -Iinclude -Ikernel/include \
	tests/initramfs/test_initramfs.c kernel/fs/initramfs.c -o "$bin" >"$out/build.log" 2>&1; then
	cat "$out/build.log" >&2
	record fail "initramfs: the test program builds"
	exit 0
fi

# The source tree: sizes around the 4-byte padding, deep and odd names,
# links of every kind.
src=$out/src
mkdir -p "$src"/a/b/c "$src"/bin "$src"/empty
for n in 0 1 2 3 4 5 7 8 511 4097; do
	head -c "$n" /dev/urandom >"$src/size$n"
done
echo deep >"$src/a/b/c/deep"
echo one >"$src/f1"
echo spaced >"$src/name with spaces"
long=$(printf 'n%.0s' {1..255})
echo long >"$src/$long"
echo busybox >"$src/bin/busybox"
chmod 4755 "$src/bin/busybox"
chmod 600 "$src/f1"
chmod 1777 "$src/empty"
ln -s /bin/busybox "$src/bin/sh"
ln -s ../../f1 "$src/a/b/up"
ln -s a/b "$src/lib"
ln -s loop2 "$src/loop1"
ln -s loop1 "$src/loop2"
ln -s "$long" "$src/tolong"
ln "$src/size5" "$src/hard5"
ln -s f1 "$src/l0"
for i in $(seq 1 40); do ln -s "l$((i - 1))" "$src/l$i"; done
touch -d '2001-02-03 04:05:06' "$src/size7"

(cd "$src" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$out/tree.cpio"
(cd "$src" && find . | LC_ALL=C sort | cpio -o -H crc --quiet) >"$out/crc.cpio"
(cd "$src" && printf '%s\n' f1 a a/b a/b/up size3 | cpio -o -H newc --quiet) >"$out/small.cpio"

# One line per node, as test_initramfs dump prints it, from stat and readlink.
reference() {
	(cd "$src" && find . -mindepth 1 | LC_ALL=C sort) | while IFS= read -r p; do
		read -r mode uid gid mtime size < <(stat -c '%f %u %g %Y %s' "$src/$p")
		[ -d "$src/$p" ] && [ ! -L "$src/$p" ] && size=0
		target=""
		[ -L "$src/$p" ] && target=$(readlink "$src/$p")
		printf '%s\t%o\t%s\t%s\t%s\t%s\t%s\n' "${p#./}" "$((16#$mode))" "$uid" "$gid" \
			"$mtime" "$size" "$target"
	done
}

reference >"$out/want.txt"
for arc in tree crc; do
	problems=()
	"$bin" dump "$out/$arc.cpio" 2>&1 | LC_ALL=C sort >"$out/got-$arc.txt"
	diff "$out/want.txt" "$out/got-$arc.txt" >"$out/diff-$arc.txt" ||
		problems+=("dump differs from stat/readlink: $(head -5 "$out/diff-$arc.txt")")
	report "initramfs: $arc: every node as stat sees it" "${problems[@]}"
done

problems=()
mkdir -p "$out/x"
"$bin" extract "$out/tree.cpio" "$out/x" || problems+=("extract failed")
while IFS= read -r p; do
	cmp -s "$src/$p" "$out/x/$p" || problems+=("$p: contents differ")
done < <(cd "$src" && find . -type f)
report "initramfs: every file's contents as cat sees them" "${problems[@]}"

# lookup PATH FOLLOW WANT: the node found (its path), or "err N".
problems=()
lookup() {
	local got
	got=$("$bin" lookup "$out/tree.cpio" "$1" "$2" 2>&1)
	[ "$got" = "$3" ] || problems+=("lookup '${1:0:60}' follow=$2: want '$3', got '$got'")
}
lookup /bin/sh 1 /bin/busybox
lookup /bin/sh 0 /bin/sh
lookup bin/sh/ 0 "err 20"
lookup a/b/up 1 /f1
lookup /a/b/up 0 /a/b/up
lookup lib/c/deep 1 /a/b/c/deep
lookup lib/c/deep 0 /a/b/c/deep
lookup lib 0 /lib
lookup lib/ 0 /a/b
lookup lib/.. 1 /a
lookup /a/b/c/../../b/./c 1 /a/b/c
lookup / 1 /
lookup /.. 1 /
lookup ../../.. 1 /
lookup ./f1 1 /f1
lookup //a//b/ 1 /a/b
lookup "name with spaces" 1 "/name with spaces"
lookup "$long" 1 "/$long"
lookup tolong 1 "/$long"
lookup "${long}n" 1 "err 36"
lookup "$(printf './%.0s' {1..2046})f1" 1 /f1
lookup "$(printf './%.0s' {1..2047})f1" 1 "err 36"
lookup loop1 1 "err 40"
lookup loop1 0 /loop1
lookup loop1/x 0 "err 40"
lookup l39 1 /f1
lookup l40 1 "err 40"
lookup l40 0 /l40
lookup missing 1 "err 2"
lookup a/missing/x 1 "err 2"
lookup "" 1 "err 2"
lookup f1/x 1 "err 20"
lookup f1/ 1 "err 20"
lookup size0/.. 1 "err 20"
lookup hard5 1 /hard5
report "initramfs: lookups, links and errno values" "${problems[@]}"

for arc in small tree; do
	problems=()
	"$bin" corrupt "$out/$arc.cpio" >"$out/corrupt-$arc.log" 2>&1 ||
		problems+=("$(tail -5 "$out/corrupt-$arc.log")")
	report "initramfs: $arc: truncated and flipped, clean errors" "${problems[@]}"
done

problems=()
"$bin" errors >"$out/errors.log" 2>&1 || problems+=("$(grep -v '^[a-z ]* *initramfs:\|parsed$' "$out/errors.log")")
report "initramfs: malformed archives, one clear line each" "${problems[@]}"

# make initramfs: Debian's BusyBox, read back through the reader. The
# binary must be the very bytes of the .deb's, and the applets links to it.
problems=()
if make --no-print-directory initramfs >"$out/make-initramfs.log" 2>&1; then
	bbdir=$(bash scripts/fetch-deb.sh busybox-static:i386)
	mkdir -p "$out/image"
	"$bin" extract build/x86/initramfs.cpio "$out/image" || problems+=("extract failed")
	cmp -s "$bbdir/bin/busybox" "$out/image/bin/busybox" || problems+=("bin/busybox differs from the .deb's")
	for a in sh uptime date sleep cat ps top free; do
		got=$("$bin" lookup build/x86/initramfs.cpio "/bin/$a" 1 2>&1)
		[ "$got" = /bin/busybox ] || problems+=("/bin/$a leads to '$got', not /bin/busybox")
	done
	got=$("$bin" lookup build/x86/initramfs.cpio /proc 1 2>&1)
	[ "$got" = /proc ] || problems+=("no /proc: $got")
else
	problems+=("make initramfs: $(tail -2 "$out/make-initramfs.log")")
fi
report "initramfs: make initramfs holds Debian's BusyBox and its applets" "${problems[@]}"
