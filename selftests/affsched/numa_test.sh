#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# affsched beside NUMA balancing (/sys/kernel/debug/affsched): NUMA
# balancing asks affsched whether a task may cross a sub-domain's border
# from its fault path, preemptible and outside any RCU read-side section,
# while the placement worker frees the masks it reads with kfree_rcu().
#   1. while a group of COPIES fstime -s copies is placed and released
#      (enable 1, then 0, ROUNDS times), TOUCHERS numa_touch tasks whose
#      memory is on node 0 and which may run on every CPU take NUMA hinting
#      faults (total_numa_faults in their /proc/PID/sched) and a group is
#      placed at least once
# The verdict on the RCU use is the console's: a kernel with PROVE_RCU
# (lockdep) reports "suspicious RCU usage" there, and with CONFIG_PREEMPT
# the unprotected read is a use-after-free, which KASAN or a crash shows;
# the host's check of the console (check.sh) fails the run on either.
# The arm64 debug kernel has both (configs/debug-arm64.config).
#
# Needs root, the module loaded (or $AFFSCHED_KO), fstime and numa_touch
# next to this script, NUMA balancing and SCHED_DEBUG in the kernel
# (/proc/sys/kernel/numa_balancing, /proc/PID/sched) and 2 NUMA nodes.  POSIX sh; busybox
# ash is enough.  TAP 13 on stdout.
# Exit status: 0 all passed, 1 something failed, 4 skipped.

BIN=$(dirname "$0")
WORK=${TMPDIR:-/tmp}/affsched-numa.$$
COPIES=${COPIES:-8}
TOUCHERS=${TOUCHERS:-4}
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-4}
SYS=/proc/sys/kernel
pids=
nb0=

. "$BIN/tap.sh"

cleanup()
{
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	kill_named fstime
	kill_named numa_touch
	echo 0 >"$DIR/enable"
	[ -n "$nb0" ] && echo "$nb0" >"$SYS/numa_balancing"
	rm -rf "$WORK"
}
trap cleanup EXIT

tap_begin
if [ ! -x "$BIN/fstime" ] || [ ! -x "$BIN/numa_touch" ] || [ ! -w "$SYS/numa_balancing" ] ||
	[ ! -d /sys/devices/system/node/node1 ]; then
	echo "1..0 # SKIP needs $BIN/fstime, $BIN/numa_touch, $SYS/numa_balancing and 2 NUMA nodes"
	exit 4
fi
echo "1..1"
mkdir -p "$WORK"
nb0=$(cat "$SYS/numa_balancing")
echo 1 >"$SYS/numa_balancing"
# Scan soon and often, so that the faults come within the run.
for f in numa_balancing_scan_delay_ms numa_balancing_scan_period_min_ms; do
	[ -w "$SYS/$f" ] && echo 100 >"$SYS/$f"
done
above_loads
# numa_sum FIELD: FIELD of /proc/PID/sched (SCHED_DEBUG) summed over the
# numa_touch tasks
numa_sum()
{
	for p in $(named numa_touch); do cat "/proc/$p/sched" 2>/dev/null; done |
		awk -F: -v f="$1" '$1 ~ "^" f " " { s += $2 } END { print s + 0 }'
}
refused0=$(counter lb_refused)

"$BIN/fstime" -s -c "$COPIES" -w 1 -t 600 -d "$WORK" >"$WORK/fstime.log" 2>&1 &
pids="$pids $!"
i=0
while [ $i -lt "$TOUCHERS" ]; do
	"$BIN/numa_touch" -n 0 -m 8 -t 600 >"$WORK/touch$i.log" 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done

placed=0
r=0
while [ $r -lt "$ROUNDS" ]; do
	echo 1 >"$DIR/enable"
	t=0
	while [ $t -lt $((SECS * 5)) ]; do
		awk 'NR > 1 && $8 != "-" { f = 1 } END { exit !f }' "$DIR/groups" && placed=$((placed + 1))
		sleep 0.2
		t=$((t + 1))
	done
	# A disable releases every sub-domain: its masks go to kfree_rcu().
	echo 0 >"$DIR/enable"
	sleep "$SECS"
	r=$((r + 1))
done
# Read while the touchers still run (cleanup stops them).
faults=$(numa_sum total_numa_faults)
diag "numa_touch tasks: total_numa_faults $faults, numa_pages_migrated $(numa_sum numa_pages_migrated); lb_refused +$(( $(counter lb_refused) - refused0 )); placed in $placed samples of $((ROUNDS * SECS * 5))"
errs=
[ "$faults" -gt 0 ] || errs="no NUMA hinting fault (total_numa_faults in /proc/PID/sched): NUMA balancing did not run;"
[ "$placed" -gt 0 ] || errs="$errs no group was placed: $(tail -n 2 "$WORK/fstime.log" | tr '\n' ' ');"
result "$errs" "NUMA balancing's faults beside a group placed and released $ROUNDS times"
[ "$nfail" -eq 0 ]
