#!/bin/bash
# The kernel's file layer (kernel/fs/vfs.c, file.c, stat.c, procfs.c, with the real
# initramfs reader and the hosted core's time) on the host, under ASan and
# UBSan, through its system-call entry points:
#
# - against the host's own Linux: a tree this script builds goes into a
#   cpio archive (the kernel's root) and is extracted again by cpio into a
#   directory, where ref_vfs answers the same queries with openat2
#   RESOLVE_IN_ROOT (so "/", ".." and absolute links stay inside): stat,
#   lstat, readlink, directory listings (getdents64 and getdents), file
#   contents, chdir/getcwd, open flags, access — for every node and for
#   awkward paths (., .., //, trailing slashes, link loops, long names);
# - against expected values: errno values, descriptors, fcntl, lseek,
#   readv/writev, statx and stat64 at the ABI's offsets, /proc's files.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

CC=${CC:-gcc}
out=build/vfs
rm -rf "$out"
mkdir -p "$out"

if ! command -v cpio >/dev/null; then
	record fail "vfs: cpio is not installed (scripts/deps.sh check)"
	exit 0
fi
# shellcheck disable=SC2054 # the commas are -fsanitize='s
flags=(-std=gnu11 -g -O1 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
	-fsanitize=address,undefined -fno-sanitize-recover=all -Iinclude -Ikernel/include)
core=(time/*.c lib/*.c host/host.c)
if ! $CC "${flags[@]}" tests/vfs/test_vfs.c tests/vfs/shim.c kernel/fs/vfs.c kernel/fs/file_table.c \
	kernel/fs/file.c kernel/fs/stat.c kernel/fs/procfs.c kernel/fs/procfs-pid.c \
	kernel/fs/initramfs.c kernel/sched/loadavg.c "${core[@]}" -o "$out/test_vfs" >"$out/build.log" 2>&1 ||
	! $CC "${flags[@]}" tests/vfs/ref_vfs.c -o "$out/ref_vfs" >>"$out/build.log" 2>&1; then
	cat "$out/build.log" >&2
	record fail "vfs: the test programs build"
	exit 0
fi

# The tree: what tests/initramfs uses, plus an empty proc (as make
# initramfs has) and the root's own entry, so its nlink is the real one.
src=$out/src
mkdir -p "$src"/a/b/c "$src"/bin "$src"/empty "$src"/proc "$src"/dir/sub
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
ln -s busybox "$src/bin/cat"
ln -s ../../f1 "$src/a/b/up"
ln -s a/b "$src/lib"
ln -s /a/b/ "$src/abslib"
ln -s ../.. "$src/a/b/c/top"
ln -s / "$src/root"
ln -s loop2 "$src/loop1"
ln -s loop1 "$src/loop2"
ln -s "$long" "$src/tolong"
ln -s missing "$src/dangling"
ln -s "" "$src/empty-link" 2>/dev/null || true
ln "$src/size5" "$src/hard5"
ln -s f1 "$src/l0"
for i in $(seq 1 41); do ln -s "l$((i - 1))" "$src/l$i"; done
for i in $(seq 1 60); do echo "$i" >"$src/dir/file$i"; done
touch -d '2001-02-03 04:05:06' "$src/size7"
(cd "$src" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$out/tree.cpio"
mkdir -p "$out/x"
(cd "$out/x" && cpio -i -d -m --quiet <"../tree.cpio") 2>"$out/extract.log"
# cpio sets a directory's time before filling it: set them all again from the source.
(cd "$src" && find . -type d) | while IFS= read -r d; do touch -r "$src/$d" "$out/x/$d"; done

# The queries: every node (not /proc, which is the kernel's own), then paths made to be awkward.
queries=$out/queries.txt
{
	(cd "$src" && find . -mindepth 1 -not -path './proc*' | LC_ALL=C sort) | while IFS= read -r p; do
		p=${p#./}
		for op in stat lstat readlink open_r open_dir open_nofollow access_r access_x; do
			printf '%s\t%s\n' "$op" "$p"
			printf '%s\t/%s\n' "$op" "$p"
		done
		[ -d "$src/$p" ] && printf 'list\t%s\ncwd\t%s\n' "$p" "$p"
		[ -f "$src/$p" ] && printf 'cat\t%s\n' "$p"
	done
	for p in / . .. /.. ../../.. //a//b/ /a/b/c/../../b/./c a/./b/../b/c/ bin/sh/ bin/sh/. lib lib/ \
		lib/.. lib/c/deep lib/c/../up abslib abslib/c a/b/c/top a/b/c/top/f1 a/b/c/top/.. \
		root root/ root/a/../root/bin/sh loop1 loop1/ loop1/x l39 l40 l41 l40/ missing \
		a/missing/x f1/x f1/ f1/. f1/.. size0/.. dangling dangling/ empty-link tolong "${long}n" \
		"a/$long" "name with spaces" hard5 "" ./ "$(printf './%.0s' {1..2046})f1" \
		"$(printf './%.0s' {1..2047})f1" "$(printf 'a/../%.0s' {1..800})f1"; do
		for op in stat lstat readlink open_r open_dir open_nofollow list cwd cat access_x; do
			printf '%s\t%s\n' "$op" "$p"
		done
	done
} >"$queries"

problems=()
"$out/ref_vfs" "$out/x" <"$queries" >"$out/want.txt" 2>"$out/ref.log" ||
	problems+=("ref_vfs failed: $(tail -3 "$out/ref.log")")
"$out/test_vfs" query "$out/tree.cpio" <"$queries" >"$out/got.txt" 2>"$out/query.log" ||
	problems+=("test_vfs query failed: $(tail -5 "$out/query.log")")
if ! diff "$out/want.txt" "$out/got.txt" >"$out/diff.txt"; then
	problems+=("$(grep -c '^<' "$out/diff.txt") of $(wc -l <"$queries") answers differ from the host's Linux (want <, got >):")
	problems+=("$(head -20 "$out/diff.txt" | cut -c1-300)")
fi
report "vfs: stat, readlink, getdents, read, chdir, open, access as Linux" "${problems[@]}"

problems=()
"$out/test_vfs" check "$out/tree.cpio" >"$out/check.log" 2>&1 ||
	problems+=("$(grep -v '^vfs: \|^initramfs: ' "$out/check.log" | tail -30)")
report "vfs: errno values, descriptors, the i386 layouts and /proc" "${problems[@]}"
