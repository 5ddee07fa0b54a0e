#!/bin/bash
# Linux's timer selftests, as Debian ships them: fetched at test time, never
# committed.
#
#	tests/kselftest/fetch.sh    prints the selftests directory (with timers/ in it)
#
# Debian's linux-source-6.1 (all architectures, about 139 MB: a .deb with
# the kernel tree as one .tar.xz inside) is downloaded by
# scripts/fetch-deb.sh --deb into build/debs/, and only
# tools/testing/selftests/timers/ and the header its programs include
# (tools/testing/selftests/kselftest.h, with lib.mk for reference) are
# streamed out of it: dpkg-deb --fsys-tarfile | tar -xO of the inner
# tarball | xz -dc | tar -x of the wanted paths, so the 1.3 GB tree is never
# written anywhere. They land in build/kselftest/src/<the .deb's name>/, and
# a second run costs nothing (build/kselftest/src/.../.extracted). A first
# run takes about 3 s of download on a fast mirror and 11 s of xz (one core).
cd "$(dirname "$0")/../.." || exit 1
set -o pipefail
pkg=linux-source-6.1:all

deb=$(FETCH_DEB_TIMEOUT=${FETCH_DEB_TIMEOUT:-900} bash scripts/fetch-deb.sh --deb "$pkg") || exit 1
dest=build/kselftest/src/$(basename "$deb" .deb)
sel=tools/testing/selftests
if [ ! -f "$dest/.extracted" ]; then
	rm -rf "$dest"
	mkdir -p "$dest"
	# The inner tarball's single top directory (linux-source-6.1/) is stripped.
	if ! dpkg-deb --fsys-tarfile "$deb" |
		tar -xOf - --wildcards './usr/src/linux-source-*.tar.xz' |
		xz -dc |
		tar -xf - -C "$dest" --strip-components=1 --wildcards \
			"*/$sel/timers/*" "*/$sel/kselftest.h" "*/$sel/lib.mk"; then
		echo "kselftest: cannot extract $sel/timers from $deb" >&2
		exit 1
	fi
	if [ ! -f "$dest/$sel/timers/Makefile" ] || [ ! -f "$dest/$sel/kselftest.h" ]; then
		echo "kselftest: $deb has no $sel/timers" >&2
		exit 1
	fi
	touch "$dest/.extracted"
fi
echo "$dest/$sel"
