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
# lc_results LABEL LOG: the results of one boot from its console log, one
#   result each (scripts/lib.sh's record) for every "linuxcheck: result"
#   line, named "LABEL: NAME" (a skip is printed, not recorded), and one
#   more, "LABEL: finished", failed when the log has no "linuxcheck: done"
#   (the guest crashed, hung or was cut by the timeout). hzcheck's FAIL
#   lines and a failed selftest's last lines go to stderr. Returns 1 when
#   anything failed.

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

lc_results() {
	local label=$1 log=$2 line name status rest bad=0
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
		skip) printf '%-50s skipped (%s)\n' "$label: $name" "$rest" ;;
		*)
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
