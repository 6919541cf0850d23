#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# models-check.sh - check the spin models in models/ exhaustively.
#
# For each check: spin -a generates the verifier (pan.c) from the model
# with the check's -D switches, gcc compiles it, and pan searches the whole
# state space (no bitstate hashing: every search is exhaustive, and one that
# runs out of memory or depth counts as failed).  One line per check gives
# the states stored, the depth reached, the errors and the time.
#
#   pass checks:  the model as the kernel has it; spin must find no error
#   witnesses:    an assert that a bound is never reached; spin must break
#                 it, showing that the pass checks do reach the bound
#   mutants:      the model with a planted bug; spin must find an error
#
# models-check.sh [--full]: make check runs the claims (every check below
# but those marked "full": the series' own configurations, every witness
# and mutant, the base allocator under interrupts); --full (make
# check-models-full) adds the larger configurations of the OSQ with two
# rounds, the wait bound with two rounds, and the base ASID allocator
# without interrupts (169 of 270 million states).
#
# Needs spin and gcc (scripts/build/deps.sh installs spin).  The verifiers are
# built in a temporary directory under $AFFSCHED_BUILD/models/ (default
# build/models/), removed afterwards unless a check failed.  Ends with
# "model checks: N passed, M failed"; exits non-zero if any check failed.
# The checks run $MODEL_JOBS at a time (default: one per CPU), each with
# at most $MODEL_MEMLIM MB (default 4000; the largest search takes ~1.9 GB).
# About 4.6 minutes of CPU, 139 s on two CPUs (2026-12-03, alone on the
# make check machine): models/osq.pml about 87 s of searches,
# models/asid.pml about 95 s, the rest spin -a and gcc.  In make check it
# runs at nice 19 beside the builds and guests and takes 13 to 23 minutes.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

FULL=0
case "${1:-}" in
"") ;;
--full) FULL=1 ;;
*) die "usage: models-check.sh [--full]" ;;
esac

command -v spin >/dev/null 2>&1 ||
	die "spin not found: install the Debian package 'spin' (scripts/build/deps.sh does)"
command -v gcc >/dev/null 2>&1 ||
	die "gcc not found: install the Debian package 'gcc' (scripts/build/deps.sh does)"

# model FILE: the model of the checks that follow (in models/)
model() {
	MODEL=$AFFSCHED_TOP/models/$1
	[ -f "$MODEL" ] || die "no model at $MODEL"
}

# Memory cap of one verifier, in MB: a search that needs more stops with
# "out of memory" and fails instead of taking the machine down.
MEMLIM=${MODEL_MEMLIM:-4000}
JOBS=${MODEL_JOBS:-$(nproc)}

mkdir -p "$BUILD/models"
work=$(mktemp -d "$BUILD/models/check.XXXXXX")
pass=0 fail=0 n=0 left=0
start=$SECONDS

# field OUT REGEX : the first match of the Perl REGEX's \K part in OUT
field() {
	grep -oP "$2" "$1" | head -n 1 || true
}

# check KIND NAME MODE FLAGS [EXPECT]
#   KIND   pass (no error allowed) or fail (an error matching EXPECT, an
#          extended regex on pan's first error line, is required)
#   MODE   safety (assertions, invalid end states) or liveness (the LTL
#          property 'progress', acceptance cycles under weak fairness)
#   FLAGS  -D switches of the model
# run_check N KIND NAME MODE FLAGS [EXPECT]: check N, in the background;
# prints its one "ok"/"not ok" line
run_check() {
	local n=$1 kind=$2 name=$3 mode=$4 flags=$5 expect=${6:-}
	local dir cflags runflags out states depth errors secs first verdict why
	local incomplete pml=${MODEL##*/}

	dir=$work/$n
	mkdir -p "$dir"
	cp "$MODEL" "$dir/$pml"
	out=$dir/pan.out
	case $mode in
	safety)
		cflags="-DSAFETY -DCOLLAPSE"
		runflags="-m10000 -w25"
		;;
	liveness)
		flags="$flags -DLIVENESS"
		cflags="-DCOLLAPSE"
		runflags="-a -f -m20000 -w25"
		;;
	esac

	# shellcheck disable=SC2086 # the flag lists are meant to be split
	if ! (cd "$dir" && spin $flags -a "$pml") >"$dir/spin.log" 2>&1 ||
		! (cd "$dir" && gcc -O2 -w $cflags -DMEMLIM="$MEMLIM" -o pan pan.c) \
			>"$dir/gcc.log" 2>&1; then
		echo "not ok $n - $name: the verifier does not build (see $dir)"
		return 0
	fi
	# shellcheck disable=SC2086
	(cd "$dir" && ./pan $runflags) >"$out" 2>&1 || true

	states=$(field "$out" '^\s*\K[0-9.e+]+(?= states, stored)')
	depth=$(field "$out" 'depth reached \K[0-9]+')
	errors=$(field "$out" 'errors: \K[0-9]+')
	secs=$(field "$out" 'elapsed time \K[0-9.e+]+')
	first=$(grep -m 1 -E '^pan:1: ' "$out" | sed 's/^pan:1: //' || true)

	# pan stops at the first error ("Search not completed" then too):
	# an error found counts, a search cut short without one does not
	why=
	incomplete='out of memory|MEMLIM bound|max search depth too small|search not completed'
	if [ -z "$errors" ] || [ -z "$states" ]; then
		why="no result from pan"
	elif [ "$errors" -ne 0 ]; then
		if [ "$kind" = pass ]; then
			why="error: $first"
		elif ! echo "$first" | grep -qE "$expect"; then
			why="unexpected error: $first (expected /$expect/)"
		fi
	elif grep -qiE "$incomplete" "$out"; then
		why="search incomplete: $(grep -m 1 -iE "$incomplete" "$out")"
	elif [ "$kind" = fail ]; then
		why="no error found, expected one matching /$expect/"
	fi

	verdict="$states states, depth $depth, $errors errors, ${secs:-0} s"
	[ "$kind" = fail ] && [ -z "$why" ] && verdict="$verdict; caught: $first"
	if [ -z "$why" ]; then
		echo "ok $n - $name: $verdict"
		rm -rf "$dir"
	else
		echo "not ok $n - $name: $verdict; $why (see $dir)"
	fi
}

# check KIND NAME MODE FLAGS [EXPECT]: queue the next check on the model
# named last; at most $JOBS run at once, and every search is independent
# (its own directory, pan and memory limit), so only the time changes.
check() {
	n=$((n + 1))
	echo "$MODEL" >"$work/$n.model"
	while [ "$(jobs -pr | wc -l)" -ge "$JOBS" ]; do
		wait -n || true
	done
	run_check "$n" "$@" >"$work/$n.res" 2>&1 &
}

# full ARGS: check ARGS with --full, else only count it as left out
full() {
	if [ $FULL = 1 ]; then
		check "$@"
	else
		left=$((left + 1))
	fi
}

# === models/osq.pml: the OSQ (kernel/locking/osq_lock.c) ===============
model osq.pml

# --- the protocol: P1 mutual exclusion, P2 list integrity, P3 bounds -----
# 4 CPUs on 2 nodes.  R=1: one osq_lock()/osq_unlock() round per CPU
# (re-queueing after passing a turn included); RX: bit mask of the CPUs
# that run a second round (bit 0 = CPU 1).  All four CPUs with two rounds
# and the unqueue path is over 120 million states; see models/README.md.
check pass "safety B=1, 1 round each" safety "-DB=1 -DR=1"
full pass "safety B=1, CPUs 1,2 (node 0) 2 rounds" safety "-DB=1 -DR=1 -DRX=3"
check pass "safety B=2, CPUs 1,3 (one per node) 2 rounds" safety "-DB=2 -DR=1 -DRX=5"
full pass "safety B=2, no unqueue, 2 rounds each" safety "-DB=2 -DR=2 -DNO_UNQUEUE"

# --- P4: every CPU that enters osq_lock() leaves it ------------------------
check pass "liveness B=1, 1 round each" liveness "-DB=1 -DR=1"
check pass "liveness B=2, no unqueue, CPUs 1,3 2 rounds" liveness "-DB=2 -DR=1 -DRX=5 -DNO_UNQUEUE"

# --- witnesses: the bounds are reached in the configurations above -------
check fail "witness streak B=1" safety "-DB=1 -DR=1 -DWITNESS_STREAK" 'assertion violated'
check fail "witness yields B=1" safety "-DB=1 -DR=1 -DWITNESS_YIELDS" 'assertion violated \(yields<1\)'
check fail "witness streak B=2" safety "-DB=2 -DR=1 -DRX=5 -DWITNESS_STREAK" 'assertion violated'
check fail "witness yields B=2" safety "-DB=2 -DR=1 -DRX=5 -DWITNESS_YIELDS" 'assertion violated \(yields<2\)'

# --- P3, the wait of a spinner: per trip and per osq_lock() call ---------
# The ghost counters (-DWAIT_BOUND) multiply the states: 1 round each is
# 5.5 million states (10 s), a second round for CPU 1 41 million (100 s,
# 1.9 GB).  The witness shows a spinner passed over by NCPU - 2 hand-offs
# in one trip.
check pass "wait bound B=1, 1 round each" safety "-DB=1 -DR=1 -DWAIT_BOUND"
full pass "wait bound B=1, CPU 1 2 rounds" safety "-DB=1 -DR=1 -DRX=1 -DWAIT_BOUND"
check fail "witness trip B=1" safety "-DB=1 -DR=1 -DWAIT_BOUND -DWITNESS_TRIP" \
	'assertion violated \(trip'

# --- mutants: planted bugs that must be caught ---------------------------
check fail "mutant MUT_NO_STREAK_BOUND (streak < B not tested)" safety \
	"-DB=1 -DR=1 -DRX=5 -DMUT_NO_STREAK_BOUND" 'assertion violated'
check fail "mutant MUT_NO_YIELD_BOUND (yields < B not tested)" safety \
	"-DB=1 -DR=1 -DRX=3 -DMUT_NO_YIELD_BOUND" 'assertion violated \(yields<=1\)'
check fail "mutant MUT_YIELD_DIRECT (turn passed to a successor read earlier)" safety \
	"-DB=1 -DR=1 -DMUT_YIELD_DIRECT" 'assertion violated \(linked'
check fail "mutant MUT_UNLOCK_NOXCHG (node->next taken by load and store)" safety \
	"-DB=1 -DR=1 -DMUT_UNLOCK_NOXCHG" 'invalid end state'
check fail "mutant MUT_UNLOCK_NOWAIT (unlock without osq_wait_next), liveness" liveness \
	"-DB=1 -DR=1 -DNO_UNQUEUE -DMUT_UNLOCK_NOWAIT" 'acceptance cycle'

# === models/asid.pml: the arm64 ASID allocator (arch/arm64/mm/context.c) ===
model asid.pml

# --- P1 distinct ASIDs, P2 no stale TLB entry, P0, no deadlock -----------
# Warm start (every ASID of generation 1 used up): 3 CPUs, 2 switches each
# reach two rollovers and the fast path's cmpxchg() losing to one.  Cold
# start (after boot): 2 CPUs, 4 mms, CPU 0 three switches, CPU 1 four: the
# configuration where the pre-a8ffaaa060b8 fast path goes wrong.
full pass "asid: 3 CPUs, warm, 2 switches each" safety "-DSW=2"
full pass "asid CNP: 3 CPUs, warm, 2 switches each" safety "-DCNP -DSW=2"
full pass "asid: 2 CPUs, 4 mms, cold, 3+4 switches" safety \
	"-DNCPU=2 -DNMM=4 -DSW=3 -DSWX=2 -DCOLD"
full pass "asid CNP: 2 CPUs, 4 mms, cold, 3+4 switches" safety \
	"-DCNP -DNCPU=2 -DNMM=4 -DSW=3 -DSWX=2 -DCOLD"

# --- witnesses: the pass configurations reach the last generation and the
# fast path's race with a rollover ------------------------------------------
check fail "asid witness: generation GENS reached, 3 CPUs warm" safety \
	"-DSW=2 -DWITNESS_ROLLOVER" 'assertion violated \(gen<3\)'
check fail "asid witness: generation GENS reached, 2 CPUs cold" safety \
	"-DNCPU=2 -DNMM=4 -DSW=3 -DSWX=2 -DCOLD -DWITNESS_ROLLOVER" 'assertion violated \(gen<3\)'
check fail "asid witness: cmpxchg() loses to a rollover, 3 CPUs warm" safety \
	"-DSW=2 -DWITNESS_RACE" 'assertion violated witness_no_race'
check fail "asid witness: cmpxchg() loses to a rollover, CNP" safety \
	"-DCNP -DSW=2 -DWITNESS_RACE" 'assertion violated witness_no_race'

# --- mutants ---------------------------------------------------------------
check fail "asid mutant MUT_REPLACE_ZERO (fast path before a8ffaaa060b8)" safety \
	"-DNCPU=2 -DNMM=4 -DSW=3 -DSWX=2 -DCOLD -DMUT_REPLACE_ZERO" 'assertion violated P[12]_'
check fail "asid mutant MUT_REPLACE_ZERO, P1 only (two mms, one ASID)" safety \
	"-DNCPU=2 -DNMM=4 -DSW=3 -DSWX=2 -DCOLD -DMUT_REPLACE_ZERO -DNO_P2" \
	'assertion violated P1_distinct_asids'
check fail "asid mutant MUT_REPLACE_ZERO, CNP" safety \
	"-DCNP -DNCPU=2 -DNMM=4 -DSW=3 -DSWX=2 -DCOLD -DMUT_REPLACE_ZERO" 'assertion violated P[12]_'
check fail "asid mutant MUT_NO_FLUSH (rollover sets no tlb_flush_pending)" safety \
	"-DNCPU=2 -DNMM=4 -DSW=3 -DSWX=2 -DCOLD -DMUT_NO_FLUSH" 'assertion violated P2_no_stale_tlb_entry'
check fail "asid mutant MUT_NO_RESERVED (running ASIDs not kept)" safety \
	"-DSW=2 -DMUT_NO_RESERVED" 'assertion violated P1_distinct_asids'
check fail "asid mutant MUT_NO_RESERVED_TTBR0 (cpu_switch_mm without it)" safety \
	"-DSW=2 -DMUT_NO_RESERVED_TTBR0" 'assertion violated P2_no_stale_tlb_entry'
check fail "asid mutant MUT_NO_CNP_RESERVED_TTBR0 (CnP: none at the start)" safety \
	"-DCNP -DSW=2 -DMUT_NO_CNP_RESERVED_TTBR0" 'assertion violated P2_no_stale_tlb_entry'

# --- arm64-mm patch 2: one reserved-TTBR0 write, first, per switch ----
check pass "asid SERIES: 3 CPUs, warm, 2 switches each" safety "-DSERIES -DSW=2"
check pass "asid SERIES CNP: 3 CPUs, warm, 2 switches each" safety "-DSERIES -DCNP -DSW=2"
check pass "asid SERIES CNP: 2 CPUs, 4 mms, cold, 3+4 switches" safety \
	"-DSERIES -DCNP -DNCPU=2 -DNMM=4 -DSW=3 -DSWX=2 -DCOLD"
check fail "asid SERIES mutant MUT_NO_RESERVED_TTBR0 (no reserved TTBR0)" safety \
	"-DSERIES -DSW=2 -DMUT_NO_RESERVED_TTBR0" 'assertion violated P2_no_stale_tlb_entry'
check fail "asid SERIES mutant MUT_NO_RESERVED_TTBR0, CNP" safety \
	"-DSERIES -DCNP -DSW=2 -DMUT_NO_RESERVED_TTBR0" 'assertion violated P2_no_stale_tlb_entry'
check fail "asid SERIES mutant MUT_REPLACE_ZERO, CNP" safety \
	"-DSERIES -DCNP -DNCPU=2 -DNMM=4 -DSW=3 -DSWX=2 -DCOLD -DMUT_REPLACE_ZERO" 'assertion violated P[12]_'

# --- interrupts (-DIRQ): an EFI call from an interrupt, switching to efi_mm
# and back to current->active_mm, at any point of a switch with interrupts
# on; 2 CPUs, warm.  Back to the next mm (exec_mmap()): the series passes,
# and so does 5.10 with CnP; 5.10 without CnP does not (its rollover can
# recycle the ASID still in TTBR1 while TTBR0 still points at the previous
# mm).  Back to the previous mm (-DIRQ_PREV: a pseudo-NMI inside
# context_switch(), only at an oops or panic): both go wrong, the case
# arm64-mm patch 2's message names.
check pass "asid SERIES IRQ: 2 CPUs, warm, an interrupt anywhere" safety \
	"-DIRQ -DSERIES -DNCPU=2 -DSW=2"
check pass "asid SERIES CNP IRQ: 2 CPUs, warm, an interrupt anywhere" safety \
	"-DIRQ -DSERIES -DCNP -DNCPU=2 -DSW=2"
check pass "asid CNP IRQ (5.10 with CnP): 2 CPUs, warm" safety "-DIRQ -DCNP -DNCPU=2 -DSW=2"
check fail "asid IRQ, 5.10 without CnP: a nested rollover frees the ASID in TTBR1" safety \
	"-DIRQ -DNCPU=2 -DSW=2" 'assertion violated P2_no_stale_tlb_entry'
check fail "asid witness: an interrupt's switch changes active_asids before the cmpxchg" safety \
	"-DIRQ -DSERIES -DNCPU=2 -DSW=2 -DWITNESS_IRQ" 'assertion violated \(act'
check fail "asid SERIES IRQ_PREV: back to the previous mm, a wrong pair" safety \
	"-DIRQ -DIRQ_PREV -DSERIES -DNCPU=2 -DSW=2" 'assertion violated P2_no_stale_tlb_entry'
check fail "asid IRQ_PREV, 5.10 with CnP: the same" safety \
	"-DIRQ -DIRQ_PREV -DCNP -DNCPU=2 -DSW=2" 'assertion violated P2_no_stale_tlb_entry'

wait
# The results in order, with a header line where the model changes.
last=
i=1
while [ $i -le $n ]; do
	m=$(cat "$work/$i.model")
	[ "$m" = "$last" ] || echo "# $m, spin $(spin -V | sed -n 's/^Spin Version \([^ ]*\).*/\1/p'), exhaustive"
	last=$m
	if grep -q '^ok ' "$work/$i.res"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
	cat "$work/$i.res"
	i=$((i + 1))
done
[ "$fail" -eq 0 ] && rm -rf "$work"
[ $left -eq 0 ] || echo "# $left larger configurations left to models-check.sh --full (make check-models-full)"
echo "model checks: $pass passed, $fail failed ($((SECONDS - start)) s)"
[ "$fail" -eq 0 ]
