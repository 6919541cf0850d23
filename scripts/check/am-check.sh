#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# am-check.sh git|b4 NAME - apply series NAME as a maintainer would, as
# 'export-series.sh --mbox' writes it for posting, on top of nothing but its
# prerequisites, and compare the result with branch series/NAME of $KSRC.
#
#   git  'git am' of its patch files (cover letter left out) in order
#   b4   its mbox through 'b4 am' (offline, from the local mbox), then
#        'git am' of the mbox b4 makes
#
# The tree it applies to is a scratch git tree holding the files the series
# changes, as they are where the series starts: the base tag for a series
# without prerequisites (so that "independent" is checked, not assumed),
# else the branch of its last prerequisite.  Every file the series touches
# must then match series/NAME byte for byte.
#
# Exit status: 0 if the series applied and matched, 1 if not, 2 on bad usage.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: am-check.sh git|b4 NAME (NAME from patches/series)" >&2
	exit 2
}
[ $# -eq 2 ] || usage
tool=$1
name=$2
case "$tool" in git | b4) ;; *) usage ;; esac
series_names | grep -qx -- "$name" || { echo "am-check.sh: no series '$name' in patches/series" >&2; exit 2; }

ref=$SERIES_REF/$name
git -C "$KSRC" rev-parse -q --verify "refs/heads/$ref" >/dev/null ||
	die "no branch $ref in $KSRC (scripts/build/apply-series.sh)"
own_start=$(series_start "$name")
start=$BASE_TAG
last=$(series_prereqs "$name" | tail -n 1)
[ -z "$last" ] || start=$SERIES_REF/$last

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t files < <(git -C "$KSRC" diff --name-only "$own_start" "$ref")
mkdir "$tmp/tree"
for f in "${files[@]}"; do
	if git -C "$KSRC" cat-file -e "$start:$f" 2>/dev/null; then
		mkdir -p "$tmp/tree/$(dirname "$f")"
		git -C "$KSRC" show "$start:$f" >"$tmp/tree/$f"
	fi
done
git -C "$tmp/tree" init -q
git -C "$tmp/tree" add -A
git -C "$tmp/tree" commit -q --allow-empty -m "the files of $name at $start"

"$AFFSCHED_TOP/scripts/build/export-series.sh" --mbox "$tmp/mbox" 2>/dev/null ||
	die "export-series.sh --mbox failed"
mapfile -t patches < <(cd "$tmp/mbox/$name" && ls ./*.patch | sed 's|^\./||' | grep -v '^0000-')
[ ${#patches[@]} -eq "$(series_members "$name" | wc -l)" ] ||
	die "the mbox of $name has ${#patches[@]} patches, patches/series ${name}'s part $(series_members "$name" | wc -l)"
if [ "$tool" = git ]; then
	for p in "${patches[@]}"; do
		git -C "$tmp/tree" am -q --keep-cr "$tmp/mbox/$name/$p" ||
			die "$p does not apply with git am on $start"
	done
else
	mkdir "$tmp/out"
	# In $KSRC, so that b4 knows the base-commit the cover letter names.
	(cd "$KSRC" && b4 --offline-mode am -C -m "$tmp/mbox/$name.mbx" -o "$tmp/out") >"$tmp/b4.log" 2>&1 ||
		{ cat "$tmp/b4.log"; die "b4 am failed"; }
	mapfile -t mbx < <(ls "$tmp/out"/*.mbx 2>/dev/null)
	[ ${#mbx[@]} -eq 1 ] || { cat "$tmp/b4.log"; die "b4 am made ${#mbx[@]} mboxes, not one"; }
	got=$(grep -c '^From ' "${mbx[0]}")
	[ "$got" -eq ${#patches[@]} ] ||
		die "b4 am's mbox has $got patches, the series ${#patches[@]}"
	grep -q "^ Base: .*$(git -C "$KSRC" rev-parse "$BASE_TAG^{commit}")" "$tmp/b4.log" ||
		{ cat "$tmp/b4.log"; die "b4 did not report the series' base-commit"; }
	git -C "$tmp/tree" am -q --keep-cr "${mbx[0]}" ||
		die "b4 am's mbox does not apply with git am on $start"
fi

bad=0
for f in "${files[@]}"; do
	if git -C "$KSRC" cat-file -e "$ref:$f" 2>/dev/null; then
		cmp -s <(git -C "$KSRC" show "$ref:$f") "$tmp/tree/$f" ||
			{ echo "differs from $ref: $f"; bad=1; }
	elif [ -e "$tmp/tree/$f" ]; then
		echo "not deleted as on $ref: $f"
		bad=1
	fi
done
[ $bad -eq 0 ] || exit 1
echo "$name: ${#patches[@]} patches applied with $tool am on $start; ${#files[@]} files match $ref"
