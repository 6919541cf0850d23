#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside an instruction-counted guest (run-vm.sh with
# AFFSCHED_ACCEL=icount) from /payload: the hold-ratio known-answer test at
# both targets, enforced (no -E).  There the guest's clocks count executed
# instructions and one host thread runs the vCPUs in turn, so a run does
# not depend on host scheduling; the copies' steps outside the lock still
# stretch about 1.8 to 2.6 times with 8 copies, their holds less, which
# the test's known answer takes from the copies' own clocks (holdratio.c,
# known_band()).
# Usage: known-answer.sh [SECONDS]   (sampling time, default 6)
# After each run a line "AFFSCHED-TEST <name> <exit status>".

t=${1:-6}
bin=/payload/selftests
work=/tmp/affsched-known-answer
mkdir -p "$work"

# The known answer is the estimator's: placement (max_reserved 0 turns it
# off) would confine the copies and change the load being measured.  With
# it on, members outside the sub-domain sleep instead of spinning, which
# took the 250 target's median from 178 to 141 permille.
mr=/sys/kernel/debug/affsched/max_reserved
mr0=$(cat "$mr")
echo 0 >"$mr"
for r in 250 500; do
	echo "# ---- holdratio-icount-$r"
	"$bin/holdratio" -c 8 -r $r -t "$t" -d "$work"
	echo "AFFSCHED-TEST holdratio-icount-$r $?"
done
echo "$mr0" >"$mr"
