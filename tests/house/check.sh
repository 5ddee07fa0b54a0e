#!/bin/bash
# The house's rules (issue 22), on the kernel as built: tests/house/house.py
# reads every object of build/x86 (nm) and fails on
#   - an arch/ object calling the kernel other than through the contract's
#     callbacks (kernel/include/kernel/arch.h, __arch_callback), a kernel
#     object calling the arch outside the contract, or an include around it;
#   - lib/ (and the core, time/) calling anything above it;
#   - rooms that call each other in a circle (each circle reported with the
#     calls that close it);
#   - a source file of kernel/, arch/ or lib/ over 700 lines that
#     tests/house/one-concept does not name.
# One result per rule; the rooms, the arrows between them and the longest
# files are in build/house/report.txt. Then the test of the test: small
# trees, each breaking one rule, must fail with that rule, and a clean one
# must pass.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

out=build/house
mkdir -p "$out"
CC=${CC:-gcc}

if ! make --no-print-directory kernel >"$out/build.log" 2>&1; then
	record fail "house: the kernel builds"
	tail -20 "$out/build.log" >&2
	exit 0
fi
python3 tests/house/house.py --objs build/x86 --report "$out/report.txt" >"$out/breaches.txt"
rules=(
	"arch|arch and kernel meet only at the contract (kernel/include/kernel/arch.h)"
	"lib|lib/ and the core call nothing above them"
	"cycle|no rooms in a circle"
	"size|no file over 700 lines but one concept"
)
for r in "${rules[@]}"; do
	mapfile -t lines < <(grep "^${r%%|*}: " "$out/breaches.txt")
	report "house: ${r#*|}" "${lines[@]}"
done
sed -n '/^arrows/,/^the contract provides/p' "$out/report.txt"

# --- the test of the test ---

# case NAME: a tree in $out/cases/NAME/src from the here-documents the
# caller writes with file(), compiled into .../objs.
case_dir() {
	cdir=$out/cases/$1
	rm -rf "$cdir"
	mkdir -p "$cdir/src/kernel/include/kernel" "$cdir/src/include/dynhz" "$cdir/src/arch/x86"
	cat >"$cdir/src/kernel/include/kernel/arch.h" <<'H'
#define __arch_callback
void arch_thing(void);
__arch_callback void kernel_entry(void);
H
	printf 'void dz_port_console_write(const char *s, unsigned long n);\n' \
		>"$cdir/src/include/dynhz/port.h"
}

file() { # file PATH: stdin into the case's tree
	mkdir -p "$(dirname "$cdir/src/$1")"
	cat >"$cdir/src/$1"
}

build_case() {
	local f o
	while IFS= read -r f; do
		o=$cdir/objs/${f%.c}.o
		mkdir -p "$(dirname "$o")"
		$CC -w -c -I"$cdir/src/kernel/include" -I"$cdir/src/include" "$cdir/src/$f" -o "$o" ||
			return 1
	done < <(cd "$cdir/src" && find . -name '*.c' | sed 's|^\./||')
}

# expect NAME RULE WHAT: the case must fail with a line of RULE matching WHAT (or pass: RULE "-").
expect() {
	local name=$1 rule=$2 what=$3 res
	if ! build_case; then
		record fail "house: case $name builds"
		return
	fi
	res=$(python3 tests/house/house.py --root "$cdir/src" --objs "$cdir/objs" 2>&1)
	if [ "$rule" = - ] && [ -z "$res" ]; then
		report "house: a clean tree passes ($name)"
	elif [ "$rule" = - ]; then
		report "house: a clean tree passes ($name)" "unexpected: $res"
	elif grep -q "^$rule: .*$what" <<<"$res"; then
		report "house: $name is caught"
	else
		report "house: $name is caught" "wanted '$rule: ...$what', got: ${res:-nothing}"
	fi
}

clean_tree() {
	file arch/x86/a.c <<'C'
void kernel_entry(void);
void lib_fn(void);
void arch_thing(void) { kernel_entry(); lib_fn(); }
C
	file kernel/sched/s.c <<'C'
#include <kernel/arch.h>
void kernel_entry(void) { arch_thing(); }
C
	file lib/l.c <<'C'
#include <dynhz/port.h>
void lib_fn(void) { dz_port_console_write("", 0); }
C
	file arch/x86/port.c <<'C'
void dz_port_console_write(const char *s, unsigned long n) { (void)s; (void)n; }
C
}

case_dir clean
clean_tree
expect clean - ""

case_dir arch-calls-kernel
clean_tree
file kernel/sched/secret.c <<'C'
void kernel_secret(void) {}
C
file arch/x86/b.c <<'C'
void kernel_secret(void);
void arch_b(void) { kernel_secret(); }
C
expect "an arch object calling the kernel outside the callbacks" arch "kernel_secret (not a callback"

case_dir kernel-calls-arch
clean_tree
file arch/x86/private.c <<'C'
void arch_private(void) {}
C
file kernel/fs/f.c <<'C'
void arch_private(void);
void fs_fn(void) { arch_private(); }
C
expect "the kernel calling the arch outside the contract" arch "arch_private (not in the contract"

case_dir include-around
clean_tree
mkdir -p "$cdir/src/kernel/include/kernel"
printf '/* a kernel header */\n' >"$cdir/src/kernel/include/kernel/proc.h"
file arch/x86/c.c <<'C'
#include <kernel/proc.h>
void arch_c(void) {}
C
expect "an arch file including a kernel header" arch "includes <kernel/proc.h>"

case_dir lib-calls-up
clean_tree
file kernel/fs/f.c <<'C'
void fs_helper(void) {}
C
file lib/m.c <<'C'
void fs_helper(void);
void lib_m(void) { fs_helper(); }
C
expect "lib/ calling the kernel" lib "fs_helper"

case_dir circle
clean_tree
file kernel/fs/f.c <<'C'
void sched_b(void);
void fs_a(void) { sched_b(); }
C
file kernel/time/t.c <<'C'
void fs_a(void);
void time_c(void) { fs_a(); }
C
file kernel/sched/b.c <<'C'
void time_c(void);
void sched_b(void) { time_c(); }
C
expect "three rooms in a circle" cycle "kernel/fs/, kernel/sched/, kernel/time/"

case_dir long-file
clean_tree
{
	echo 'void long_fn(void) {}'
	for i in $(seq 1 700); do echo "/* line $i */"; done
} | file kernel/fs/long.c
expect "a file over 700 lines" size "kernel/fs/long.c: 701 lines"
