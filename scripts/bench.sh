#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - the placement benchmark (make bench).
#
# demo.sh in MODE=bench: in one boot of the 8-vCPU guest (arm64: 2 nodes x
# 2 clusters x 2 cores), every round runs ctx (8 pairs), shell8 and fstime
# on one shared file (16 copies) with enable 0 and 1 alternating, then,
# with enable 0, the static reference: the same fstime with the copies
# confined by taskset to 1 CPU, 2 CPUs of different clusters, a cluster and
# a node, and fstime with a single copy.  bench-table.py prints the medians
# and the issue's targets: on/off >= 20x, on >= 80 % of the best static
# confinement, KB per CPU-second >= 50 % of the single copy's, and ctx and
# shell8 on/off >= 0.97, and root's ctx beside an unprivileged user's lock
# groups on/off >= 0.95 (scope_test.sh with MIN_RATIO=95, 7 rounds, after
# the last round); the medians are also drawn in build/bench-ARCH.png.
#
# Environment: as demo.sh; defaults here ROUNDS=5, SECONDS_PER_LOAD=30,
# CTX_PAIRS=8.  A run of the defaults takes about 50 minutes; ROUNDS=3
# SECONDS_PER_LOAD=10 about 15.
set -euo pipefail
export MODE=bench
export ROUNDS=${ROUNDS:-5}
export SECONDS_PER_LOAD=${SECONDS_PER_LOAD:-30}
export CTX_PAIRS=${CTX_PAIRS:-8}
exec "$(dirname "$0")/demo.sh"
