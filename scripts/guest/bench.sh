#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run inside a guest (busybox sh) from /payload: UnixBench's own loads, as
# the -u modes of the selftest programs run them, with affsched's enable at
# 0 and 1, alternating within each round (0,1 in odd rounds, 1,0 in even
# ones) so that drift in the host affects both alike:
#   context1-P   P copies of context1 (ctx -u -p P)
#   shell8       one looper of "multi.sh 8" (shell_load -u -c 8)
#   fsdisk-N     File Copy 4096 bufsize 8000 maxblocks, N copies
#   fstime-N     File Copy 1024 bufsize 2000 maxblocks, N copies
#   fsbuffer-N   File Copy 256 bufsize 500 maxblocks, N copies
# The N copies of a file test creat() and share DIR/dummy0 and DIR/dummy1,
# as UnixBench 5.1.3 does; each pass is preceded by UnixBench's sync() and
# sleep()s; the write and read passes run 2 s, the copy pass SECONDS.
# SECONDS is one duration for every load, or CTX,SHELL,FILE: context1's
# run, shell8's run and the file tests' copy pass, UnixBench's being
# 10,60,30.
# MODE "overhead" runs lockcost first: uncontended 1 KB writes by a
# member of a two-task group, whose score is writes per second (1e9 /
# mean ns per write); then lockcost-lone, the same by a group's only
# member; then context1-1cpu, one ctx pair on CPU 0, which never contends,
# so no group forms: the hooks' cost for tasks outside any group; and,
# after the file tests, fsdisk's copies confined to CPU 0
# (fsdisk-N-taskset-1cpu), with enable 1 as tracking alone (max_reserved
# 0): the contended case, where each write takes the inode rwsem through
# its slow path; and context1-1-beside, the scheduler's paths while a group
# is placed: FILE_COPIES fstime -s copies allowed node 1's CPUs contend on
# one file until, with enable 1, their group is placed, then are stopped
# (SIGSTOP; idle_windows and member_windows raised so that the stopped
# group stays placed), and one ctx pair runs on node 0's CPUs: its
# wake-ups go through select_task_rq_fair() and affsched's hook, its CPUs'
# idle balancing through the reserved CPUs' trim, with every wake-up
# meeting a published sub-domain (the run prints "# beside: ... reserved
# LIST").  Stopped, the copies take no share of the instruction-counted
# clock with either enable.  context1-1cpu and context1-P with enable 1
# are the same paths with no group placed.
# MODE "bench" adds, in every round:
#   - hackbench (Debian's rt-tests, from /payload/hackbench) over pipes and
#     sockets, processes and threads (hackbench-pipe-process, ...), with
#     enable 0 and 1;
#   - with CAP (permille, the host's cores over the guest's CPUs), each file
#     test once more with enable 1 and max_reserved at CAP (NAME-N-capped);
#   - with enable 0, the static reference: each file test with all copies
#     confined by taskset to each CPU list of STATIC ("name=cpulist:...",
#     e.g. "1cpu=0:node=0-3"; colons, since run-vm.sh passes the command
#     line on as words), NAME-N-taskset-name, and one copy alone, NAME-1;
#   - fsdisk-N-taskset-1cpu and every NAME-N-taskset-cluster also with
#     enable 1 and max_reserved 0 (the cost of tracking alone: groups form,
#     nothing is placed), alternating with its enable 0 run.
# Prints one line per run:
#   BENCH load=<name> enable=<0|1> round=<r> score=<s> unit=<u> index=<i>
#         kbcpu=<k> min=<smallest copy> max=<largest copy> stalls=<passes>
# (stalls: passes of any copy longer than 3 times their nominal time), one
# per enable=1 run of a file test in bench mode with the group sampled in
# the middle of its copy pass:
#   BENCH-GROUP load=<name> round=<r> members=<m> u=<permille> n=<n> cpus=<list>
# and for context1, shell8 and hackbench the largest groups of any kind
# (BENCH-GROUPS, see sample_groups),
# and one per enable=1 run (bench and overhead modes) with the statistics
# that moved meanwhile:
#   BENCH-STATS load=<name> round=<r> contended=<k> group_join=<k> ...
# With PROFILE=1 in the environment (make bench PROFILE=1: a kernel with
# CONFIG_PROFILING booted with profile=2), each run also prints where the
# CPUs' ticks went (/proc/stat) and the kernel functions hit most often by
# the timer tick (/proc/profile, symbolised with /proc/kallsyms):
#   BENCH-CPU load=<name> enable=<e> round=<r> user=<ticks> system=<t> idle=<t> ...
#   BENCH-PROF load=<name> enable=<e> round=<r> ticks=<kernel ticks> <func>=<ticks> ...
# each CPU's busy ticks (all but idle and iowait) over the run:
#   BENCH-PERCPU load=<name> enable=<e> round=<r> <cpu>:<ticks> ...
# and, for every multi-copy file test (static ones too), where the copies
# are in the middle of the copy pass, 10 samples 0.3 s apart: how many
# fstime processes sit on each CPU in each state (R running or runnable,
# S sleeping, D waiting uninterruptibly):
#   BENCH-WHERE load=<name> round=<r> sample=<i> <cpu>:<state>=<copies> ...
# With ONLY=<extended regex> only the runs whose name matches run.
# Usage: bench.sh ROUNDS SECONDS [CTX_COPIES] [FILE_COPIES] [MODE] [STATIC] [CAP]

rounds=${1:-3}
secs=${2:-5}
case $secs in
*,*,*) tc=${secs%%,*} tf=${secs##*,} ts=${secs#*,} ts=${ts%,*} ;;
*) tc=$secs ts=$secs tf=$secs ;;
esac
for v in "$tc" "$ts" "$tf"; do
	case $v in
	'' | *[!0-9]* | 0*) echo "bench.sh: SECONDS must be N or CTX,SHELL,FILE (got '$secs')" >&2; exit 2 ;;
	esac
done
pairs=${3:-4}
copies=${4:-16}
mode=${5:-demo}
static=${6:-}
cap=${7:-}
bin=/payload/selftests
hb=/payload/hackbench
work=/tmp/affsched-bench
mkdir -p "$work"
d=/sys/kernel/debug/affsched
en_file=$d/enable
# UnixBench's File Copy tests: name, bufsize, maxblocks
file_tests="fsdisk:4096:8000 fstime:1024:2000 fsbuffer:256:500"
# ft_split NAME:BUFSIZE:MAXBLOCKS: set tn, b and m
ft_split() {
	tn=${1%%:*} m=${1##*:} b=${1#*:}
	b=${b%:*}
}
# hackbench: groups of 20 senders and 20 receivers, loops per sender
hb_groups=${HB_GROUPS:-4}
hb_loops=${HB_LOOPS:-100}

# field NAME FILE: value of the "# NAME <value>" line of a load's output
field() {
	sed -n "s/^# $1 \([0-9.]*\).*/\1/p" "$2" | tail -n 1
}

# hackbench's time, as messages per second
hackbench_score() {
	awk -v m=$((hb_groups * 20 * 20 * hb_loops)) \
		'/^Time:/ && $2 > 0 { printf "%.0f", m / $2; found = 1 } END { exit !found }' "$1"
}

# /proc/stat's cpu line: user nice system idle iowait irq softirq steal
cpu_ticks() { sed -n 's/^cpu  *//p' /proc/stat; }

# prof_report NAME EN R: the CPU ticks since $work/cpu0 and the kernel
# functions with the most profile ticks since the last reset.  The first
# word of /proc/profile is the bucket size in bytes, then one counter per
# bucket of kernel text from _stext.  Both the hit buckets and the text
# symbols become offsets from _stext, sorted, and one pass hands each hit
# to the last symbol at or below it.  Offsets are taken modulo 2^32 from
# the addresses' low 8 hex digits: awk's numbers are doubles.
prof_report() {
	cpu_ticks | awk -v l="$1" -v e="$2" -v r="$3" 'NR == FNR { for (i = 1; i <= NF; i++) a[i] = $i; next }
		{ split("user nice system idle iowait irq softirq steal", k, " ")
		  s = ""; for (i = 1; i <= 8; i++) s = s " " k[i] "=" $i - a[i]
		  print "BENCH-CPU load=" l " enable=" e " round=" r s }' "$work/cpu0" -
	# each CPU's busy ticks (all but idle and iowait)
	grep '^cpu[0-9]' /proc/stat | awk -v l="$1" -v e="$2" -v r="$3" '
		NR == FNR { b[$1] = $2 + $3 + $4 + $7 + $8; next }
		{ s = s " " substr($1, 4) ":" $2 + $3 + $4 + $7 + $8 - b[$1] }
		END { print "BENCH-PERCPU load=" l " enable=" e " round=" r s }' "$work/percpu0" -
	[ -r /proc/profile ] || return 0
	od -An -v -tu4 -w4 /proc/profile | grep -vn '^ *0$' |
		awk -F: 'NR == 1 && $1 == 1 { step = $2; next } { print ($1 - 2) * step, $2 + 0 }' >"$work/hits"
	awk 'function lo32(h,    i, v) {
			h = substr(h, length(h) - 7)
			for (i = 1; i <= 8; i++)
				v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
			return v
		}
		NR == FNR { if ($3 == "_stext") base = lo32($1); next }
		$2 ~ /^[tTwW]$/ { o = lo32($1) - base; if (o < 0) o += 4294967296
			if (o < 1073741824) print o, $3 }' /proc/kallsyms /proc/kallsyms |
		sort -n >"$work/syms"
	awk 'NR == FNR { so[++m] = $1; sn[m] = $2; next }
		{ while (j < m && so[j + 1] <= $1) j++; if (j) fn[sn[j]] += $2 }
		END { for (f in fn) print fn[f], f }' "$work/syms" "$work/hits" |
		sort -rn | head -n "${PROFILE_TOP:-25}" |
		awk -v l="$1" -v e="$2" -v r="$3" -v t="$(awk '{ t += $2 } END { print t + 0 }' "$work/hits")" '
			{ s = s " " $2 "=" $1 }
			END { print "BENCH-PROF load=" l " enable=" e " round=" r " ticks=" t s }'
}

# skipped NAME: true if ONLY is set and NAME does not match it
skipped() {
	[ -n "${ONLY:-}" ] && ! echo "$1" | grep -Eq "$ONLY"
}

one() {
	name=$1 en=$2 r=$3
	shift 3
	skipped "$name" && return
	[ "$mode" != demo ] && [ "$en" = 1 ] && cat $d/stats >"$work/stats0"
	gp=
	case $name in
	context1-* | shell8 | hackbench-*)
		if [ "$mode" = bench ] && [ "$en" = 1 ]; then
			# hackbench's runs last about a second
			gs=$((tc / 2))
			[ "$name" != shell8 ] || gs=$((ts / 2))
			case $name in hackbench-*) gs=0.5 ;; esac
			sample_groups "$name" "$r" "$gs" >"$work/groups-sample" &
			gp=$!
		fi
		;;
	esac
	if [ -n "${PROFILE:-}" ]; then
		cpu_ticks >"$work/cpu0"
		grep '^cpu[0-9]' /proc/stat >"$work/percpu0"
		[ -w /proc/profile ] && echo >/proc/profile
	fi
	"$@" >"$work/out" 2>&1
	st=$?
	[ -z "${PROFILE:-}" ] || prof_report "$name" "$en" "$r"
	if [ -n "$gp" ]; then
		wait "$gp"
		cat "$work/groups-sample"
	fi
	[ "$mode" != demo ] && [ "$en" = 1 ] &&
		awk -v l="$name" -v r="$r" 'NR == FNR { a[$1] = $2; next }
			$1 !~ /^(enable|disable|tunable_set|tunable_reject)$/ && $2 != a[$1] {
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
			"unit=w/s index= kbcpu= min= max= stalls= ns=$ns member=$(sed -n 's/^# member //p' "$work/out")"
		return
	fi
	case $name in
	hackbench-*)
		if ! s=$(hackbench_score "$work/out"); then
			sed 's/^/  | /' "$work/out"
			echo "BENCH-FAIL load=$name enable=$en round=$r status=no-time"
			return
		fi
		echo "BENCH load=$name enable=$en round=$r score=$s unit=msg/s index= kbcpu= min= max= stalls="
		return
		;;
	esac
	unit=$(sed -n 's/^# score [0-9.]* \([A-Za-z]*\).*/\1/p' "$work/out" | tail -n 1)
	echo "BENCH load=$name enable=$en round=$r score=$(field score "$work/out")" \
		"unit=$unit index=$(field index "$work/out")" \
		"kbcpu=$(field kb_per_cpu_second "$work/out")" \
		"min=$(field min_copy_score "$work/out") max=$(field max_copy_score "$work/out")" \
		"stalls=$(field stalls "$work/out")"
}

# The rwsem group with the most members, sampled in the middle of a file
# test's copy pass: it starts after two settles of 4 s, the write and read
# passes of 2 s each and a settle of 3 s.
sample_group() {
	sleep $((4 + 2 + 4 + 2 + 3 + tf / 2))
	awk -v l="$1" -v r="$2" 'NR > 1 && $2 == "rwsem" && $3 > best { best = $3
		line = "BENCH-GROUP load=" l " round=" r " members=" $3 " u=" $4 " n=" $5 " cpus=" $8 }
		END { if (line != "") print line }' $d/groups
	[ -n "${PROFILE:-}" ] || return 0
	# where the copies are: CPU and state (R, S, D) of each, 10 samples
	i=0
	while [ $i -lt 10 ]; do
		cat /proc/[0-9]*/stat 2>/dev/null | awk -v l="$1" -v r="$2" -v i=$i '
			$2 == "(fstime)" { n[$39 ":" $3]++ }
			END { for (k in n) s = s " " k "=" n[k]
			      print "BENCH-WHERE load=" l " round=" r " sample=" i s }'
		sleep 0.3
		i=$((i + 1))
	done
}

# The five groups with the most members, any kind, after $3 seconds:
#   BENCH-GROUPS load=<name> round=<r> kind:members:u:n:windows:cpus ...
sample_groups() {
	sleep "$3"
	sort -k3,3nr $d/groups 2>/dev/null | awk -v l="$1" -v r="$2" '
		$1 != "id" && n < 5 { n++; s = s " " $2 ":" $3 ":" $4 ":" $5 ":" $6 ":" $8 }
		END { print "BENCH-GROUPS load=" l " round=" r s }'
}

# file_test NAME-N ENABLE ROUND BUFSIZE MAXBLOCKS COPIES [taskset CPUS]
file_test() {
	name=$1 en=$2 r=$3 b=$4 m=$5 c=$6
	shift 6
	skipped "$name" && return
	sp=
	if [ "$mode" = bench ] && { [ "$en" = 1 ] || [ -n "${PROFILE:-}" ]; } && [ "$c" -gt 1 ]; then
		sample_group "$name" "$r" >"$work/group" &
		sp=$!
	fi
	one "$name" "$en" "$r" "$@" "$bin/fstime" -u -b "$b" -m "$m" -c "$c" -t "$tf" -d "$work"
	if [ -n "$sp" ]; then
		wait "$sp"
		cat "$work/group"
	fi
}

hackbench_all() {
	en=$1 r=$2
	for ipc in pipe socket; do
		for how in process threads; do
			set -- -g "$hb_groups" -l "$hb_loops"
			[ $ipc = pipe ] && set -- "$@" -p
			[ $how = threads ] && set -- "$@" -T
			one "hackbench-$ipc-$how" "$en" "$r" \
				"$hb/ld.so" --library-path "$hb" "$hb/hackbench" "$@"
		done
	done
}

# The static reference and the single copies, in a rotating order; enable
# is 0 but for fsdisk's one-CPU confinement and each test's cluster, which
# also run with tracking alone (enable 1, max_reserved 0), the two in the
# round's order: the cluster's pair splits placement's shortfall against
# it into the tracking's cost and the placement's own.
static_sweep() {
	r=$1 order=$2
	set -- $(echo "$static" | tr ':' ' ')
	k=1
	while [ $k -lt "$r" ] && [ $# -gt 1 ]; do
		first=$1
		shift
		set -- "$@" "$first"
		k=$((k + 1))
	done
	for ft in $file_tests; do
		ft_split "$ft"
		for s in "$@"; do
			sn=${s%%=*}
			cpus=${s#*=}
			# Not even the enable and max_reserved writes for a run left out.
			skipped "$tn-$copies-taskset-$sn" && continue
			ens=0
			case "$tn:$sn" in
			fsdisk:1cpu | *:cluster) ens=$order ;;
			esac
			for en in $ens; do
				if [ "$en" = 1 ]; then
					mr=$(cat $d/max_reserved)
					echo 0 >$d/max_reserved && echo 1 >$en_file || exit 1
				fi
				file_test "$tn-$copies-taskset-$sn" "$en" "$r" "$b" "$m" "$copies" \
					taskset -c "$cpus"
				if [ "$en" = 1 ]; then
					echo 0 >$en_file && echo "$mr" >$d/max_reserved || exit 1
				fi
			done
		done
		file_test "$tn-1" 0 "$r" "$b" "$m" 1
	done
}

# beside EN R: context1-1-beside (see the header) in round R with enable EN
beside() {
	skipped context1-1-beside && return
	iw=$(cat $d/idle_windows) mw=$(cat $d/member_windows)
	# A stopped group stays placed for 1000 windows (10 s), its members
	# for 10000.
	echo 1000 >$d/idle_windows && echo 10000 >$d/member_windows || exit 1
	mkdir -p "$work/beside"
	taskset -c "$(cat /sys/devices/system/node/node1/cpulist)" "$bin/fstime" -s \
		-c "$copies" -w 1 -t 600 -d "$work/beside" >"$work/beside.log" 2>&1 &
	bp=$!
	# Past the write and read passes; with enable 1, placed (20 s at most).
	sleep 3
	i=0
	while [ "$1" = 1 ] && [ $i -lt 100 ] && [ -z "$(tr -d ' \n' <$d/reserved)" ]; do
		sleep 0.2
		i=$((i + 1))
	done
	cps=$(grep -lx fstime /proc/[0-9]*/comm 2>/dev/null | cut -d/ -f3)
	# shellcheck disable=SC2086
	kill -STOP $cps 2>/dev/null
	echo "# beside: enable $1 round $2 reserved '$(tr -d ' \n' <$d/reserved)'"
	one context1-1-beside "$1" "$2" taskset -c "$(cat /sys/devices/system/node/node0/cpulist)" \
		"$bin/ctx" -u -p 1 -t "$tc"
	echo "# beside: after the run, reserved '$(tr -d ' \n' <$d/reserved)'"
	# shellcheck disable=SC2086
	kill -CONT $cps 2>/dev/null
	# shellcheck disable=SC2086
	kill "$bp" $cps 2>/dev/null
	wait "$bp" 2>/dev/null
	rm -rf "$work/beside"
	echo "$iw" >$d/idle_windows && echo "$mw" >$d/member_windows || exit 1
}

echo "# guest: $(nproc) CPUs, nodes $(cat /sys/devices/system/node/online)," \
	"kernel $(uname -r), $rounds rounds, context1 ${tc}s, shell8 ${ts}s," \
	"copy pass ${tf}s, mode $mode"
if [ "$mode" = bench ] && ! "$hb/ld.so" --library-path "$hb" "$hb/hackbench" -g 1 -l 1 >/dev/null 2>&1; then
	echo "# hackbench does not run from $hb: left out"
	hb=
fi
r=1
while [ $r -le "$rounds" ]; do
	if [ $((r % 2)) -eq 1 ]; then order="0 1"; else order="1 0"; fi
	for en in $order; do
		echo $en >$en_file || exit 1
		if [ "$mode" = overhead ]; then
			one lockcost $en $r "$bin/lockcost" -d "$work"
			one lockcost-lone $en $r "$bin/lockcost" -l -d "$work"
			one context1-1cpu $en $r taskset -c 0 "$bin/ctx" -u -p 1 -t "$tc"
		fi
		one "context1-${pairs}" $en $r "$bin/ctx" -u -p "$pairs" -t "$tc"
		one shell8 $en $r "$bin/shell_load" -u -c 8 -t "$ts" -d "$work/shell"
		[ "$mode" = bench ] && [ -n "$hb" ] && hackbench_all $en $r
		for ft in $file_tests; do
			ft_split "$ft"
			file_test "$tn-$copies" $en $r "$b" "$m" "$copies"
			if [ "$mode" = bench ] && [ "$en" = 1 ] && [ -n "$cap" ]; then
				mr=$(cat $d/max_reserved)
				echo "$cap" >$d/max_reserved || exit 1
				file_test "$tn-$copies-capped" 1 "$r" "$b" "$m" "$copies"
				echo "$mr" >$d/max_reserved || exit 1
			fi
		done
		if [ "$mode" = overhead ]; then
			mr=$(cat $d/max_reserved)
			echo 0 >$d/max_reserved || exit 1
			file_test "fsdisk-$copies-taskset-1cpu" $en $r 4096 8000 "$copies" \
				taskset -c 0
			echo "$mr" >$d/max_reserved || exit 1
			beside $en $r
		fi
	done
	if [ "$mode" = bench ]; then
		echo 0 >$en_file || exit 1
		static_sweep $r "$order"
	fi
	r=$((r + 1))
done
echo 0 >$en_file
# The shared-machine claim: root's ctx beside an unprivileged user's lock
# groups loses at most 5 % with enable 1 (scope_test.sh check 4, medians
# of 7 alternating rounds; its other checks come along).
if [ "$mode" = bench ] && [ -x "$bin/as_user" ] &&
	{ [ -z "${ONLY:-}" ] || echo scope | grep -Eq "$ONLY"; }; then
	MIN_RATIO=95 ROUNDS=7 sh "$bin/scope_test.sh" >"$work/scope" 2>&1
	st=$?
	sed 's/^/# scope: /' "$work/scope"
	echo "BENCH-SCOPE status=$st $(sed -n "s/^# B's ctx .*medians \([0-9]*\) and \([0-9]*\)/off=\1 on=\2/p" "$work/scope")"
fi
