#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress test of the arm64 ASID allocator and context-switch path
# (arm64-mm patches 2 and 3): asid_stress passes tokens around rings of
# processes, each of which checks after every switch that its pages still hold what
# it wrote.
#
# On arm64 the number of ASIDs the allocator hands out is read from the
# boot log ("ASID allocator initialised with N entries").  When N is small
# (a kernel built with CONFIG_ARM64_DEBUG_ASID_LIMIT, as configs/
# debug-arm64.config does) each of the 4 rings gets N + 1 processes, so
# that every round of every ring spans a rollover (no generation has room
# for more than N - 1 address spaces) while the other rings switch on
# other CPUs.  Otherwise, and on other architectures, 4 rings of 8
# processes check plain switching.
#
# QEMU TCG does not tag its TLB with ASIDs: in a TCG guest this exercises
# the allocator's logic (rollover, reserved ASIDs, the fast path's
# cmpxchg against a rollover), not the hardware's TLB behaviour.
#
# Needs asid_stress next to this script; does not need the affsched
# module.  $ASID_TEST_ROUNDS overrides the rounds (default 30 with
# rollover, 200 without).  POSIX sh; busybox ash is enough.  The TAP 13
# output and exit status are asid_stress's (0 passed, 1 failed); exit 4
# (skipped) without asid_stress.  The choice of rings goes to stderr.

BIN=$(dirname "$0")
RINGS=4
SMALL=256

if [ ! -x "$BIN/asid_stress" ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP no $BIN/asid_stress"
	exit 4
fi

n=$(dmesg 2>/dev/null | sed -n 's/.*ASID allocator initialised with \([0-9]*\) entries.*/\1/p' | tail -n 1)
if [ -n "$n" ] && [ "$n" -le "$SMALL" ]; then
	procs=$((n + 1))
	rounds=${ASID_TEST_ROUNDS:-30}
	echo "asid_test: $n ASIDs: $RINGS rings of $procs processes, each round of a ring spans a rollover" >&2
else
	procs=8
	rounds=${ASID_TEST_ROUNDS:-200}
	echo "asid_test: ${n:-no} ASID count in the boot log: $RINGS rings of $procs processes, no rollover forced" >&2
fi
exec "$BIN/asid_stress" -g "$RINGS" -p "$procs" -r "$rounds" -k 4
