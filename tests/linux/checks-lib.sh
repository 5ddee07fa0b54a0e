# shellcheck shell=bash
# The host's side of the Linux port's user-space checks (sourced after
# scripts/lib.sh, from the top of the tree). The guest's side is
# tests/linux/run-checks.sh; the contract between them is at its top and in
# docs/LINUX.md, "User-space checks".
#
# lc_cc ARCH: the C compiler command for static programs of ARCH (x86_64:
#   gcc; arm64: aarch64-linux-gnu-gcc, or clang --target=aarch64-linux-gnu
#   with lld when the cross gcc is missing: Debian 12's gcc-multilib, which
#   the reference kernel's -m32 build needs, and gcc-aarch64-linux-gnu
#   conflict, and each apt-get install of one removes the other, while
#   clang only needs libc6-dev-arm64-cross and libgcc-12-dev-arm64-cross);
#   fails with one line on stderr when there is none.
#
# lc_cmdline HZ [ITEMS]: the command-line words that make a boot run the
#   checks: "hz=HZ check=ITEMS" (ITEMS: hzcheck by default). Stock Linux
#   ignores hz= and hands it to init, where run-checks reads it as the HZ
#   to expect; rdinit=/sbin/run-checks is added when LC_RDINIT=1 (the
#   payload's runner as pid 1, for an initramfs whose /init does not call
#   it).
#
# lc_results LABEL LOG [ARCH]: the results of one boot from its console
#   log, one result each (scripts/lib.sh's record) for every "linuxcheck:
#   result" line, named "LABEL: NAME" (a skip is recorded as "skip NAME"
#   in DZ_RESULTS by lc_skip: neither pass nor fail, for the closing line
#   to count; hzcheck's own skips come as "hzcheck:CHECK" results),
#   and one more, "LABEL: finished", failed when the log has no
#   "linuxcheck: done" (the guest crashed, hung or was cut by the timeout).
#   hzcheck's FAIL lines and a failed selftest's last lines go to stderr.
#   With ARCH and LC_STOCK (a file as tests/linux/stock-passes.txt), a
#   selftest is judged against stock Linux: one that stock failed (at
#   CONFIG_HZ=250 or 1000) is shown but not counted when it fails here
#   too; one that stock passed fails here when it is skipped. Returns 1
#   when anything failed.
#
# lc_judge LABEL BASE ARCH [EXPECT...]: one boot of lx_boot_list (its
#   console BASE.log, its status BASE.rc), one result per line below, each
#   named "LABEL: ...":
#     boot          the machine powered off by itself (status 0)
#     hz line       (EXPECT hz=N) the kernel's "hz: HZ=N (" line
#     bad line      (EXPECT line=TEXT) "hz: TEXT" is the one line the
#                   kernel printed about hz= besides the HZ line
#     KUnit SUITE   (EXPECT kunit=SUITE, any number) the suite's top line
#                   "ok", every test run (no skip)
#     KUnit         (when a suite is expected) no "not ok" in any kernel
#                   line: no other suite or test failed
#     the checks    (EXPECT checks) lc_results
#     kernel log    no panic, BUG, WARNING, Oops, call trace, RCU stall
#                   or soft lockup in a kernel line
#   Kernel lines are the ones with a printk time stamp ([ 1.234567]): what
#   user space prints on the console has none. Returns 1 when anything
#   failed.

lc_cc() {
	case $1 in
	x86_64) echo gcc ;;
	arm64)
		if command -v aarch64-linux-gnu-gcc >/dev/null; then
			echo aarch64-linux-gnu-gcc
		elif command -v clang >/dev/null && command -v ld.lld >/dev/null &&
			[ -f /usr/aarch64-linux-gnu/lib/libc.a ] && [ -d /usr/lib/gcc-cross/aarch64-linux-gnu ]; then
			echo "clang --target=aarch64-linux-gnu -fuse-ld=lld"
		else
			echo "linux-checks: no arm64 C compiler (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross," \
				"or clang lld libc6-dev-arm64-cross libgcc-12-dev-arm64-cross)" >&2
			return 1
		fi
		;;
	*)
		echo "linux-checks: unknown ARCH '$1' (x86_64 or arm64)" >&2
		return 1
		;;
	esac
}

lc_cmdline() {
	local words="hz=$1 check=${2:-hzcheck}"
	[ "${LC_RDINIT:-0}" = 1 ] && words="rdinit=/sbin/run-checks $words"
	echo "$words"
}

# lc_stock ARCH NAME: "pass" or "fail" from LC_STOCK for a selftest
# (NAME kselftest:PROG) that stock Linux ran, nothing otherwise.
lc_stock() {
	[ -n "$1" ] && [ -n "${LC_STOCK:-}" ] && [ -f "$LC_STOCK" ] || return 0
	case $2 in kselftest:*) ;; *) return 0 ;; esac
	awk -v a="$1" -v p="${2#kselftest:}" '$1 == a && $2 == p { print $3; exit }' "$LC_STOCK"
}

# lc_skip NAME: one skip in DZ_RESULTS ("skip NAME"), beside scripts/lib.sh's
# pass and fail lines: make check's closing line counts them.
lc_skip() {
	echo "skip $1" >>"${DZ_RESULTS:-build/results.txt}"
}

lc_results() {
	local label=$1 log=$2 arch=${3:-} line name status rest bad=0
	while IFS= read -r line; do
		rest=${line#linuxcheck: result }
		name=${rest%% *}
		rest=${rest#"$name" }
		status=${rest%% *}
		rest=${rest#"$status" }
		case $status in
		pass)
			record pass "$label: $name"
			printf '%-50s ok (%s)\n' "$label: $name" "$rest"
			;;
		skip)
			if [ "$(lc_stock "$arch" "$name")" = pass ]; then
				record fail "$label: $name"
				printf '%-50s FAILED: skipped (%s), but it passes on stock Linux\n' "$label: $name" "$rest"
				bad=1
			else
				lc_skip "$label: $name"
				printf '%-50s skipped (%s)\n' "$label: $name" "$rest"
			fi
			;;
		*)
			if [ "$(lc_stock "$arch" "$name")" = fail ]; then
				printf '%-50s failed, as on stock Linux: not counted (%s)\n' "$label: $name" "$rest"
				continue
			fi
			record fail "$label: $name"
			printf '%-50s FAILED (%s)\n' "$label: $name" "$rest"
			bad=1
			if [ "$name" = hzcheck ]; then
				grep -a '^hzcheck: FAIL ' "$log" | cut -c1-200 | sed 's/^/  /' >&2
			else
				# The program's last lines: between its "run" line and its result.
				awk -v n="$name" '$0 ~ "^linuxcheck: run " n " " { on = 1; buf = ""; next }
					on && $0 ~ "^linuxcheck: result " n " " { exit }
					on { lines[NR] = $0; last = NR }
					END { for (i = last - 7; i <= last; i++) if (i in lines) print "  " lines[i] }' "$log" |
					cut -c1-200 >&2
			fi
			;;
		esac
	done < <(grep -a '^linuxcheck: result ' "$log")
	if grep -aq '^linuxcheck: done' "$log"; then
		record pass "$label: finished"
		printf '%-50s ok (%s)\n' "$label: finished" "$(grep -a -m1 '^linuxcheck: summary ' "$log" | cut -d' ' -f3-)"
	else
		record fail "$label: finished"
		printf '%-50s FAILED: no "linuxcheck: done" in %s; its last lines:\n' "$label: finished" "$log"
		tail -12 "$log" | cut -c1-200 | sed 's/^/  /' >&2
		bad=1
	fi
	return $bad
}

# lc_kernel LOG: the kernel's lines of a console log (those with a printk
# time stamp), the stamp taken off.
lc_kernel() {
	sed -n -E 's/^\[ *[0-9]+\.[0-9]+\] //p' "$1"
}

lc_judge() {
	local label=$1 base=$2 arch=$3 log=$2.log rc e hz text suite top counts got bad=0 kl
	shift 3
	kl=$base.kernel
	lc_kernel "$log" >"$kl" 2>/dev/null || : >"$kl"
	rc=$(cat "$base.rc" 2>/dev/null || echo none)
	if [ "$rc" = 0 ]; then
		record pass "$label: boot"
		printf '%-50s ok (/init at %s s of guest time, powered off after %s s)\n' "$label: boot" \
			"$(sed -n -E 's/^\[ *([0-9.]+)\] Run .* as init process.*/\1/p' "$log" | head -1)" \
			"$(cat "$log.time" 2>/dev/null)"
	else
		record fail "$label: boot"
		printf '%-50s FAILED: status %s: %s\n' "$label: boot" "$rc" "$(head -1 "$base.err" 2>/dev/null)"
		tail -8 "$log" 2>/dev/null | cut -c1-200 | sed 's/^/  /' >&2
		bad=1
	fi
	local suites=()
	for e in "$@"; do
		case $e in
		hz=*)
			hz=${e#hz=}
			got=$(grep -m1 -E '^hz: HZ=[0-9]+ \(' "$kl")
			if [[ $got == "hz: HZ=$hz ("* ]]; then
				record pass "$label: hz line"
				printf '%-50s ok (%s)\n' "$label: hz line" "$got"
			else
				record fail "$label: hz line"
				printf '%-50s FAILED: %s, expected "hz: HZ=%s (..."\n' "$label: hz line" "${got:-no hz: line}" "$hz"
				bad=1
			fi
			;;
		line=*)
			text=${e#line=}
			got=$(grep -E '^hz: ' "$kl" | grep -v -E '^hz: HZ=[0-9]+ \(')
			if [ "$got" = "hz: $text" ]; then
				record pass "$label: bad line"
				printf '%-50s ok (%s)\n' "$label: bad line" "$got"
			else
				record fail "$label: bad line"
				printf '%-50s FAILED: expected the one line "hz: %s", got: %s\n' "$label: bad line" "$text" \
					"$(echo "${got:-nothing}" | tr '\n' '|')"
				bad=1
			fi
			;;
		kunit=*)
			suite=${e#kunit=}
			suites+=("$suite")
			top=$(grep -E "^(not )?ok [0-9]+ (- )?$suite( |\$)" "$kl" | head -1)
			counts=$(grep -m1 -o -E "^ *# $suite: pass:[0-9]+ fail:[0-9]+ skip:[0-9]+" "$kl" | sed 's/^ *# //')
			if [[ $top =~ ^ok\ [0-9]+\ (-\ )?$suite$ ]] && [[ -z $counts || $counts == *" skip:0" ]]; then
				record pass "$label: KUnit $suite"
				printf '%-50s ok (%s)\n' "$label: KUnit $suite" "${counts:-$top}"
			else
				record fail "$label: KUnit $suite"
				printf '%-50s FAILED: %s%s\n' "$label: KUnit $suite" "${top:-the suite did not run}" "${counts:+ ($counts)}"
				grep -E '^ +# .*(Expected|FAIL|HZ=)|^ +not ok ' "$kl" | head -8 | cut -c1-200 | sed 's/^/  /' >&2
				bad=1
			fi
			;;
		checks)
			lc_results "$label" "$log" "$arch" || bad=1
			;;
		*)
			echo "lc_judge: unknown expectation '$e'" >&2
			return 1
			;;
		esac
	done
	if [ ${#suites[@]} -gt 0 ]; then
		got=$(grep -m1 -E '^ *not ok ' "$kl")
		if [ -z "$got" ]; then
			record pass "$label: KUnit"
			printf '%-50s ok (%s)\n' "$label: KUnit" "no \"not ok\" in the kernel's log"
		else
			record fail "$label: KUnit"
			printf '%-50s FAILED: %s\n' "$label: KUnit" "$got"
			bad=1
		fi
	fi
	got=$(grep -m1 -E 'Kernel panic|BUG:|WARNING:|Oops|Call Trace|detected stalls|soft lockup|hard LOCKUP' "$kl")
	if [ -z "$got" ]; then
		record pass "$label: kernel log"
		printf '%-50s ok\n' "$label: kernel log"
	else
		record fail "$label: kernel log"
		printf '%-50s FAILED: %s\n' "$label: kernel log" "$(echo "$got" | cut -c1-150)"
		bad=1
	fi
	return $bad
}
