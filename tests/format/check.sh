#!/bin/bash
# Formatting: every C file of the tree as .clang-format says (make format
# applies it). One result for the tree, naming the files that differ, and
# one that shows the check can fail: a badly formatted file must be caught.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

out=build/format
mkdir -p "$out"
if ! command -v clang-format >/dev/null; then
	record fail "format: clang-format is not installed"
	exit 0
fi

# Many files to one clang-format (its start-up was most of the time), two
# at once; a file that differs is named in its "FILE:LINE:COL: error:" lines.
: >"$out/diff.log"
git ls-files -z '*.c' '*.h' |
	xargs -0 -P2 -n40 clang-format --dry-run --Werror >/dev/null 2>"$out/diff.log"
rc=$?
mapfile -t bad < <(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' "$out/diff.log" | sort -u)
# A failure that names no file (clang-format itself failed) fails too.
[ $rc -ne 0 ] && [ ${#bad[@]} -eq 0 ] && bad=("(clang-format failed: $(head -1 "$out/diff.log"))")
if [ ${#bad[@]} -eq 0 ]; then
	record pass "format: the tree is formatted"
	printf '%-50s ok\n' "format: the tree is formatted"
else
	record fail "format: the tree is formatted"
	echo "format: not formatted (run make format): ${bad[*]}" >&2
fi

# The test of the test: a file with a misplaced brace and spaces for tabs.
printf 'int f(void) {\n    return 0;\n}\n' >"$out/unformatted.c"
if clang-format --dry-run --Werror "$out/unformatted.c" >/dev/null 2>&1; then
	record fail "format: an unformatted file is caught"
else
	record pass "format: an unformatted file is caught"
fi

# Every shell script of the tree parses (bash -n, or dash -n for #!/bin/sh):
# a script that only check-long or make bench runs is otherwise first read
# when it runs. One result naming the scripts that do not parse.
# parses FILE: the shell its #! names reads it without a syntax error.
parses() {
	local shell=bash

	head -1 "$1" | grep -q '^#!/bin/sh' && shell=sh
	"$shell" -n "$1" 2>>"$out/parse.log"
}
bad=()
: >"$out/parse.log"
while IFS= read -r -d '' f; do
	parses "$f" || bad+=("$f")
done < <(git ls-files -z '*.sh')
if [ ${#bad[@]} -eq 0 ]; then
	record pass "format: every shell script parses"
	printf '%-50s ok\n' "format: every shell script parses"
else
	record fail "format: every shell script parses"
	echo "format: do not parse: ${bad[*]} ($(head -1 "$out/parse.log"))" >&2
fi
# The test of the test, through the same parses(): a bash script with a
# stray quote, and a #!/bin/sh script with a bash array, which bash reads
# but sh (dash) does not: each shell is the one its #! names.
printf '#!/bin/bash\necho "x\n' >"$out/broken.sh"
printf '#!/bin/sh\na=(1 2)\n' >"$out/bashism.sh"
if parses "$out/broken.sh" || parses "$out/bashism.sh" || ! bash -n "$out/bashism.sh"; then
	record fail "format: a script that does not parse is caught"
else
	record pass "format: a script that does not parse is caught"
fi
