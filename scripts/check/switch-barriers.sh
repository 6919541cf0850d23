#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# switch-barriers.sh: count the barriers and atomics on the arm64 context
# switch path, without and with the series, in the built objects.
#
# The path is check_and_switch_context() in arch/arm64/mm/context.o (with
# cpu_switch_mm() and whatever else the compiler inlined) and
# cpu_do_switch_mm(), which it calls.  "before" is the same object
# compiled from the base tree ($BASE_TAG, in the worktree
# build/linux-base, guest configuration), "after" the one in
# build/obj/arm64.  Counted statically over each whole function: ISB; DSB
# and DMB; atomic read-modify-writes and exclusives (LSE CAS/LD<op>/
# ST<op>/SWP, LDXR/STXR and their variants); MSRs to TTBR0_EL1/TTBR1_EL1.
#
# Fails if any count grows, or unless check_and_switch_context() has
# fewer ISBs and TTBR writes (arm64-mm patch 2).
# Needs the arm64 kernel built (scripts/build/build-kernel.sh arm64).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -eq 0 ] || die "usage: switch-barriers.sh (no arguments)"
cross=$(kcross arm64)
obj=$BUILD/obj/arm64
o=arch/arm64/mm/context.o
[ -f "$obj/$o" ] || die "no $obj/$o: build the arm64 kernel first (scripts/build/build-kernel.sh arm64)"

bobj=$(base_obj arm64)
make -s -C "$BUILD/linux-base" O="$bobj" ARCH=arm64 CROSS_COMPILE="$cross" "$o" ||
	die "cannot compile $o at $BASE_TAG"

# counts OBJECT FUNCTION: "ISB DSB/DMB ATOMICS TTBR-WRITES" in FUNCTION
counts() {
	"${cross}objdump" -d --no-show-raw-insn "$1" | awk -v want="$2" '
	/^[0-9a-f]+ <[^>]+>:$/ {
		fn = $2; gsub(/[<>:]/, "", fn); next
	}
	fn != want { next }
	/^[ \t]+[0-9a-f]+:\t/ {
		split($0, f, "\t"); m = f[2]; ops = f[3]
		if (m == "isb") n["isb"]++
		else if (m ~ /^(dsb|dmb)$/) n["dsb"]++
		else if (m ~ /^(cas|ld[a]?xr|st[l]?xr|ld[a]?xp|st[l]?xp|swp|ld(add|clr|eor|set|smax|smin|umax|umin)|st(add|clr|eor|set|smax|smin|umax|umin))/) n["atomic"]++
		else if (m == "msr" && ops ~ /^ttbr[01]_el1,/) n["ttbr"]++
	}
	END { print n["isb"] + 0, n["dsb"] + 0, n["atomic"] + 0, n["ttbr"] + 0 }'
}

echo "arm64 context switch path, static counts in arch/arm64/mm/context.o"
echo "(whole functions: the rollover slow path, both variants of each atomic"
echo "and the compiler's duplicated tails included)"
printf '%-26s %-7s %4s %8s %8s %12s\n' function "" ISB DSB/DMB atomics "TTBR writes"
bad=0
for fn in check_and_switch_context cpu_do_switch_mm; do
	read -r b_isb b_dsb b_at b_ttbr < <(counts "$bobj/$o" "$fn")
	read -r a_isb a_dsb a_at a_ttbr < <(counts "$obj/$o" "$fn")
	printf '%-26s %-7s %4s %8s %8s %12s\n' "$fn" before "$b_isb" "$b_dsb" "$b_at" "$b_ttbr"
	printf '%-26s %-7s %4s %8s %8s %12s\n' "" after "$a_isb" "$a_dsb" "$a_at" "$a_ttbr"
	echo "SWITCH-BARRIERS $fn isb $b_isb->$a_isb dsb $b_dsb->$a_dsb atomics $b_at->$a_at ttbr $b_ttbr->$a_ttbr"
	[ "$a_dsb" -le "$b_dsb" ] && [ "$a_at" -le "$b_at" ] && [ "$a_isb" -le "$b_isb" ] &&
		[ "$a_ttbr" -le "$b_ttbr" ] || bad=1
	# The series removes the second reserved-TTBR0 write and its ISB.
	if [ "$fn" = check_and_switch_context ]; then
		[ "$a_isb" -lt "$b_isb" ] && [ "$a_ttbr" -lt "$b_ttbr" ] || bad=1
	fi
done
exit $bad
