#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The load balancer beside a placed group (/sys/kernel/debug/affsched):
# 16 copies of fstime -s contend on one file while one CPU hog per CPU
# runs; the same load is measured with enable 0 and then, once the group
# has a sub-domain, with enable 1:
#   1. the hogs get at least 0.9 of the CPU time that the CPUs outside the
#      sub-domain offer (utime + stime of /proc/PID/stat against the
#      unreserved CPUs, sampled every 0.5 s, times the interval)
#   2. periodic load balancing goes on at its pace on the unreserved CPUs,
#      busy with the hogs: their busy load_balance() calls (schedstat
#      lb_count for CPU_NOT_IDLE) are at least a quarter of what the
#      longest normal interval gives, the interval's time over
#      max_interval x busy_factor for each of their sched domains.  A pull
#      that finds every task pinned backs a domain's interval off up to
#      512 ms instead, 32 to 64 times max_interval in these guests; the
#      quarter leaves room for ticks that TCG delivers late.
#   3. the balancer's refusals (lb_refused) stay below 25 per CPU and
#      second: the balancer does not pick the sub-domain as busiest
#
# 2 needs schedstats, switched on through /proc/sys/kernel/sched_schedstats
# for the test, and /proc/sys/kernel/sched_domain (CONFIG_SCHED_DEBUG);
# else it is skipped.  Needs root, the module loaded (or
# $AFFSCHED_KO), fstime next to this script and 4 CPUs.  POSIX sh; busybox
# ash is enough.  TAP 13 on stdout.
# Exit status: 0 all passed, 1 something failed, 4 skipped.

BIN=$(dirname "$0")
WORK=${TMPDIR:-/tmp}/affsched-balance.$$
COPIES=16
SECS=4
SCHEDSTATS=/proc/sys/kernel/sched_schedstats
pids=
stats0=

. "$BIN/tap.sh"

cleanup()
{
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	[ -n "$stats0" ] && echo "$stats0" >"$SCHEDSTATS"
	echo 0 >"$DIR/enable"
	rm -rf "$WORK"
}
trap cleanup EXIT

tap_begin
if [ ! -x "$BIN/fstime" ] || [ "$(nproc)" -lt 4 ]; then
	echo "1..0 # SKIP needs $BIN/fstime and 4 CPUs"
	exit 4
fi
echo "1..3"
mkdir -p "$WORK"
ncpu=$(nproc)
if [ -w "$SCHEDSTATS" ]; then
	stats0=$(cat "$SCHEDSTATS")
	echo 1 >"$SCHEDSTATS"
fi
# Above the loads, so that the sampling keeps up (as placement_test.sh).
above_loads

# CPU time (clock ticks) of the tasks $@.
cpu_ticks()
{
	for p in "$@"; do cat "/proc/$p/stat" 2>/dev/null; done |
		awk '{ t += $14 + $15 } END { print t + 0 }'
}
# Number of CPUs in the list in "reserved".
nreserved()
{
	tr ',' '\n' <"$DIR/reserved" | awk -F- '$0 != "" {
		w += (NF > 1) ? $2 - $1 + 1 : 1 } END { print w + 0 }'
}
# Busy load_balance() calls (lb_count of CPU_NOT_IDLE) of each CPU, summed
# over its domains, as "cpuN COUNT" lines; schedstat version 15 domain
# lines: "domainN MASK", then 8 counters for each of CPU_IDLE,
# CPU_NOT_IDLE and CPU_NEWLY_IDLE.  Idle balancing is left out: with
# enable 0 the hogs share the CPUs with the copies, which leaves them idle
# at times.
lb_sample()
{
	awk '/^cpu[0-9]/ { cpu = $1; t[cpu] += 0 }
		/^domain/ { t[cpu] += $11 }
		END { for (c in t) print c, t[c] }' /proc/schedstat
}
# The calls between the samples in files $2 and $3 of the CPUs not in
# list $1 (the sub-domain may move: the same CPUs at both ends).
lb_calls()
{
	awk -v res="$1" '
		BEGIN { n = split(res, r, ",")
			for (i = 1; i <= n; i++) {
				if (split(r[i], b, "-") < 2) b[2] = b[1]
				if (r[i] != "")
					for (c = b[1]; c <= b[2]; c++) skip["cpu" c] = 1
			} }
		FNR == NR { before[$1] = $2; next }
		!($1 in skip) && ($1 in before) { t += $2 - before[$1] }
		END { print t + 0 }' "$2" "$3"
}
# The fewest busy load_balance() calls the CPUs not in list $1 make in $2
# ms at the longest normal interval: the sum over their domains of
# $2 / (max_interval x busy_factor).
lb_floor()
{
	for d in /proc/sys/kernel/sched_domain/cpu[0-9]*/domain[0-9]*; do
		[ -r "$d/max_interval" ] || continue
		c=${d%/domain*}
		echo "${c##*/cpu} $(cat "$d/max_interval") $(cat "$d/busy_factor")"
	done | awk -v res="$1" -v ms="$2" '
		BEGIN { n = split(res, r, ",")
			for (i = 1; i <= n; i++) {
				if (split(r[i], b, "-") < 2) b[2] = b[1]
				if (r[i] != "")
					for (c = b[1]; c <= b[2]; c++) skip[c] = 1
			} }
		!($1 in skip) && $2 * $3 > 0 { t += ms / ($2 * $3) }
		END { printf "%d\n", t }'
}
# Sample for $SECS s or a little more: sets cpu (hog ticks), offered
# (ticks the unreserved CPUs offered), calls (load_balance() calls on CPUs
# never reserved during the interval), refused (lb_refused), span (the
# union of the reserved CPUs seen) and elapsed_ms.
measure()
{
	hz=100	# USER_HZ, the unit of /proc/PID/stat
	res=$(tr -d '\n' <"$DIR/reserved")
	lb_sample >"$WORK/lb0"
	c0=$(cpu_ticks $hogs) r0=$(counter lb_refused)
	t0=$(now_ms) t=$t0 offered_ms=0 span=$res
	while [ $((t - t0)) -lt $((SECS * 1000)) ]; do
		sleep 0.5
		# The sampler runs late under load: weigh by the time passed.
		t1=$(now_ms)
		offered_ms=$((offered_ms + (ncpu - $(nreserved)) * (t1 - t)))
		t=$t1
		r=$(tr -d '\n' <"$DIR/reserved")
		[ -n "$r" ] && span="$span,$r"
	done
	cpu=$(( $(cpu_ticks $hogs) - c0 ))
	lb_sample >"$WORK/lb1"
	calls=$(lb_calls "$span" "$WORK/lb0" "$WORK/lb1")
	refused=$(( $(counter lb_refused) - r0 ))
	offered=$((offered_ms * hz / 1000))
	elapsed_ms=$((t - t0))
}

echo 0 >"$DIR/enable"
at_nice0 "$BIN/fstime" -s -c "$COPIES" -w 1 -t 60 -d "$WORK" >"$WORK/fstime.log" 2>&1 &
load_pid=$!
pids="$pids $load_pid"
hogs=
i=0
while [ $i -lt "$ncpu" ]; do
	at_nice0 sh -c 'while :; do :; done' &
	hogs="$hogs $!"
	i=$((i + 1))
done
pids="$pids $hogs"
sleep 4

measure
off_calls=$calls off_cpu=$cpu off_offered=$offered off_ms=$elapsed_ms
diag "enable 0: ${off_ms} ms: hogs $off_cpu of $off_offered ticks offered; $off_calls load_balance() calls"

echo 1 >"$DIR/enable"
placed=
i=0
while [ $i -lt 100 ]; do
	[ -n "$(tr -d ' \n' <"$DIR/reserved")" ] && { placed=1; break; }
	sleep 0.2
	i=$((i + 1))
done
sleep 2
if [ -z "$placed" ]; then
	diag "no sub-domain within 20 s: $(tr '\n' ';' <"$DIR/groups")"
	diag "fstime copies running: $(grep -lx fstime /proc/[0-9]*/comm 2>/dev/null | wc -l); log: $(tail -n 3 "$WORK/fstime.log" | tr '\n' ' ')"
	diag "stats: $(grep -E '^(contended|group_create|group_join|group_full) ' "$DIR/stats" | tr '\n' ' ')"
	cpu=0 offered=1 calls=0 refused=0 span= elapsed_ms=1
else
	measure
fi
diag "enable 1: ${elapsed_ms} ms, reserved $span; hogs $cpu of $offered ticks offered; $calls load_balance() calls; $refused refused"

errs=
[ -n "$placed" ] || errs="nothing placed;"
[ $((cpu * 10)) -ge $((offered * 9)) ] || errs="$errs hogs got $cpu of $offered ticks;"
result "$errs" "hogs get 0.9 of the CPU time the unreserved CPUs offer"

floor=$(lb_floor "$span" "$elapsed_ms")
if [ -z "$stats0" ] || [ "$floor" -eq 0 ]; then
	skip "load balancing keeps its pace on the unreserved CPUs" \
		"no $SCHEDSTATS or /proc/sys/kernel/sched_domain"
else
	diag "busy load_balance() calls on the CPUs never reserved: $calls, at the longest normal interval $floor"
	errs=
	[ $((calls * 4)) -ge "$floor" ] ||
		errs="$calls busy load_balance() calls, a quarter of $floor expected;"
	result "$errs" "load balancing keeps its pace on the unreserved CPUs"
fi

errs=
[ $((refused * 1000)) -le $((25 * ncpu * elapsed_ms)) ] ||
	errs="$refused refusals in $elapsed_ms ms on $ncpu CPUs;"
result "$errs" "the balancer's refusals stay below 25 per CPU and second"

[ "$nfail" -eq 0 ] && exit 0
exit 1
