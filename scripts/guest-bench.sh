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
# Prints one line per run:
#   BENCH load=<name> enable=<0|1> round=<r> score=<s> unit=<u> index=<i> kbcpu=<k>
# Usage: guest-bench.sh ROUNDS SECONDS [CTX_PAIRS] [FSTIME_COPIES] [MODE]

rounds=${1:-3}
t=${2:-5}
pairs=${3:-4}
copies=${4:-16}
mode=${5:-demo}
bin=/payload/selftests
work=/tmp/affsched-bench
mkdir -p "$work"
d=/sys/kernel/debug/affsched
en_file=$d/enable
hs_default=$(cat $d/hold_sample 2>/dev/null)

# field NAME FILE: value of the "# NAME <value>" line of a load's output
field() {
	sed -n "s/^# $1 \([0-9.]*\).*/\1/p" "$2" | tail -n 1
}

one() {
	name=$1 en=$2 r=$3
	shift 3
	"$@" >"$work/out" 2>&1
	st=$?
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
		one "fstime-shared-${copies}" $en $r "$bin/fstime" -s -c "$copies" -t "$t" -d "$work"
	done
	r=$((r + 1))
done
echo 0 >$en_file
