#!/bin/bash
# Files for real programs (run by `make check`): the reference kernel's
# file system calls against Linux's, as a glibc program sees them.
#
# tests/files/filecheck.c is built twice: for this host, where it runs on
# Linux itself in a tree that cpio extracted (the reference), and static
# for i386, where the reference kernel boots it as init from an initramfs
# of the same tree. What the two print must be the same, line by line:
# stat, lstat, fstatat, statx and glibc's stat of every kind of path;
# errno values for bad descriptors, pointers into the kernel, buffers
# that end in an unmapped page, bad flags and whences; dup, fcntl, readv,
# writev; directory listings; chdir and getcwd; the shape of /proc/self.
# Then, on dynhz alone, what a read-only root and a tty console answer.
#
#	tests/files/check.sh [name-regex]
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

qemu_suite files "$1"
build_kernels files "$out"

if ! gcc -O2 -Wall -Wextra -Werror -o "$out/filecheck-host" tests/files/filecheck.c \
	>"$out/build-host.log" 2>&1 ||
	! gcc -m32 -static -O2 -Wall -Wextra -Werror -o "$out/filecheck-i386" \
		tests/files/filecheck.c >"$out/build-i386.log" 2>&1; then
	record fail "files: build filecheck"
	cat "$out"/build-*.log >&2
	exit 0
fi

# The tree: relative links only, so that the host's copy means the same.
src=$out/src
rm -rf "$src" "$out/x"
mkdir -p "$src"/a/b/c "$src"/bin "$src"/dir "$src"/empty "$src"/proc
cp "$out/filecheck-i386" "$src/bin/filecheck"
echo deep >"$src/a/b/c/deep"
echo one >"$src/f1"
chmod 600 "$src/f1"
head -c 4097 /dev/urandom >"$src/size4097"
head -c 5 /dev/urandom >"$src/size5"
ln "$src/size5" "$src/hard5"
ln -s ../../f1 "$src/a/b/up"
ln -s ../.. "$src/a/b/c/top"
ln -s a/b "$src/lib"
ln -s loop2 "$src/loop1"
ln -s loop1 "$src/loop2"
ln -s missing "$src/dangling"
ln -s f1 "$src/l0"
for i in $(seq 1 41); do ln -s "l$((i - 1))" "$src/l$i"; done
for i in $(seq 1 30); do echo "$i" >"$src/dir/file$i"; done
touch -d '2001-02-03 04:05:06' "$src/f1"
(cd "$src" && find . | sort | cpio -o -H newc --quiet) >"$out/files.cpio"
mkdir -p "$out/x"
(cd "$out/x" && cpio -i -d -m --quiet <../files.cpio)

"$out/filecheck-host" "$out/x" linux >"$out/linux.txt" 2>&1

# The program's output in a boot log: between the exec line and init's end.
program_output() {
	sed -n '/^exec: pid 1 /,/^init: /p' "$1" | sed '1d;$d'
}

# What the read-only root and the console must answer (dynhz only).
rofs_want() {
	cat <<'EOF'
open O_WRONLY: errno 30 (EROFS)
open O_RDWR: errno 30 (EROFS)
open O_TRUNC: errno 30 (EROFS)
create: errno 30 (EROFS)
create in a missing directory: errno 2 (ENOENT)
access W_OK: errno 30 (EROFS)
lseek of the console: errno 29 (ESPIPE)
lseek of a directory SEEK_END: errno 22 (EINVAL)
TIOCGWINSZ: 0
winsize: 24 x 80
TCGETS: 0
isatty(1): 1
TIOCGPGRP: 0
pgrp is getpgrp: 1
ioctl 0x1234 of the console: errno 25 (ENOTTY)
EOF
}

judge() { # judge name mode rc log
	local why=""
	[ "$3" -eq 33 ] || why="exit status $3, not 33"
	program_output "$4" >"$out/$1.dynhz"
	if [ "$2" = linux ]; then
		cp "$out/linux.txt" "$out/$1.want"
	else
		rofs_want >"$out/$1.want"
	fi
	if ! diff "$out/$1.want" "$out/$1.dynhz" >"$out/$1.diff"; then
		why="${why:+$why; }$(grep -c '^>' "$out/$1.diff") lines differ from $([ "$2" = linux ] &&
			echo Linux || echo the expected): $(grep -m1 '^>' "$out/$1.diff" | cut -c1-120)"
	fi
	if [ -z "$why" ]; then echo "pass"; else echo "fail $why"; fi
}

# name|build|mode|hz
cases=("linux|variable|linux|100" "linux-hz24|variable|linux|24" "linux-constant|constant|linux|250"
	"linux-debug|debug|linux|1000" "rofs|variable|rofs|1000")
start=$SECONDS
for c in "${cases[@]}"; do
	IFS='|' read -r name build mode hz <<<"$c"
	[[ $name =~ $filter ]] || continue
	kernel=${elf[$build]}
	if [ -z "$kernel" ]; then
		echo "fail no $build kernel" >"$out/$name.res"
		continue
	fi
	# One boot at a time: the CPUs are shared.
	QEMU_ARGS="-initrd $out/files.cpio -m 64" \
		qemu_boot 120 "$kernel" "hz=$hz init=/bin/filecheck -- / $mode" "$out/$name.log"
	judge "$name" "$mode" $? "$out/$name.log" >"$out/$name.res"
done
for c in "${cases[@]}"; do
	IFS='|' read -r name _ <<<"$c"
	[[ $name =~ $filter ]] || continue
	boot_result files "$name"
done
echo "files: took $((SECONDS - start)) s of wall time"
