#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside a guest (busybox sh) from /payload by scripts/bench/capture-samples.sh:
# record what affsched does with fstime on one shared file (COPIES copies,
# SECONDS s) with enable at 1, for the recorded samples of tools-check.sh
# and the pictures in Documentation/images/.
#
# Prints, each line prefixed for the host to pick out:
#   TRACE <line>        the ftrace text of the affsched events and
#                       sched:sched_migrate_task during the run
#   SNAP <file> <line>  /sys/kernel/debug/affsched/<file> in the middle of
#                       the run, then again 1 s later (SNAP2)
# Usage: capture.sh [COPIES] [SECONDS]

copies=${1:-16}
t=${2:-8}
d=/sys/kernel/debug/affsched
tr=/sys/kernel/tracing
bin=/payload/selftests
work=/tmp/capture

[ -d "$d" ] || { echo "capture.sh: no $d (module not loaded?)" >&2; exit 1; }
[ -d "$tr/events" ] || mount -t tracefs nodev "$tr" 2>/dev/null
[ -d "$tr/events/affsched" ] || { echo "capture.sh: no affsched trace events" >&2; exit 1; }
mkdir -p "$work"

snap() {
	for f in "$d"/*; do
		[ -f "$f" ] || continue
		sed "s|^|$1 ${f##*/} |" "$f"
	done
}

echo 8192 >"$tr/buffer_size_kb"
echo >"$tr/trace"
echo 1 >"$tr/events/affsched/enable"
[ -d "$tr/events/sched/sched_migrate_task" ] &&
	echo 1 >"$tr/events/sched/sched_migrate_task/enable"
echo 1 >"$d/enable"
"$bin/fstime" -s -c "$copies" -w 2 -t "$t" -d "$work" >"$work/fstime.out" 2>&1 &
pid=$!
sleep $((t / 2 + 2))
snap SNAP
sleep 1
snap SNAP2
wait $pid
st=$?
echo 0 >"$d/enable"
echo 0 >"$tr/events/affsched/enable"
[ -d "$tr/events/sched/sched_migrate_task" ] &&
	echo 0 >"$tr/events/sched/sched_migrate_task/enable"
grep -v '^#' "$tr/trace" | sed 's/^/TRACE /'
echo >"$tr/trace"
sed 's/^/# fstime: /' "$work/fstime.out"
exit $st
