#!/bin/bash
# The core as a C library, used as a newcomer would: install it into a
# staging directory, build a program with nothing but
# `pkg-config --cflags --libs dynhz`, run it, uninstall. Then the build's
# own flags under the user's CFLAGS: `make CFLAGS+=...` adds, `make
# CFLAGS=...` replaces the optimisation, and the build still works.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

out=$PWD/build/install-test
stage=$out/stage
rm -rf "$out"
mkdir -p "$out"
MAKE="make --no-print-directory"

# A program written against the installed headers only.
cat >"$out/prog.c" <<'PROG'
#include <stdio.h>
#include <time.h>
#include <dynhz/dynhz.h>
#include <dynhz/host.h>

int main(void)
{
	dynhz_host_set_quiet(1);
	if (dynhz_boot("hz=300"))
		return 1;
	dynhz_host_run_ticks(300);
	/* 300 PIT ticks of 3977/1193182 s: 999.931 ms (1000 rounded up) */
	printf("HZ=%u msecs_to_jiffies(1000)=%lu jiffies_to_msecs(300)=%u ktime=%llu\n", HZ,
	       msecs_to_jiffies(1000), jiffies_to_msecs(300), (unsigned long long)ktime_get_ns());
	return 0;
}
PROG

if ! $MAKE install PREFIX=/usr DESTDIR="$stage" >"$out/install.log" 2>&1; then
	record fail "install: make install"
	tail -20 "$out/install.log" >&2
	exit 0
fi
record pass "install: make install"

pc() {
	PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_LIBDIR=$stage/usr/lib/pkgconfig pkg-config "$@"
}
flags=$(pc --cflags --libs dynhz)
# shellcheck disable=SC2086
if gcc -std=c11 -Wall -Wextra -Werror "$out/prog.c" $flags -o "$out/prog" >"$out/prog.log" 2>&1 &&
	got=$("$out/prog") &&
	[ "$got" = "HZ=300 msecs_to_jiffies(1000)=301 jiffies_to_msecs(300)=1000 ktime=999931276" ]; then
	record pass "install: a program built with pkg-config alone"
else
	record fail "install: a program built with pkg-config alone"
	echo "flags: $flags; output: ${got:-}" >&2
	cat "$out/prog.log" >&2
fi

# Only public headers are installed, every one of them.
want=$(cd include/dynhz && ls *.h | sort)
have=$(cd "$stage/usr/include/dynhz" 2>/dev/null && ls *.h | sort)
if [ "$want" = "$have" ] && ! ls "$stage/usr/include/dynhz" | grep -q internal; then
	record pass "install: the public headers, nothing else"
else
	record fail "install: the public headers, nothing else"
	diff <(echo "$want") <(echo "$have") >&2
fi

$MAKE uninstall PREFIX=/usr DESTDIR="$stage" >"$out/uninstall.log" 2>&1
left=$(find "$stage" -type f)
if [ -z "$left" ]; then
	record pass "install: make uninstall removes it all"
else
	record fail "install: make uninstall removes it all"
	echo "left: $left" >&2
fi

# The user's flags: added to, or replacing, the defaults; a build of its own.
flagtest() { # name expect-regex make-args...
	local name=$1 re=$2 b=build/cflags-$3
	shift 3
	rm -rf "$b"
	if $MAKE B="$b" "$@" lib "$b/tests/test_conv" >"$out/$name.log" 2>&1 &&
		grep -E -- "$re" "$out/$name.log" | grep -q time/conv.c &&
		"$b/tests/test_conv" >"$out/$name.run.log" 2>&1; then
		record pass "install: $name"
	else
		record fail "install: $name"
		tail -5 "$out/$name.log" >&2
	fi
}
flagtest "make CFLAGS+=-Wshadow" '-O2 -g .*-Wshadow( |$)' add 'CFLAGS+=-Wshadow'
flagtest "make CFLAGS='-O1 -g'" '-O2 -g .*-O1 -g( |$)' replace 'CFLAGS=-O1 -g'
