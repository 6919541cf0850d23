#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - every test of the project, counted; ends with the line
# "N passed, N failed" and exits non-zero if anything failed.
#
#   series:   patches/series matches the files, checkpatch --strict on each
#             patch, clean 'git am' on the base, export round trip is
#             byte-identical, a patch that does not apply is refused cleanly;
#             the OLK-5.10 series applies to ../shared/olk-5.10 with git am
#             and keeps task_struct's KABI (olk-apply-check.sh, kabi-check.sh)
#   models:   the OSQ and ASID models' claims checked exhaustively with
#             spin, planted bugs caught (scripts/check/models-check.sh; the
#             larger configurations in make check-models-full)
#   builds:   every prefix of the series compiles the directories it
#             touches (arm64, W=1; scripts/check/bisect-objects.sh), a whole
#             kernel links at each series' end (x86_64; every prefix: make
#             bisect-link), the hooked objects
#             with CONFIG_SCHED_AFFSCHED=n, x86_64 and arm64
#             kernels, sizeof(struct task_struct) against the base, W=1 on the objects the series touches (no warning the
#             base does not have), the arm64 switch path's barriers counted
#             against the base, the hooked functions' code with affsched off
#             (off-cost.sh), the lock functions against the base's, NOPs
#             aside (lock-paths.sh, both arches), module and selftests for
#             both arches
#   tools:    the kmod RPM, the trace and bench pictures, affsched-top
#   KUnit:    built into the guest kernels (both arches, plain and debug),
#             parsed from their consoles with kunit.py parse; the same
#             suites under UML are make kunit (a whole UML kernel to build
#             for the same tests; Documentation/results.rst has its cost)
#   VMs:      the selftests in an x86_64 guest and an arm64 guest, the
#             hold-ratio known answer enforced in an instruction-counted
#             arm64 guest, both arches again under the debug config, and
#             the hooks' tests under KCSAN (x86_64)
#
# Work that needs no guest runs in the background beside the
# single-threaded guests (bg, below); the last lines give each stage's wall
# time.  Logs: build/check/<test>.log.  SECONDS_PER_LOAD sets the load duration in
# the guests (default 3).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

logs=$BUILD/check
rm -rf "$logs"
mkdir -p "$logs"
# cpu_ticks: the host's busy and idle (with iowait) ticks since boot
cpu_ticks() {
	awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat
}
read -r busy0 idle0 < <(cpu_ticks)
pass=0 fail=0 n=0
t_load=${SECONDS_PER_LOAD:-3}

# t NAME COMMAND... : run one test, record and print its result
t() {
	local name=$1 log
	shift
	n=$((n + 1))
	log=$logs/$(echo "$name" | tr -c 'A-Za-z0-9_.-' '_').log
	local start=$SECONDS
	if "$@" >"$log" 2>&1; then
		pass=$((pass + 1))
		echo "ok $n - $name ($((SECONDS - start))s)"
	else
		fail=$((fail + 1))
		echo "not ok $n - $name ($((SECONDS - start))s, log: $log)"
		tail -n 25 "$log" | sed 's/^/#   /'
		{ echo "not ok $n - $name"; tail -n 8 "$log" | sed 's/^/#   /'; } >>"$logs/failed.txt"
	fi
	took $((SECONDS - start)) "$name"
}

# took SECONDS WHAT: note a step's time for the summary that finish prints
took() {
	echo "$1 $2" >>"$logs/times.txt"
}

# record NAME STATUS : count a result decided elsewhere
record() {
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		pass=$((pass + 1))
		echo "ok $n - $1"
	else
		fail=$((fail + 1))
		echo "not ok $n - $1"
		echo "not ok $n - $1" >>"$logs/failed.txt"
	fi
}

# stage NAME: the steps that follow belong to stage NAME; finish prints
# each stage's wall time.
stage_name="" stage_start=0
stage() {
	[ -z "$stage_name" ] || echo "$((SECONDS - stage_start)) $stage_name" >>"$logs/stages.txt"
	stage_name=$1 stage_start=$SECONDS
	[ -z "$1" ] || echo "# == $1"
}

# Background jobs.  The x86_64 guests and the instruction-counted arm64
# guest run their vCPUs on one host thread and leave the other core idle;
# so do checkpatch, the links and the scripts.  Work that needs no guest
# (the model searches, the prefix builds, later kernels) runs beside the
# foreground at nice 19, in what the foreground leaves idle: a
# single-threaded guest's other core, and the gaps of builds and of guests
# whose vCPUs halt.  A job whose result the foreground needs next (a
# guest's kernel) runs at nice 10 instead, ahead of the others.
# bg [-n NICE] NAME COMMAND...: start COMMAND so; bg_join NAME counts its
# result.
declare -A bg_pid bg_log
bg() {
	local name log prio=19
	if [ "$1" = -n ]; then
		prio=$2
		shift 2
	fi
	name=$1
	shift
	log=$logs/$(echo "$name" | tr -c 'A-Za-z0-9_.-' '_').log
	bg_log[$name]=$log
	# A process group of its own (job control on for the fork), so that
	# bg_signal reaches all its processes.
	set -m
	(
		renice -n "$prio" -p "$BASHPID" >/dev/null
		start=$SECONDS
		"$@" >"$log" 2>&1
		echo "$? $((SECONDS - start))" >"$log.status"
	) &
	bg_pid[$name]=$!
	set +m
	echo "# started in the background: $name"
}

# bg_signal STOP|CONT: stop or continue every background job.  Nice
# does not keep the jobs out of a guest's gaps, and the plain guests'
# timed tests were tuned without a neighbour: the arm64 guests,
# whose vCPU threads use every CPU, run with the background stopped
# (Documentation/results.rst, "make check's time"); the plain x86_64
# guest, one TCG thread, runs on a CPU of its own (bg_affinity); the
# debug, KCSAN and instruction-counted ones run beside the background.
bg_signal() {
	local name
	for name in "${!bg_pid[@]}"; do
		# (a job that wrote its status is done: its group id may be reused)
		[ -e "${bg_log[$name]}.status" ] || kill "-$1" -- "-${bg_pid[$name]}" 2>/dev/null || true
	done
}

# bg_affinity CPULIST: move every background job's processes to CPULIST
# (taskset; the children they fork later inherit it).  A single-threaded
# guest then runs on a CPU of its own while the background keeps the
# others busy, instead of one CPU idling with the background stopped.
# Two passes catch a child forked by a parent the first pass had not
# reached yet.
bg_affinity() {
	local name p pass
	for pass in 1 2; do
		for name in "${!bg_pid[@]}"; do
			[ -e "${bg_log[$name]}.status" ] && continue
			for p in $(pgrep -g "${bg_pid[$name]}"); do
				taskset -a -c -p "$1" "$p" >/dev/null 2>&1 || true
			done
		done
	done
}
# The CPUs this run may use (a CI container's cpuset need not start at
# 0): the first for a single-threaded guest, the others for the background.
all_cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
mapfile -t cpu_ids < <(cpu_list_expand "$all_cpus")

# bg_join NAME: wait for background job NAME and count its result; the
# foreground's time spent waiting is the job's share of the stage.
bg_join() {
	local name=$1 log=${bg_log[$1]} st secs
	wait "${bg_pid[$name]}"
	read -r st secs <"$log.status" || st=1 secs=0
	record "$name (background, ${secs}s)" "$st"
	[ "$st" -eq 0 ] || tail -n 25 "$log" | sed 's/^/#   /'
	took "$secs" "$name (background)"
	unset "bg_pid[$name]"
}

# Each stage's wall time, the slowest steps and the total, last before
# the count so that a truncated CI log still shows where the time went.
finish() {
	local p
	for p in "${!bg_pid[@]}"; do
		bg_join "$p"
	done
	stage ""
	# Again at the end, where a log cut to its head and tail still shows
	# them: every failure, with its last lines or its checks' diagnostics.
	if [ -s "$logs/failed.txt" ]; then
		echo "# failures, again:"
		head -n 80 "$logs/failed.txt" | sed 's/^/# /'
	fi
	echo "# stage wall times (s; background jobs ran beside them):"
	sed 's/^/#   /' "$logs/stages.txt"
	echo "# slowest steps (s):"
	sort -rn "$logs/times.txt" 2>/dev/null | head -n 12 | sed 's/^/#   /'
	read -r busy1 idle1 < <(cpu_ticks)
	echo "# make check took $((SECONDS / 60)) min $((SECONDS % 60)) s," \
		"the CPUs busy $(((busy1 - busy0) * 100 / (busy1 - busy0 + idle1 - idle0 + 1))) % of it"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

# --- setup ---------------------------------------------------------------
stage setup
t "dependencies installed" "$AFFSCHED_TOP/scripts/build/deps.sh"
t "base tree prepared" "$AFFSCHED_TOP/scripts/build/prepare-base.sh"
[ $fail -eq 0 ] || finish

# --- series --------------------------------------------------------------
stage series
series_matches_files() {
	diff <(series_list "$PATCHES/series" | sort) \
		<(cd "$PATCHES" && ls ./*.patch | sed 's|^\./||' | grep -v '^0000-cover-letter' | sort)
}
t "patches/series lists exactly the patch files" series_matches_files

# The three series: every patch in one of them, each with a cover letter.
series_split() {
	local name st=0
	diff <(series_list "$PATCHES/series") <(for name in $(series_names); do series_members "$name"; done) || st=1
	for name in $(series_names); do
		[ -n "$(series_members "$name")" ] || { echo "$name: no patch"; st=1; }
		[ -s "$PATCHES/$name/cover-letter.txt" ] || { echo "$name: no cover letter"; st=1; }
		[ -n "$(series_field "$name" 2)" ] || { echo "$name: no change-id"; st=1; }
	done
	[ -n "$(series_names)" ]
	return $st
}
t "patches/series: three series, every patch in one, each with a cover letter" series_split

olk_series_matches_files() {
	diff <(series_list "$PATCHES/$OLK_DIR/series" | sort) \
		<(cd "$PATCHES/$OLK_DIR" && ls ./*.patch | sed 's|^\./||' | sort)
}
t "patches/$OLK_DIR/series lists exactly the patch files there" olk_series_matches_files

# One poster: every patch's From: signs it off (the DCO's rule), every
# patch's last Signed-off-by: is the poster's, and the posted cover letters
# (export-series.sh --mbox) and the OLK-5.10 versions come from the same
# poster.  A stable-style backport ("commit <id> upstream.") keeps its
# upstream From:; every other patch is the poster's own.  Either identity
# passes: the placeholder (no git user configured at export) or a person's.
one_identity() {
	local f from last ids="" mbox
	mbox=$(mktemp -d)
	"$AFFSCHED_TOP/scripts/build/export-series.sh" --mbox "$mbox" 2>/dev/null || return 1
	for f in "$PATCHES"/*.patch "$PATCHES/$OLK_DIR"/*.patch "$mbox"/*/0000-cover-letter.patch; do
		from=$(awk '/^From: / { s = substr($0, 7); while ((getline l) > 0 && l ~ /^[ \t]/) s = s l
			print s; exit }' "$f" | python3 -c 'import email.header as h, sys
print(h.make_header(h.decode_header(sys.stdin.read().strip())))')
		[ -n "$from" ] || { echo "$f: no From:"; return 1; }
		case $f in
		*/0000-cover-letter.patch) last=$from ;;
		*)
			grep -qxF "Signed-off-by: $from" "$f" ||
				{ echo "$f: no Signed-off-by of its From: $from"; return 1; }
			last=$(sed -n '/^---$/q; s/^Signed-off-by: //p' "$f" | tail -n 1)
			if ! grep -qE '^commit [0-9a-f]{40} upstream\.$' "$f" && [ "$from" != "$last" ]; then
				echo "$f: From: $from, but signed off last by $last"
				return 1
			fi ;;
		esac
		ids=$(printf '%s\n%s' "$ids" "$last")
	done
	rm -rf "$mbox"
	ids=$(echo "$ids" | sed '/^$/d' | sort -u)
	echo "poster: $ids"
	[ "$(echo "$ids" | wc -l)" -eq 1 ]
}

for p in $(series_list "$PATCHES/series") $(series_list "$PATCHES/$OLK_DIR/series" | sed "s|^|$OLK_DIR/|"); do
	# A backport's commit ids are upstream's, which the base tree's history
	# does not have: checkpatch cannot look them up.
	t "checkpatch --strict $p" bash -c '
		ign=()
		grep -qE "^commit [0-9a-f]{40} upstream\.$" "$2" && ign=(--ignore GIT_COMMIT_ID,UNKNOWN_COMMIT_ID)
		cd "$1" && out=$(PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict --no-summary --terse "${ign[@]}" "$2" 2>&1)
		st=$?
		echo "$out"
		[ $st -eq 0 ] && ! echo "$out" | grep -q -e "WARNING" -e "ERROR"' _ "$KSRC" "$PATCHES/$p"
done

t "series applies to the base with git am" "$AFFSCHED_TOP/scripts/build/apply-series.sh"
[ $fail -eq 0 ] || finish
# The exhaustive model searches (one per CPU, each single-threaded) and
# the prefix builds need only the tree: they run in the background from
# here to the guests, on what the foreground leaves idle.
spin_name="spin: models/osq.pml (OSQ, NUMA hand-off) and models/asid.pml (ASID allocator), mutants caught"
bg "$spin_name" "$AFFSCHED_TOP/scripts/check/models-check.sh"
prefix_name="every prefix of the series compiles the directories it touches (arm64, W=1)"
bg "$prefix_name" "$AFFSCHED_TOP/scripts/check/bisect-objects.sh" arm64
t "every patch signed off by its author and last by one poster, the cover letters' too" one_identity

export_roundtrip() {
	local tmp name excl=()
	tmp=$(mktemp -d)
	cp "$PATCHES/series" "$tmp/"
	for name in $(series_names); do
		excl+=(-x "$name")
	done
	PATCHES=$tmp "$AFFSCHED_TOP/scripts/build/export-series.sh" &&
		diff -r -x "$OLK_DIR" "${excl[@]}" "$PATCHES" "$tmp"
	local st=$?
	rm -rf "$tmp"
	return $st
}
t "export of the applied series is byte-identical to patches/" export_roundtrip

# Each series as a maintainer takes it (export-series.sh --mbox): on top of
# its prerequisites only (none for arm64-mm: it must apply to the bare
# base), with git am, and as one mbox through b4 am (offline).
for name in $(series_names); do
	t "$name applies alone (on its prerequisites) with git am" "$AFFSCHED_TOP/scripts/check/am-check.sh" git "$name"
	t "$name applies alone (on its prerequisites) from its mbox with b4 am" \
		"$AFFSCHED_TOP/scripts/check/am-check.sh" b4 "$name"
done

refuse_bad_patch() {
	local tmp before after out
	tmp=$(mktemp -d)
	cp "$PATCHES"/*.patch "$tmp/"
	cat >"$tmp/9999-bogus.patch" <<'BOGUS'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: affsched developers <affsched@example.org>
Date: Thu, 1 Jan 2026 00:00:00 +0000
Subject: [PATCH] bogus: context that exists nowhere

Signed-off-by: affsched developers <affsched@example.org>
---
 kernel/sched/core.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/kernel/sched/core.c b/kernel/sched/core.c
--- a/kernel/sched/core.c
+++ b/kernel/sched/core.c
@@ -1,3 +1,3 @@
 this line is not in core.c
-nor is this one
+so the patch cannot apply
 end
BOGUS
	{ sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/series"; echo 9999-bogus.patch; } >"$tmp/series"
	before=$(git -C "$KSRC" rev-parse HEAD; git -C "$KSRC" status --porcelain)
	out=$(PATCHES=$tmp "$AFFSCHED_TOP/scripts/build/apply-series.sh" 2>&1)
	local st=$?
	after=$(git -C "$KSRC" rev-parse HEAD; git -C "$KSRC" status --porcelain)
	rm -rf "$tmp"
	echo "$out"
	[ $st -ne 0 ] && echo "$out" | grep -q '9999-bogus.patch' &&
		echo "$out" | grep -q 'tree left as it was' && [ "$before" = "$after" ]
}
t "a patch that does not apply is named and the tree is left as it was" refuse_bad_patch

# openEuler OLK-5.10: the series as an OLK tree gets it (patches/olk-5.10/
# in their numbers' places) applies with git am to the OLK-5.10 files in
# ../shared/olk-5.10, and task_struct keeps its KABI there.
name="series applies to OLK-5.10 (../shared/olk-5.10) with git am, no fuzz"
t "$name" "$AFFSCHED_TOP/scripts/check/olk-apply-check.sh"
sed -n 's/^ok \([0-9]*\/[0-9]*\) \(.*not in the fixture)\)$/# OLK-5.10 patch \1 \2/p' \
	"$logs/$(echo "$name" | tr -c 'A-Za-z0-9_.-' '_').log"
# apply-series.sh takes a tree with include/linux/kabi.h for OLK-5.10.
# (grep reads all of series_files' output here: with pipefail, grep -q
# quitting at the first match could kill the writer with SIGPIPE.)
olk_tree_detected() {
	local d st
	d=$(mktemp -d)
	mkdir -p "$d/include/linux"
	touch "$d/include/linux/kabi.h"
	[ "$(tree_kind "$d")" = "$OLK_DIR" ] && [ "$(tree_kind "$KSRC")" = 5.10 ] &&
		series_files "$OLK_DIR" | grep -x "$OLK_DIR/0006-.*" >/dev/null &&
		! series_files 5.10 | grep "^$OLK_DIR/" >/dev/null
	st=$?
	rm -rf "$d"
	return $st
}
t "a tree with include/linux/kabi.h gets the OLK-5.10 patches, 5.10.223 does not" olk_tree_detected
t "OLK-5.10 KABI: task_struct changes only reserved slots (unifdef, option off and on)" \
	"$AFFSCHED_TOP/scripts/check/kabi-check.sh" olk
# The same on an older OLK-5.10 state: include/linux/sched.h from before
# the task relationship feature took KABI_RESERVE(14), in the fixture's.
olk_old=$AFFSCHED_TOP/testdata/olk-5.10-dbd67bc0c942
t "series applies to OLK-5.10 at dbd67bc0c942 (older sched.h) with git am, no fuzz" \
	env OLK_OVERLAY="$olk_old" OLK_TREE="$BUILD/olk-dbd67bc0c942" \
	"$AFFSCHED_TOP/scripts/check/olk-apply-check.sh"
t "OLK-5.10 KABI at dbd67bc0c942: task_struct changes only reserved slots" \
	env OLK_TREE="$BUILD/olk-dbd67bc0c942" "$AFFSCHED_TOP/scripts/check/kabi-check.sh" olk
olk_export_roundtrip() {
	local tmp
	tmp=$(mktemp -d)
	cp -a "$PATCHES/." "$tmp/"
	PATCHES=$tmp "$AFFSCHED_TOP/scripts/build/export-series.sh" --olk &&
		diff -r "$PATCHES/$OLK_DIR" "$tmp/$OLK_DIR"
	local st=$?
	rm -rf "$tmp"
	return $st
}
t "export of the OLK-5.10 patches from the OLK tree is byte-identical" olk_export_roundtrip

# kernel-doc warnings of the series' files and the module, without line
# numbers, that the same files at the base do not have: the series touches
# kernel/sched/sched.h, whose own comments already draw warnings.
kerneldoc_clean() {
	local files f out tmp
	files=$(git -C "$KSRC" diff --name-only --diff-filter=AM "$BASE_TAG..HEAD" -- '*.c' '*.h')
	tmp=$(mktemp -d)
	for f in $files; do
		git -C "$KSRC" cat-file -e "$BASE_TAG:$f" 2>/dev/null || continue
		mkdir -p "$tmp/$(dirname "$f")"
		git -C "$KSRC" show "$BASE_TAG:$f" >"$tmp/$f"
	done
	(cd "$tmp" && for f in $files; do
		[ -f "$f" ] && "$KSRC/scripts/kernel-doc" -none "$f" 2>&1
	done) | sed -E 's/:[0-9]+: /: /' | sort -u >"$tmp/base.txt"
	out=$(cd "$KSRC" && scripts/kernel-doc -none $files "$AFFSCHED_TOP/module/affsched.c" 2>&1 |
		sed -E 's/:[0-9]+: /: /' | sort -u | comm -13 "$tmp/base.txt" -)
	echo "checked: $files module/affsched.c"
	echo "already at the base: $(wc -l <"$tmp/base.txt") warning(s)"
	echo "$out"
	rm -rf "$tmp"
	[ -z "$out" ]
}
t "kernel-doc: no new warnings in the series' files and the module" kerneldoc_clean
# Documentation/scheduler/affsched.rst (no Sphinx here): every
# ".. kernel-doc:: FILE" directive's :identifiers: each have a comment in
# FILE, and each :export: FILE documents at least one exported function.
kerneldoc_directives() {
	python3 - "$KSRC" <<'PY'
import re, subprocess, sys
ksrc = sys.argv[1]
rst = open(ksrc + '/Documentation/scheduler/affsched.rst').read()
bad = 0
for m in re.finditer(r'^\.\. kernel-doc:: (\S+)\n((?:   .*\n|\s*\n)*)', rst, re.M):
    f, opts = m.group(1), m.group(2)
    o = re.search(r':identifiers:((?:.*\n)(?:\s{10,}.*\n)*)', opts)
    if o:
        for ident in o.group(1).split():
            out = subprocess.run(['perl', 'scripts/kernel-doc', '-rst', '-function', ident, f],
                                 cwd=ksrc, capture_output=True, text=True).stdout
            ok = '.. c:' in out
            print('%-4s %s: %s' % ('ok' if ok else 'FAIL', f, ident))
            bad |= not ok
    if ':export:' in opts:
        out = subprocess.run(['perl', 'scripts/kernel-doc', '-rst', '-export', f],
                             cwd=ksrc, capture_output=True, text=True).stdout
        n = out.count('.. c:function::')
        print('%-4s %s: %d exported function(s)' % ('ok' if n else 'FAIL', f, n))
        bad |= not n
sys.exit(bad)
PY
}
t "Documentation/scheduler/affsched.rst: its kernel-doc directives find their comments" kerneldoc_directives
t "trace-summary.py summarises a sample trace" "$AFFSCHED_TOP/scripts/check/test-trace-summary.sh"
t "kcsan-reports.py sorts a sample console's KCSAN reports" "$AFFSCHED_TOP/scripts/check/test-kcsan-reports.sh"
# The Kunpeng 920 model's units: one copy's index 4,125 is 2,392,500 KBps
# (fsdisk's baseline is 5,800 KBps for an index of 10), so a 4 KB block
# takes about 1.7 us; a model that reads the index as KBps gets 970 us.
kunpeng_model_units() {
	python3 "$AFFSCHED_TOP/scripts/bench/kunpeng-model.py" &&
		python3 "$AFFSCHED_TOP/scripts/bench/kunpeng-model.py" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("T = %.3f us, h = %.3f us" % (d["T_us"], d["h_us"]))
sys.exit(not 1.5 <= d["T_us"] <= 1.9)'
}
t "kunpeng-model.py: one copy's 4 KB block takes 1.5-1.9 us at the default p" kunpeng_model_units

# --- builds --------------------------------------------------------------
stage builds
# Whole kernels at each series' end: x86_64 at every end but the last,
# whose tree (the tip) both arches build below.  With the prefixes'
# objects (bisect-objects.sh, in the background) this is the bisection
# check: a prefix's link is what the objects do not see.
series_end_builds() {
	local name last
	last=$(series_names | tail -n 1)
	for name in $(series_names); do
		[ "$name" = "$last" ] && break
		git -C "$KSRC" checkout -q "$SERIES_REF/$name" || return 1
		echo "== $SERIES_REF/$name: $(git -C "$KSRC" log -1 --format=%s)"
		if ! AFFSCHED_ALLOW_MISSING=1 "$AFFSCHED_TOP/scripts/build/build-kernel.sh" x86_64; then
			git -C "$KSRC" checkout -q "$BRANCH"
			return 1
		fi
	done
	git -C "$KSRC" checkout -q "$BRANCH"
}
t "each series' end links a whole kernel (x86_64)" series_end_builds

# The series' hooks have stubs for CONFIG_SCHED_AFFSCHED=n (the Kconfig
# default): the objects that call them must build without the option.
off_builds() {
	local obj=$BUILD/obj/x86_64-noaff
	mkdir -p "$obj"
	cp "$BUILD/obj/x86_64/.config" "$obj/.config" &&
		"$KSRC/scripts/config" --file "$obj/.config" --disable SCHED_AFFSCHED &&
		make -s -C "$KSRC" O="$obj" olddefconfig &&
		! grep -q '^CONFIG_SCHED_AFFSCHED=y' "$obj/.config" &&
		make -s -C "$KSRC" O="$obj" -j"$(nproc)" kernel/locking/osq_lock.o \
			kernel/locking/mutex.o kernel/locking/rwsem.o \
			kernel/sched/core.o kernel/sched/fair.o
}
t "with CONFIG_SCHED_AFFSCHED=n the hooked objects build (x86_64)" off_builds

# NUMA balancing's hooks (task_numa_find_cpu(), task_numa_compare()) are
# compiled only with CONFIG_NUMA_BALANCING, which the guests leave off.
numa_builds() {
	local obj=$BUILD/obj/x86_64-numa
	mkdir -p "$obj"
	cp "$BUILD/obj/x86_64/.config" "$obj/.config" &&
		"$KSRC/scripts/config" --file "$obj/.config" --enable MIGRATION --enable NUMA_BALANCING &&
		make -s -C "$KSRC" O="$obj" olddefconfig &&
		grep -q '^CONFIG_NUMA_BALANCING=y' "$obj/.config" &&
		make -s -C "$KSRC" O="$obj" -j"$(nproc)" kernel/sched/fair.o \
			$(cd "$KSRC" && ls kernel/sched/affsched*.c | grep -v _test | sed 's/\.c$/.o/')
}
t "with CONFIG_NUMA_BALANCING the NUMA balancing hooks build (x86_64)" numa_builds

for a in x86_64 arm64; do
	t "$a kernel builds" "$AFFSCHED_TOP/scripts/build/build-kernel.sh" "$a"
done
for a in x86_64 arm64; do
	t "$a W=1: no new warnings in objects the series touches" \
		"$AFFSCHED_TOP/scripts/check/w1-check.sh" "$a"
done
t "OLK-5.10-only patch lines compile against the series (stand-in functions, x86_64)" \
	"$AFFSCHED_TOP/scripts/check/olk-compile-check.sh" x86_64
for a in x86_64 arm64; do
	t "$a sizeof(struct task_struct) grows by at most one pointer" \
		"$AFFSCHED_TOP/scripts/check/kabi-check.sh" size "$a"
done
name="arm64 switch path: fewer ISBs and TTBR writes than the base, nothing grows (objdump)"
t "$name" "$AFFSCHED_TOP/scripts/check/switch-barriers.sh"
sed -n 's/^SWITCH-BARRIERS /# arm64 switch path, static counts before->after: /p' \
	"$logs/$(echo "$name" | tr -c 'A-Za-z0-9_.-' '_').log"
t "arm64 with affsched off: hooks reach no affsched code, add no calls (objdump)" \
	"$AFFSCHED_TOP/scripts/check/off-cost.sh"
name="with affsched off the lock functions are the base's plus NOPs (objdump, x86_64 and arm64)"
t "$name" "$AFFSCHED_TOP/scripts/check/lock-paths.sh"
sed -n 's/^LOCK-PATHS /# lock paths: /p' "$logs/$(echo "$name" | tr -c 'A-Za-z0-9_.-' '_').log"
for a in x86_64 arm64; do
	t "$a module builds with W=1, no warnings" "$AFFSCHED_TOP/scripts/build/build-module.sh" "$a"
	# MODVERSIONS: the module records the CRC of each affsched symbol it
	# links, which the loader checks against the kernel's.
	t "$a module carries the CRCs of the affsched symbols it uses (modversions)" bash -c '
		v=$(modprobe --dump-modversions "$1") && echo "$v" | grep -E "[[:space:]]affsched_" &&
			echo "$v" | grep -qE "^0x[0-9a-f]+[[:space:]]+affsched_set_enabled$"' _ "$BUILD/module/$a/affsched.ko"
	t "$a selftests build, no warnings" "$AFFSCHED_TOP/scripts/build/build-selftests.sh" "$a"
done

stage tools
# The user tools: the kmod RPM built against the x86_64 tree (rpm -qlp),
# the trace timeline and bench pictures from recorded samples, affsched-top
# against a recorded debugfs snapshot (scripts/check/tools-check.sh).
t "user tools: kmod RPM, trace timeline and bench PNGs, affsched-top" \
	"$AFFSCHED_TOP/scripts/check/tools-check.sh"

# --- guests --------------------------------------------------------------
# The guests' kernels that are not built yet build in the background while
# a single-threaded guest runs: the x86_64 debug kernel beside the x86_64
# and instruction-counted guests, then the KCSAN kernel and the arm64 debug
# kernel beside the x86_64 debug guest (and the KCSAN guest).
bg -n 10 "x86_64 debug kernel builds (configs/debug.config, KASAN)" \
	"$AFFSCHED_TOP/scripts/build/build-kernel.sh" x86_64 debug
# make_payload DIR ARCH SCRIPT: a fresh payload with ARCH's selftests and SCRIPT
make_payload() {
	rm -rf "$1"
	mkdir -p "$1"
	cp -a "$BUILD/selftests/$2" "$1/selftests"
	cp "$AFFSCHED_TOP/scripts/guest/$3" "$1/"
}

# console_clean LOG: no lockdep, sleep-in-atomic, BUG or WARN report in LOG
console_clean() {
	! grep -n -E 'WARNING:|BUG:|INFO: possible|circular locking|recursive locking|sleeping function called from invalid context|Call [Tt]race:' "$1" |
		sed 's/^/#   /' | grep .
}

# record_selftests TAG OUT [SUFFIX]: one result per "AFFSCHED-TEST NAME
# STATUS" line in OUT, with the output of each test that failed
record_selftests() {
	local tag=$1 out=$2 suffix=${3:-} name st
	while read -r _ name st; do
		[ "$st" -eq 0 ] || sed -En "/^# ---- $name(:|$)/,/^AFFSCHED-TEST $name /p" "$out" | sed 's/^/#   /'
		record "$tag selftest $name$suffix" "$st"
		# For the recap: each failed check with the diagnostics around it.
		[ "$st" -eq 0 ] ||
			sed -En "/^# ---- $name(:|$)/,/^AFFSCHED-TEST $name /p" "$out" |
			grep -B3 -A3 '^not ok' | head -n 24 | sed 's/^/#   /' >>"$logs/failed.txt"
	done < <(grep '^AFFSCHED-TEST ' "$out")
	echo "# $tag selftest times (s): $(sed -n 's/^# ---- \(.*\) took \([0-9]*\) s$/\1 \2,/p' "$out" | tr '\n' ' ')"
}

# guest ARCH [VARIANT]: boot the kernel, run guest/selftests.sh, count the
# results, KUnit from the console, and (all variants) kernel splats.
guest() {
	local a=$1 v=${2:-} tag=$1${2:+-$2}
	local vmlog=$logs/vm-$tag.log out=$logs/vm-$tag.out payload=$BUILD/check-payload-$tag
	local start=$SECONDS st kunit name
	make_payload "$payload" "$a" selftests.sh
	if [ -n "$v" ]; then
		mkdir -p "$payload/modules"
		cp "$BUILD/obj/$tag/kernel/torture.ko" \
			"$BUILD/obj/$tag/kernel/locking/locktorture.ko" "$payload/modules/"
	fi
	# The plain guests' timed tests (and osq_test's rare cross-node
	# queues under single-threaded TCG) were tuned without a neighbour.
	# A plain guest on one TCG thread (vm_accel: the x86_64 one, unless
	# KVM runs it) gets a CPU to itself and the background the others,
	# rather than one CPU idling.  The arm64 guests' vCPU threads use
	# every CPU: they run with the background stopped.
	local pin=() rest
	if [ -z "$v" ] && [ "$(vm_accel "$a")" = tcg,thread=single ] && [ ${#cpu_ids[@]} -ge 2 ]; then
		rest=$(IFS=,; echo "${cpu_ids[*]:1}")
		bg_affinity "$rest"
		pin=(taskset -c "${cpu_ids[0]}")
	elif [ -z "$v" ] || [ "$a" = arm64 ]; then
		bg_signal STOP
	fi
	"${pin[@]}" "$AFFSCHED_TOP/scripts/build/run-vm.sh" --arch "$a" ${v:+--variant "$v"} --payload "$payload" \
		--log "$vmlog" --timeout 1800 -- sh /payload/selftests.sh "$t_load" $v >"$out" 2>&1
	st=$?
	bg_signal CONT
	[ ${#pin[@]} -eq 0 ] || bg_affinity "$all_cpus"
	echo "# $tag guest ran for $((SECONDS - start))s (exit $st), log: $vmlog"
	took $((SECONDS - start)) "$tag guest"
	record "$tag guest booted and ran the selftests to the end" $st
	kunit=$(python3 "$KSRC/tools/testing/kunit/kunit.py" parse "$vmlog" 2>&1)
	echo "$kunit" >"$logs/kunit-$tag.log"
	# A suite that crashed part-way still ends "N tests run. 0 failed. 0
	# crashed." with its remaining cases uncounted: its [CRASHED] line fails.
	# Each of the series' suites must have run and passed: make check has
	# no other KUnit run (make kunit is the same suites under UML).
	echo "$kunit" | grep -q 'Testing complete\. [1-9][0-9]* tests run\. 0 failed\. 0 crashed\.' &&
		! echo "$kunit" | grep -qE '\[(CRASHED|FAILED)\]' &&
		(plain=$(sed 's/\x1b\[[0-9;]*m//g' <<<"$kunit")
		# No pipe into grep -q: under pipefail a writer cut off by its
		# early exit (SIGPIPE) would fail the check.
		for suite in affsched affsched_groups affsched_topology; do
			grep -q "\[PASSED\] $suite =" <<<"$plain" || exit 1
		done)
	st=$?
	record "$tag KUnit built in (suites affsched, affsched_groups, affsched_topology), parsed from the console" $st
	# What failed, in the check's own output: CI keeps nothing else.
	[ $st = 0 ] || echo "$kunit" | sed 's/\x1b\[[0-9;]*m//g' |
		grep -E 'FAILED|CRASHED|EXPECTATION|ASSERTION|Expected|but |rror|Testing complete' |
		head -30 | sed "s/^/# $tag KUnit: /"
	record_selftests "$tag" "$out"
	grep -q '^AFFSCHED-TEST debugfs ' "$out" || record "$tag selftests all reported" 1
	# Expected failures (holdratio -E: TCG skews u against the single copy),
	# and by how much multi-threaded TCG slowed the copies' spin.
	grep -E '^ok [0-9]+ # XFAIL' "$out" | sed "s/^/# $tag /"
	grep -E '^# outside_dilation' "$out" | sed "s/^# /# $tag /"
	# The traced known-answer run: affsched_group_update events with its 8 members.
	if [ -z "$v" ]; then
		grep '^TRACE ' "$out" | sed 's/^TRACE //' | python3 "$AFFSCHED_TOP/scripts/tools/trace-summary.py" --json >"$logs/trace-$tag.json"
		python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not any(g["members"]["max"] == 8 for g in d["groups"]))' "$logs/trace-$tag.json"
		record "$tag affsched:affsched_group_update traced for the known-answer load (trace-summary.py)" $?
	fi
	console_clean "$vmlog"
	record "$tag console has no lockdep, BUG or WARNING report" $?
}

stage "guests: x86_64, arm64, arm64 instruction-counted"
guest x86_64
guest arm64

# The known answer, enforced, where the guest's time is faithful: arm64
# under instruction-counted TCG (x86_64 guests do not bring up their
# secondary CPUs under -icount).  See scripts/guest/known-answer.sh.
known_answer_icount() {
	local a=arm64 tag=arm64-icount
	local vmlog=$logs/vm-$tag.log out=$logs/vm-$tag.out payload=$BUILD/check-payload-$tag
	local start=$SECONDS st
	make_payload "$payload" "$a" known-answer.sh
	AFFSCHED_ACCEL=icount "$AFFSCHED_TOP/scripts/build/run-vm.sh" --arch "$a" --payload "$payload" \
		--log "$vmlog" --timeout 900 -- sh /payload/known-answer.sh >"$out" 2>&1
	st=$?
	echo "# $tag guest ran for $((SECONDS - start))s (exit $st), log: $vmlog"
	took $((SECONDS - start)) "$tag guest"
	record "$tag guest booted and ran the known answer to the end" $st
	record_selftests "$tag" "$out" " (enforced)"
	[ "$(grep -c '^AFFSCHED-TEST ' "$out")" -eq 2 ] || record "$tag both targets reported" 1
	grep -E '^# (single_copy_(hold|lock)_permille|outside_dilation|median of)' "$out" | sed "s/^# /# $tag /"
	console_clean "$vmlog"
	record "$tag console has no lockdep, BUG or WARNING report" $?
}
known_answer_icount

# The debug configuration (lockdep, DEBUG_ATOMIC_SLEEP, ...) on both
# arches, with KASAN on x86_64 (configs/debug-x86_64.config).
stage "guests: x86_64 debug, x86_64 KCSAN, arm64 debug"
bg_join "x86_64 debug kernel builds (configs/debug.config, KASAN)"
t "x86_64 debug module builds" "$AFFSCHED_TOP/scripts/build/build-module.sh" x86_64 debug
# One job, so that the KCSAN kernel, needed first, has the idle core first.
kcsan_then_arm64_debug() {
	"$AFFSCHED_TOP/scripts/build/build-kernel.sh" x86_64 kcsan >"$logs/kcsan-kernel.bg" 2>&1
	echo $? >"$logs/kcsan-kernel.bg.status"
	"$AFFSCHED_TOP/scripts/build/build-kernel.sh" arm64 debug
}
bg -n 10 "arm64 debug kernel builds (configs/debug.config)" kcsan_then_arm64_debug
guest x86_64 debug
# The data race detector (configs/kcsan-x86_64.config, GCC's
# -fsanitize=thread): ctx, fstime, groups and placement, whose hooks read
# what other CPUs write.  Any KCSAN report whose racing access lies in code
# the series adds or changes fails; the base kernel's own races (mm,
# timers, rwsem's owner_on_cpu()) are printed.
kcsan_guest() {
	local a=x86_64 v=kcsan tag=x86_64-kcsan
	local vmlog=$logs/vm-$tag.log out=$logs/vm-$tag.out payload=$BUILD/check-payload-$tag
	local start=$SECONDS st
	make_payload "$payload" "$a" selftests.sh
	"$AFFSCHED_TOP/scripts/build/run-vm.sh" --arch "$a" --variant "$v" --payload "$payload" \
		--log "$vmlog" --timeout 1500 -- sh /payload/selftests.sh "$t_load" "$v" >"$out" 2>&1
	st=$?
	echo "# $tag guest ran for $((SECONDS - start))s (exit $st), log: $vmlog"
	took $((SECONDS - start)) "$tag guest"
	record "$tag guest booted and ran the selftests to the end" $st
	record_selftests "$tag" "$out"
	grep -q '^AFFSCHED-TEST placement ' "$out" || record "$tag selftests all reported" 1
	grep -q 'kcsan: enabled early' "$vmlog"
	record "$tag KCSAN was on from boot" $?
	# The functions the series adds or changes, from its diff's hunk
	# headers: a race whose access lies in one of them is the series'.
	git -C "$KSRC" diff -U0 "$BASE_TAG..HEAD" -- '*.c' |
		sed -n 's/^@@.*@@.*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' | sort -u >"$logs/kcsan-series-funcs.txt"
	python3 "$AFFSCHED_TOP/scripts/check/kcsan-reports.py" "$vmlog" "$logs/kcsan-series-funcs.txt" \
		>"$logs/kcsan-reports.txt"
	st=$?
	sed 's/^/# /' "$logs/kcsan-reports.txt"
	record "$tag console has no KCSAN report touching the series (scripts/check/kcsan-reports.py)" $st
	# The base's own races are listed above; any other splat still fails.
	! grep -v 'BUG: KCSAN:' "$vmlog" | grep -n -E 'WARNING:|BUG:|INFO: possible|circular locking|recursive locking|sleeping function called from invalid context' |
		sed 's/^/#   /' | grep .
	record "$tag console has no lockdep, BUG or WARNING report besides KCSAN's" $?
}
# The KCSAN kernel's part of the background job above: done when its
# status is written (or the job is gone, which fails it).
kcsan_kernel() {
	local f=$logs/kcsan-kernel.bg.status
	while [ ! -s "$f" ] && kill -0 "${bg_pid["arm64 debug kernel builds (configs/debug.config)"]}" 2>/dev/null; do
		sleep 2
	done
	cat "$logs/kcsan-kernel.bg"
	[ -s "$f" ] && return "$(cat "$f")"
	return 1
}
t "x86_64 KCSAN kernel builds (configs/kcsan-x86_64.config; in the background)" kcsan_kernel
t "x86_64 KCSAN module builds" "$AFFSCHED_TOP/scripts/build/build-module.sh" x86_64 kcsan
kcsan_guest

bg_join "arm64 debug kernel builds (configs/debug.config)"
t "arm64 debug module builds" "$AFFSCHED_TOP/scripts/build/build-module.sh" arm64 debug
guest arm64 debug

stage "background jobs' ends"
bg_join "$spin_name"
bg_join "$prefix_name"
finish
