#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# locktorture (kernel/locking/locktorture.c) on the locks the affsched
# series touches, rwsem_lock (writers and readers) and mutex_lock
# (writers), with affsched enabled in two settings:
#   defaults  every tunable at its default (placement, the NUMA-aware OSQ
#             hand-off for groups at 4) and the spin cap on (spin_cap
#             1024: n - 1; off by default)
#   stress    placement and the spin cap off and the locking code's
#             NUMA-aware hand-off on for every OSQ (osq_lock.numa_bound
#             1; locktorture's kthreads join no group), so that spinners
#             queue on both nodes and new owners pass their turn as often
#             as the bound allows
# Each run must end with "End of test: SUCCESS" and no failed lock
# operation; the OSQ counters must show spinning.  Meant for a lockdep
# kernel: the host checks the console for lockdep reports.
#
# Needs root, the affsched module loaded (or $AFFSCHED_KO) and torture.ko
# and locktorture.ko in $LOCKTORTURE_DIR (default /payload/modules), or
# locktorture available to modprobe.  $LOCKTORTURE_SECONDS (default 10)
# per run.  POSIX sh; busybox ash is enough.  TAP 13 on stdout.
# Exit status: 0 all passed, 1 something failed, 4 skipped.

BIN=$(dirname "$0")
MODDIR=${LOCKTORTURE_DIR:-/payload/modules}
SECS=${LOCKTORTURE_SECONDS:-10}
WRITERS=4
READERS=4

. "$BIN/tap.sh"

load_locktorture()
{
	if [ -f "$MODDIR/locktorture.ko" ]; then
		grep -q '^torture ' /proc/modules || insmod "$MODDIR/torture.ko" || return 1
		insmod "$MODDIR/locktorture.ko" "$@"
	else
		modprobe locktorture "$@"
	fi
}

tap_begin
if [ ! -f "$MODDIR/locktorture.ko" ] && ! modprobe -n locktorture 2>/dev/null; then
	echo "1..0 # SKIP no locktorture module in $MODDIR"
	exit 4
fi
tunables_save spin_cap osq_numa_bound max_reserved
osq_params_save
trap 'tunables_restore; osq_params_restore' EXIT
echo "1..4"

for setting in defaults stress; do
	tunables_restore
	osq_params_restore
	[ $setting = defaults ] && echo 1024 >"$DIR/spin_cap"
	if [ $setting = stress ]; then
		echo 0 >"$DIR/max_reserved"
		echo 0 >"$DIR/spin_cap"
		echo 1 >"$OSQ_PARAMS/numa_bound"
	fi
	echo 1 >"$DIR/enable"
	for type in rwsem_lock mutex_lock; do
		readers=
		[ $type = rwsem_lock ] && readers="nreaders_stress=$READERS"
		spin0=$(counter osq_spin_ns)
		byp0=$(lock_event osq_numa_pass)
		mark="affsched-locktorture-$setting-$type"
		echo "$mark" >/dev/kmsg
		errs=
		if ! load_locktorture torture_type=$type nwriters_stress=$WRITERS \
		     $readers stat_interval=0 verbose=0; then
			errs="locktorture did not load;"
		else
			sleep "$SECS"
			rmmod locktorture || errs="rmmod locktorture failed;"
		fi
		log=$(dmesg | sed -n "/$mark/,\$p")
		echo "$log" | grep -E 'Writes:|Reads:|End of test' | sed 's/^/# /'
		echo "$log" | grep -q 'End of test: SUCCESS' || errs="$errs no 'End of test: SUCCESS';"
		echo "$log" | grep -q 'End of test: FAILURE' && errs="$errs 'End of test: FAILURE';"
		echo "$log" | grep -E 'Fail: [1-9]|!!!' >/dev/null && errs="$errs a lock operation failed;"
		spin=$(($(counter osq_spin_ns) - spin0))
		byp=$(($(lock_event osq_numa_pass) - ${byp0:-0}))
		diag "$setting $type: osq_spin_ns +$spin, osq_numa_pass +$byp"
		[ "$spin" -gt 0 ] || errs="$errs no optimistic spinning counted;"
		result "$errs" "locktorture $type ($WRITERS writers${readers:+, $READERS readers}), $setting: SUCCESS"
	done
done

[ "$nfail" -eq 0 ]
