#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# off-cost.sh: with affsched off, the hooks on fork, exit, wake-up, load
# balancing and the lock paths cost a static branch and nothing else.
#
# For each function of the built arm64 objects that the series hooks
# (kernel/sched/core.o and fair.o, kernel/locking/mutex.o, rwsem.o and
# osq_lock.o), scripts/check/off-cost.py walks the code reachable from the entry
# with affsched's jump-label sites as NOPs (their keys off) and checks that
# it references no affsched symbol and calls no function the same
# function of the base tree ($BASE_TAG, guest configuration) does not
# call: an out-of-line copy of an inline helper grown by a hook shows up
# as a new call.  It also prints the reachable instructions against the
# base's, less one per NOP: GCC's block layout and the argument set-up it
# hoists above a NOP move that by a few instructions either way.
# Needs the arm64 kernel built (scripts/build/build-kernel.sh arm64).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -eq 0 ] || die "usage: off-cost.sh (no arguments)"
cross=$(kcross arm64)
obj=$BUILD/obj/arm64
objs="kernel/sched/core.o kernel/sched/fair.o kernel/locking/mutex.o
      kernel/locking/rwsem.o kernel/locking/osq_lock.o"
for o in $objs; do
	[ -f "$obj/$o" ] || die "no $obj/$o: build the arm64 kernel first (scripts/build/build-kernel.sh arm64)"
done
bobj=$(base_obj arm64)
# shellcheck disable=SC2086
make -s -C "$BUILD/linux-base" O="$bobj" ARCH=arm64 CROSS_COMPILE="$cross" $objs ||
	die "cannot compile the base objects at $BASE_TAG"
args=()
for o in $objs; do
	args+=("$obj/$o" "$bobj/$o")
done
python3 "$AFFSCHED_TOP/scripts/check/off-cost.py" "${cross}objdump" "${args[@]}"
