#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# olk-apply-check.sh - apply the series, as an openEuler OLK-5.10 tree gets
# it, to the OLK-5.10 files in ../shared/olk-5.10 (OLK_FIXTURE overrides).
# OLK_OVERLAY=DIR puts DIR's files (another OLK-5.10 state of some of
# them, such as testdata/olk-5.10-dbd67bc0c942) in place of the fixture's;
# OLK_TREE=DIR makes the tree there instead of in build/olk.
#
# The fixture holds only the files the series touches that could be read
# from openEuler's kernel (its README.md gives their commits), so it is
# made a git tree of its own in build/olk, tagged affsched-base, and every
# patch of series_files olk-5.10 (patches/series with patches/olk-5.10/ in
# their numbers' places) is applied in order with 'git am': no fuzz,
# offsets allowed, as a user's 'git am' would.  A file a patch modifies
# that the fixture does not hold is left out with --exclude and listed.
#
# Output: one line per patch; for a patch that does not apply, its name,
# git's error (file and line of the hunk) and the context git looked for.
# Exit status: 0 if every patch applied, 1 otherwise, 2 on bad usage.
# Afterwards the tree (build/olk) is on branch affsched (base + the applied
# patches).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

case "${1:-}" in
"") ;;
-h | --help)
	sed -n '3,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 0
	;;
*)
	echo "usage: olk-apply-check.sh (no arguments; OLK_FIXTURE=DIR, OLK_OVERLAY=DIR, OLK_TREE=DIR)" >&2
	exit 2
	;;
esac

fixture=${OLK_FIXTURE:-$AFFSCHED_TOP/../shared/olk-5.10}
[ -f "$fixture/include/linux/sched.h" ] ||
	die "no OLK-5.10 fixture at $fixture (set OLK_FIXTURE)"
fixture=$(cd "$fixture" && pwd)
overlay=${OLK_OVERLAY:-}
if [ -n "$overlay" ]; then
	[ -d "$overlay" ] || die "OLK_OVERLAY=$overlay is not a directory"
	overlay=$(cd "$overlay" && pwd)
fi
tree=${OLK_TREE:-$BUILD/olk}
[[ "$tree" = /* ]] || tree=$PWD/$tree

list=$(series_files "$OLK_DIR") || exit 1
mapfile -t series <<<"$list"

rm -rf "$tree"
mkdir -p "$tree"
(cd "$fixture" && find . -type f ! -path ./README.md -print0 | cpio -0pdm --quiet "$tree")
if [ -n "$overlay" ]; then
	(cd "$overlay" && find . -type f ! -path ./README.md -print0 |
		cpio -0pdmu --quiet "$tree")
fi
cd "$tree"
git init -q -b "$BRANCH"
git add -A
GIT_AUTHOR_DATE="2024-08-10T00:00:00Z" GIT_COMMITTER_DATE="2024-08-10T00:00:00Z" \
	git commit -q -m "OLK-5.10 files from $fixture${overlay:+ and $overlay}"
git tag "$BASE_TAG"

# files_of PATCH: the paths the patch's diffs modify or delete (not create)
files_of() {
	awk '/^diff --git /{ f = substr($3, 3); next }
	     /^new file mode/{ f = "" }
	     /^index / && f != "" { print f; f = "" }' "$1" | sort -u
}

skipped=()
i=0
for p in "${series[@]}"; do
	i=$((i + 1))
	excl=()
	here=()
	while IFS= read -r f; do
		[ -n "$f" ] || continue
		if git cat-file -e "HEAD:$f" 2>/dev/null; then
			here+=("$f")
		else
			excl+=("--exclude=$f")
			skipped+=("$p: $f")
		fi
	done < <(files_of "$PATCHES/$p")
	if ! out=$(git am -q --keep-cr "${excl[@]}" "$PATCHES/$p" 2>&1); then
		echo "FAIL $i/${#series[@]} $p"
		echo "$out" | grep -E '^(error|Patch failed)' | sed 's/^/  /'
		git am --abort >/dev/null 2>&1 || true
		git apply --check -v "${excl[@]}" "$PATCHES/$p" 2>&1 |
			sed -n '/^error: while searching for:/,/^error: patch failed/p' | sed 's/^/  | /'
		exit 1
	fi
	if [ ${#excl[@]} -eq 0 ]; then
		echo "ok $i/${#series[@]} $p"
	else
		echo "ok $i/${#series[@]} $p (${#here[@]} file(s) checked, ${#excl[@]} not in the fixture)"
	fi
done

echo "all ${#series[@]} patches apply to the OLK-5.10 fixture"
if [ ${#skipped[@]} -gt 0 ]; then
	echo "files not in the fixture, left out (checked against 5.10.223 only):"
	printf '  %s\n' "${skipped[@]}"
fi
