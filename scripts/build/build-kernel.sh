#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh ARCH [VARIANT]
#
# Configure and build a minimal QEMU guest kernel from $KSRC (the tree with
# the series applied) in build/obj/ARCH[-VARIANT].  ARCH is x86_64 or arm64;
# VARIANT 'debug' adds configs/debug.config (lockdep and friends) and
# configs/debug-ARCH.config; VARIANT 'kcsan' (x86_64 only) adds
# configs/kcsan-x86_64.config, the data race detector; VARIANT 'bench'
# adds configs/bench.config (AF_UNIX sockets for hackbench, make bench).
# The configuration is allnoconfig plus the fragments in configs/; every
# option a fragment asks for is checked to be in the result.
# Incremental: re-running after a source change rebuilds only what changed.
# AFFSCHED_OBJ overrides the object directory; AFFSCHED_PREPARE_ONLY=1 stops
# after 'make prepare' (enough to compile single objects).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

arch=${1:-}
variant=${2:-}
[ -n "$arch" ] || die "usage: build-kernel.sh x86_64|arm64 [debug|kcsan|bench]"
karch=$(karch "$arch")
cross=$(kcross "$arch")
case "$variant" in
"" | debug | bench) ;;
kcsan) [ "$arch" = x86_64 ] || die "variant 'kcsan' is x86_64 only: 5.10 has no arm64 KCSAN" ;;
*) die "unknown variant '$variant' (only 'debug', 'kcsan' or 'bench')" ;;
esac

obj=${AFFSCHED_OBJ:-$BUILD/obj/$arch${variant:+-$variant}}
mkdir -p "$obj"
cfgdir=$AFFSCHED_TOP/configs
frags=("$cfgdir/guest-common.config" "$cfgdir/qemu-$arch.config" "$cfgdir/affsched.config")
if [ "$variant" = debug ]; then
	frags+=("$cfgdir/debug.config")
	[ -f "$cfgdir/debug-$arch.config" ] && frags+=("$cfgdir/debug-$arch.config")
fi
[ "$variant" = kcsan ] && frags+=("$cfgdir/kcsan-$arch.config")
[ "$variant" = bench ] && frags+=("$cfgdir/bench.config")

mk() {
	make -C "$KSRC" O="$obj" ARCH="$karch" CROSS_COMPILE="$cross" "$@"
}

# Configure from scratch every time: cheap, and correct when the tree moved
# to a commit whose Kconfig differs (kconfig only rewrites what changed, so
# an unchanged configuration rebuilds nothing).
cat "${frags[@]}" >"$obj/fragment.config"
log "configuring $arch${variant:+ ($variant)} kernel in $obj"
mk -s KCONFIG_ALLCONFIG="$obj/fragment.config" allnoconfig

# Every option the fragments ask for must have made it into .config: the
# last fragment's word on each (a variant's fragment may override a common
# one, as configs/debug-arm64.config does with the preemption model).
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=n) opt=${line%%=*}
		grep -q "^$opt=" "$obj/.config" && { echo "  $opt: wanted n" >&2; missing=1; } ;;
	CONFIG_*=*) grep -qxF "$line" "$obj/.config" || { echo "  $line: not set" >&2; missing=1; } ;;
	esac
done < <(grep -h '^CONFIG_' "${frags[@]}" | tac | awk -F= '!seen[$1]++')
if [ $missing -ne 0 ] && [ "${AFFSCHED_ALLOW_MISSING:-0}" != 1 ]; then
	die "$arch config lacks options above (is the series applied to $KSRC?)"
fi

if [ "${AFFSCHED_PREPARE_ONLY:-0}" = 1 ]; then
	log "preparing $obj for single-object builds"
	mk -s -j"$JOBS" prepare
	exit 0
fi
log "building $arch${variant:+ ($variant)} kernel"
mk -s -j"$JOBS" ${W:+W=$W}
case "$arch" in
x86_64) echo "$obj/arch/x86/boot/bzImage" ;;
arm64) echo "$obj/arch/arm64/boot/Image" ;;
esac
