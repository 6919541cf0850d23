#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# overhead.sh - the cost of hold-ratio tracking alone, enable 1 against 0.
#
# demo.sh in MODE=overhead: lockcost (uncontended writes by a group member,
# with hold_sample at its default and at 1), then the demo's UnixBench loads
# (context1, shell8, fsdisk, fstime and fsbuffer with 16 copies on shared
# files), enable 0 and 1 alternating in one boot, medians and on/off ratios.
#
# By default the guest runs with instruction counting (AFFSCHED_ACCEL=
# icount): its clocks count executed instructions, so a figure depends on
# the code run, not on how the host schedules the vCPUs, and lockcost's
# difference is the hooks' instruction count.  Cache and interconnect
# costs are not modelled at all.  AFFSCHED_ACCEL=tcg measures host time.
#
# Environment: as demo.sh; defaults here ROUNDS=5, SECONDS_PER_LOAD=2
# (guest seconds), AFFSCHED_ACCEL=icount.
set -euo pipefail
export MODE=overhead
export ROUNDS=${ROUNDS:-5}
export SECONDS_PER_LOAD=${SECONDS_PER_LOAD:-2}
export AFFSCHED_ACCEL=${AFFSCHED_ACCEL:-icount}
exec "$(dirname "$0")/demo.sh"
