#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Export the commits affsched-base..affsched of $KSRC into patches/ with
# 'git format-patch': one file per commit, a cover letter (subject and text
# from patches/cover-letter.txt, b4-compatible base-commit trailer) and
# patches/series.  Deterministic: the same commits give byte-identical files
# (no dates or versions that depend on the machine or the time of export).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cover=$PATCHES/cover-letter.txt
[ -f "$cover" ] || die "$cover missing (first line: subject, then the text)"
git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1 ||
	die "no $BASE_TAG tag in $KSRC"
n=$(git -C "$KSRC" rev-list --count "$BASE_TAG..$BRANCH")
[ "$n" -gt 0 ] || die "branch $BRANCH has no commits on top of $BASE_TAG"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Fixed settings so that the user's git configuration does not leak in.
git -C "$KSRC" -c core.abbrev=12 -c diff.renames=true -c format.signature= \
	-c format.coverFromDescription=message -c format.useAutoBase=false \
	format-patch -q --zero-commit --no-signature --cover-letter \
	--base="$BASE_TAG" -o "$tmp" "$BASE_TAG..$BRANCH"

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
