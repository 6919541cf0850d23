#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test-kcsan-reports.sh - check scripts/check/kcsan-reports.py against the
# hand-written console selftests/affsched/testdata/kcsan-sample.txt: which
# reports it charges to the series (an affsched function's own race, one
# through a bitmap helper, a plain access in a changed function) and which
# to the base kernel (a race with an affsched frame only further down the
# stack, the plain read of osq_wait_next() inlined into osq_unlock()), and
# its exit status.
#
# Prints one "ok N - ..." / "not ok N - ..." line per check and exits 0
# when all passed.  Needs python3 only.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kr() { python3 "$top/scripts/check/kcsan-reports.py" "$@"; }
fx=$top/selftests/affsched/testdata/kcsan-sample.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/tap-lib.sh"

printf '%s\n' osq_lock osq_unlock select_task_rq >"$tmp/funcs"

# verdict_is WANT TITLE: the line of the report TITLE starts with WANT
verdict_is() {
	local got
	got=$(grep -F "data-race in $2 [" "$tmp/out" | cut -c1-6)
	[ "$got" = "$1" ] || { echo "'$2': '$got', want '$1'"; return 1; }
}

check "exits 1 when a report touches the series" status_is 1 kr "$fx" "$tmp/funcs"
check "an affsched function's own race is the series'" \
	verdict_is SERIES "affsched_wake_member / affsched_place_fn"
check "a race inside a bitmap helper is charged to its affsched caller" \
	verdict_is SERIES "_find_next_bit.constprop.0+0x4a/0x100"
check "a base race with an affsched frame further down is the base's" \
	verdict_is "base  " "__bitmap_subset+0x49/0xe0"
check "osq_wait_next()'s plain read of node->next, inlined, is the base's" \
	verdict_is "base  " "osq_lock / osq_unlock"
check "a plain 4-byte read in a changed function is the series'" \
	verdict_is SERIES "osq_unlock / select_task_rq"
check "counts all five reports, three of them the series'" \
	grep -qx 'KCSAN reports: 5, touching the series: 3' "$tmp/out"
grep -v 'affsched\|osq_unlock / select' "$fx" >"$tmp/base.txt"
check "exits 0 when only base races remain" status_is 0 kr "$tmp/base.txt" "$tmp/funcs"
check "exits 2 on bad arguments" status_is 2 kr "$fx"
check "exits 2 on a missing file" status_is 2 kr "$tmp/none" "$tmp/funcs"

tap_done
