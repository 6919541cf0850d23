#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside a guest (busybox sh) from /payload: the affsched selftests with
# short durations.  Each test's TAP output is shown; after each one a line
# "AFFSCHED-TEST <name> <exit status>" lets the host count results.
# Usage: guest-selftests.sh [SECONDS]   (load duration, default 3)

t=${1:-3}
bin=/payload/selftests
export AFFSCHED_KO=/payload/affsched.ko
work=/tmp/affsched-selftests
mkdir -p "$work"

run() {
	name=$1
	shift
	echo "# ---- $name: $*"
	"$@"
	echo "AFFSCHED-TEST $name $?"
}

echo 0 >/sys/kernel/debug/affsched/enable
for en in 0 1; do
	echo $en >/sys/kernel/debug/affsched/enable
	run "ctx-enable$en" "$bin/ctx" -p 2 -t "$t"
	run "shell1-enable$en" "$bin/shell_load" -c 1 -t "$t" -d "$work/shell1"
	run "shell8-enable$en" "$bin/shell_load" -c 8 -t "$t" -d "$work/shell8"
	run "fstime-private-enable$en" "$bin/fstime" -c 4 -t "$t" -d "$work"
	run "fstime-shared-enable$en" "$bin/fstime" -s -c 8 -t "$t" -d "$work"
done
echo 0 >/sys/kernel/debug/affsched/enable
run debugfs "$bin/debugfs_test.sh"
cat /sys/kernel/debug/affsched/stats
