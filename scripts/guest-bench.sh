#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside a guest (busybox sh) from /payload: the demo/benchmark loads
# with affsched's enable at 0 and 1, alternating within each round (0,1 in
# odd rounds, 1,0 in even ones) so that drift in the host affects both alike.
# MODE "demo" (default) runs ctx, shell8 and fstime on one shared file;
# MODE "overhead" runs lockcost first, with hold_sample at its default and
# at 1 (lockcost-h1): uncontended 1 KB writes by a group member, whose
# score is writes per second (1e9 / mean ns per write).
# MODE "bench" adds, in every round and with enable at 0, the static
# reference: fstime on one shared file with all copies confined by taskset
# to each CPU list of STATIC ("name=cpulist:...", e.g. "1cpu=0:node=0-3";
# colons, since run-vm.sh passes the command line on as words),
# and one copy alone (fstime-shared-1, the KB per CPU-second reference);
# during the enable=1 fstime run it samples the load's group.  With CAP
# (permille, the host's cores over the guest's CPUs), it runs that fstime
# once more with max_reserved at CAP: fstime-shared-N-capped.
# fstime's write and read passes run at most 2 s: the score is the copy
# pass's, which runs SECONDS.
# Prints one line per run:
#   BENCH load=<name> enable=<0|1> round=<r> score=<s> unit=<u> index=<i> kbcpu=<k>
# and in bench mode one line per enable=1 fstime run:
#   BENCH-GROUP round=<r> members=<m> u=<permille> n=<n> cpus=<list>
# and one per enable=1 run with what placement did meanwhile (stats deltas):
#   BENCH-STATS load=<name> round=<r> group_assign=<k> wake_redirect=<k> ...
# Usage: guest-bench.sh ROUNDS SECONDS [CTX_PAIRS] [FSTIME_COPIES] [MODE] [STATIC] [CAP]

rounds=${1:-3}
t=${2:-5}
pairs=${3:-4}
copies=${4:-16}
mode=${5:-demo}
static=${6:-}
cap=${7:-}
bin=/payload/selftests
work=/tmp/affsched-bench
mkdir -p "$work"
d=/sys/kernel/debug/affsched
en_file=$d/enable
hs_default=$(cat $d/hold_sample 2>/dev/null)
wsecs=$((t < 2 ? t : 2))

# field NAME FILE: value of the "# NAME <value>" line of a load's output
field() {
	sed -n "s/^# $1 \([0-9.]*\).*/\1/p" "$2" | tail -n 1
}

one() {
	name=$1 en=$2 r=$3
	shift 3
	[ "$mode" = bench ] && [ "$en" = 1 ] && cat $d/stats >"$work/stats0"
	"$@" >"$work/out" 2>&1
	st=$?
	[ "$mode" = bench ] && [ "$en" = 1 ] &&
		awk -v l="$name" -v r="$r" 'NR == FNR { a[$1] = $2; next }
			$1 ~ /^(group_assign|group_resize|wake_redirect|wake_avoid|spin_skipped|lb_refused|member_moved)$/ {
				s = s " " $1 "=" $2 - a[$1] }
			END { print "BENCH-STATS load=" l " round=" r s }' "$work/stats0" $d/stats
	if [ $st -ne 0 ]; then
		sed 's/^/  | /' "$work/out"
		echo "BENCH-FAIL load=$name enable=$en round=$r status=$st"
		return
	fi
	ns=$(field pwrite_ns "$work/out")
	if [ -n "$ns" ]; then
		echo "BENCH load=$name enable=$en round=$r" \
			"score=$(awk -v ns="$ns" 'BEGIN { printf "%.0f", 1e9 / ns }')" \
			"unit=w/s index= kbcpu= ns=$ns member=$(sed -n 's/^# member //p' "$work/out")"
		return
	fi
	unit=$(sed -n 's/^# score [0-9.]* \([A-Za-z]*\).*/\1/p' "$work/out" | tail -n 1)
	echo "BENCH load=$name enable=$en round=$r score=$(field score "$work/out")" \
		"unit=$unit index=$(field index "$work/out")" \
		"kbcpu=$(field kb_per_cpu_second "$work/out")"
}

# The rwsem group with the most members, sampled in the middle of an
# fstime copy pass that starts about 2 * wsecs + 1 s after the load.
sample_group() {
	sleep $((2 * wsecs + 1 + t / 2))
	awk -v r="$1" 'NR > 1 && $2 == "rwsem" && $3 > best { best = $3
		line = "BENCH-GROUP round=" r " members=" $3 " u=" $4 " n=" $5 " cpus=" $8 }
		END { if (line != "") print line }' $d/groups
}

fstime_shared() {
	en=$1 r=$2
	if [ "$mode" = bench ] && [ "$en" = 1 ]; then
		sample_group "$r" >"$work/group" &
		sp=$!
	fi
	one "fstime-shared-${copies}" "$en" "$r" "$bin/fstime" -s -c "$copies" -w "$wsecs" -t "$t" -d "$work"
	if [ -n "${sp:-}" ]; then
		wait "$sp"
		cat "$work/group"
		sp=
	fi
}

# The static reference, in a rotating order; enable is 0.
static_sweep() {
	r=$1
	set -- $(echo "$static" | tr ':' ' ')
	k=1
	while [ $k -lt "$r" ] && [ $# -gt 1 ]; do
		first=$1
		shift
		set -- "$@" "$first"
		k=$((k + 1))
	done
	for s in "$@"; do
		name=${s%%=*}
		cpus=${s#*=}
		one "fstime-shared-${copies}-taskset-$name" 0 "$r" \
			taskset -c "$cpus" "$bin/fstime" -s -c "$copies" -w "$wsecs" -t "$t" -d "$work"
	done
	one fstime-shared-1 0 "$r" "$bin/fstime" -s -c 1 -w "$wsecs" -t "$t" -d "$work"
}

echo "# guest: $(nproc) CPUs, nodes $(cat /sys/devices/system/node/online)," \
	"kernel $(uname -r), $rounds rounds of ${t}s per load, mode $mode"
r=1
while [ $r -le "$rounds" ]; do
	if [ $((r % 2)) -eq 1 ]; then order="0 1"; else order="1 0"; fi
	for en in $order; do
		echo $en >$en_file || exit 1
		if [ "$mode" = overhead ]; then
			one lockcost $en $r "$bin/lockcost" -d "$work"
			echo 1 >$d/hold_sample || exit 1
			one lockcost-h1 $en $r "$bin/lockcost" -d "$work"
			echo "$hs_default" >$d/hold_sample || exit 1
		fi
		one "ctx-${pairs}pairs" $en $r "$bin/ctx" -p "$pairs" -t "$t"
		one shell8 $en $r "$bin/shell_load" -c 8 -t "$t" -d "$work/shell"
		fstime_shared $en $r
		if [ "$mode" = bench ] && [ "$en" = 1 ] && [ -n "$cap" ]; then
			mr=$(cat $d/max_reserved)
			echo "$cap" >$d/max_reserved || exit 1
			one "fstime-shared-${copies}-capped" 1 "$r" \
				"$bin/fstime" -s -c "$copies" -w "$wsecs" -t "$t" -d "$work"
			echo "$mr" >$d/max_reserved || exit 1
		fi
	done
	if [ "$mode" = bench ]; then
		echo 0 >$en_file || exit 1
		static_sweep $r
	fi
	r=$((r + 1))
done
echo 0 >$en_file
# The shared-machine claim: root's ctx beside an unprivileged user's lock
# groups loses at most 5 % with enable 1 (scope_test.sh check 4, medians
# of 7 alternating rounds; its other checks come along).
if [ "$mode" = bench ] && [ -x "$bin/as_user" ]; then
	MIN_RATIO=95 ROUNDS=7 sh "$bin/scope_test.sh" >"$work/scope" 2>&1
	st=$?
	sed 's/^/# scope: /' "$work/scope"
	echo "BENCH-SCOPE status=$st $(sed -n "s/^# B's ctx .*medians \([0-9]*\) and \([0-9]*\)/off=\1 on=\2/p" "$work/scope")"
fi
