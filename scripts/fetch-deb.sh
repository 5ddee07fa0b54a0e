#!/bin/bash
# Third-party programs the tests run, as Debian builds them: fetched at
# test time with apt-get download, never committed, cached in build/debs/.
#   scripts/fetch-deb.sh PACKAGE:ARCH         prints the directory it is unpacked in
#   scripts/fetch-deb.sh --deb PACKAGE:ARCH   downloads only, prints the .deb's path
# e.g. scripts/fetch-deb.sh busybox-static:i386 -> build/debs/busybox-static_i386
# (bin/busybox inside); scripts/fetch-deb.sh --deb linux-source-6.1:all for
# a package too big to unpack whole (the caller streams what it needs out
# of it). ARCH may be "all". The download may take FETCH_DEB_TIMEOUT
# seconds (120); when it fails as root, apt's lists are updated once and it
# is tried again (a superseded version leaves the mirror). Fails with one
# line when the package cannot be had.
cd "$(dirname "$0")/.." || exit 1
only_deb=0
if [ "$1" = --deb ]; then
	only_deb=1
	shift
fi
pkg=${1:?usage: fetch-deb.sh [--deb] PACKAGE:ARCH}
name=${pkg%%:*}
arch=${pkg##*:}
[ "$arch" = "$pkg" ] && arch=$(dpkg --print-architecture)
cache=build/debs
dir=$cache/${name}_$arch
mkdir -p "$cache"

find_deb() { # the first cached .deb of the package, if any
	local f
	for f in "$cache/${name}"_*_"$arch".deb; do
		[ -f "$f" ] && echo "$f" && return
	done
}

download() {
	(cd "$cache" && timeout "${FETCH_DEB_TIMEOUT:-120}" apt-get download "$name:$arch" >"$name.log" 2>&1)
}

if [ $only_deb = 1 ] || [ ! -f "$dir/.unpacked" ]; then
	deb=$(find_deb)
	if [ -z "$deb" ]; then
		# A foreign architecture must be known to apt before it can download for it.
		if [ "$arch" != all ] && [ "$arch" != "$(dpkg --print-architecture)" ] &&
			! dpkg --print-foreign-architectures | grep -qx "$arch" && [ "$(id -u)" -eq 0 ]; then
			dpkg --add-architecture "$arch" && apt-get update -qq >/dev/null 2>&1
		fi
		if ! download && [ "$(id -u)" -eq 0 ]; then
			apt-get update -qq >/dev/null 2>&1
			download
		fi
		deb=$(find_deb)
	fi
	if [ -z "$deb" ]; then
		echo "fetch-deb: cannot download $name:$arch ($(tail -1 "$cache/$name.log" 2>/dev/null))" >&2
		exit 1
	fi
	if [ $only_deb = 1 ]; then
		echo "$deb"
		exit 0
	fi
	rm -rf "$dir"
	dpkg-deb -x "$deb" "$dir" && touch "$dir/.unpacked" || exit 1
fi
echo "$dir"
