#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside a bench guest (busybox sh) after bench.sh, in the same
# boot: the OSQ tweaks (sched-affsched patches 12-13, locking-osq 1-2)
# one at a time against none, with affsched enabled and placement off (max_reserved 0), so that the
# loads' spinners spread over both nodes and only the OSQ changes.
# Configurations, in this order in every round (alternating):
#   none      osq_prev_cpu 0, osq_numa_bound 0, spin_cap 0
#   prev_cpu  osq_prev_cpu 1 only
#   numa      osq_numa_bound 4 only (the default)
#   cap       spin_cap 1024 only (the hold-ratio estimate's n - 1)
#   all       the three together (spin_cap is off by default)
#   numa:B    osq_numa_bound B only (B 0..8), for a sweep of the bound
# Loads: fstime on one shared file (COPIES copies) and shell8.  One line
# per run: "OSQ load=L config=C round=R score=S unit=U" and the changes of
# the OSQ counters over the run, for bench-table.py.
# Usage: osq-bench.sh ROUNDS SECONDS [COPIES [CONFIGS]]
# CONFIGS is a space-separated subset of the list above (default: all five).

rounds=${1:?rounds}
t=${2:?seconds}
copies=${3:-16}
configs=${4:-none prev_cpu numa cap all}
for cfg in $configs; do
	case $cfg in
	none | prev_cpu | numa | cap | all) ;;
	numa:[0-9] | numa:[0-9][0-9] | numa:[0-9][0-9][0-9] | numa:1[0-9][0-9][0-9]) ;;
	*)
		echo "osq-bench.sh: unknown configuration '$cfg'" >&2
		exit 2
		;;
	esac
done
bin=/payload/selftests
work=/tmp/affsched-osq-bench
d=/sys/kernel/debug/affsched
mkdir -p "$work"
stats="osq_handoff_local osq_handoff_remote osq_spin_ns osq_bypass spin_capped"
wsecs=$((t < 2 ? t : 2))

config() {
	case $1 in
	none) set -- 0 0 0 ;;
	prev_cpu) set -- 1 0 0 ;;
	numa) set -- 0 4 0 ;;
	numa:*) set -- 0 "${1#numa:}" 0 ;;
	cap) set -- 0 0 1024 ;;
	all) set -- 1 4 1024 ;;
	saved) set -- "$pc0" "$nb0" "$sc0" ;;
	esac
	echo "$1" >$d/osq_prev_cpu && echo "$2" >$d/osq_numa_bound &&
		echo "$3" >$d/spin_cap
}

one() {
	load=$1 cfg=$2 r=$3
	shift 3
	config "$cfg" || exit 1
	cat $d/stats >"$work/stats0"
	start=$(cat /proc/uptime)
	"$@" >"$work/out" 2>&1
	st=$?
	end=$(cat /proc/uptime)
	if [ $st -ne 0 ]; then
		sed 's/^/  | /' "$work/out"
		echo "OSQ-FAIL load=$load config=$cfg round=$r status=$st"
		return
	fi
	# the loads' "# score VALUE UNIT" line (COUNT| has raw counts)
	score=$(sed -n 's/^# score \([0-9.]*\) .*/\1/p' "$work/out" | tail -n 1)
	unit=$(sed -n 's/^# score [0-9.]* \([A-Za-z]*\).*/\1/p' "$work/out" | tail -n 1)
	awk -v l="$load" -v c="$cfg" -v r="$r" -v s="$score" -v u="$unit" \
	    -v secs="${end%% *} ${start%% *}" -v want="$stats" '
		BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) keep[w[i]] = 1 }
		NR == FNR { a[$1] = $2; next }
		$1 in keep { x = x " " $1 "=" $2 - a[$1] }
		END { split(secs, e, " ");
		      printf "OSQ load=%s config=%s round=%s score=%s unit=%s wall=%.1f%s\n",
			     l, c, r, s, u, e[1] - e[2], x }' "$work/stats0" $d/stats
}

pc0=$(cat $d/osq_prev_cpu)
nb0=$(cat $d/osq_numa_bound)
sc0=$(cat $d/spin_cap)
mr0=$(cat $d/max_reserved)
echo 0 >$d/max_reserved
echo 1 >$d/enable
echo "# OSQ tweaks: kernel $(uname -r), $rounds rounds of ${t}s per load, placement off"
for r in $(seq 1 "$rounds"); do
	for cfg in $configs; do
		one fstime-shared-$copies $cfg $r \
			"$bin/fstime" -s -c "$copies" -w "$wsecs" -t "$t" -d "$work"
		one shell8 $cfg $r "$bin/shell_load" -c 8 -t "$t" -d "$work/shell"
	done
done
config saved
echo "$mr0" >$d/max_reserved
echo 0 >$d/enable
