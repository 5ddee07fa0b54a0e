#!/bin/bash
# series-git.sh import DIR | export DIR -- the series as git commits.
#
# A maintainer reviews, rebases and edits a series as commits, not as
# files of diffs. `import DIR` makes DIR a git repository holding the
# pristine linux-source-6.12 (one commit, tagged "pristine") with
# linux/series applied on it by `git am`, one commit a patch. After
# editing there (git rebase -i, git commit --amend), `export DIR` writes
# the commits since "pristine" back to linux/patches and linux/series
# (the "#@ feature" line kept after the same number of fixes) and
# regenerates the shortlog and diffstat of linux/0000-cover-letter.patch,
# keeping its prose. Patches are written reproducibly: zero commit ids,
# one date, no signature, so an export of an unchanged tree changes
# nothing. The export ends by applying the new series to a pristine copy
# and comparing it with DIR's tree: "difference from DIR: none".
set -eo pipefail
cmd=$1 dir=${2:+$(realpath -m "$2")}
cd "$(dirname "$0")/../.." || exit 1
source scripts/linux/lib.sh
export LC_ALL=C
date='Mon, 7 Dec 2026 00:00:00 +0000'
[ -n "$dir" ] || lx_die "usage: series-git.sh import|export DIR"
gitq() { git -C "$dir" -c core.abbrev=9 -c user.name=dynhz -c user.email=dynhz@localhost "$@"; }

pristine() { # the pristine tree's directory (fetched and unpacked once)
	bash scripts/linux/source.sh pristine
}

case $cmd in
import)
	[ ! -e "$dir" ] || lx_die "$dir exists: import makes a new repository"
	src=$(pristine)
	mkdir -p "$dir"
	cp -a "$src/." "$dir/"
	gitq init -q -b master
	gitq add -A -f # Debian's .gitignore ignores the whole top level
	GIT_COMMITTER_DATE="$date" gitq commit -q --date="$date" -m "Linux $(basename "$src") (Debian's linux-source-6.12)"
	gitq tag pristine
	lx_series | while read -r p; do
		gitq am -q --committer-date-is-author-date "$LX_PATCHES/$p" ||
			lx_die "$p does not apply"
	done
	echo "series-git: $dir holds pristine + $(gitq rev-list --count pristine..HEAD) patches"
	;;
export)
	[ -d "$dir/.git" ] || lx_die "$dir is not a repository made by import"
	nfix=$(lx_fixes | wc -l)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	gitq format-patch -q --zero-commit --no-signature --cover-letter -o "$tmp" pristine..HEAD
	for f in "$tmp"/*.patch; do # one date for all: reproducible files
		sed -i "0,/^Date: .*/s//Date: $date/" "$f"
	done
	cover=$(dirname "$LX_SERIES")/0000-cover-letter.patch
	new=$(ls "$tmp"/0000-*.patch)
	# The prose: the old letter up to its shortlog ("NAME (N):"); the
	# shortlog and diffstat: format-patch's, from the same line on.
	{
		sed -n '/^.* ([0-9]*):$/q;p' "$cover"
		sed -n '/^.* ([0-9]*):$/,$p' "$new" | sed '/^-- $/,$d'
	} >"$tmp/cover"
	n=$(gitq rev-list --count pristine..HEAD)
	sed -i "s/^Subject: \[PATCH 00\/[0-9]*\]/Subject: [PATCH 00\/$n]/" "$tmp/cover"
	mv "$tmp/cover" "$cover"
	rm -f "$new"
	patches=$LX_PATCHES
	rm -f "$patches"/*.patch
	mv "$tmp"/*.patch "$patches/"
	# linux/series: its header (the lines before the first patch), the
	# fixes, "#@ feature" and the comment after it, the rest.
	{
		sed -n '/^[0-9]\{4\}-/q;p' "$LX_SERIES"
		i=0
		for f in "$patches"/*.patch; do
			if [ $i -eq "$nfix" ]; then
				sed -n '/^#@ feature/,/^[0-9]\{4\}-/p' "$LX_SERIES" | sed '$d'
			fi
			basename "$f"
			i=$((i + 1))
		done
	} >"$tmp/series"
	mv "$tmp/series" "$LX_SERIES"
	# The test of the export: the series applied to pristine is DIR's tree.
	src=$(pristine)
	cp -a "$src" "$tmp/check"
	lx_series | while read -r p; do
		patch -s -p1 -d "$tmp/check" <"$patches/$p" || lx_die "$p does not apply"
	done
	if gitq diff --quiet HEAD && diff -r -q -x .git "$tmp/check" "$dir" >/dev/null; then
		echo "series-git: $n patches exported; difference from $dir: none"
	else
		lx_die "the exported series does not give $dir's tree (uncommitted changes?)"
	fi
	;;
*) lx_die "usage: series-git.sh import|export DIR" ;;
esac
