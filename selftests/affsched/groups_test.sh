#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The lock groups affsched reports in /sys/kernel/debug/affsched/groups
# while a shared-file load runs, and their life cycle:
#   1. fstime with 16 copies on one shared file: a group of kind rwsem with
#      16 members, u in 1..1000 permille, n in [1, 16] and consistent with
#      u (n = ceil(1000 / u) within 1, clamped to the members), state active
#   2. when the load has exited (it is stopped), its group is gone (exiting
#      tasks leave; groups of other tasks, such as a kworker that met a
#      contended mutex, may remain and are listed)
#   3. disabling while groups are live empties the table
#   4. unloading the module while groups are live, and loading it again,
#      works; the next load forms its group again
# The console must stay free of warnings; the harness scans it.
#
# Needs root, the module loaded (or $AFFSCHED_KO to load it) and fstime
# next to this script.  POSIX sh; busybox ash is enough.  TAP 13 on stdout.
# Exit status: 0 all passed, 1 something failed, 4 skipped.

BIN=$(dirname "$0")
WORK=${TMPDIR:-/tmp}/affsched-groups.$$
COPIES=16
load_pid=

. "$BIN/tap.sh"

cleanup()
{
	[ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null && wait "$load_pid"
	rm -rf "$WORK"
}
trap cleanup EXIT

tap_begin
if [ ! -x "$BIN/fstime" ]; then
	echo "1..0 # SKIP no $BIN/fstime"
	exit 4
fi
echo "1..4"
mkdir -p "$WORK"

# Start the shared-file load in $WORK, or in directory $2; it runs for
# about 3 * $1 seconds, or with $3 seconds of write pass (and of read
# pass) and $1 of copy pass.
start_load()
{
	mkdir -p "${2:-$WORK}"
	"$BIN/fstime" -s -c "$COPIES" -t "$1" -w "${3:-$1}" -d "${2:-$WORK}" \
		>"$WORK/fstime.log" 2>&1 &
	load_pid=$!
}
stop_load()
{
	wait "$load_pid"
	load_pid=
}

# The rwsem group with the most members: "members u n windows state id",
# or "".
biggest_group()
{
	awk 'NR > 1 && $2 == "rwsem" && $3 > best {
		best = $3; line = $3 " " $4 " " $5 " " $6 " " $7 " " $1 }
	     END { print line }' "$DIR/groups"
}

# The counters the estimator's progress shows in, as "name value ...".
counters()
{
	grep -E '^(contended|group_create|group_join|group_full|group_update) ' "$DIR/stats" |
		tr '\n' ' '
}

# Whether the group with id $1 is listed.
listed()
{
	awk -v id="$1" 'NR > 1 && $1 == id { found = 1 } END { exit !found }' "$DIR/groups"
}

# Lines in groups after the header.
nr_groups()
{
	awk 'NR > 1' "$DIR/groups" | wc -l
}

# 1: the group leaves "forming" at the estimator's first window with
# enough member ticks.  The tick samples a member only while it runs
# outside the lock's slow path, which in a guest starved by its host it
# rarely does, so that can take seconds (Documentation/testing.rst): the
# group is polled every second through a 15 s write pass until it is
# active, and the load is then stopped.
echo 1 >"$DIR/enable"
c0=$(counters)
start_load 1 "$WORK" 15
sleep 1
best=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
	g=$(biggest_group)
	[ -n "$g" ] && best=$g
	set -- $g
	[ "${1:-0}" -ge "$COPIES" ] && [ "$5" = active ] && break
	kill -0 "$load_pid" 2>/dev/null || break
	sleep 1
done
diag "after $i s: members u_permille n windows state id = $best"
errs=
set -- $best
if [ -z "$best" ]; then
	errs="no rwsem group;"
else
	m=$1 u=$2 n=$3 w=$4 st=$5 load_id=$6
	[ "$m" -eq "$COPIES" ] || errs="$errs members $m, want $COPIES;"
	{ [ "$u" -ge 1 ] && [ "$u" -le 1000 ]; } || errs="$errs u_permille $u out of 1..1000;"
	want=$(( (1000 + u - 1) / (u > 0 ? u : 1) ))
	[ "$want" -gt "$m" ] && want=$m
	d=$((n - want))
	{ [ "$d" -ge -1 ] && [ "$d" -le 1 ]; } || errs="$errs n $n, ceil(1000/u) = $want;"
	[ "$w" -gt 0 ] || errs="$errs no window closed;"
	[ "$st" = active ] || errs="$errs state $st;"
fi
if [ -n "$errs" ]; then
	diag "counters before: $c0"
	diag "counters now:    $(counters)"
	if kill -0 "$load_pid" 2>/dev/null; then
		diag "load: still running"
	else
		diag "load: $(grep -E '^(not )?ok' "$WORK/fstime.log" | tr '\n' ' ')"
	fi
fi
result "$errs" "fstime -s -c $COPIES: one rwsem group of $COPIES members with u and n = ceil(1/u)"

# 2
end_load fstime
errs=
if [ -z "${load_id:-}" ]; then
	errs="no group of the load to look for;"
else
	# A reaped task passes through do_task_dead() just after its parent
	# has been told: allow a moment.
	for i in 1 2 3; do
		listed "$load_id" || break
		sleep 1
	done
	! listed "$load_id" || errs="group $load_id of the load is still listed after it exited;"
fi
[ "$(nr_groups)" -eq 0 ] ||
	diag "groups of other tasks: $(awk 'NR > 1' "$DIR/groups" | tr '\n' ';')"
result "$errs" "the load's group is gone once the load has exited"

# 3
start_load 2
sleep 2
before=$(nr_groups)
echo 0 >"$DIR/enable"
after=$(nr_groups)
errs=
[ "$before" -ge 1 ] || errs="no group while the load ran;"
[ "$after" -eq 0 ] || errs="$errs $after group(s) after disable;"
result "$errs" "disabling with live groups ($before) empties the table"
stop_load

# 4: unload while the load's group is live, load again, and start a
# fresh load: copies asleep in the rwsem slow path since before the
# unload report nothing until they enter it again, which a convoy of
# writers can put off for tens of seconds.  The new load would run about
# 18 s; its group is polled for up to 16 s, then it is stopped.
echo 1 >"$DIR/enable"
start_load 6
sleep 2
errs=
if ! out=$(rmmod affsched 2>&1); then
	errs="rmmod: $out;"
elif ! out=$(insmod "$KO" 2>&1) && ! out=$(modprobe affsched 2>&1); then
	errs="reload: $out;"
else
	echo 1 >"$DIR/enable"
	end_load fstime
	start_load 6 "$WORK/again"
	g=
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
		sleep 1
		g=$(biggest_group)
		[ -n "$g" ] && break
		kill -0 "$load_pid" 2>/dev/null || break
	done
	diag "after reload (${i} s): $g"
	if [ -z "$g" ]; then
		if kill -0 "$load_pid" 2>/dev/null; then
			errs="no group after the reload;"
			diag "enable $(cat "$DIR/enable"); $(grep -E '^(contended|group_create|group_join|group_full) ' "$DIR/stats" | tr '\n' ' '); fstime processes $(named fstime | wc -l); load: $(tail -n 2 "$WORK/fstime.log" | tr '\n' ' ')"
		else
			errs="the load ended before a group formed after the reload;"
		fi
	fi
fi
end_load fstime
echo 0 >"$DIR/enable" 2>/dev/null
result "$errs" "unload and reload with live groups; groups form again"

[ "$nfail" -eq 0 ] && exit 0
exit 1
