#!/bin/bash
# The library's public surface (issue 22): what an embedder sees.
#  - every symbol the core's objects define for others (nm: global, defined)
#    is dz_ (dynhz's own API and the core's internals between its files),
#    dynhz_ (the hosted port), or a name of Linux's API the core implements
#    as Linux names it (the list below, each a Linux kernel function or
#    variable of the same meaning); nothing else;
#  - <dynhz/dynhz.h> includes every public header but the two a port or the
#    hosted port include on purpose (port.h, host.h);
#  - the core's internal headers (time/*.h) are not among the installed ones.
# One result each, and one that shows the symbol check can fail.
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh

out=build/api
mkdir -p "$out"
lib=$(make --no-print-directory print-builddir)/libdynhz.a
if ! make --no-print-directory lib >"$out/make.log" 2>&1; then
	record fail "api: the library builds"
	tail -20 "$out/make.log" >&2
	exit 0
fi

# Linux's names, kept where the API is Linux's (include/linux/timer.h,
# hrtimer.h, jiffies.h, timekeeping.h, clockchips.h, clocksource.h, tick.h).
linux_names="jiffies jiffies_64 get_jiffies_64 add_timer mod_timer del_timer
hrtimer_setup hrtimer_cancel hrtimer_try_to_cancel hrtimer_forward hrtimer_forward_now
hrtimer_get_remaining hrtimer_callback_running hrtimer_cb_get_time
ktime_get_ns ktime_get_raw_ns ktime_get_real ktime_get_clocktai ktime_get_coarse_ns ktime_get_coarse_real_ns
clockevents_register_device clockevents_handle_noop clockevents_shutdown
clocksource_register_hz clocksource_unregister tick_nohz_idle_enter tick_nohz_idle_exit"

# check_symbols ARCHIVE: prints the symbols outside the scheme, one a line.
check_symbols() {
	nm -g --defined-only "$1" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u |
		while read -r s; do
			case $s in dz_* | dynhz_*) continue ;; esac
			case " $(echo $linux_names) " in *" $s "*) continue ;; esac
			echo "$s"
		done
}

bad=$(check_symbols "$lib")
n=$(nm -g --defined-only "$lib" | awk 'NF == 3' | sort -u | wc -l)
if [ -z "$bad" ]; then
	report "api: $n exported symbols: dz_, dynhz_ or Linux's"
else
	report "api: $n exported symbols: dz_, dynhz_ or Linux's" \
		"outside the scheme: $(echo $bad)"
fi

# The test of the test: an object exporting a name of no scheme is caught.
printf 'int helper_count;\nint dz_fine;\nvoid mod_timer_fast(void) {}\n' >"$out/bad.c"
${CC:-cc} -c "$out/bad.c" -o "$out/bad.o" && ar rcs "$out/bad.a" "$out/bad.o"
caught=$(check_symbols "$out/bad.a" | tr '\n' ' ')
if [ "$caught" = "helper_count mod_timer_fast " ]; then
	report "api: a name outside the scheme is caught"
else
	report "api: a name outside the scheme is caught" "caught: '$caught'"
fi

# dynhz.h is the whole public API.
missing=()
for h in include/dynhz/*.h; do
	name=$(basename "$h")
	case $name in dynhz.h | port.h | host.h) continue ;; esac
	grep -q "#include <dynhz/$name>" include/dynhz/dynhz.h || missing+=("$name")
done
if [ ${#missing[@]} -eq 0 ]; then
	report "api: <dynhz/dynhz.h> includes every public header"
else
	report "api: <dynhz/dynhz.h> includes every public header" "missing: ${missing[*]}"
fi

# Internal headers stay internal: none installed under include/, none
# named by a public header.
leaks=$(grep -l '#include "' include/dynhz/*.h 2>/dev/null)
if [ -z "$leaks" ]; then
	report "api: no public header includes an internal one"
else
	report "api: no public header includes an internal one" "$leaks"
fi

# The generator is compiled into Linux as it is (docs/LINUX.md): its
# object may call nothing, not even the compiler's runtime (a 128-bit
# division is a call to __udivmodti4, which a kernel does not link). The
# 64-bit build's time/conv.o has no undefined symbol; an object with a
# 128-bit division shows the check can fail.
undef=$(nm -u "$(make --no-print-directory print-builddir)/time/conv.o" 2>&1)
if [ -z "$undef" ]; then
	report "api: time/conv.o calls nothing outside itself (a kernel links it alone)"
else
	report "api: time/conv.o calls nothing outside itself (a kernel links it alone)" "undefined: $(echo $undef)"
fi
printf 'unsigned long long q(unsigned __int128 a, unsigned long long d) { return a / d; }\n' >"$out/div.c"
${CC:-cc} -O2 -c "$out/div.c" -o "$out/div.o"
if [ -n "$(nm -u "$out/div.o")" ]; then
	report "api: a call to the compiler's runtime is caught"
else
	report "api: a call to the compiler's runtime is caught" "nm -u found nothing in a 128-bit division"
fi
