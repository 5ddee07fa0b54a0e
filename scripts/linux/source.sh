#!/bin/bash
# The Linux source trees the port builds from.
#   scripts/linux/source.sh pristine   prints the pristine tree (fetched, unpacked once)
#   scripts/linux/source.sh patched    prints the patched tree (made again when needed)
#   scripts/linux/source.sh fixes      prints the tree with the series' leading
#                                      fixes alone (lx_fixes), made the same way
#
# Pristine: Debian's linux-source-6.12 (scripts/fetch-deb.sh --deb; the .deb
# holds /usr/src/linux-source-6.12.tar.xz), unpacked once into
# build/linux/src/<the .deb's name>/ (about 1.3 GB, a minute of xz on one
# core). Nothing ever writes into it: the stock kernels build from it with
# O=, and the patched tree shares its unchanged files.
#
# Patched: build/linux/src/patched/, always at that path (a build directory
# made with O= remembers its source tree's path), made from the pristine
# tree as
#   1. cp -al: every file a hard link to the pristine one (seconds, no space);
#   2. each patch of linux/series, in order, with patch -p1 from
#      linux/patches/ (GNU patch writes a patched file anew, so the link to
#      the pristine file breaks and the pristine tree keeps its text);
# It is made again only when its key changes: a hash of the pristine
# tree's name, linux/series, and every patch the series names
# (build/linux/src/patched.key). Nothing changed, nothing done.
#
# Making it again must not leave a stale object in any build directory:
# Linux's make rebuilds an object only when a source it depends on is newer.
# A file patched by an earlier series and not by this one comes back from
# the pristine tree with the pristine (old) time, older than the object
# compiled from its patched text, which would be kept. So every file that
# any series has ever touched since the pristine tree was unpacked
# (build/linux/src/touched.list, which only grows: a build directory may
# have been built against any earlier series, not only the last one) is
# given a fresh copy with the current time, patched or not, and every build
# directory recompiles what depends on it (ccache makes the unchanged ones
# cheap). Created and deleted files are in the list too: a patch's own
# headers name them.
set -e -o pipefail
source "$(dirname "$0")/lib.sh"

# The pristine tree; its directory is printed.
pristine() {
	local deb name dir
	deb=$(FETCH_DEB_TIMEOUT=${FETCH_DEB_TIMEOUT:-900} bash "$DZ_ROOT/scripts/fetch-deb.sh" --deb "$LX_PKG") ||
		lx_die "cannot fetch $LX_PKG"
	name=$(basename "$deb" .deb)
	dir=$LX_PRISTINE/$name
	# One unpacker at a time (fd 8, released when this shell ends).
	exec 8>"$LX_PRISTINE/.unpack.lock"
	flock 8
	if [ ! -f "$dir.unpacked" ]; then
		echo "linux: unpacking $deb into $dir (about a minute)" >&2
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$dir.tmp"
		# The inner tarball's one top directory (linux-source-6.1/) is stripped.
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xOf - --wildcards './usr/src/linux-source-*.tar.xz' |
			xz -dc | tar -xf - -C "$dir.tmp" --strip-components=1 ||
			lx_die "cannot unpack the Linux tree from $deb"
		[ -f "$dir.tmp/Makefile" ] && [ -d "$dir.tmp/kernel/time" ] ||
			lx_die "$deb holds no Linux tree"
		mv "$dir.tmp" "$dir"
		touch "$dir.unpacked"
	fi
	echo "$dir"
}

# The files a patch names (its ---/+++ headers and git's rename lines), -p1.
patch_files() {
	sed -n -e 's,^\(---\|+++\) \([^\t]*\).*,\2,p' -e 's,^rename \(from\|to\) ,x/,p' "$1" |
		grep -v '^/dev/null$' | sed 's,^[^/]*/,,' | sort -u
}

# patched [fixes]: the patched tree, or with "fixes" the fixes-only one
# (build/linux/src/fixes/, its own key and lock; no stale-object care:
# only constant.sh builds it, in directories of its own).
patched() {
	local pristine key p patches=() f log
	local which=${1:-series} LX_PATCHED=$LX_PATCHED tag=patched
	pristine=$(pristine)
	if [ "$which" = fixes ]; then
		LX_PATCHED=$LX_SRC/fixes tag=fixes
	fi
	while read -r p; do
		[ -f "$LX_PATCHES/$p" ] || lx_die "linux/series names $p, which is not in linux/patches/"
		patches+=("$LX_PATCHES/$p")
	done < <(if [ "$which" = fixes ]; then lx_fixes; else lx_series; fi)
	# The key: the pristine tree, this script's layout version, the series
	# and the patches (names and contents).
	key=$( (echo "$(basename "$pristine") layout-2"; lx_hash "$LX_SERIES" "${patches[@]}") | sha256sum | cut -c1-16)
	# The tree is shared by every build (fd 9: build.sh holds the lock
	# shared while Linux's make reads the tree): the key is read under a
	# shared lock, and the tree made again under an exclusive one, which
	# waits for the builds reading the old tree to end.
	if [ "$which" = fixes ]; then
		exec 9>"$LX_SRC/.lock-fixes"
	else
		exec 9>"$LX_SRC/.lock"
	fi
	flock -s 9
	if [ "$(cat "$LX_SRC/$tag.key" 2>/dev/null)" = "$key" ] && [ -d "$LX_PATCHED" ]; then
		echo "$LX_PATCHED"
		return
	fi
	flock 9
	if [ "$(cat "$LX_SRC/$tag.key" 2>/dev/null)" = "$key" ] && [ -d "$LX_PATCHED" ]; then
		echo "$LX_PATCHED" # made meanwhile by another build
		return
	fi
	echo "linux: making the $tag tree ${#patches[@]} patch(es) (key $key)" >&2
	rm -f "$LX_SRC/$tag.key"
	# The list of touched files belongs to one pristine tree.
	if [ "$(head -1 "$LX_SRC/touched.list" 2>/dev/null)" != "# $(basename "$pristine")" ]; then
		echo "# $(basename "$pristine")" >"$LX_SRC/touched.list"
	fi
	rm -rf "$LX_PATCHED"
	cp -al "$pristine" "$LX_PATCHED"
	log=$LX_SRC/patch.log
	: >"$log"
	for p in "${patches[@]}"; do
		if ! patch -p1 -d "$LX_PATCHED" --batch --forward --no-backup-if-mismatch <"$p" >>"$log" 2>&1; then
			rm -rf "$LX_PATCHED"
			lx_die "linux/patches/$(basename "$p") does not apply (see $log)"
		fi
		patch_files "$p" >>"$LX_SRC/touched.list"
	done
	# Also whatever patch wrote anew that the headers did not name
	# (a file with one link is not the pristine one).
	(cd "$LX_PATCHED" && find . -type f -links 1 -printf '%P\n') >>"$LX_SRC/touched.list"
	{
		head -1 "$LX_SRC/touched.list"
		tail -n +2 "$LX_SRC/touched.list" | LC_ALL=C sort -u
	} >"$LX_SRC/touched.tmp"
	mv "$LX_SRC/touched.tmp" "$LX_SRC/touched.list"
	# Every file ever touched gets the current time: an unpatched one as a
	# fresh copy (touching the link would change the pristine file's time).
	while read -r f; do
		if [ -f "$LX_PATCHED/$f" ] && [ "$(stat -c %h "$LX_PATCHED/$f")" -gt 1 ]; then
			cp --remove-destination "$pristine/$f" "$LX_PATCHED/$f"
		elif [ -f "$LX_PATCHED/$f" ]; then
			touch "$LX_PATCHED/$f"
		fi
	done < <(tail -n +2 "$LX_SRC/touched.list")
	echo "$key" >"$LX_SRC/$tag.key"
	echo "$LX_PATCHED"
}

mkdir -p "$LX_SRC" "$LX_PRISTINE"
case ${1:-} in
pristine) pristine ;;
patched) patched ;;
fixes) patched fixes ;;
*) lx_die "usage: scripts/linux/source.sh pristine|patched|fixes" ;;
esac
