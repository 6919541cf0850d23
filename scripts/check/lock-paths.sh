#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lock-paths.sh [ARCH...]: with affsched off, mutex_lock(), mutex_unlock(),
# down_write(), up_write(), down_read() and up_read() are the base's
# instructions plus, at most, affsched's jump-label NOPs
# (scripts/check/lock-paths.py has the rules).  For each ARCH (default:
# x86_64 and arm64) it compiles kernel/locking/{mutex,rwsem,osq_lock}.o of
# the base ($BASE_TAG) with the guest configuration, compares them with
# the same objects of the built kernel in build/obj/ARCH, and prints the
# table lines prefixed "LOCK-PATHS " for make check's output.
# Needs the ARCH kernels built (scripts/build/build-kernel.sh ARCH).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(x86_64 arm64)
objs="kernel/locking/mutex.o kernel/locking/rwsem.o kernel/locking/osq_lock.o"
st=0
for a in "${arches[@]}"; do
	cross=$(kcross "$a")
	obj=$BUILD/obj/$a
	for o in $objs; do
		[ -f "$obj/$o" ] ||
			die "no $obj/$o: build the $a kernel first (scripts/build/build-kernel.sh $a)"
	done
	bobj=$(base_obj "$a")
	# shellcheck disable=SC2086
	make -s -C "$BUILD/linux-base" O="$bobj" ARCH="$(karch "$a")" CROSS_COMPILE="$cross" $objs ||
		die "cannot compile the $a base objects at $BASE_TAG"
	python3 "$AFFSCHED_TOP/scripts/check/lock-paths.py" "${cross}objdump" "$a" "$obj" "$bobj" |
		sed 's/^/LOCK-PATHS /' || st=1
done
exit $st
