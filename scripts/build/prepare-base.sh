#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare the base kernel tree the series applies to.
#
# Default: unpack Debian's linux-source-5.10 (5.10.y) into build/linux as a
# git repository with one commit tagged affsched-base.  The commit has a fixed
# identity and date, so the base-commit id is the same on every machine.
#
# With KSRC=/path/to/kernel (a git tree, e.g. openEuler OLK-5.10), tag its
# HEAD as affsched-base unless the tag exists already.  The tree must be clean.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

if [ "$KSRC" != "$BUILD/linux" ]; then
	git -C "$KSRC" rev-parse --git-dir >/dev/null 2>&1 ||
		die "KSRC=$KSRC is not a git tree"
	[ -f "$KSRC/kernel/sched/fair.c" ] || die "KSRC=$KSRC is not a kernel tree"
	if ! git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null; then
		[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] ||
			die "KSRC=$KSRC has uncommitted changes"
		git -C "$KSRC" tag "$BASE_TAG" HEAD
	fi
	log "base: $KSRC at $(git -C "$KSRC" rev-parse --short "$BASE_TAG")"
	exit 0
fi

if git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1; then
	log "base: $KSRC at $(git -C "$KSRC" rev-parse --short "$BASE_TAG") (already prepared)"
	exit 0
fi

tarball=/usr/src/linux-source-5.10.tar.xz
[ -f "$tarball" ] || "$AFFSCHED_TOP/scripts/build/deps.sh"
[ -f "$tarball" ] || die "$tarball missing (package linux-source-5.10)"

log "unpacking $tarball into $KSRC"
rm -rf "$KSRC" "$KSRC.tmp"
mkdir -p "$KSRC.tmp"
tar -C "$KSRC.tmp" -xf "$tarball"
mv "$KSRC.tmp"/linux-source-5.10 "$KSRC"
rmdir "$KSRC.tmp"

cd "$KSRC"
version=$(make -s kernelversion)
# Debian's source package ignores everything at the top level of the tree
# (its packaging lives elsewhere); drop that block so that git sees new files.
sed -i '/^# Debian packaging: ignore everything/,/^!\/debian\//d' .gitignore
sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' .gitignore
sed -i '$ { /^#$/d }' .gitignore
git init -q -b "$BRANCH"
git config core.abbrev 12
git add -A -f .
# A fixed author, committer and date give the same base commit everywhere,
# whatever identity the scripts use: the cover letter names it (base-commit).
export GIT_AUTHOR_DATE="2024-08-10T00:00:00Z" GIT_COMMITTER_DATE="2024-08-10T00:00:00Z"
GIT_AUTHOR_NAME="Debian linux-source-5.10" GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org" \
GIT_COMMITTER_NAME="Debian linux-source-5.10" GIT_COMMITTER_EMAIL="debian-kernel@lists.debian.org" \
	git commit -q -m "Linux $version (Debian linux-source-5.10)"
git tag "$BASE_TAG"
log "base: Linux $version at $(git rev-parse --short HEAD)"
