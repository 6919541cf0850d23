#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-vm.sh [options] [--] COMMAND...
#
# Boot a kernel in QEMU with a given topology, load affsched.ko, run COMMAND
# (a shell command line) in /payload inside the guest, and exit with its
# status.  The guest's output after boot goes to stdout; the whole console
# log to --log.  TCG by default; KVM when /dev/kvm works for the guest arch.
#
# Options:
#   --arch x86_64|arm64     guest architecture (default: x86_64)
#   --kernel PATH           kernel image (default: build/obj/ARCH/...)
#   --variant V             the kernel and module of build-kernel.sh ARCH V
#                           (debug, kcsan or bench)
#   --topology SPEC         sockets=S,clusters=C,cores=K (clusters: arm64 only;
#                           default sockets=2,cores=4 on x86_64 and
#                           sockets=2,clusters=2,cores=2 on arm64)
#   --nodes N               NUMA nodes, CPUs split evenly (default 2)
#   --mem MB                guest memory (default 2048)
#   --module PATH           affsched.ko to load (default: build/module/ARCH)
#   --no-module             do not load the module
#   --payload DIR           copy DIR's files into /payload (repeatable)
#   --timeout SEC           kill the guest after SEC seconds (default 1200)
#   --log FILE              console log (default: build/vm-ARCH.log)
#   --append ARGS           extra kernel command line
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

arch=x86_64 kernel="" variant="" topo="" nodes=2 mem=2048 module="" load=1
timeout=1200 log="" append="" payloads=()
usage() {
	sed -n '3,26p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
need() { [ $# -ge 2 ] || { echo "run-vm.sh: $1 needs a value" >&2; usage; }; }
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) need "$@"; arch=$2; shift 2 ;;
	--kernel) need "$@"; kernel=$2; shift 2 ;;
	--variant) need "$@"; variant=$2; shift 2 ;;
	--topology) need "$@"; topo=$2; shift 2 ;;
	--nodes) need "$@"; nodes=$2; shift 2 ;;
	--mem) need "$@"; mem=$2; shift 2 ;;
	--module) need "$@"; module=$2; shift 2 ;;
	--no-module) load=0; shift ;;
	--payload) need "$@"; payloads+=("$2"); shift 2 ;;
	--timeout) need "$@"; timeout=$2; shift 2 ;;
	--log) need "$@"; log=$2; shift 2 ;;
	--append) need "$@"; append=$2; shift 2 ;;
	-h | --help) usage ;;
	--) shift; break ;;
	-*) echo "run-vm.sh: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "run-vm.sh: no command given" >&2; usage; }
karch "$arch" >/dev/null
[[ "$nodes" =~ ^[1-9][0-9]*$ ]] || die "--nodes must be a positive integer"
[[ "$mem" =~ ^[1-9][0-9]*$ ]] || die "--mem must be a number of MB"
[[ "$timeout" =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a number of seconds"
[ -n "$kernel" ] || kernel=$(kimage "$arch" "$variant")
[ -f "$kernel" ] || die "kernel $kernel not found (scripts/build/build-kernel.sh $arch)"
[ -n "$module" ] || module=$BUILD/module/$arch${variant:+-$variant}/affsched.ko
[ $load = 0 ] || [ -f "$module" ] || die "module $module not found (scripts/build/build-module.sh $arch)"
[ -n "$log" ] || log=$BUILD/vm-$arch.log

# Topology: sockets, clusters, cores
if [ -z "$topo" ]; then
	case "$arch" in
	x86_64) topo=sockets=2,cores=4 ;;
	arm64) topo=sockets=2,clusters=2,cores=2 ;;
	esac
fi
sockets=1 clusters=1 cores=1
IFS=, read -ra kv <<<"$topo"
for f in "${kv[@]}"; do
	k=${f%%=*} v=${f#*=}
	[[ "$v" =~ ^[1-9][0-9]*$ ]] || die "--topology: '$f' is not KEY=N"
	case "$k" in
	sockets) sockets=$v ;;
	clusters) clusters=$v ;;
	cores) cores=$v ;;
	*) die "--topology: unknown key '$k' (sockets, clusters, cores)" ;;
	esac
done
[ "$arch" = arm64 ] || [ "$clusters" = 1 ] || die "--topology: clusters need arm64"
ncpu=$((sockets * clusters * cores))
[ $((ncpu % nodes)) -eq 0 ] || die "$ncpu CPUs do not split evenly over $nodes nodes"
[ $((mem % nodes)) -eq 0 ] || die "--mem $mem does not split evenly over $nodes nodes"
smp="$ncpu,sockets=$sockets,cores=$cores,threads=1"
[ "$arch" = arm64 ] && smp="$ncpu,sockets=$sockets,clusters=$clusters,cores=$cores,threads=1"

numa=()
per=$((ncpu / nodes))
for ((n = 0; n < nodes; n++)); do
	numa+=(-object "memory-backend-ram,id=m$n,size=$((mem / nodes))M"
	       -numa "node,nodeid=$n,cpus=$((n * per))-$((n * per + per - 1)),memdev=m$n")
done

# Payload: the command, the module, and the given directories
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/payload"
for d in "${payloads[@]}"; do
	[ -d "$d" ] || die "--payload $d is not a directory"
	cp -a "$d"/. "$work/payload/"
done
{
	echo "set -e"
	if [ $load = 1 ]; then
		echo "insmod /payload/affsched.ko"
	fi
	echo "set +e"
	printf '%s\n' "$*"
} >"$work/payload/run.sh"
[ $load = 0 ] || cp "$module" "$work/payload/affsched.ko"
"$AFFSCHED_TOP/scripts/build/mkinitramfs.sh" "$arch" "$work/initrd.gz" "$work/payload"

# The accelerator: vm_accel (lib.sh), KVM where it can run the guest.
# AFFSCHED_ACCEL=icount runs TCG with instruction counting: one host
# thread runs every vCPU in turn and the guest's clocks count executed
# instructions (1 ns each), not host time; slower, but a run's timings no
# longer depend on how the host schedules vCPUs (for overhead runs).
accel=$(vm_accel "$arch") || exit 1
icount=()
[ "${AFFSCHED_ACCEL:-}" != icount ] || icount=(-icount shift=0,sleep=off)
case "$arch" in
x86_64)
	qemu=qemu-system-x86_64
	machine=(-M pc -cpu max)
	[ "$accel" != kvm ] || machine=(-M pc -cpu host)
	console=ttyS0
	;;
arm64)
	qemu=qemu-system-aarch64
	machine=(-M virt,gic-version=3 -cpu max,pauth-impdef=on)
	[ "$accel" != kvm ] || machine=(-M virt,gic-version=3 -cpu host)
	console=ttyAMA0
	;;
esac
command -v "$qemu" >/dev/null || "$AFFSCHED_TOP/scripts/build/deps.sh"

mkdir -p "$(dirname "$log")"
log "booting $arch ($smp, $nodes nodes, ${mem} MB, $accel${icount:+ ${icount[*]}})"
set +e
timeout --foreground -k 10 "$timeout" "$qemu" -accel "$accel" "${icount[@]}" "${machine[@]}" \
	-smp "$smp" -m "${mem}M" "${numa[@]}" \
	-kernel "$kernel" -initrd "$work/initrd.gz" \
	-append "console=$console panic=-1 oops=panic loglevel=7 $append" \
	-nographic -no-reboot -monitor none -serial stdio </dev/null \
	2>&1 | sed -u 's/\r$//' | tee "$log" | sed -u -n '/^AFFSCHED-BEGIN$/,$p' | sed -u '/^AFFSCHED-BEGIN$/d'
set -e
rc=$(sed -n 's/^AFFSCHED-EXIT \([0-9]*\)$/\1/p' "$log" | tail -n 1)
if [ -z "$rc" ]; then
	echo "run-vm.sh: the guest did not finish (panic, hang or timeout after ${timeout}s); see $log" >&2
	exit 125
fi
exit "$rc"
