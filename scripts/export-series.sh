#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Export the commits affsched-base..affsched of $KSRC into patches/ with
# 'git format-patch': one file per commit, a cover letter (subject and text
# from patches/cover-letter.txt, b4-compatible base-commit trailer) and
# patches/series.  Deterministic: the same commits give byte-identical files
# (no dates or versions that depend on the machine or the time of export).
#
# export-series.sh --olk [N...] exports the openEuler OLK-5.10 versions of
# the patches numbered N (default: those patches/olk-5.10/series lists)
# from branch $OLK_BRANCH (affsched) of the OLK tree $OLK_TREE (build/olk,
# which scripts/olk-apply-check.sh makes with the series applied) into
# patches/olk-5.10/, with the same fixed settings, and writes its series.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# fmt_patch GIT_DIR OUT_DIR ARGS...: git format-patch with fixed settings,
# so that the user's git configuration does not leak in.
fmt_patch() {
	local dir=$1 out=$2
	shift 2
	git -C "$dir" -c core.abbrev=12 -c diff.renames=true -c format.signature= \
		-c format.coverFromDescription=message -c format.useAutoBase=false \
		format-patch -q --zero-commit --no-signature -o "$out" "$@"
}

if [ "${1:-}" = --olk ]; then
	shift
	olk_tree=${OLK_TREE:-$BUILD/olk}
	olk_branch=${OLK_BRANCH:-$BRANCH}
	nums=("$@")
	if [ ${#nums[@]} -eq 0 ] && [ -f "$PATCHES/$OLK_DIR/series" ]; then
		mapfile -t nums < <(series_list "$PATCHES/$OLK_DIR/series" | sed 's/-.*//')
	fi
	[ ${#nums[@]} -gt 0 ] || die "--olk: no patch numbers given and no patches/$OLK_DIR/series"
	git -C "$olk_tree" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1 ||
		die "no $BASE_TAG tag in $olk_tree (run scripts/olk-apply-check.sh)"
	mapfile -t commits < <(git -C "$olk_tree" rev-list --reverse "$BASE_TAG..$olk_branch")
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for n in "${nums[@]}"; do
		[[ "$n" =~ ^[0-9]+$ ]] && [ "$((10#$n))" -ge 1 ] &&
			[ "$((10#$n))" -le ${#commits[@]} ] ||
			die "--olk: no patch $n on $olk_branch of $olk_tree (${#commits[@]} commits)"
		fmt_patch "$olk_tree" "$tmp" --start-number "$((10#$n))" -1 "${commits[$((10#$n - 1))]}"
	done
	mkdir -p "$PATCHES/$OLK_DIR"
	rm -f "$PATCHES/$OLK_DIR"/*.patch
	cp "$tmp"/*.patch "$PATCHES/$OLK_DIR/"
	{
		echo "# OLK-5.10 versions: each replaces the patch of its number in ../series"
		(cd "$tmp" && ls ./*.patch | sed 's|^\./||')
	} >"$PATCHES/$OLK_DIR/series"
	log "exported ${#nums[@]} OLK-5.10 patch(es) to $PATCHES/$OLK_DIR"
	exit 0
fi

cover=$PATCHES/cover-letter.txt
[ -f "$cover" ] || die "$cover missing (first line: subject, then the text)"
git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1 ||
	die "no $BASE_TAG tag in $KSRC"
n=$(git -C "$KSRC" rev-list --count "$BASE_TAG..$BRANCH")
[ "$n" -gt 0 ] || die "branch $BRANCH has no commits on top of $BASE_TAG"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fmt_patch "$KSRC" "$tmp" --cover-letter --base="$BASE_TAG" "$BASE_TAG..$BRANCH"

# Fill in the cover letter: subject, text, and the date of the newest commit.
subject=$(head -n 1 "$cover")
date=$(git -C "$KSRC" log -1 --format=%aD "$BRANCH")
python3 - "$tmp/0000-cover-letter.patch" "$cover" "$subject" "$date" <<'PY'
import sys
path, cover, subject, date = sys.argv[1:]
text = open(cover).read().split('\n', 1)[1].strip('\n')
s = open(path).read()
s = s.replace('*** SUBJECT HERE ***', subject, 1)
s = s.replace('*** BLURB HERE ***', text, 1)
out = []
for line in s.split('\n'):
    if line.startswith('Date: '):
        line = 'Date: ' + date
    out.append(line)
open(path, 'w').write('\n'.join(out))
PY

rm -f "$PATCHES"/*.patch
cp "$tmp"/*.patch "$PATCHES"/
{
	echo "# affsched series, in the order 'git am' applies it (scripts/apply-series.sh)"
	(cd "$tmp" && ls ./*.patch | sed 's|^\./||' | grep -v '^0000-cover-letter')
} >"$PATCHES/series"
log "exported $n patches and the cover letter to $PATCHES"
