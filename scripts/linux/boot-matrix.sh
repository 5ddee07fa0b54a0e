#!/bin/bash
# boot-matrix.sh ARCH IMAGE [HZ...] -- boot-hz.sh at every HZ the issue
# names (24 97 250 333 1000 4321 10000 by default), then with each bad
# value (hz=abc, hz=, hz=-5, hz=5, hz=99999), and print one line per boot
# with what it showed: the kernel's hz line, the KUnit verdicts, the
# user-space checks. Logs in build/linux/boots-ARCH/. Ends with
# "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
arch=${1:?usage: boot-matrix.sh ARCH IMAGE [HZ...]} image=${2:?}
shift 2
hzs=${*:-24 97 250 333 1000 4321 10000}
dir=build/linux/boots-$arch
mkdir -p "$dir"
passed=0 failed=0
run() { # NAME CMDLINE [expected warning pattern]
	local name=$1 cmd=$2 want=${3:-} log=$dir/$1.log summary
	if bash scripts/linux/boot-hz.sh "$arch" "$image" "$cmd" "$log" > "$log.summary" 2>&1; then
		ok=1
	else
		ok=0
	fi
	if [ -n "$want" ] && ! grep -q -- "$want" "$log"; then
		ok=0
	fi
	summary="$(grep -o 'hz: HZ=.*' "$log" | head -1 | tr -d '\r');"
	summary+=" kunit hz: $(grep -o '# hz: pass:[0-9]* fail:[0-9]* skip:[0-9]*' "$log" | head -1);"
	summary+=" $(grep -o 'hzcheck: [0-9]* passed, [0-9]* failed' "$log" | head -1);"
	summary+=" kernel.hz=$(grep -o 'guest: kernel.hz=[0-9]*' "$log" | head -1 | cut -d= -f2)"
	[ -n "$want" ] && summary+="; $(grep -o -- "$want.*" "$log" | head -1 | tr -d '\r')"
	if [ $ok = 1 ]; then
		passed=$((passed + 1)); echo "boot ok   $name: $summary"
	else
		failed=$((failed + 1)); echo "boot FAIL $name: $summary (log $log)"
		tail -5 "$log.summary" | sed 's/^/    /'
	fi
}
for hz in $hzs; do
	run "hz$hz" "hz=$hz"
done
run bad-abc "hz=abc" "hz=abc: not a number, using"
run bad-empty "hz=" "hz=: empty, using"
run bad-minus "hz=-5" "hz=-5: a sign is not allowed, using"
run bad-low "hz=5" "hz=5: out of range 24..10000, using 24"
run bad-high "hz=99999" "hz=99999: out of range 24..10000, using 10000"
run upper "HZ=333"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
