#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect-objects.sh [--link] [ARCH]: every prefix of the series compiles,
# object by object (ARCH arm64 by default, the series' target, whose build
# also takes arch/arm64/; x86_64 takes only the generic directories).
# With --link every prefix builds and links the whole kernel instead
# (make bisect-link; not in make check, whose time it used to dominate).
#
# For each prefix, in a worktree of $KSRC (build/linux-prefix, so that the
# main tree and its object directories are left alone and the job can run
# beside them), the guest kernel is configured and the directories that
# hold the C files the prefix touches (kernel/sched/, then
# kernel/locking/ and arch/ARCH/ ones from the first patch that changes
# a C file there) are built with W=1.  One object directory
# (build/obj/prefix-ARCH) serves every prefix, so each prefix compiles
# only what its patch changed and what includes it.  A directory the
# prefix does not touch is not compiled: a header change reaches all of
# the kernel, of which the touched directories are only a sample, and
# the tip builds every directory of both arches.  (Compiling arch/ARCH/
# from the first prefix on rebuilt it whole twice before the first patch
# that changes it: for the series' first patch and for its change of
# include/linux/sched.h.)
#
# What this does not see is the link: a prefix that calls a function only
# a later patch defines compiles and fails only when linked.  check.sh
# links whole kernels at each series' end (and both arches at the tip).
#
# Exit status: 0 if every prefix compiled, 1 at the first that did not
# (its subject and the compiler's errors are printed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

link=0
if [ "${1:-}" = --link ]; then
	link=1
	shift
fi
arch=${1:-arm64}
karch=$(karch "$arch")
cross=$(kcross "$arch")
wt=$BUILD/linux-prefix
obj=$BUILD/obj/prefix-$arch
[ $link = 0 ] || obj=$obj-link

mkdir -p "$(dirname "$obj")"
tip=$(git -C "$KSRC" rev-parse "$BRANCH")
total=$(git -C "$KSRC" rev-list --count "$BASE_TAG..$tip")
[ "$total" -gt 0 ] || die "no patch on $BRANCH above $BASE_TAG"

if [ -d "$wt" ]; then
	git -C "$wt" checkout -q --detach "$BASE_TAG"
else
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$wt" "$BASE_TAG"
fi

# touched REV: generic directories, and this arch's own, whose C files
# the base..REV adds or changes, one per line
touched() {
	git -C "$KSRC" diff --name-only "$BASE_TAG..$1" -- '*.c' |
		xargs -r -n 1 dirname | sort -u |
		awk -v a="arch/$karch" '$0 !~ /^arch\// || index($0 "/", a "/") == 1 { print $0 "/" }'
}
all_dirs=$(touched "$tip" | tr '\n' ' ')
[ -n "$all_dirs" ] || die "the series touches no C file"
echo "directories: $all_dirs"

for ((k = 1; k <= total; k++)); do
	c=$(git -C "$KSRC" rev-parse "$tip~$((total - k))")
	git -C "$wt" checkout -q --detach "$c"
	mapfile -t dirs < <(touched "$c")
	echo "== prefix $k/$total: $(git -C "$wt" log -1 --format=%s)"
	s=$SECONDS
	# Configure (the prefix's own Kconfig: options later patches add are
	# not there yet) and prepare the headers.
	if ! KSRC=$wt AFFSCHED_OBJ=$obj AFFSCHED_ALLOW_MISSING=1 AFFSCHED_PREPARE_ONLY=1 \
		"$AFFSCHED_TOP/scripts/build/build-kernel.sh" "$arch" >"$obj.log" 2>&1; then
		cat "$obj.log"
		echo "prefix $k/$total does not configure for $arch"
		exit 1
	fi
	# W=1 warnings are w1-check.sh's business (at the tip, against the
	# base); here a prefix must compile.
	if [ $link = 1 ]; then
		set -- all
	elif [ ${#dirs[@]} -gt 0 ]; then
		set -- W=1 "${dirs[@]}"
	else
		set -- prepare
	fi
	if ! make -s -C "$wt" O="$obj" ARCH="$karch" CROSS_COMPILE="$cross" -j"$JOBS" "$@" \
		>"$obj.log" 2>&1; then
		grep -E -B2 -A3 'error|Error' "$obj.log" | head -n 60
		echo "prefix $k/$total does not build for $arch: $(git -C "$wt" log -1 --format=%s)"
		exit 1
	fi
	if [ $link = 1 ]; then
		echo "   built and linked in $((SECONDS - s)) s"
	else
		echo "   compiled ${dirs[*]:-nothing} in $((SECONDS - s)) s, $(grep -c ': warning:' "$obj.log" || true) W=1 warnings"
	fi
done
echo "all $total prefixes build $([ $link = 1 ] && echo "and link" || echo "their objects") for $arch"
