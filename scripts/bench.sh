#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - the placement benchmark (make bench).
#
# demo.sh in MODE=bench: in one boot of the 8-vCPU guest (arm64: 2 nodes x
# 2 clusters x 2 cores), every round runs UnixBench's loads as the
# selftests' -u modes run them (context1 with 8 copies, shell8, and fsdisk,
# fstime and fsbuffer with 16 copies on shared files) and hackbench
# (Debian's rt-tests: pipes and sockets, processes and threads) with enable
# 0 and 1 alternating, each file test once more with max_reserved capped at
# the host's cores; then, with enable 0, the static reference: each file
# test with its copies confined by taskset to 1 CPU, 2 CPUs of different
# clusters, a cluster and a node, and with a single copy; and fsdisk on one
# CPU with tracking alone (enable 1, max_reserved 0).  bench-table.py
# prints the medians and the targets: each file test with enable 1 at
# least 0.95 of its best static confinement (and its ratio to one copy),
# context1, shell8 and hackbench on/off at least 0.99, no stalled pass
# (over 3 times its nominal time) with enable 1, tracking alone at most
# 3 % on the one-CPU fsdisk, and root's ctx beside an unprivileged user's
# lock groups on/off at least 0.95 (scope_test.sh with MIN_RATIO=95, 7
# rounds, after the last round); the medians are also drawn in
# build/bench-ARCH.png.  The OSQ runs follow (guest-osq-bench.sh).
# Then large-guest.sh boots the 32-vCPU Kunpeng-like arm64 guest (4 nodes,
# clusters of 4) with 64 copies of fsdisk, a function check of placement
# at that shape; LARGE=0 leaves it out.
#
# Environment: as demo.sh; defaults here ROUNDS=3, SECONDS_PER_LOAD=5 (the
# file tests' copy pass; UnixBench's is 30 s), CTX_COPIES=8.  On a 2-core
# host the rounds take about 50 minutes, the OSQ runs about 15 more
# (OSQ_COPIES=0 leaves them out) and the large guest about 10.
set -euo pipefail
export MODE=bench
export ROUNDS=${ROUNDS:-3}
export SECONDS_PER_LOAD=${SECONDS_PER_LOAD:-5}
export CTX_COPIES=${CTX_COPIES:-8}
st=0
"$(dirname "$0")/demo.sh" || st=$?
if [ "${LARGE:-1}" != 0 ]; then
	echo
	"$(dirname "$0")/large-guest.sh" || st=$?
fi
exit "$st"
