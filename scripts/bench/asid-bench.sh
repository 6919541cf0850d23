#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# asid-bench.sh [ROUNDS [SECONDS [RUNS]]]
#
# ctx (pipe ping-pong, one pair) in the arm64 guest, on the series kernel
# ("after", build/obj/arm64) against the same tree without the series'
# arm64 context-switch patches ("before": the parent of the first commit
# that changes arch/arm64/mm/context.c, built in build/obj/arm64-before
# from a copy of build/obj/arm64, so that only what differs is rebuilt).
# The kernels boot alternately, ROUNDS times each (default 3, order
# before/after in odd rounds and after/before in even ones); each boot
# runs ctx RUNS times (default 3) for SECONDS each (default 5), with
# affsched not loaded.  Prints one line per run and the medians:
#   ASID-BENCH kernel=<before|after> round=<r> run=<k> lps=<round trips/s>
#   ASID-BENCH-MEDIAN before=<lps> after=<lps> ratio=<after/before>
# TCG executes ISB as an end of translation block, not as a pipeline
# flush: this shows that nothing got slower, not what an ISB costs on
# hardware.  Needs the arm64 kernel and selftests built.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

rounds=${1:-3} secs=${2:-5} runs=${3:-3}
for v in "$rounds" "$secs" "$runs"; do
	[[ "$v" =~ ^[1-9][0-9]*$ ]] && [ "$v" -le 100 ] ||
		die "usage: asid-bench.sh [ROUNDS [SECONDS [RUNS]]] (integers 1..100, got '$v')"
done
after=$BUILD/obj/arm64
before=$BUILD/obj/arm64-before
[ -f "$(kimage arm64)" ] || die "no arm64 kernel (scripts/build/build-kernel.sh arm64)"
[ -x "$BUILD/selftests/arm64/ctx" ] || die "no arm64 selftests (scripts/build/build-selftests.sh arm64)"

first=$(git -C "$KSRC" log --reverse --format=%H "$BASE_TAG..$BRANCH" -- arch/arm64/mm/context.c | head -n 1)
[ -n "$first" ] || die "the series does not change arch/arm64/mm/context.c"
git -C "$KSRC" diff --quiet && git -C "$KSRC" diff --cached --quiet ||
	die "$KSRC has uncommitted changes"

# the "before" kernel: the tree at the parent of $first, then back
log "building the arm64 kernel without $(git -C "$KSRC" log -1 --format=%s "$first")"
rm -rf "$before"
cp -a "$after" "$before"
git -C "$KSRC" checkout -q --detach "$first~1"
st=0
AFFSCHED_OBJ=$before AFFSCHED_ALLOW_MISSING=1 "$AFFSCHED_TOP/scripts/build/build-kernel.sh" arm64 >&2 || st=$?
git -C "$KSRC" checkout -q "$BRANCH"
[ $st -eq 0 ] || die "building the 'before' kernel failed"

work=$BUILD/asid-bench
rm -rf "$work"
mkdir -p "$work/payload"
cp "$BUILD/selftests/arm64/ctx" "$work/payload/"
cat >"$work/payload/ctx-runs.sh" <<EOF
#!/bin/sh
i=1
while [ \$i -le $runs ]; do
	/payload/ctx -p 1 -t $secs | sed -n 's/^# score \([0-9.]*\) lps/RUN \1/p'
	i=\$((i + 1))
done
EOF

out=$work/runs.txt
: >"$out"
for ((r = 1; r <= rounds; r++)); do
	if ((r % 2)); then order="before after"; else order="after before"; fi
	for k in $order; do
		if [ "$k" = before ]; then img=$before/arch/arm64/boot/Image; else img=$after/arch/arm64/boot/Image; fi
		"$AFFSCHED_TOP/scripts/build/run-vm.sh" --arch arm64 --kernel "$img" --no-module \
			--payload "$work/payload" --log "$work/vm-$k-$r.log" --timeout 900 \
			-- sh /payload/ctx-runs.sh >"$work/out-$k-$r.txt" 2>&1 ||
			die "the $k guest failed (round $r, log $work/vm-$k-$r.log)"
		n=0
		while read -r _ lps; do
			n=$((n + 1))
			echo "ASID-BENCH kernel=$k round=$r run=$n lps=$lps" | tee -a "$out"
		done < <(grep '^RUN ' "$work/out-$k-$r.txt")
		[ "$n" -eq "$runs" ] || die "the $k guest printed $n of $runs results (round $r)"
	done
done

python3 - "$out" <<'EOF'
import re, statistics, sys
v = {"before": [], "after": []}
for line in open(sys.argv[1]):
    m = re.match(r"ASID-BENCH kernel=(\w+) round=\d+ run=\d+ lps=([0-9.]+)", line)
    if m:
        v[m.group(1)].append(float(m.group(2)))
b, a = statistics.median(v["before"]), statistics.median(v["after"])
print(f"ASID-BENCH-MEDIAN before={b:.1f} after={a:.1f} ratio={a / b:.3f}")
EOF
