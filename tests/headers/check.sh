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

# compile std file: one translation unit, warnings are errors.
compile() {
	$CC -std="$1" -Wall -Wextra -Werror -Iinclude -c "$2" -o "$out/t.o" >"$out/t.log" 2>&1
}

for h in include/dynhz/*.h; do
	name=dynhz/$(basename "$h")
	problems=()
	for std in c11 gnu11; do
		printf '#include <%s>\n' "$name" >"$out/alone.c"
		compile "$std" "$out/alone.c" || problems+=("[$std] alone: $(grep -m1 error "$out/t.log")")
		for l in "${libc[@]}"; do
			# POSIX names are what is at stake: ask for them in strict C11 too.
			printf '#define _POSIX_C_SOURCE 200809L\n#include <%s>\n#include <%s>\n' \
				"$name" "$l" >"$out/after.c"
			compile "$std" "$out/after.c" ||
				problems+=("[$std] $name then <$l>: $(grep -m1 error "$out/t.log")")
			printf '#define _POSIX_C_SOURCE 200809L\n#include <%s>\n#include <%s>\n' \
				"$l" "$name" >"$out/before.c"
			compile "$std" "$out/before.c" ||
				problems+=("[$std] <$l> then $name: $(grep -m1 error "$out/t.log")")
		done
	done
	report "headers: $name" "${problems[@]}"
done

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
