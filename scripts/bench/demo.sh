#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - the main job: from nothing to an on/off table.
#
# Installs what it needs, prepares the base tree, applies the series, builds
# kernel, module and selftests, boots a guest with 2 NUMA nodes x 2 clusters
# x 2 cores, loads the module and runs UnixBench's own loads as the
# selftests' -u modes run them (guest/bench.sh): context1 (CTX_COPIES
# copies), shell8, and the File Copy tests fsdisk, fstime and fsbuffer
# (FILE_COPIES copies on shared files), with enable at 0 and 1, alternating
# in the same boot, then prints score, index, KB per CPU-second, the
# smallest and largest copy's score, the stalled passes and the on/off
# ratio of the medians, and draws them in build/MODE-ARCH.png
# (bench-table.py --png; its path is printed).
#
# MODE=bench (make bench) builds the kernel with configs/bench.config and
# adds, in the same boot: hackbench (Debian's rt-tests: pipes and sockets,
# processes and threads) alternating with the loads; each file test once
# more with max_reserved capped at the host's cores; then, with enable 0,
# the static reference: each file test with its copies confined by taskset
# to 1 CPU, 2 CPUs of different clusters, a cluster and a node, and with a
# single copy; fsdisk on one CPU with tracking alone (enable 1,
# max_reserved 0); root's ctx beside an unprivileged user's lock groups
# (scope_test.sh with MIN_RATIO=95, 7 rounds); and the OSQ runs
# (guest/osq-bench.sh, OSQ_COPIES copies, 0 leaves them out).
# bench-table.py --targets prints the placement targets: each file test
# with enable 1 at least 0.95 of its best static confinement, context1,
# shell8 and hackbench on/off at least 0.99, no stalled pass (over 3 times
# its nominal time) with enable 1, tracking alone at most 3 % on the
# one-CPU fsdisk, root's ctx at least 0.95.
#
# MODE=overhead (make overhead) measures the hold-ratio tracking alone:
# lockcost (uncontended writes by a group member, and by a lone one),
# then the loads, then fsdisk's copies confined to one
# CPU with tracking alone (max_reserved 0), and the wake-up and idle
# balancing paths beside a placed group (context1-1-beside: a ctx pair on
# node 0 while a group placed in node 1 is stopped), enable 0 and 1
# alternating.
# With AFFSCHED_ACCEL=icount the guest's clocks count executed
# instructions, so a figure depends on the code run, not on how the host
# schedules the vCPUs, and lockcost's difference is the hooks' instruction
# count; cache and interconnect costs are not modelled at all.
#
# Environment: ARCH (arm64; x86_64 runs 2 nodes x 4 cores, x86 guests have
# no clusters), ROUNDS (3), UnixBench's durations: CTX_SECONDS (10,
# context1's run), SHELL_SECONDS (60, shell8's run) and FILE_SECONDS (30,
# the file tests' copy pass; a new copy pass is a new group to find and
# place, so a shorter one weighs that start more than UnixBench does),
# or SECONDS_PER_LOAD for all three at once, OSQ_SECONDS (the OSQ runs'
# copy pass, SECONDS_PER_LOAD or 5), CTX_COPIES (4), FILE_COPIES (16), KSRC
# (another base tree, see prepare-base.sh), MODE (demo, bench or overhead),
# AFFSCHED_ACCEL (run-vm.sh), PROFILE (1: in bench mode, each run's CPU
# ticks by kind and its kernel hot spots from the tick profiler, booted
# with profile=2; bench-table.py prints them), ONLY (an extended regex:
# only the runs whose name matches, e.g. 'fsdisk-16|hackbench'), HB_LOOPS
# (hackbench's loops per run, 100; each run lasts about 0.4 s in the
# arm64 guest, too short for a 1 % comparison: 1000 for that).  make
# bench and make overhead set their own defaults (Makefile).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

arch=${ARCH:-arm64}
rounds=${ROUNDS:-3}
secs_ctx=${CTX_SECONDS:-${SECONDS_PER_LOAD:-10}}
secs_shell=${SHELL_SECONDS:-${SECONDS_PER_LOAD:-60}}
secs_file=${FILE_SECONDS:-${SECONDS_PER_LOAD:-30}}
secs_osq=${OSQ_SECONDS:-${SECONDS_PER_LOAD:-5}}
pairs=${CTX_COPIES:-4}
copies=${FILE_COPIES:-16}
mode=${MODE:-demo}
case "$mode" in
demo | overhead | bench) ;;
*) die "MODE must be demo, overhead or bench (got '$mode')" ;;
esac
for v in rounds secs_ctx secs_shell secs_file secs_osq pairs copies; do
	[[ "${!v}" =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer (got '${!v}')"
done
karch "$arch" >/dev/null
profile=${PROFILE:-0}
[[ "$profile" =~ ^[01]$ ]] || die "PROFILE must be 0 or 1 (got '$profile')"
[ "$profile" = 0 ] || [ "$mode" = bench ] || die "PROFILE=1 needs MODE=bench (its kernel has CONFIG_PROFILING)"
only=${ONLY:-}
[[ "$only" != *"'"* ]] || die "ONLY must not contain a single quote"
if [ -n "$only" ]; then
	st=0
	grep -Eq "$only" </dev/null 2>/dev/null || st=$?
	[ "$st" -le 1 ] || die "ONLY is not an extended regex: '$only'"
fi
hb_loops=${HB_LOOPS:-}
[ -z "$hb_loops" ] || [[ "$hb_loops" =~ ^[1-9][0-9]*$ ]] ||
	die "HB_LOOPS must be a positive integer (got '$hb_loops')"
guest_env= profile_arg=
[ "$profile" = 0 ] || { guest_env="PROFILE=1 "; profile_arg=profile=2; }
[ -z "$only" ] || guest_env="${guest_env}ONLY='$only' "
[ -z "$hb_loops" ] || guest_env="${guest_env}HB_LOOPS=$hb_loops "

s=$AFFSCHED_TOP/scripts
# Bench mode's kernel adds AF_UNIX sockets for hackbench (configs/bench.config).
variant=
[ "$mode" != bench ] || variant=bench
build_guest "$arch" $variant

payload=$BUILD/demo-payload-$arch
rm -rf "$payload"
mkdir -p "$payload"
cp -a "$BUILD/selftests/$arch" "$payload/selftests"
cp "$s/guest/bench.sh" "$s/guest/osq-bench.sh" "$payload/"
[ "$mode" != bench ] || "$s/build/fetch-hackbench.sh" "$arch" "$payload/hackbench"
# The static reference of bench mode: 1 CPU, 2 CPUs of different clusters
# (arm64; on x86_64 two cores), a cluster (arm64 only) and a node.
case "$arch" in
arm64)
	topo=sockets=2,clusters=2,cores=2
	static="1cpu=0:2cpus=0,2:cluster=0-1:node=0-3"
	;;
x86_64)
	topo=sockets=2,cores=4
	static="1cpu=0:2cpus=0-1:node=0-3"
	;;
esac
# and the reserved-CPU cap at which the guest's busy CPUs do not outnumber
# the host's cores (TCG runs one host thread per vCPU).
cap=$((1000 * $(nproc) / 8)) # both topologies have 8 CPUs
[ "$cap" -le 1000 ] || cap=1000
[ "$mode" = bench ] || { static=""; cap=""; }
# In bench mode the OSQ tweaks follow in the same boot (guest/osq-bench.sh)
# with OSQ_COPIES copies of fstime: their placement-off runs without the
# spin cap collapse and take 10-30 times OSQ_SECONDS with 16 copies.
# OSQ_COPIES=0 leaves them out.
osq_copies=${OSQ_COPIES:-8}
[[ "$osq_copies" =~ ^(0|[1-9][0-9]*)$ ]] || die "OSQ_COPIES must be a non-negative integer (got '$osq_copies')"
osq_cmd=""
[ "$mode" != bench ] || [ "$osq_copies" -eq 0 ] ||
	osq_cmd=" && sh /payload/osq-bench.sh $rounds $secs_osq $osq_copies"
nstatic=$(echo "$static" | tr ':' ' ' | wc -w)
out=$BUILD/$mode-$arch.out
# Per round and enable state: context1 and shell8 run their seconds, each
# file test its copy pass + 19 (UnixBench's settles and the 2 s write and
# read passes); bench
# mode adds the capped runs, the sweep (nstatic + 1 per file test), the
# tracking runs (two for fsdisk, one for the others), hackbench and the
# OSQ runs; overhead mode the one-CPU fsdisk run and context1-1-beside
# (its copies' 3 s start and up to 20 s to be placed).  The limit allows
# 5 times that.
fsecs=$((secs_file + 19))
per=$((secs_ctx + secs_shell + 3 * fsecs))
[ "$mode" != overhead ] || per=$((per + fsecs + secs_ctx + 23))
timeout=$((rounds * 2 * per * 5 + 300))
if [ "$mode" = bench ]; then
	timeout=$((timeout + rounds * 5 * (3 * (nstatic + 3) * fsecs + 120)))
fi
[ -z "$osq_cmd" ] || timeout=$((timeout + rounds * 10 * (secs_osq * 10 + 60)))
# An instruction-counted guest runs far slower than its own clock.
[ "${AFFSCHED_ACCEL:-}" != icount ] || timeout=$((rounds * 2 * (per * 8 + 120) + 300))
est=$((2 * per))
[ "$mode" != bench ] || est=$((est + 3 * (nstatic + 3) * fsecs + 60))
secs=$secs_ctx,$secs_shell,$secs_file
log "running ${rounds} rounds: context1 ${secs_ctx}s, shell8 ${secs_shell}s, file copy pass ${secs_file}s" \
	"(about $((rounds * est / 60 + 1)) min${osq_cmd:+ and the OSQ runs})"
set +e
"$s/build/run-vm.sh" --arch "$arch" ${variant:+--variant "$variant"} --topology "$topo" --nodes 2 --payload "$payload" \
	${profile_arg:+--append "$profile_arg"} \
	--timeout "$timeout" -- "${guest_env}sh /payload/bench.sh $rounds $secs $pairs $copies $mode '$static' $cap$osq_cmd" |
	tee "$out"
st=${PIPESTATUS[0]}
set -e
[ "$st" -eq 0 ] || die "guest failed (exit $st); console log in $BUILD/vm-$arch.log"
echo
title="affsched on/off ($mode), $arch guest ($topo, 2 NUMA nodes${AFFSCHED_ACCEL:+, $AFFSCHED_ACCEL}), medians of $rounds alternating rounds"
echo "$title:"
# The same medians as a picture, next to the guest output.
png=$BUILD/$mode-$arch.png
rm -f "$png"
st=0
python3 "$s/bench/bench-table.py" ${static:+--targets} --png "$png" --title "$title" <"$out" || st=$?
[ ! -s "$png" ] || echo "picture: $png"
[ "$st" -eq 0 ] || exit "$st"
