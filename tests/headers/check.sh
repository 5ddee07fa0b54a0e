#!/bin/bash
# Public headers as a hosted program sees them: every header of
# include/dynhz/ on its own, and before and after each C library header a
# program is likely to use with it (<sys/param.h> for its HZ), in strict C11 and in GNU C11, with
# -Wall -Wextra -Werror. A header that leans on another it does not
# include, or that defines a name the C library also declares (POSIX's
# timer_delete, say), fails here. One result per public header.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

CC=${CC:-gcc}
out=build/headers
mkdir -p "$out"
libc=(time.h pthread.h signal.h sys/time.h stdlib.h unistd.h sys/param.h)

# compile std file: one translation unit, warnings are errors (the
# messages in FILE.log).
compile() {
	$CC -std="$1" -Wall -Wextra -Werror -Iinclude -fsyntax-only "$2" >"${2%.c}.log" 2>&1
}

# check_header H: H's result; its files in $out/NAME/, so two run at once.
check_header() {
	local h=$1 name std l d problems=()
	name=dynhz/$(basename "$h")
	d=$out/$(basename "$h" .h)
	mkdir -p "$d"
	for std in c11 gnu11; do
		printf '#include <%s>\n' "$name" >"$d/alone.c"
		compile "$std" "$d/alone.c" || problems+=("[$std] alone: $(grep -m1 error "$d/alone.log")")
		for l in "${libc[@]}"; do
			# POSIX names are what is at stake: ask for them in strict C11 too.
			printf '#define _POSIX_C_SOURCE 200809L\n#include <%s>\n#include <%s>\n' \
				"$name" "$l" >"$d/after.c"
			compile "$std" "$d/after.c" ||
				problems+=("[$std] $name then <$l>: $(grep -m1 error "$d/after.log")")
			printf '#define _POSIX_C_SOURCE 200809L\n#include <%s>\n#include <%s>\n' \
				"$l" "$name" >"$d/before.c"
			compile "$std" "$d/before.c" ||
				problems+=("[$std] <$l> then $name: $(grep -m1 error "$d/before.log")")
		done
	done
	report "headers: $name" "${problems[@]}"
}

running=0
for h in include/dynhz/*.h; do
	check_header "$h" &
	running=$((running + 1))
	if [ $running -ge 2 ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait

# The check can fail: a header defining POSIX's timer_delete as a macro
# must be caught (the test of the test).
printf '#define timer_delete(t) ((void)(t))\n' >"$out/bad.h"
printf '#define _POSIX_C_SOURCE 200809L\n#include "bad.h"\n#include <time.h>\n' >"$out/bad.c"
if compile gnu11 "$out/bad.c"; then
	record fail "headers: a clashing macro is caught"
	echo "headers: a timer_delete macro before <time.h> compiled" >&2
else
	record pass "headers: a clashing macro is caught"
fi
