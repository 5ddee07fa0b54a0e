#!/bin/bash
# Third-party programs the tests run, as Debian builds them: fetched at
# test time with apt-get download, never committed, cached in build/debs/.
#   scripts/fetch-deb.sh PACKAGE:ARCH   prints the directory it is unpacked in
# e.g. scripts/fetch-deb.sh busybox-static:i386 -> build/debs/busybox-static_i386
# (bin/busybox inside). Fails with one line when the package cannot be had.
cd "$(dirname "$0")/.." || exit 1
pkg=${1:?usage: fetch-deb.sh PACKAGE:ARCH}
name=${pkg%%:*}
arch=${pkg##*:}
[ "$arch" = "$pkg" ] && arch=$(dpkg --print-architecture)
cache=build/debs
dir=$cache/${name}_$arch
mkdir -p "$cache"
if [ ! -f "$dir/.unpacked" ]; then
	deb=$(ls "$cache/${name}"_*_"$arch".deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		# A foreign architecture must be known to apt before it can download for it.
		if [ "$arch" != "$(dpkg --print-architecture)" ] &&
			! dpkg --print-foreign-architectures | grep -qx "$arch" && [ "$(id -u)" -eq 0 ]; then
			dpkg --add-architecture "$arch" && apt-get update -qq >/dev/null 2>&1
		fi
		(cd "$cache" && timeout 120 apt-get download "$name:$arch" >"$name.log" 2>&1)
		deb=$(ls "$cache/${name}"_*_"$arch".deb 2>/dev/null | head -1)
	fi
	if [ -z "$deb" ]; then
		echo "fetch-deb: cannot download $name:$arch ($(tail -1 "$cache/$name.log" 2>/dev/null))" >&2
		exit 1
	fi
	rm -rf "$dir"
	dpkg-deb -x "$deb" "$dir" && touch "$dir/.unpacked" || exit 1
fi
echo "$dir"
