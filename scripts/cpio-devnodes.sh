#!/bin/bash
# The device nodes of the initramfs as cpio newc entries, on stdout, with
# no trailer: the archive of mk/initramfs.mk follows them. Made here so
# that building the initramfs needs no mknod (no root): newc is text
# headers. Linux's numbers; the kernel's drivers are in kernel/fs/vfs.c.
#   dev/console c 5 1   dev/tty c 5 0   dev/null c 1 3   dev/zero c 1 5
set -e
ino=$((0x7f000))
entry() { # name mode(octal) rdevmajor rdevminor
	local name=$1 namesize=$((${#1} + 1)) pad
	ino=$((ino + 1))
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		"$ino" "$((8#$2))" 0 0 1 0 0 0 0 "$3" "$4" "$namesize" 0
	printf '%s\0' "$name"
	# The header (110 bytes) and the name end on a multiple of 4.
	pad=$(((4 - (110 + namesize) % 4) % 4))
	head -c "$pad" /dev/zero
}
entry dev/console 020600 5 1
entry dev/tty 020666 5 0
entry dev/null 020666 1 3
entry dev/zero 020666 1 5
