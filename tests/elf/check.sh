#!/bin/bash
# The ELF reader and the startup stack builder (kernel/proc/elf.c) on the host,
# under ASan and UBSan, against independent references: real static i386
# programs built here (gcc -m32 -static and -static-pie) and Debian's
# busybox-static:i386 (fetched into build/ with apt-get download; skipped,
# saying so, when it cannot be had). The plan's entry point, segments and
# program header address must be what readelf -lh says of the same file;
# dynamic, 64-bit, truncated and corrupted files must each be refused with
# one line. One result per case.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

out=build/elf
mkdir -p "$out"
CC=${CC:-gcc}
PIE_BIAS=0x56555000

if ! $CC -std=gnu11 -Wall -Wextra -Wshadow -Werror -g -O1 -fsanitize=address,undefined \
	-fno-sanitize-recover=all -Iinclude -Ikernel/include tests/elf/test_elf.c kernel/proc/elf.c \
	-o "$out/test_elf" 2>"$out/build.log"; then
	cat "$out/build.log" >&2
	record fail "elf: test program builds"
	exit 0
fi

# A small C program with data, bss and a string: the static references.
cat >"$out/hello.c" <<'EOF'
#include <stdio.h>
int counter = 3;
static char scratch[100000];
int main(int argc, char **argv)
{
	scratch[argc] = 1;
	printf("hello %s %d\n", argv[0], counter + scratch[1]);
	return 0;
}
EOF
progs=()
build_prog() { # name flags...
	local name=$1
	shift
	if $CC -m32 -O2 "$@" "$out/hello.c" -o "$out/$name" 2>"$out/$name.log"; then
		progs+=("$name")
	else
		record fail "elf: gcc -m32 $* builds"
		cat "$out/$name.log" >&2
	fi
}
build_prog static -static
build_prog static-pie -static-pie
build_prog dynamic

# BusyBox, when Debian gives it (scripts/fetch-deb.sh, cached in build/debs/).
bbdir=$(bash scripts/fetch-deb.sh busybox-static:i386 2>"$out/fetch.log")
bb=$bbdir/bin/busybox
if [ -f "$bb" ]; then
	cp "$bb" "$out/busybox"
	progs+=(busybox)
else
	echo "elf: busybox-static:i386 could not be fetched: skipped" >&2
fi

# expected FILE BIAS: the plan as readelf -lhW describes the file, in
# test_elf's format, computed here from readelf's text alone.
expected() {
	local f=$1 bias=$(($2)) phoff phnum entry phdr="" type rest
	local -a loads=()
	local brk=0 xstack=1
	entry=$(($(readelf -hW "$f" | sed -n 's/^ *Entry point address: *//p')))
	phoff=$(readelf -hW "$f" | sed -n 's/^ *Start of program headers: *\([0-9]*\).*/\1/p')
	phnum=$(readelf -hW "$f" | sed -n 's/^ *Number of program headers: *//p')
	while read -r type rest; do
		# shellcheck disable=SC2086
		set -- $rest
		local off=$(($1)) va=$(($2)) fs=$(($4)) ms=$(($5)) flg
		shift 5
		flg=$(echo "${*:1:$#-1}" | tr -d ' ')
		case $type in
		PHDR) phdr=$((va + bias)) ;;
		GNU_STACK) [[ $flg == *E* ]] || xstack=0 ;;
		LOAD)
			loads+=("$(printf 'load 0x%08x 0x%x 0x%x %s' $((va + bias)) "$fs" "$ms" "$flg")")
			local end=$(((va + bias + ms + 4095) / 4096 * 4096))
			((end > brk)) && brk=$end
			if [ -z "$phdr" ] && ((phoff >= off && phoff + phnum * 32 <= off + fs)); then
				phdr=$((va + bias + phoff - off))
			fi
			;;
		esac
	done < <(readelf -lW "$f" | sed -n '/^ *[A-Z_]* *0x[0-9a-f]* 0x/p')
	printf 'entry 0x%08x\nphdr 0x%08x\nphnum %d\nphent 32\n' $((entry + bias)) "${phdr:-0}" "$phnum"
	printf '%s\n' "${loads[@]}"
	printf 'brk 0x%08x\nexecstack %d\n' "$brk" "$xstack"
}

report_rc() { # name rc log
	if [ "$2" -eq 0 ]; then report "$1"; else report "$1" "$(tail -20 "$3")"; fi
}

for p in "${progs[@]}"; do
	f=$out/$p
	bias=0
	[ "$p" = static-pie ] && bias=$PIE_BIAS
	if [ "$p" = dynamic ]; then
		msg=$("$out/test_elf" plan "$f" 0)
		rc=$?
		want="rejected elf: dynamically linked (PT_INTERP /lib/ld-linux.so.2): only static programs run here: ENOEXEC"
		if [ $rc -eq 3 ] && [ "$msg" = "$want" ]; then
			report "elf: $p is refused (PT_INTERP)"
		else
			report "elf: $p is refused (PT_INTERP)" "rc $rc: $msg"
		fi
		continue
	fi
	"$out/test_elf" plan "$f" "$bias" >"$out/$p.plan" 2>"$out/$p.err"
	rc=$?
	expected "$f" "$bias" >"$out/$p.want"
	if [ $rc -eq 0 ] && cmp -s "$out/$p.plan" "$out/$p.want"; then
		report "elf: $p plan is what readelf says"
	else
		report "elf: $p plan is what readelf says" "rc $rc" "$(cat "$out/$p.err")" \
			"$(diff "$out/$p.want" "$out/$p.plan")"
	fi
	"$out/test_elf" trunc "$f" >"$out/$p.trunc" 2>&1
	report_rc "elf: $p truncated at many lengths" $? "$out/$p.trunc"
	if [ "$p" != static-pie ]; then
		"$out/test_elf" corrupt "$f" >"$out/$p.corrupt" 2>&1
		report_rc "elf: $p with corrupted headers" $? "$out/$p.corrupt"
	fi
done

# A static-pie needs a bias: at 0 it would map page 0, where NULL is.
msg=$("$out/test_elf" plan "$out/static-pie" 0)
if [[ $msg == "rejected elf: segment 0 lies outside user space"* ]]; then
	report "elf: static-pie at bias 0 is refused"
else
	report "elf: static-pie at bias 0 is refused" "$msg"
fi
msg=$("$out/test_elf" plan "$out/static-pie" 0x10001)
if [ "$msg" = "rejected elf: load bias is not page aligned: ENOEXEC" ]; then
	report "elf: static-pie at an unaligned bias is refused"
else
	report "elf: static-pie at an unaligned bias is refused" "$msg"
fi

# The host's own programs are 64-bit.
msg=$("$out/test_elf" plan /bin/true 0)
if [ "$msg" = "rejected elf: not a 32-bit ELF (ELFCLASS32 expected): ENOEXEC" ]; then
	report "elf: a 64-bit ELF is refused"
else
	report "elf: a 64-bit ELF is refused" "$msg"
fi

"$out/test_elf" stack >"$out/stack.log" 2>&1
report_rc "elf: startup stack walked back" $? "$out/stack.log"
