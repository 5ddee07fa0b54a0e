#!/bin/bash
# docs/PORTING.md is a port (issue 22): its blocks marked `c toy`, in order,
# are one C program, build/porting/toy.c, and its `make toy` block is the
# makefile that builds it against the core's sources compiled freestanding
# here (no hosted port). The toy boots the core on a simulated device at
# several HZ and prints one line per check:
#	toy: pass|FAIL <name> -- <detail>
# each one result here. It runs on its own 19.2 MHz clock and on 1 GHz.
# Also recorded: the toy builds (the project's warnings, as errors), it
# includes only public headers, every block of C in the document is a
# checked one, the document's C is formatted, and the check can fail: a
# copy of the document whose driver reports 1/HZ instead of the tick it
# makes, and one with an unmarked C block and an indented one, must be
# caught (both in build/porting/, the document untouched).
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

out=build/porting
doc=docs/PORTING.md
mkdir -p "$out"
CC=${CC:-gcc}
boots=(hz=250 hz=333 hz=19 hz=10000 "hz=1000 highres=off")
# The project's warnings, as errors: the Makefile's DZ_WARN (read here, as
# make would take seconds to parse the whole build for one variable).
read -ra dz_warn < <(sed -n '/^DZ_WARN[ \t]*:=/,/[^\\]$/p' Makefile |
	sed 's/^DZ_WARN[ \t]*:=//; s/\\$//' | tr -s ' \t\n' ' ')
warn="${dz_warn[*]} -Werror"
if [[ $warn != *-Wall*-Wextra* ]]; then
	report "porting: the Makefile's DZ_WARN is read" "read: '$warn'"
	exit 0
fi

# extract DOC DIR: DIR/toy.c and DIR/toy.mk from DOC (each rewritten only
# when it changes); prints the places where C is not checked.
extract() {
	mkdir -p "$2"
	rm -f "$2/new.c" "$2/new.mk"
	awk -v c="$2/new.c" -v mk="$2/new.mk" -v doc="$1" -f tests/porting/extract.awk "$1"
	touch "$2/new.c" "$2/new.mk"
	cmp -s "$2/new.c" "$2/toy.c" || mv "$2/new.c" "$2/toy.c"
	cmp -s "$2/new.mk" "$2/toy.mk" || mv "$2/new.mk" "$2/toy.mk"
	rm -f "$2/new.c" "$2/new.mk"
}

# build MK TOY: the toy TOY from TOY.c, and the core objects it needs in
# $out/core (shared by every toy here, kept while the flags stay the same).
build() {
	make --no-print-directory -s -f "$1" -j"$(nproc)" CC="$CC" WARN="$warn" OUT="$out" TOY="$2"
}

# run_toy PREFIX LOG TOY: runs it on the boots above, one result per check
# line, and one for the run itself (it ends with its summary, and its exit
# status says whether a check failed).
run_toy() {
	local prefix=$1 log=$2 toy=$3 line name n=0 rc summary
	"$toy" "${boots[@]}" >"$log" 2>&1
	rc=$?
	while IFS= read -r line; do
		name=${line#toy: * }
		name=${name%% -- *}
		n=$((n + 1))
		case $line in
		"toy: pass "*) report "porting: $prefix$name" ;;
		*) report "porting: $prefix$name" "${line#toy: FAIL }" ;;
		esac
	done < <(grep -E '^toy: (pass|FAIL) ' "$log")
	summary=$(tail -1 "$log")
	if [[ $summary =~ ^toy:\ ([0-9]+)\ checks,\ ([0-9]+)\ failed$ ]] &&
		[ "${BASH_REMATCH[1]}" = "$n" ] && [ $n -gt 0 ] &&
		{ { [ "${BASH_REMATCH[2]}" = 0 ] && [ $rc = 0 ]; } ||
			{ [ "${BASH_REMATCH[2]}" != 0 ] && [ $rc = 1 ]; }; }; then
		report "porting: ${prefix}the toy runs all its checks"
	else
		report "porting: ${prefix}the toy runs all its checks" \
			"exit status $rc, $n check lines, last line: $summary" "$(tail -5 "$log")"
	fi
}

# The document's code, and nothing unchecked.
unchecked=$(extract "$doc" "$out")
if [ -z "$unchecked" ]; then
	report "porting: PORTING.md's code blocks are all compiled"
else
	report "porting: PORTING.md's code blocks are all compiled" "$unchecked"
fi

# An embedder's includes: the C library's and the public headers, not the
# hosted port's <dynhz/host.h>, not the core's own time/*.h.
bad_inc=$(sed -n 's/^[ \t]*#[ \t]*include[ \t]*//p' "$out/toy.c" | while read -r inc; do
	case $inc in
	'<dynhz/host.h>' | '"'*) echo "$inc" ;;
	'<dynhz/'*) [ -f "include/${inc:1:-1}" ] || echo "$inc" ;;
	esac
done)
report "porting: the toy uses only the public API" ${bad_inc:+"includes: $bad_inc"}

# The flags the core objects were built with: other flags, other objects.
flags="$CC $warn"
if [ "$(cat "$out/core.flags" 2>/dev/null)" != "$flags" ]; then
	rm -rf "$out/core"
	echo "$flags" >"$out/core.flags"
fi

if ! build "$out/toy.mk" "$out/toy" >"$out/build.log" 2>&1; then
	report "porting: the toy port builds" "$(tail -20 "$out/build.log")"
	exit 0
fi
report "porting: the toy port builds"

# The same toy on a 1 GHz clock, and a broken copy of the document: the
# driver makes count / clock, and says 1/HZ.
{
	echo '#define TOY_CLOCK_HZ 1000000000ULL'
	cat "$out/toy.c"
} >"$out/toy-1ghz.new.c"
cmp -s "$out/toy-1ghz.new.c" "$out/toy-1ghz.c" || mv "$out/toy-1ghz.new.c" "$out/toy-1ghz.c"
rm -f "$out/toy-1ghz.new.c"
mkdir -p "$out/broken"
sed 's|^\ttoy.reload = period->num;$|&\n\t*period = (struct dz_tick_period){ 1, hz };|' "$doc" \
	>"$out/broken/PORTING.md"
extract "$out/broken/PORTING.md" "$out/broken" >/dev/null
build "$out/toy.mk" "$out/toy-1ghz" >"$out/build-1ghz.log" 2>&1 &
pid_1ghz=$!
build "$out/toy.mk" "$out/broken/toy" >"$out/broken/build.log" 2>&1 &
pid_broken=$!
wait $pid_1ghz
built_1ghz=$?
wait $pid_broken
built_broken=$?

run_toy "" "$out/toy.log" "$out/toy"
if [ $built_1ghz = 0 ]; then
	report "porting: 1 GHz: the toy port builds"
	run_toy "1 GHz: " "$out/toy-1ghz.log" "$out/toy-1ghz"
else
	report "porting: 1 GHz: the toy port builds" "$(tail -20 "$out/build-1ghz.log")"
fi

# The test of the test: the broken copy builds, runs, and fails its checks.
name="porting: a driver that reports 1/HZ is caught"
if cmp -s "$doc" "$out/broken/PORTING.md"; then
	report "$name" "the broken copy is the document: toy_set_periodic has changed"
elif [ $built_broken != 0 ]; then
	report "$name" "the broken copy does not build" "$(tail -20 "$out/broken/build.log")"
else
	"$out/broken/toy" "${boots[@]}" >"$out/broken/toy.log" 2>&1
	rc=$?
	caught=$(grep -c '^toy: FAIL ' "$out/broken/toy.log")
	if [ $rc = 1 ] && [ "$caught" -gt 0 ]; then
		report "$name"
	else
		report "$name" "exit status $rc, $caught checks failed"
	fi
fi

# And C left unmarked, in a block or indented, is refused.
mkdir -p "$out/unmarked"
{
	cat "$doc"
	# shellcheck disable=SC2016 # the backquotes are the fences of the block
	printf '\n```c\nint unchecked(void);\n```\n\n    static int also_unchecked;\n'
} >"$out/unmarked/PORTING.md"
n=$(extract "$out/unmarked/PORTING.md" "$out/unmarked" | wc -l)
if [ "$n" = 2 ]; then
	report "porting: an unmarked block of C is caught"
else
	report "porting: an unmarked block of C is caught" "$n places found, not 2"
fi

# The document's C in the project's style (as tests/format checks the tree).
if command -v clang-format >/dev/null; then
	if clang-format --dry-run --Werror "$out/toy.c" >"$out/format.log" 2>&1; then
		report "porting: PORTING.md's C is formatted"
	else
		report "porting: PORTING.md's C is formatted" "$(head -20 "$out/format.log")"
	fi
fi
