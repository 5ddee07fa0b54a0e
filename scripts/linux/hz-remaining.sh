#!/bin/bash
# hz-remaining.sh SRC OUT -- the compile-time uses of HZ that remain in a
# CONFIG_HZ_DYNAMIC build: every line naming CONFIG_HZ (the default HZ, a
# constant) in a source or header that the build OUT compiled, and every
# #if on HZ or TICK_NSEC there (which must be none: with CONFIG_HZ_DYNAMIC
# such an #if does not compile). The compiled files are read from Kbuild's
# dependency files (.*.cmd).
set -u
src=${1:?usage: hz-remaining.sh SRC OUT} out=${2:?usage: hz-remaining.sh SRC OUT}
src=$(cd "$src" && pwd -P)
files=$(find "$out" -name '.*.o.cmd' -print0 | xargs -0 cat |
	grep -o "$src/[^ :]*\.[ch]\|[a-zA-Z0-9_/.-]*\.[ch]" |
	sed "s|^$src/||" | grep -v '^/' | sort -u |
	while read -r f; do [ -f "$src/$f" ] && echo "$f"; done)
echo "# compiled sources and headers: $(wc -w <<<"$files")"
echo "# lines naming CONFIG_HZ (not CONFIG_HZ_*):"
(cd "$src" && grep -n -w 'CONFIG_HZ' $files | grep -v 'CONFIG_HZ_[A-Z]')
echo "# #if on HZ or TICK_NSEC:"
(cd "$src" && grep -n -E '^\s*#\s*(el)?if.*\b(HZ|TICK_NSEC|TICK_USEC)\b' $files | grep -v 'NO_HZ\|CONFIG_HZ_DYNAMIC\|USER_HZ\|AHZ\b' || echo "(none)")
