#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# large-guest.sh - placement on a Kunpeng-like shape, as a function check.
#
# Boots an arm64 guest of LARGE_CPUS vCPUs (default 32: 4 sockets x 2
# clusters x 4 cores, one NUMA node per socket, as a Kunpeng 920 has 4
# nodes of clusters of 4) and runs guest/large.sh there: LARGE_COPIES
# (64) copies of UnixBench's fsdisk on shared files with enable 1 beside
# CPU hogs, and checks that a group forms and is placed on one node, on
# the fewest whole clusters, and that the hogs stay off its CPUs.  32
# vCPUs under TCG on a 2-core host run slowly (about 10 minutes with the
# kernel built): this shows function, not speed.  5.10.y has no cluster
# sched domain on arm64 (openEuler's CONFIG_SCHED_CLUSTER adds it), so
# there a sub-domain is carved CPU by CPU within the node's LLC and the
# cluster check is skipped; the KUnit suite affsched_topology checks the
# cluster rounding on synthetic topologies.
#
# Environment: LARGE_COPIES (64), LARGE_SECONDS (copy pass, 30),
# LARGE_NODES (4), LARGE_TOPOLOGY (sockets=4,clusters=2,cores=4), KSRC.
# Exit status: the guest's (0 every check passed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

copies=${LARGE_COPIES:-64}
secs=${LARGE_SECONDS:-30}
nodes=${LARGE_NODES:-4}
topo=${LARGE_TOPOLOGY:-sockets=4,clusters=2,cores=4}
for v in copies secs nodes; do
	[[ "${!v}" =~ ^[1-9][0-9]*$ ]] || die "LARGE_${v^^} must be a positive integer (got '${!v}')"
done
[[ "$topo" =~ ^sockets=[1-9][0-9]*,clusters=[1-9][0-9]*,cores=[1-9][0-9]*$ ]] ||
	die "LARGE_TOPOLOGY must be sockets=S,clusters=C,cores=K (got '$topo')"
cores=${topo##*cores=}

s=$AFFSCHED_TOP/scripts
"$s/build/deps.sh"
"$s/build/prepare-base.sh"
"$s/build/apply-series.sh"
"$s/build/build-kernel.sh" arm64 >/dev/null
"$s/build/build-module.sh" arm64 >/dev/null
"$s/build/build-selftests.sh" arm64 >/dev/null

payload=$BUILD/large-payload
rm -rf "$payload"
mkdir -p "$payload"
cp -a "$BUILD/selftests/arm64" "$payload/selftests"
cp "$s/guest/large.sh" "$payload/"
out=$BUILD/large-arm64.out
set +e
"$s/build/run-vm.sh" --arch arm64 --topology "$topo" --nodes "$nodes" --mem 4096 \
	--payload "$payload" --timeout 5400 --log "$BUILD/vm-large.log" -- \
	"sh /payload/large.sh $copies $secs $cores" | tee "$out"
st=${PIPESTATUS[0]}
set -e
echo
echo "large guest ($topo, $nodes nodes): $(grep -c '^ok ' "$out") passed, $(grep -c '^not ok ' "$out") failed; output in $out"
exit "$st"
