#!/bin/bash
# Which system calls a selftest makes on dynhz, and which of them the
# kernel does not have (a diagnostic, not part of `make check`).
#
#	tests/kselftest/trace.sh [-z HZ] PROGRAM [ARGS...]
#
# Boots /kselftest/PROGRAM (tests/kselftest/lib.sh builds it) as init under
# the suite's -icount with QEMU's interrupt log (-d int), and lists every
# `int $0x80` the program made in order of first use: number, name (from
# the i386 unistd_32.h), how many times, the distinct EBX/ECX arguments of
# the first few, and "ENOSYS" for a number kernel/*/syscalls.h
# does not have. QEMU's log shows the arguments, not the answers: an
# implemented call's errno has to be read in its source. The program's
# console is in build/kselftest-trace/PROGRAM.log, the raw interrupt log in
# PROGRAM.int (large; removed unless KEEP_INT=1).
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
source tests/kselftest/lib.sh
export LC_ALL=C

hz=250
if [ "$1" = -z ]; then
	hz=$2
	shift 2
fi
prog=${1:?usage: trace.sh [-z HZ] PROGRAM [ARGS...]}
shift
DZ_RESULTS=/dev/null
read -ra icount <<<"${ICOUNT:--icount shift=2,sleep=off}"
out=build/kselftest-trace
mkdir -p "$out"
ks_build "$out" || exit 1
[ -n "${ks_built[$prog]}" ] || {
	echo "trace: no program $prog (see build/kselftest/bin/$prog.log)" >&2
	exit 1
}
make --no-print-directory kernel >"$out/kernel.log" 2>&1 || {
	echo "trace: the kernel does not build (see $out/kernel.log)" >&2
	exit 1
}
kernel=$(make --no-print-directory print-kernel)
args=""
[ $# -gt 0 ] && args=" -- $*"
timeout "${TRACE_TIMEOUT:-600}" "${QEMU_SYS:-qemu-system-i386}" -kernel "$kernel" \
	-initrd "$out/initramfs.cpio" -append "hz=$hz init=/kselftest/$prog$args" \
	"${icount[@]}" -rtc clock=vm -m 64 -display none -no-reboot \
	-serial "file:$out/$prog.log" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-d int -D "$out/$prog.int" </dev/null >/dev/null 2>&1
echo "trace: $prog at hz=$hz: QEMU exit status $? ($(sed 's/\r$//' "$out/$prog.log" |
	grep -a -m1 '^init: ' || echo 'no init: line'))"

unistd=$(echo '#include <asm/unistd_32.h>' | gcc -m32 -E -dM - 2>/dev/null | grep '^#define __NR_')
# The ring-3 int $0x80 entries: "v=80 ... cpl=3" then the register line.
awk -v table="$(sed -n 's/^SYSCALL(\([0-9]*\),.*/\1/p' kernel/syscalls.h kernel/*/syscalls.h | tr '\n' ' ')" \
	-v names="$(echo "$unistd" | awk '{ sub("__NR_", "", $2); printf "%s=%s ", $3, $2 }')" '
	function hex(s,  v, i) {
		v = 0
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
		return v
	}
	BEGIN {
		n = split(table, t, " "); for (i = 1; i <= n; i++) have[t[i]] = 1
		n = split(names, a, " "); for (i = 1; i <= n; i++) { split(a[i], kv, "="); name[kv[1]] = kv[2] }
	}
	/ v=80 .* cpl=3 / { want = 1; next }
	want && /^EAX=/ {
		want = 0
		nr = hex(substr($1, 5)); ebx = substr($2, 5); ecx = substr($3, 5)
		if (!(nr in count)) order[++norder] = nr
		count[nr]++
		key = nr " " ebx " " ecx
		if (!(key in seen) && nargs[nr] < 6) {
			seen[key] = 1; nargs[nr]++
			args[nr] = args[nr] " " ebx "/" ecx
		}
	}
	END {
		for (i = 1; i <= norder; i++) {
			nr = order[i]
			printf "%4d %-24s %7d%s  ebx/ecx:%s\n", nr, (nr in name) ? name[nr] : "?", count[nr],
				(nr in have) ? "" : "  ENOSYS", args[nr]
		}
	}' "$out/$prog.int"
[ "${KEEP_INT:-0}" = 1 ] || rm -f "$out/$prog.int"
