#!/bin/bash
# The proof that hzcheck can fail (issue 40, item 8): the patched kernel
# booted at one HZ and judged by hzcheck as if booted at another must fail
# every check whose expectation depends on HZ.
#
#   tests/linux/wrong-hz.sh KERNEL INITRD [ARCH]
#       KERNEL  the patched kernel (make linux: build/linux/ARCH/...,
#               bash scripts/linux/build.sh --print ARCH dynhz)
#       INITRD  an initramfs with the checks' payload: tests/linux/payload.sh
#               ARCH, then scripts/linux/initramfs.sh ARCH OUT.cpio
#               build/linux-payload/ARCH (check.sh's
#               build/linux-tests/initramfs-ARCH.cpio)
#       ARCH    x86_64 (default) or arm64
#   source tests/linux/wrong-hz.sh; wh_specs ...; wh_judge ...
#       the same as functions, for tests/linux/check.sh to put the two
#       boots in its own list (two QEMUs at a time) and judge them after
#
# Two boots under QEMU -icount (scripts/linux/boot.sh, mode icount), each
# with run-checks' checkhz= giving hzcheck the wrong --hz:
#     hz=250 checkhz=333    jiffies at 250 a second, judged as 333
#     hz=333 checkhz=250    and the other way
# (250 and 333: Linux's default and a HZ that divides no second; their
# ticks differ by a quarter.) Each boot is one result, "LABEL: hz=A judged
# as B", passed when the boot finished, hzcheck failed, at least one check
# failed, and every check that passed printed "hzcheck: hz-free NAME why"
# (its expectation cannot depend on HZ): a check that depends on HZ and
# passed with the wrong one is a judge that cannot fail, and is named.
# Logs in build/linux-tests/wrong-hz-*. Status 1 when a result failed.

# wh_specs ARCH KERNEL INITRD: the two boots, one lx_boot_list spec a
# line (NAME|ARCH|KERNEL|INITRD|CMDLINE|MODE|TIMEOUT); the console of NAME
# goes to DIR/NAME.log.
wh_specs() {
	local arch=$1 kernel=$2 initrd=$3 pair a b
	for pair in 250:333 333:250; do
		a=${pair%:*} b=${pair#*:}
		echo "wrong-hz-$arch-$a-as-$b|$arch|$kernel|$initrd|hz=$a checkhz=$b kunit.enable=0 check=hzcheck|icount|900"
	done
}

# wh_judge LABEL LOG A B: one boot's result (record, from scripts/lib.sh);
# prints what failed and what passed; 1 when the judge could not fail.
wh_judge() {
	local label=$1 log=$2 a=$3 b=$4 name problems=() fails oks free_ok=0 bad_ok=()
	if ! grep -aq '^linuxcheck: done' "$log" 2>/dev/null; then
		problems+=("no \"linuxcheck: done\" in $log (the boot did not finish)")
	elif ! grep -aq '^linuxcheck: result hzcheck fail ' "$log"; then
		problems+=("hzcheck did not fail: $(grep -a -m1 '^linuxcheck: result hzcheck ' "$log")")
	fi
	fails=$(grep -a '^hzcheck: FAIL ' "$log" 2>/dev/null | awk '{ print $3 }')
	oks=$(grep -a '^hzcheck: ok ' "$log" 2>/dev/null | awk '{ print $3 }')
	[ -n "$fails" ] || problems+=("no check failed")
	for name in $oks; do
		if grep -aq "^hzcheck: hz-free $name " "$log"; then
			free_ok=$((free_ok + 1))
		else
			bad_ok+=("$name")
		fi
	done
	[ ${#bad_ok[@]} -eq 0 ] ||
		problems+=("passed with the wrong --hz, yet not HZ-independent: ${bad_ok[*]}")
	if [ ${#problems[@]} -eq 0 ]; then
		record pass "$label: hz=$a judged as $b"
		printf '%-50s ok (%d checks failed, %d passed, each HZ-independent)\n' \
			"$label: hz=$a judged as $b" "$(echo "$fails" | wc -w)" "$free_ok"
		return 0
	fi
	record fail "$label: hz=$a judged as $b"
	printf '%-50s FAILED\n' "$label: hz=$a judged as $b"
	printf '  %s\n' "${problems[@]}" >&2
	return 1
}

# Run, not sourced: the two boots, then their results.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	cd "$(dirname "$0")/../.." || exit 1
	source scripts/lib.sh
	source scripts/linux/boot.sh
	kernel=${1:?usage: tests/linux/wrong-hz.sh KERNEL INITRD [ARCH]}
	initrd=${2:?usage: tests/linux/wrong-hz.sh KERNEL INITRD [ARCH]}
	arch=${3:-x86_64}
	out=build/linux-tests
	mkdir -p "$out"
	mapfile -t specs < <(wh_specs "$arch" "$kernel" "$initrd")
	lx_boot_list "$out" "${specs[@]}"
	rc=0
	for pair in 250:333 333:250; do
		a=${pair%:*} b=${pair#*:}
		wh_judge "linux $arch wrong hz" "$out/wrong-hz-$arch-$a-as-$b.log" "$a" "$b" || rc=1
	done
	exit $rc
fi
