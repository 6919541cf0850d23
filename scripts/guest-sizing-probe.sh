#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside a guest (busybox sh) from /payload with the selftests in
# /payload/selftests: a short probe of the sub-domain sizing on fstime with
# 16 copies on one shared file (copy pass SECONDS, 2 s write pass), in
# three configurations alternating within each round of one boot:
#   en=1 maxr=500   the default (enable 1, max_reserved 500)
#   en=0 ts=0       the best static confinement in the test guests:
#                   enable 0, every copy pinned to CPU 0 with taskset
#   en=1 maxr=250   enable 1 with the cap at 2 of 8 CPUs
# Prints one line per run:
#   EXP r=<round> en=<enable> maxr=<permille> ts=<cpu|-> score=<KBps>
#       kbcpu=<KB per CPU-second> <stats deltas of placement counters>
# and one line "G n:u:cpus ..." with the group read once a second.
# Usage: guest-sizing-probe.sh [ROUNDS [SECONDS]]   (default 3 rounds, 10 s)
# Host side (arm64 guest, module and selftests built):
#   mkdir -p P && cp -a build/selftests/arm64 P/selftests &&
#   cp scripts/guest-sizing-probe.sh P/ &&
#   scripts/run-vm.sh --arch arm64 --payload P -- sh /payload/guest-sizing-probe.sh

rounds=${1:-3}
secs=${2:-10}
case "$rounds$secs" in
*[!0-9]* | "") echo "usage: guest-sizing-probe.sh [ROUNDS [SECONDS]]" >&2; exit 2 ;;
esac
d=/sys/kernel/debug/affsched
b=/payload/selftests
w=/tmp/sizing-probe
mkdir -p "$w"
r=1
while [ "$r" -le "$rounds" ]; do
	for cfg in "1 500 -" "0 500 0" "1 250 -"; do
		set -- $cfg
		echo "$1" >"$d/enable"
		echo "$2" >"$d/max_reserved"
		cat "$d/stats" >"$w/s0"
		pre=
		[ "$3" != - ] && pre="taskset -c $3"
		(
			i=0
			while [ $i -lt $((secs + 1)) ]; do
				sleep 1
				awk '$2 == "rwsem" && $7 == "active" { printf "%s:%s:%s ", $5, $4, $8 }' "$d/groups"
				i=$((i + 1))
			done
			echo
		) >"$w/g" &
		$pre "$b/fstime" -s -c 16 -w 2 -t "$secs" -d "$w" >"$w/out" 2>&1
		wait
		sc=$(sed -n 's/^# score \([0-9]*\).*/\1/p' "$w/out")
		kb=$(sed -n 's/^# kb_per_cpu_second \([0-9]*\).*/\1/p' "$w/out")
		ds=$(awk 'NR == FNR { a[$1] = $2; next }
			$2 - a[$1] != 0 && $1 ~ /group_|wake_redirect|lb_ref|member_moved/ {
				printf "%s=%d ", $1, $2 - a[$1] }' "$w/s0" "$d/stats")
		echo "EXP r=$r en=$1 maxr=$2 ts=$3 score=$sc kbcpu=$kb $ds"
		echo "G $(cat "$w/g")"
	done
	r=$((r + 1))
done
echo 500 >"$d/max_reserved"
echo 0 >"$d/enable"
