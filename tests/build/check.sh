#!/bin/bash
# Build tests: code that must not compile, beside the same code written
# right, which must. Each tests/build/cases/*.c holds both: the wrong
# version, marked "HERE", and under -DDZ_CONTROL the right one. Its header
# names the builds in which the wrong version must fail ("fails in:") and
# what the compiler must say then ("expect:", an extended regex); in the
# other builds it must compile (it is only wrong there). The compiler must
# also point at the marked line, so an unrelated error cannot pass.
# One result per case.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
export LC_ALL=C

CC=${CC:-gcc}
MAKE="make --no-print-directory"
out=build/build-tests
mkdir -p "$out"

hz250=$($MAKE CONFIG_HZ=250 print-builddir)
m32hz250=$($MAKE M32=1 CONFIG_HZ=250 print-builddir)
builds=(variable debug hz250 m32 m32-hz250)
declare -A bflags=(
	[variable]=""
	[debug]="-DDYNHZ_DEBUG"
	[hz250]="-DCONFIG_HZ=250 -I$hz250/gen"
	[m32]="-m32"
	[m32-hz250]="-m32 -DCONFIG_HZ=250 -I$m32hz250/gen"
)

# The constant builds include their generated conversion constants.
for v in "CONFIG_HZ=250" "M32=1 CONFIG_HZ=250"; do
	# shellcheck disable=SC2086
	d=$($MAKE $v print-builddir)
	# shellcheck disable=SC2086
	$MAKE $v "$d/gen/dynhz/timeconst.h" >"$out/gen-${d##*/}.log" 2>&1 ||
		echo "build tests: could not generate $d/gen/dynhz/timeconst.h" >&2
done

# compile case build log [extra flags...]
compile() {
	local src=$1 b=$2 log=$3
	shift 3
	# shellcheck disable=SC2086
	$CC -std=gnu11 -Wall -Wextra -Werror -Iinclude ${bflags[$b]} "$@" \
		-c "$src" -o "$out/$(basename "$src" .c)-$b.o" >"$log" 2>&1
}

for src in tests/build/cases/*.c; do
	name=$(basename "$src" .c)
	expect=$(sed -n 's/^ \* expect: //p' "$src")
	fails_in=" $(sed -n 's/^ \* fails in: //p' "$src") "
	line=$(grep -n 'HERE' "$src" | head -1 | cut -d: -f1)
	problems=()
	if [ -z "$expect" ] || [ "$fails_in" = "  " ] || [ -z "$line" ]; then
		problems+=("no expect:, fails in: or HERE marker")
	fi
	for b in "${builds[@]}"; do
		log=$out/$name-$b
		if ! compile "$src" "$b" "$log.control.log" -DDZ_CONTROL; then
			problems+=("[$b] the right version does not build: $(head -3 "$log.control.log")")
			continue
		fi
		if [[ "$fails_in" == *" $b "* ]]; then
			if compile "$src" "$b" "$log.log"; then
				problems+=("[$b] the wrong version builds")
			elif ! grep -Eq -- "$expect" "$log.log"; then
				problems+=("[$b] no \"$expect\" in: $(grep -m3 'error' "$log.log")")
			elif ! grep -q -- "$src:$line:" "$log.log"; then
				problems+=("[$b] the error is not at line $line: $(grep -m3 'error' "$log.log")")
			fi
		elif ! compile "$src" "$b" "$log.log"; then
			problems+=("[$b] does not build: $(head -3 "$log.log")")
		fi
	done
	report "build: $name" "${problems[@]}"
done
