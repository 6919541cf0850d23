#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Apply patches/ (in the order of patches/series) to the base of $KSRC with
# 'git am', giving branch 'affsched' = base + series, and branch series/NAME
# ending at the last patch of each series NAME that patches/series names
# (see lib.sh).  rebase.updateRefs is set in $KSRC, so an interactive
# rebase of affsched moves the series branches with it.  On an openEuler
# OLK-5.10 tree (one with include/linux/kabi.h; AFFSCHED_TREE=olk-5.10 or
# 5.10 overrides the guess) the patches in patches/olk-5.10/ take their
# numbers' places (see series_files in lib.sh).
#
# The patches are applied on a detached HEAD at the base first; only when all
# of them apply are the branches moved.  If one fails, the script names it,
# aborts the 'git am' and puts the tree back where it was.  If branch
# 'affsched' holds commits that differ from the series (unexported work), it
# refuses unless FORCE=1.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1 ||
	die "no $BASE_TAG tag in $KSRC: run scripts/build/prepare-base.sh first"
cd "$KSRC"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "$KSRC has uncommitted changes; commit or stash them first"
[ -d "$(git rev-parse --git-path rebase-apply)" ] &&
	die "$KSRC has a 'git am' or rebase in progress"

kind=$(tree_kind "$KSRC")
list=$(series_files "$kind") || exit 1
mapfile -t series <<<"$list"

# Point series/NAME at the last patch of series NAME on branch affsched
# (a patch only OLK-5.10 has belongs to no series).
set_series_branches() {
	local -a commits
	local -A of=()
	local i name num
	for name in $(series_names); do
		while IFS= read -r num; do
			of[${num%%-*}]=$name
		done < <(series_members "$name")
	done
	mapfile -t commits < <(git rev-list --reverse "$BASE_TAG..$BRANCH")
	for i in "${!series[@]}"; do
		num=${series[$i]##*/}
		name=${of[${num%%-*}]:-}
		[ -z "$name" ] || git branch -f "$SERIES_REF/$name" "${commits[$i]}"
	done
	git config rebase.updateRefs true
}

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
		set_series_branches
		log "series (${#series[@]} patches) already applied on branch $BRANCH"
		exit 0
	fi
	if [ "$(git rev-parse "$BRANCH")" != "$(git rev-parse "$BASE_TAG")" ] &&
	   [ "${FORCE:-0}" != 1 ]; then
		restore
		die "branch $BRANCH has commits that differ from patches/ (export them with scripts/build/export-series.sh, or FORCE=1 to replace them)"
	fi
fi
git checkout -q -B "$BRANCH" "$new"
set_series_branches
log "applied ${#series[@]} patches ($kind) on branch $BRANCH of $KSRC"
