#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# w1-check.sh ARCH: compile every C file the series adds or changes with W=1
# and fail if it warns where the base tree does not.  Files the series adds
# must be warning-free; files it changes are compared with the same file
# compiled at the base (a worktree in build/linux-base), ignoring line numbers.
# Files not built in the guest configuration are skipped (and listed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

arch=${1:-}
[ -n "$arch" ] || die "usage: w1-check.sh x86_64|arm64"
karch=$(karch "$arch")
cross=$(kcross "$arch")
obj=$BUILD/obj/$arch
[ -f "$obj/.config" ] || die "no configured kernel in $obj (scripts/build/build-kernel.sh $arch)"

# W=1 warnings of one object, line numbers stripped, sorted
warnings() {
	local src=$1 o=$2 f=$3
	# Recompile even if the object is up to date (an object left by an
	# earlier W=1 run would print nothing).
	rm -f "$o/${f%.c}.o"
	make -s -C "$src" O="$o" ARCH="$karch" CROSS_COMPILE="$cross" W=1 "${f%.c}.o" 2>&1 |
		{ grep -E 'warning:' || true; } | sed -E 's/:[0-9]+:[0-9]+:/:/; s|^.*/linux[^/]*/||' | sort -u
}

# Only warnings located in files the series touches are the series' own;
# W=1 warnings inside untouched base headers are the base's.
touched=$(git -C "$KSRC" diff --name-only "$BASE_TAG..HEAD")
ours() {
	grep -F -f <(echo "$touched" | sed 's/$/:/') || true
}

mapfile -t added < <(git -C "$KSRC" diff --name-only --diff-filter=A "$BASE_TAG..HEAD" -- '*.c')
mapfile -t changed < <(git -C "$KSRC" diff --name-only --diff-filter=M "$BASE_TAG..HEAD" -- '*.c')

bad=0
built() {
	local f=$1
	# built in this configuration if kbuild left a .o for it
	[ -f "$obj/${f%.c}.o" ]
}

for f in "${added[@]}"; do
	if ! built "$f"; then
		echo "skip $f (not built for $arch)"
		continue
	fi
	w=$(warnings "$KSRC" "$obj" "$f" | ours)
	if [ -n "$w" ]; then
		echo "new file $f warns with W=1:"
		echo "$w" | sed 's/^/  /'
		bad=1
	else
		echo "ok $f (new, no W=1 warning)"
	fi
done

if [ ${#changed[@]} -gt 0 ]; then
	base=$BUILD/linux-base
	bobj=$(base_obj "$arch")
	for f in "${changed[@]}"; do
		if ! built "$f"; then
			echo "skip $f (not built for $arch)"
			continue
		fi
		new=$(comm -13 <(warnings "$base" "$bobj" "$f") <(warnings "$KSRC" "$obj" "$f") | ours)
		if [ -n "$new" ]; then
			echo "changed file $f has W=1 warnings the base does not:"
			echo "$new" | sed 's/^/  /'
			bad=1
		else
			echo "ok $f (changed, no new W=1 warning)"
		fi
	done
fi
exit $bad
