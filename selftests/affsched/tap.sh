# SPDX-License-Identifier: GPL-2.0
#
# Shared by the shell selftests (sourced, POSIX sh): TAP 13 results and
# the preamble that skips (exit 4) without root or the affsched module.
# DIR is the debugfs directory; KO the module file to insmod when it is
# missing ($AFFSCHED_KO, else /lib/modules/affsched.ko).

DIR=/sys/kernel/debug/affsched
KO=${AFFSCHED_KO:-/lib/modules/affsched.ko}
ntest=0
nfail=0

diag() { echo "# $*"; }

# result ERRORS DESCRIPTION: "ok" if ERRORS is empty, else "not ok" and
# ERRORS as a diagnostic.
result()
{
	ntest=$((ntest + 1))
	if [ -z "$1" ]; then
		echo "ok $ntest $2"
	else
		echo "not ok $ntest $2"
		diag "$1"
		nfail=$((nfail + 1))
	fi
}
skip() { ntest=$((ntest + 1)); echo "ok $ntest $1 # SKIP $2"; }

# Print the TAP header; exit 4 (skip) without root or the module.
tap_begin()
{
	echo "TAP version 13"
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP needs root"
		exit 4
	fi
	if [ ! -d "$DIR" ] && ! insmod "$KO" 2>/dev/null && ! modprobe affsched 2>/dev/null; then
		echo "1..0 # SKIP no affsched module ($KO)"
		exit 4
	fi
}

# tunables_save NAME...: remember these tunables; tunables_restore writes
# them back and disables affsched.
tunables_saved=
tunables_save()
{
	for f in "$@"; do
		tunables_saved="$tunables_saved $f=$(cat "$DIR/$f")"
	done
}
tunables_restore()
{
	for kv in $tunables_saved; do
		echo "${kv#*=}" >"$DIR/${kv%%=*}"
	done
	echo 0 >"$DIR/enable"
}

# counter NAME: the value of a counter in stats
counter()
{
	awk -v n="$1" '$1 == n { print $2 }' "$DIR/stats"
}

# The locking code's own: OSQ_PARAMS holds the osq_lock parameters
# (prev_cpu, numa_bound); lock_event NAME prints the lock event counter
# NAME (CONFIG_LOCK_EVENT_COUNTS), nothing if the kernel has none.
OSQ_PARAMS=/sys/module/osq_lock/parameters
LOCK_EVENTS=/sys/kernel/debug/lock_event_counts
lock_event() { cat "$LOCK_EVENTS/$1" 2>/dev/null; }

# osq_params_save: remember the osq_lock parameters; osq_params_restore
# writes them back.
osq_params_saved=
osq_params_save()
{
	osq_params_saved="prev_cpu=$(cat "$OSQ_PARAMS/prev_cpu") numa_bound=$(cat "$OSQ_PARAMS/numa_bound")"
}
osq_params_restore()
{
	for kv in $osq_params_saved; do
		echo "${kv#*=}" >"$OSQ_PARAMS/${kv%%=*}"
	done
}

# For the tests that sample /proc while loads run.  now_ms: the uptime in
# ms.  above_loads: raise this shell to nice -10 so that its sampling keeps
# up.  at_nice0 CMD...: exec CMD back at nice 0; use it in the background
# only (it execs, so that $! is the load's own pid).
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
# named NAME: pids of the processes whose comm is NAME
named() { grep -lx "$1" /proc/[0-9]*/comm 2>/dev/null | cut -d/ -f3; }
# kill_named NAME: SIGKILL them until none is left, 5 s at most
kill_named()
{
	_i=0
	while [ -n "$(named "$1")" ] && [ $_i -lt 50 ]; do
		kill -9 $(named "$1") 2>/dev/null
		sleep 0.1
		_i=$((_i + 1))
	done
}
# end_load NAME: stop the load whose parent is $load_pid and every
# process named NAME (kill_named), then reap the parent.
end_load()
{
	kill "$load_pid" 2>/dev/null
	kill_named "$1"
	wait "$load_pid" 2>/dev/null
	load_pid=
}
above_loads()
{
	renice -n -10 -p $$ >/dev/null 2>&1 || diag "renice failed: the sampling may lag"
}
at_nice0() { exec sh -c 'renice -n 10 -p $$ >/dev/null 2>&1; exec "$@"' sh "$@"; }

# awk functions for CPU lists ("0-1,4"): cpus_add(list, set) adds each
# CPU of the list to the array set and returns how many the list names.
AWK_CPUS='
function cpus_add(list, set,    n, i, r, b, c, w) {
	n = split(list, r, ",")
	for (i = 1; i <= n; i++) {
		if (r[i] == "" || r[i] == "-")
			continue
		if (split(r[i], b, "-") < 2)
			b[2] = b[1]
		for (c = b[1] + 0; c <= b[2] + 0; c++)
			set[c] = 1
		w += b[2] - b[1] + 1
	}
	return w + 0
}
function cpus_has(list, c,    set) {
	split("", set)
	cpus_add(list, set)
	return (c + 0) in set
}'
