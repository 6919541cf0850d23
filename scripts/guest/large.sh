#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside the Kunpeng-like guest of large-guest.sh (busybox sh) from
# /payload: a function check, not a benchmark.  With enable 1, COPIES
# copies of UnixBench's fsdisk (fstime -u -b 4096 -m 8000) on shared files;
# once their group is placed, the group's line, then for SAMPLES samples
# 0.5 s apart the CPU of every runnable task.  Checks:
#   1. a group forms and is placed (u, n and its sub-domain are printed);
#   2. the sub-domain lies on one NUMA node;
#   3. it spans the fewest clusters of CLUSTER CPUs its size allows
#      (QEMU numbers a cluster's cores consecutively), on a kernel with a
#      cluster sched domain (CLS; skipped without one, as on 5.10.y);
#   4. other work stays off its CPUs: of the samples of HOGS CPU hogs
#      (default a quarter of the CPUs; more would starve the TCG host of
#      time for the load), at most 10 % on the sub-domain, the bound of
#      placement_test.sh check 2 (a hog being moved off, or read just
#      before a re-carve, shows the old CPU).
# It also reports how many runnable copies were inside: not a check, since
# a copy in its settles or its read pass does not contend, ages out of the
# group after member_windows and may run anywhere.
# Prints TAP 13 and "LARGE ..." lines for large-guest.sh.
# Usage: large.sh COPIES SECONDS [CLUSTER [SAMPLES [HOGS]]]

copies=${1:-64}
t=${2:-30}
cluster=${3:-4}
samples=${4:-20}
nhogs=${5:-$(($(nproc) / 4))}
bin=/payload/selftests
d=/sys/kernel/debug/affsched
work=/tmp/affsched-large
mkdir -p "$work"

# in_list CPU LIST: whether CPU is in the CPU list ("0-3,8")
in_list() {
	echo "$2" | tr ',' '\n' | awk -v c="$1" -F- '
		$0 != "" && $0 != "-" { lo = $1; hi = (NF > 1) ? $2 : $1
			if (c >= lo && c <= hi) f = 1 }
		END { exit !f }'
}

# expand LIST: one CPU per line
expand() {
	echo "$1" | tr ',' '\n' | awk -F- '$0 != "" {
		hi = (NF > 1) ? $2 : $1; for (c = $1; c <= hi; c++) print c }'
}

echo "TAP version 13"
echo "1..4"
echo "# guest: $(nproc) CPUs, nodes $(cat /sys/devices/system/node/online), kernel $(uname -r)"
echo 1 >$d/enable || exit 1
# CPU hogs: other work that must stay off the sub-domain.
hogs=
for c in $(seq 1 "$nhogs"); do
	(while :; do :; done) &
	hogs="$hogs $!"
done
"$bin/fstime" -u -b 4096 -m 8000 -c "$copies" -t "$t" -d "$work" >"$work/out" 2>&1 &
load=$!

# Up to 10 minutes (guest time) for a placed group: the copies' settles
# take 11 s, and 32 TCG vCPUs on a few host cores run slowly.
g=
i=0
while [ $i -lt 1200 ] && kill -0 $load 2>/dev/null; do
	g=$(awk 'NR > 1 && $2 == "rwsem" && $8 != "-" && $3 > best { best = $3
		line = $3 " " $4 " " $5 " " $8 } END { print line }' $d/groups)
	[ -n "$g" ] && break
	sleep 0.5
	i=$((i + 1))
done
if [ -z "$g" ]; then
	echo "not ok 1 a group of the $copies copies is placed"
	sed 's/^/# groups: /' $d/groups
	for k in 2 3 4; do echo "ok $k # SKIP no group placed"; done
	kill $hogs $load 2>/dev/null
	echo 0 >$d/enable
	exit 1
fi
set -- $g
members=$1 u=$2 n=$3 cpus=$4
echo "LARGE-GROUP members=$members u=$u n=$n cpus=$cpus"
echo "ok 1 a group of the $copies copies is placed: $members members, u $u permille, n $n, CPUs $cpus"

st=0
node=
for f in /sys/devices/system/node/node[0-9]*/cpulist; do
	list=$(cat "$f")
	all=1
	for c in $(expand "$cpus"); do
		in_list "$c" "$list" || all=0
	done
	[ $all -eq 1 ] && node=${f%/cpulist} && node=${node##*/node}
done
if [ -n "$node" ]; then
	echo "ok 2 the sub-domain $cpus lies on node $node"
else
	echo "not ok 2 the sub-domain $cpus spans more than one node"
	st=1
fi

w=$(expand "$cpus" | wc -l)
used=$(expand "$cpus" | awk -v k="$cluster" '{ c[int($1 / k)] = 1 } END { print length(c) }')
least=$(((w + cluster - 1) / cluster))
echo "LARGE-CLUSTERS cpus=$w clusters=$used least=$least"
# 5.10.y has no cluster sched domain on arm64 (openEuler's
# CONFIG_SCHED_CLUSTER adds "CLS"): the kernel cannot see the clusters.
if ! cat /proc/sys/kernel/sched_domain/cpu0/domain*/name 2>/dev/null | grep -qx CLS; then
	echo "ok 3 # SKIP no cluster sched domain (CLS) in this kernel: $w CPUs on $used clusters of $cluster"
elif [ "$used" -eq "$least" ]; then
	echo "ok 3 $w CPUs on $used clusters of $cluster, the fewest"
else
	echo "not ok 3 $w CPUs on $used clusters of $cluster, $least would do"
	st=1
fi

# Samples: the hogs and the runnable copies (state R) on the sub-domain's
# CPUs, as read at each sample; field 39 is the CPU a task last ran on.
others=0 ototal=0 cin=0 ctotal=0 s=0
while [ $s -lt "$samples" ]; do
	span=$(awk 'NR > 1 && $2 == "rwsem" && $8 != "-" && $3 > best { best = $3
		span = $8 } END { print span }' $d/groups)
	[ -n "$span" ] || span=$cpus
	set -- $(cat /proc/[0-9]*/stat 2>/dev/null | awk -v span="$span" -v hogs="$hogs" '
		BEGIN { n = split(span, r, ","); for (i = 1; i <= n; i++) {
			k = split(r[i], b, "-"); lo[i] = b[1]; hi[i] = (k > 1) ? b[2] : b[1] }
			m = split(hogs, h, " "); for (i = 1; i <= m; i++) hog[h[i]] = 1 }
		function inside(c,   i) { for (i = 1; i <= n; i++) if (c >= lo[i] && c <= hi[i]) return 1; return 0 }
		$1 in hog { ot++; oi += inside($39); next }
		$3 == "R" && $2 == "(fstime)" { ct++; ci += inside($39) }
		END { print oi + 0, ot + 0, ci + 0, ct + 0 }')
	others=$((others + $1)) ototal=$((ototal + $2)) cin=$((cin + $3)) ctotal=$((ctotal + $4))
	sleep 0.5
	s=$((s + 1))
done
echo "LARGE-SAMPLES others_inside=$others others=$ototal copies_inside=$cin copies=$ctotal"
if [ $ototal -gt 0 ] && [ $((others * 10)) -le $ototal ]; then
	echo "ok 4 the hogs stay off the sub-domain: $others of $ototal samples on it"
else
	echo "not ok 4 the hogs on the sub-domain: $others of $ototal samples"
	st=1
fi
echo "# runnable copies inside the sub-domain: $cin of $ctotal samples"
kill $hogs 2>/dev/null
wait $load
sed -n 's/^# \(score\|stalls\|min_copy_score\|max_copy_score\) /# fsdisk-'"$copies"' \1 /p' "$work/out"
echo 0 >$d/enable
exit $st
