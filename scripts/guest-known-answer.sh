#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside an instruction-counted guest (run-vm.sh with
# AFFSCHED_ACCEL=icount) from /payload: the hold-ratio known-answer test at
# both targets, enforced (no -E).  There the guest's clocks count executed
# instructions and one host thread runs the vCPUs in turn, so every step of
# a copy, hold and spin alike, is stretched by the same factor and the
# single copy's hold ratio is the right reference; under multi-threaded TCG
# on two host cores it is not (Documentation/testing.rst).
# Usage: guest-known-answer.sh [SECONDS]   (sampling time, default 6)
# After each run a line "AFFSCHED-TEST <name> <exit status>".

t=${1:-6}
bin=/payload/selftests
work=/tmp/affsched-known-answer
mkdir -p "$work"

for r in 250 500; do
	echo "# ---- holdratio-icount-$r"
	"$bin/holdratio" -c 8 -r $r -t "$t" -d "$work"
	echo "AFFSCHED-TEST holdratio-icount-$r $?"
done
