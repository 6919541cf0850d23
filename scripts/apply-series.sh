#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Apply patches/ (in the order of patches/series) to the base of $KSRC with
# 'git am', giving branch 'affsched' = base + series.
#
# The patches are applied on a detached HEAD at the base first; only when all
# of them apply is the branch moved.  If one fails, the script names it, aborts
# the 'git am' and puts the tree back where it was.  If branch 'affsched' holds
# commits that differ from the series (unexported work), it refuses unless
# FORCE=1.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -f "$PATCHES/series" ] || die "$PATCHES/series missing"
git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1 ||
	die "no $BASE_TAG tag in $KSRC: run scripts/prepare-base.sh first"
cd "$KSRC"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "$KSRC has uncommitted changes; commit or stash them first"
[ -d "$(git rev-parse --git-path rebase-apply)" ] &&
	die "$KSRC has a 'git am' or rebase in progress"

mapfile -t series < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/series")
[ ${#series[@]} -gt 0 ] || die "$PATCHES/series lists no patch"
for p in "${series[@]}"; do
	[ -f "$PATCHES/$p" ] || die "patches/series names $p, which does not exist"
done

orig=$(git symbolic-ref -q --short HEAD || git rev-parse HEAD)
restore() {
	git am --abort >/dev/null 2>&1 || true
	git checkout -q -f "$orig"
}

git checkout -q --detach "$BASE_TAG"
i=0
for p in "${series[@]}"; do
	i=$((i + 1))
	if ! git am -q --keep-cr "$PATCHES/$p" >/tmp/affsched-am.$$ 2>&1; then
		sed 's/^/  /' /tmp/affsched-am.$$ >&2
		rm -f /tmp/affsched-am.$$
		restore
		die "patch $i/${#series[@]} ($p) does not apply to $KSRC at $BASE_TAG; tree left as it was"
	fi
done
rm -f /tmp/affsched-am.$$
new=$(git rev-parse HEAD)

if git rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null; then
	if [ "$(git rev-parse "$BRANCH^{tree}")" = "$(git rev-parse "$new^{tree}")" ]; then
		git checkout -q "$BRANCH"
		log "series (${#series[@]} patches) already applied on branch $BRANCH"
		exit 0
	fi
	if [ "$(git rev-parse "$BRANCH")" != "$(git rev-parse "$BASE_TAG")" ] &&
	   [ "${FORCE:-0}" != 1 ]; then
		restore
		die "branch $BRANCH has commits that differ from patches/ (export them with scripts/export-series.sh, or FORCE=1 to replace them)"
	fi
fi
git checkout -q -B "$BRANCH" "$new"
log "applied ${#series[@]} patches on branch $BRANCH of $KSRC"
