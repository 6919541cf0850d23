#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# capture-samples.sh [COPIES] [SECONDS] - record, in the arm64 guest (2
# nodes x 2 clusters x 2 cores), what affsched does with fstime on one
# shared file with enable at 1 (scripts/guest/capture.sh), and keep it:
#
#   selftests/affsched/testdata/recorded/trace-arm64.txt   ftrace text of the
#       affsched events and sched:sched_migrate_task
#   selftests/affsched/testdata/recorded/debugfs-arm64/    /sys/kernel/debug/
#       affsched/ in the middle of the run (debugfs-arm64-1s/: 1 s later)
#   Documentation/images/timeline-arm64.png               trace-summary.py
#       --png of that trace
#
# tools-check.sh reads the recorded files as well as its hand-written ones.
# Builds the arm64 kernel, module and selftests first if needed.
# COPIES (16) and SECONDS (8) are passed to fstime -c and -t.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

copies=${1:-16}
secs=${2:-8}
for v in copies secs; do
	[[ "${!v}" =~ ^[1-9][0-9]*$ ]] || {
		echo "usage: capture-samples.sh [COPIES] [SECONDS] (positive integers; got $v='${!v}')" >&2
		exit 2
	}
done

s=$AFFSCHED_TOP/scripts
build_guest arm64

payload=$BUILD/capture-payload
rm -rf "$payload"
mkdir -p "$payload"
cp -a "$BUILD/selftests/arm64" "$payload/selftests"
cp "$s/guest/capture.sh" "$payload/"
out=$BUILD/capture.out
"$s/build/run-vm.sh" --arch arm64 --payload "$payload" --log "$BUILD/vm-capture.log" \
	--timeout 900 -- sh /payload/capture.sh "$copies" "$secs" >"$out"

rec=$AFFSCHED_TOP/selftests/affsched/testdata/recorded
img=$AFFSCHED_TOP/Documentation/images
mkdir -p "$rec" "$img"
{
	echo "# ftrace text recorded by scripts/bench/capture-samples.sh $copies $secs: arm64 guest"
	echo "# (TCG, 2 nodes x 2 clusters x 2 cores), fstime -s -c $copies -w 2 -t $secs with"
	echo "# enable 1; events affsched:* and sched:sched_migrate_task."
	sed -n 's/^TRACE //p' "$out"
} >"$rec/trace-arm64.txt"
for tag in SNAP SNAP2; do
	dir=$rec/debugfs-arm64
	[ "$tag" = SNAP ] || dir=$rec/debugfs-arm64-1s
	rm -rf "$dir"
	mkdir -p "$dir"
	awk -v tag="$tag" -v dir="$dir" '$1 == tag {
		f = $2; sub("^" tag " " f " ?", ""); print > (dir "/" f) }' "$out"
done
[ -s "$rec/debugfs-arm64/stats" ] || die "no debugfs snapshot in $out"
grep -q ' affsched:\| group_update:' "$rec/trace-arm64.txt" || die "no affsched event in $out"
python3 "$s/tools/trace-summary.py" --png "$img/timeline-arm64.png" \
	--title "affsched timeline: fstime -s -c $copies, arm64 guest (TCG, 8 vCPUs)" \
	"$rec/trace-arm64.txt"
grep '^# fstime' "$out" | sed 's/^# //'
echo "recorded: $rec/trace-arm64.txt, $rec/debugfs-arm64/, $rec/debugfs-arm64-1s/"
echo "picture: $img/timeline-arm64.png"
