#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside a bench guest (busybox sh) after bench.sh, in the same
# boot: the OSQ changes (the locking-osq series' osq_lock.prev_cpu, and
# affsched's osq_numa_bound and spin_cap tunables) one at a time against
# none, with affsched enabled and placement off (max_reserved 0), so that
# the loads' spinners spread over both nodes and only the OSQ changes.
# Configurations, in this order in every round (alternating):
#   none      osq_lock.prev_cpu N, osq_numa_bound 0, spin_cap 0
#   prev_cpu  osq_lock.prev_cpu Y only (its default)
#   numa      osq_numa_bound 4 only (default 0: the NUMA-aware hand-off
#             for a group's members)
#   cap       spin_cap 1024 only (the hold-ratio estimate's n - 1)
#   all       the three together (spin_cap is off by default)
#   numa:B    osq_numa_bound B only (B 0..8), for a sweep of the bound
# Loads: fstime on one shared file (COPIES copies) and shell8.  One line
# per run: "OSQ load=L config=C round=R score=S unit=U" and the changes of
# affsched's OSQ counters and of the OSQ lock events over the run
# (hand-offs are counted only while the NUMA-aware hand-off is on), for
# bench-table.py.
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
p=/sys/module/osq_lock/parameters
le=/sys/kernel/debug/lock_event_counts
mkdir -p "$work"
stats="osq_handoff_local osq_handoff_remote osq_spin_ns osq_numa_pass spin_capped"

# snapshot: affsched's stats and the OSQ lock events, "name value" lines
snapshot() {
	cat $d/stats
	for e in osq_handoff_local osq_handoff_remote osq_numa_pass; do
		echo "$e $(cat $le/$e 2>/dev/null || echo 0)"
	done
}
wsecs=$((t < 2 ? t : 2))

config() {
	case $1 in
	none) set -- N 0 0 ;;
	prev_cpu) set -- Y 0 0 ;;
	numa) set -- N 4 0 ;;
	numa:*) set -- N "${1#numa:}" 0 ;;
	cap) set -- N 0 1024 ;;
	all) set -- Y 4 1024 ;;
	saved) set -- "$pc0" "$nb0" "$sc0" ;;
	esac
	echo "$1" >$p/prev_cpu && echo "$2" >$d/osq_numa_bound &&
		echo "$3" >$d/spin_cap
}

one() {
	load=$1 cfg=$2 r=$3
	shift 3
	config "$cfg" || exit 1
	snapshot >"$work/stats0"
	start=$(cat /proc/uptime)
	"$@" >"$work/out" 2>&1
	st=$?
	end=$(cat /proc/uptime)
	snapshot >"$work/stats1"
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
			     l, c, r, s, u, e[1] - e[2], x }' "$work/stats0" "$work/stats1"
}

pc0=$(cat $p/prev_cpu)
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
