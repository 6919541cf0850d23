#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tools-check.sh - check the user tools: the kmod RPM, the trace timeline,
# the benchmark picture and affsched-top.
#
# Usage: tools-check.sh [--no-rpm | --rpm FILE]
#
#   rpm:    scripts/tools/build-rpm.sh builds module/affsched.spec against
#           build/obj/x86_64 (needs the built kernel); rpm -qlp lists
#           /lib/modules/<release>/extra/affsched.ko, the modprobe.d
#           example and the docs; depmod runs in %post and %postun; the
#           packaged module is built for <release>.  --rpm FILE checks an
#           RPM built before instead; --no-rpm leaves this part out.
#   trace:  trace-summary.py --png draws the timeline of
#           selftests/affsched/testdata/trace-timeline.txt (a PNG, not
#           small, not one colour), with the expected counts; the
#           affsched_ spellings and a trace.dat (through trace-cmd report)
#           give the same; error exits.
#   bench:  bench-table.py --png draws testdata/bench-sample.out, in bench
#           and demo mode, and leaves the table as it was; error exits;
#           demo.sh and guest/bench.sh refuse bad load durations.
#   top:    scripts/tools/affsched-top against testdata/debugfs-snapshot/: a
#           sample, counter rates, and its errors (debugfs not mounted,
#           module not loaded, permission denied, bad arguments).
#
# Prints one "ok N - ..." / "not ok N - ..." line per check and exits 0
# when all passed, 1 otherwise, 2 on bad arguments.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n 's/^# \{0,1\}//; 4,27p' "$0"
}

do_rpm=1 rpm_file=
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help)
		usage
		exit 0
		;;
	--no-rpm)
		do_rpm=0
		shift
		;;
	--rpm)
		[ $# -ge 2 ] && [ -n "$2" ] || { echo "${0##*/}: --rpm needs a file" >&2; exit 2; }
		rpm_file=$2
		shift 2
		;;
	*)
		echo "${0##*/}: unknown argument '$1'" >&2
		echo "usage: ${0##*/} [--no-rpm | --rpm FILE]" >&2
		exit 2
		;;
	esac
done
[ $do_rpm -eq 1 ] || [ -z "$rpm_file" ] || { echo "${0##*/}: --no-rpm and --rpm exclude each other" >&2; exit 2; }

s=$AFFSCHED_TOP/scripts
data=$AFFSCHED_TOP/selftests/affsched/testdata
ts=$s/tools/trace-summary.py
bt=$s/bench/bench-table.py
top=$s/tools/affsched-top
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/tap-lib.sh"

# A python3 with matplotlib (Debian's, if the one in PATH lacks it).
plot_python=python3
python3 -c 'import matplotlib' 2>/dev/null || plot_python=/usr/bin/python3

# png_ok FILE MIN_WIDTH MIN_HEIGHT: a PNG of at least that size in pixels
# and 20 KB, with many colours and neither blank nor filled.
png_ok() {
	"$plot_python" - "$@" <<'PY'
import struct, sys
path, min_w, min_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(path, 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n' or data[12:16] != b'IHDR':
    sys.exit(f'{path}: not a PNG')
w, h = struct.unpack('>II', data[16:24])
print(f'{path}: {w}x{h}, {len(data)} bytes')
if w < min_w or h < min_h:
    sys.exit(f'{path}: {w}x{h} is smaller than {min_w}x{min_h}')
if len(data) < 20000:
    sys.exit(f'{path}: only {len(data)} bytes')
import matplotlib.image
import numpy
img = matplotlib.image.imread(path)[:, :, :3]
q = (img * 255).astype(numpy.uint8).reshape(-1, 3)
colours = len(numpy.unique(q, axis=0))
ink = float((q.min(axis=1) < 200).mean())
print(f'{colours} colours, {ink:.3f} of the pixels not near white')
if colours < 16 or not 0.01 < ink < 0.9:
    sys.exit(f'{path}: looks empty or uniform')
PY
}

# --- rpm -------------------------------------------------------------------
if [ $do_rpm -eq 1 ]; then
	obj=$BUILD/obj/x86_64
	if [ -z "$rpm_file" ]; then
		build_rpm() {
			"$s/tools/build-rpm.sh" x86_64 >"$tmp/rpm.path" || return 1
			rpm_file=$(tail -n 1 "$tmp/rpm.path")
			echo "$rpm_file"
			[ -f "$rpm_file" ]
		}
		# not in $(...): rpm_file is needed below
		n=$((n + 1))
		if build_rpm >"$tmp/rpm.log" 2>&1; then
			echo "ok $n - make rpm: scripts/tools/build-rpm.sh builds the kmod RPM against $obj"
		else
			nfail=$((nfail + 1))
			echo "not ok $n - make rpm: scripts/tools/build-rpm.sh builds the kmod RPM against $obj"
			tail -n 30 "$tmp/rpm.log" | sed 's/^/#   /'
			rpm_file=
		fi
	fi
	if [ -n "$rpm_file" ] && [ -f "$rpm_file" ]; then
		echo "# RPM: $rpm_file"
		release=
		[ -s "$obj/include/config/kernel.release" ] && release=$(cat "$obj/include/config/kernel.release")
		rpm -qlp "$rpm_file" >"$tmp/files" 2>&1
		[ -n "$release" ] ||
			release=$(sed -n 's|^/lib/modules/\([^/]*\)/extra/affsched\.ko$|\1|p' "$tmp/files" | head -n 1)
		echo "# kernel release: ${release:-unknown}"
		rel_re=$(printf '%s' "$release" | sed 's/[][\.*^$+?(){}|/]/\\&/g')
		check "rpm -qlp: /lib/modules/$release/extra/affsched.ko" \
			grep_in "$tmp/files" "^/lib/modules/$rel_re/extra/affsched\.ko$"
		check "rpm -qlp: the modprobe.d example /etc/modprobe.d/affsched.conf, a config file" \
			bash -c 'grep -qx /etc/modprobe.d/affsched.conf "$1" &&
				rpm -qcp "$2" | grep -qx /etc/modprobe.d/affsched.conf' _ "$tmp/files" "$rpm_file"
		check "rpm -qlp: the docs (README.md, interface.rst, tools.rst)" \
			grep_in "$tmp/files" '^/usr/share/doc/kmod-affsched[^/]*/README\.md$' \
			'^/usr/share/doc/kmod-affsched[^/]*/interface\.rst$' \
			'^/usr/share/doc/kmod-affsched[^/]*/tools\.rst$'
		rpm -qp --scripts "$rpm_file" >"$tmp/scripts" 2>&1
		check "depmod -a $release in %post and %postun" bash -c '
			awk "/^postinstall scriptlet/ { s = \"post\"; next }
			     /^postuninstall scriptlet/ { s = \"postun\"; next }
			     /scriptlet/ { s = \"\" }
			     s && /depmod -a/ && index(\$0, r) { seen[s] = 1 }
			     END { exit !(seen[\"post\"] && seen[\"postun\"]) }" r="$2" "$1" || { cat "$1"; exit 1; }' \
			_ "$tmp/scripts" "$release"
		ko_release() {
			mkdir -p "$tmp/x" && cd "$tmp/x" && rpm2cpio "$rpm_file" | cpio -idm --quiet &&
				v=$(PATH=$PATH:/usr/sbin:/sbin modinfo -F vermagic "$tmp/x/lib/modules/$release/extra/affsched.ko") &&
				echo "vermagic: $v" && [ "${v%% *}" = "$release" ]
		}
		check "the packaged affsched.ko is built for $release (vermagic)" ko_release
	elif [ -n "$rpm_file" ]; then
		check "--rpm $rpm_file exists" test -f "$rpm_file"
	fi
	check "the spec builds against kernel-devel's /usr/src/kernels/<kversion> by default" bash -c '
		rpmspec -P --define "kversion 9.9.9-1.test" "$1" >"$2" 2>&1 &&
		grep -q "make -C \"/usr/src/kernels/9.9.9-1.test\" M=" "$2" &&
		grep -q "^BuildRequires: *kernel-devel" "$2" &&
		grep -q "^/lib/modules/9.9.9-1.test/extra/affsched.ko$" "$2" || { cat "$2"; exit 1; }' \
		_ "$AFFSCHED_TOP/module/affsched.spec" "$tmp/spec"
	mkdir -p "$tmp/notakernel"
	check "build-rpm.sh --kdir DIR that is no kernel tree: exit 1, says so" \
		status_msg 1 'not a kernel build tree' "$s/tools/build-rpm.sh" --kdir "$tmp/notakernel"
	check "build-rpm.sh with a bad argument: exit 2" status_msg 2 'unknown arch' "$s/tools/build-rpm.sh" sparc
else
	echo "# rpm checks left out (--no-rpm)"
fi

# --- trace timeline --------------------------------------------------------
tt=$data/trace-timeline.txt
check "trace-summary.py --png draws the sample trace's timeline" \
	bash -c '"$1" --json --png "$2" "$3" >"$4" 2>"$4.err" || { cat "$4.err"; exit 1; }' \
	_ "$ts" "$tmp/timeline.png" "$tt" "$tmp/timeline.json"
check "the timeline PNG is a picture (>= 1000x800, >= 20 KB, not blank)" \
	png_ok "$tmp/timeline.png" 1000 800
check "timeline: 2 groups; 3 carves, 1 release, 209 redirects, 8 member migrations; 36 other" \
	json_is "$tmp/timeline.json" '
	r["timeline"]["groups"] == {
		"5c1e33a7": {"updates": 108, "assigns": 3, "releases": 1, "redirects": 209, "moves": 8},
		"0a91d2e4": {"updates": 25, "assigns": 0, "releases": 0, "redirects": 0, "moves": 0}} and
	r["timeline"]["other_redirects"] == 36 and r["timeline"]["cpus"] == 8 and
	r["events"] == {"group_assign": 3, "group_release": 1, "group_update": 133,
			"state_change": 2, "tunable_change": 1, "wake_redirect": 245}'
sed -E 's/ (group_update|group_assign|group_release|wake_redirect|state_change|tunable_change):/ affsched_\1:/' \
	"$tt" >"$tmp/renamed.txt"
check "affsched_-prefixed event names give the same summary and timeline" bash -c '
	! cmp -s "$2" "$3" &&
	"$1" --json --png "$4" "$3" >"$5" 2>/dev/null && cmp "$5" "$6" && test -s "$4"' \
	_ "$ts" "$tt" "$tmp/renamed.txt" "$tmp/renamed.png" "$tmp/renamed.json" "$tmp/timeline.json"
# A trace.dat goes through 'trace-cmd report -i FILE': a stand-in trace-cmd
# prints the sample for a file that starts with the trace.dat magic.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/trace-cmd" <<EOF
#!/bin/sh
[ "\$1" = report ] && [ "\$2" = -i ] && head -c 10 "\$3" | grep -q tracing && exec cat "$tt"
echo "trace-cmd stand-in: unexpected arguments \$*" >&2
exit 1
EOF
chmod +x "$tmp/bin/trace-cmd"
printf '\027\010\104tracing6\0stand-in' >"$tmp/t.dat"
check "a trace.dat is read through 'trace-cmd report -i' (file and stdin)" bash -c '
	PATH=$2:$PATH "$1" --json "$3" >"$4.a" && PATH=$2:$PATH "$1" --json - <"$3" >"$4.b" &&
	"$1" --json "$5" >"$4.c" 2>/dev/null && cmp "$4.a" "$4.c" && cmp "$4.b" "$4.c"' \
	_ "$ts" "$tmp/bin" "$tmp/t.dat" "$tmp/dat" "$tt"
grep -v -e group_update -e group_assign "$tt" >"$tmp/nogroups.txt"
check "--png with no group in the trace: exit 1, nothing to draw" \
	status_msg 1 'nothing to draw' "$ts" --png "$tmp/none.png" "$tmp/nogroups.txt"
check "--png into a directory that does not exist: exit 3, cannot write" \
	status_msg 3 'cannot write' "$ts" --png "$tmp/no/such/dir.png" "$tt"
check "--max-groups 1 draws the busiest group and says one more is left out" \
	status_msg 0 'timeline of 1 group\(s\) .*\(1 more not drawn\)' "$ts" --max-groups 1 \
	--png "$tmp/one.png" "$tt"
check "--max-groups 0: exit 2" status_msg 2 'positive integer' "$ts" --max-groups 0 --png "$tmp/x.png" "$tt"
check "--id draws one group" \
	status_msg 0 'timeline of 1 group\(s\)' "$ts" --id 0a91d2e4 --png "$tmp/id.png" "$tt"

# --- benchmark picture -------------------------------------------------------
bs=$data/bench-sample.out
check "bench-table.py --png draws the sample bench (bench mode, --targets)" \
	bash -c 'python3 "$1" --targets --png "$2" --title "sample: make bench, arm64 guest" <"$3" >"$4"' \
	_ "$bt" "$tmp/bench.png" "$bs" "$tmp/bench.table"
check "the bench PNG is a picture (>= 900x500, >= 20 KB, not blank)" png_ok "$tmp/bench.png" 900 500
check "the table is the same with and without --png" bash -c '
	python3 "$1" --targets <"$2" >"$3.plain" && diff "$3.plain" "$3"' _ "$bt" "$bs" "$tmp/bench.table"
check "the bench table has the static references and the single copy" grep_in "$tmp/bench.table" \
	'^fsdisk-16-taskset-1cpu +0 +3 +135,071\.0' '^fsdisk-1 +0 +3 +188,287\.0' \
	'^fsdisk-16 +0 +3 +192,529\.0 +KBps +331\.9 +21,230 +72 +93,298 +48 *$' \
	'fsdisk-16 on / best static \(cluster\) >= 0\.95 +0\.68 +MISSED' \
	'fsdisk-16 stalled passes with enable 1 \(enable 0: 48\) = 0 +0 +met' \
	'tracking alone \(enable 1, max_reserved 0\) / enable 0 >= 0\.97 +0\.860 +MISSED' \
	'hackbench-socket-process on/off >= 0\.99 +0\.797 +MISSED'
# The cluster's tracking-alone pair splits placement's shortfall in two.
for r in 1 2 3; do
	for x in fsdisk-16:0:400000 fsdisk-16:1:380000 fsdisk-16-taskset-cluster:0:600000 \
		fsdisk-16-taskset-cluster:1:$((400000 + r)); do
		IFS=: read -r l e v <<<"$x"
		echo "BENCH load=$l enable=$e round=$r score=$v unit=KBps index=1 kbcpu=1 min=1 max=1 stalls=0"
	done
done >"$tmp/clu.out"
check "bench-table.py --targets: tracking alone on the cluster, placement against it" bash -c '
	python3 "$1" --targets <"$2" >"$3" && grep -Eq "fsdisk-16-taskset-cluster tracking alone / enable 0 +0\.667$" "$3" &&
	grep -Eq "fsdisk-16 on / fsdisk-16-taskset-cluster with tracking alone +0\.95$" "$3" &&
	grep -Eq "fsdisk-16 on / best static \(cluster\) >= 0\.95 +0\.63 +MISSED" "$3"' \
	_ "$bt" "$tmp/clu.out" "$tmp/clu.table"
grep -v -e taskset -e capped -e '^BENCH load=fs[a-z]*-1 ' -e '^BENCH load=hackbench' "$bs" >"$tmp/demo.out"
check "bench-table.py --png draws a demo-mode run (no static reference)" \
	bash -c 'python3 "$1" --png "$2" <"$3" >/dev/null' _ "$bt" "$tmp/demo.png" "$tmp/demo.out"
check "the demo-mode PNG is a picture" png_ok "$tmp/demo.png" 700 500
check "bench-table.py --png into a directory that does not exist: exit 3, table printed" bash -c '
	python3 "$1" --png "$2" <"$3" >"$4" 2>"$4.err"; st=$?
	[ $st -eq 3 ] && grep -q "cannot write" "$4.err" && grep -q "^fsdisk-16 " "$4" ||
		{ echo "exit $st"; cat "$4" "$4.err"; exit 1; }' _ "$bt" "$tmp/no/such/b.png" "$bs" "$tmp/b3"
check "bench-table.py without BENCH lines: exit 1, no picture" bash -c '
	echo "# nothing" | python3 "$1" --png "$2" >/dev/null 2>&1; st=$?
	[ $st -eq 1 ] && [ ! -e "$2" ]' _ "$bt" "$tmp/empty.png"
check "bench-table.py with an unknown option: exit 2" status_msg 2 'unrecognized' python3 "$bt" --bogus
check "bench-table.py adds the OSQ table (guest/osq-bench.sh lines), ratios to 'none'" bash -c '
	out=$(printf "%s\n" \
		"BENCH load=shell8 enable=0 round=1 score=100 unit=lpm" \
		"OSQ load=fstime-8 config=none round=1 score=1000 unit=KBps wall=2 osq_spin_ns=1000000000 osq_handoff_local=10 osq_handoff_remote=30 osq_numa_pass=4 spin_capped=2" \
		"OSQ load=fstime-8 config=numa round=1 score=1100 unit=KBps wall=2 osq_spin_ns=800000000 osq_handoff_local=30 osq_handoff_remote=10 osq_numa_pass=6 spin_capped=0" |
		python3 "$1") &&
	echo "$out" | grep -Eq "^fstime-8 +none +1000 +KBps +1\.000 +0\.50 +1\.000 +0\.250 +20 +2/1 +1$" &&
	echo "$out" | grep -Eq "^fstime-8 +numa +1100 +KBps +1\.100 +0\.40 +0\.800 +0\.750 +20 +3/0 +1$"' _ "$bt"
check "bench-table.py adds CPU shares and kernel hot spots per unit of work (PROFILE=1 lines)" bash -c '
	out=$(printf "%s\n" \
		"BENCH load=fsdisk-16 enable=0 round=1 score=1000 unit=KBps" \
		"BENCH-CPU load=fsdisk-16 enable=0 round=1 user=10 nice=0 system=80 idle=10 iowait=0 irq=0 softirq=0 steal=0" \
		"BENCH-PROF load=fsdisk-16 enable=0 round=1 ticks=200 osq_lock=100 copy_page=50" \
		"BENCH load=fsdisk-16 enable=1 round=1 score=500 unit=KBps" \
		"BENCH-CPU load=fsdisk-16 enable=1 round=1 user=10 nice=0 system=70 idle=20 iowait=0 irq=0 softirq=0 steal=0" \
		"BENCH-PROF load=fsdisk-16 enable=1 round=1 ticks=180 osq_lock=20 copy_page=25 rwsem_down_write_slowpath.constprop.0=30" |
		python3 "$1") &&
	echo "$out" | grep -Eq "enable 1: user 10\.0 +system 70\.0 +softirq 0\.0 +irq 0\.0 +idle 20\.0" &&
	echo "$out" | grep -Eq "^ +osq_lock +100 +20 +0\.40$" &&
	echo "$out" | grep -Eq "^ +rwsem_down_write_slowpath\.constprop\.0 +0 +30 +new$" &&
	echo "$out" | grep -Eq "^ +\(all kernel ticks\) +200 +180 +1\.80$"' _ "$bt"
check "demo.sh (make demo, bench, overhead) writes build/MODE-ARCH.png with --png and prints its path" \
	grep_in "$s/bench/demo.sh" 'bench-table\.py.* --png "\$png"' 'echo "picture: \$png"' 'png=\$BUILD/\$mode-\$arch\.png'
check "demo.sh refuses a load duration that is not a positive integer, before any build" \
	bash -c 'for e in FILE_SECONDS=0 CTX_SECONDS=x SHELL_SECONDS=-1 SECONDS_PER_LOAD=1.5; do
		out=$(env "$e" AFFSCHED_BUILD=/nonexistent "$1" 2>&1) && exit 1
		echo "$out" | grep -q "must be a positive integer" || { echo "$e: $out"; exit 1; }
		[ ! -e /nonexistent ] || exit 1
	done' _ "$s/bench/demo.sh"
check "guest/bench.sh takes N or CTX,SHELL,FILE seconds and refuses others (exit 2)" \
	bash -c 'for a in 10,60 10,,30 0,60,30 5,60,3x; do
		out=$(sh "$1" 1 "$a" 2>&1); st=$?
		[ $st -eq 2 ] && echo "$out" | grep -q "SECONDS must be N or CTX,SHELL,FILE" ||
			{ echo "$a: exit $st: $out"; exit 1; }
	done' _ "$s/guest/bench.sh"

# --- samples recorded in the arm64 guest (scripts/bench/capture-samples.sh)
rec=$data/recorded
check "trace-summary.py --png draws the recorded arm64 trace (fstime -s -c 16)" \
	bash -c '"$1" --json --png "$2" "$3" >"$4" 2>"$4.err" || { cat "$4.err"; exit 1; }' \
	_ "$ts" "$tmp/rec.png" "$rec/trace-arm64.txt" "$tmp/rec.json"
check "the recorded timeline PNG is a picture" png_ok "$tmp/rec.png" 1000 800
check "the recorded trace has a group of 16 members that got a sub-domain" json_is "$tmp/rec.json" '
	any(g["members"]["max"] == 16 for g in r["groups"]) and
	any(v["assigns"] >= 1 and v["redirects"] >= 1 for v in r["timeline"]["groups"].values())'
rec_group=$(awk 'NR > 1 && $7 == "active" { print $1; exit }' "$rec/debugfs-arm64/groups")
check "affsched-top --once --root <recorded snapshot> shows its active group and reserved CPUs" \
	bash -c '"$1" --once --root "$2" >"$3" 2>&1 && grep -Eq "^$4 +rwsem +16 " "$3" &&
		grep -q "^reserved CPUs: $(cat "$2/reserved") " "$3" || { cat "$3"; exit 1; }' \
	_ "$top" "$rec/debugfs-arm64" "$tmp/rec.top" "$rec_group"

# --- affsched-top --------------------------------------------------------------
snap=$data/debugfs-snapshot
check "affsched-top uses the Python standard library only" python3 -c '
import ast, sys
mods = set()
for node in ast.walk(ast.parse(open(sys.argv[1]).read())):
    if isinstance(node, ast.Import):
        mods |= {a.name.split(".")[0] for a in node.names}
    elif isinstance(node, ast.ImportFrom):
        mods.add(node.module.split(".")[0])
bad = sorted(m for m in mods if m not in sys.stdlib_module_names)
sys.exit(f"not in the standard library: {bad}" if bad else 0)' "$top"
"$top" --once --root "$snap" >"$tmp/top1" 2>&1
st=$?
check "affsched-top --once --root <snapshot>: exit 0" test $st -eq 0
check "it shows the groups, the sub-domain, the reserved CPUs and changed tunables" grep_in "$tmp/top1" \
	'enable 1' '^reserved CPUs: 4-5 \(2\) +groups: 4 \(2 active, 1 forming, 1 idle\), 1 with a sub-domain' \
	'^tunables not at default: max_reserved=250 permille$' \
	'^5c1e33a7 +rwsem +16 +412 +3 +1530 +active +2 +4-5$' '^e4418c09 +rwsem +5 +133 +5 +412 +idle +- +-$'
check "it shows the counters' totals, rates from the second sample on" grep_in "$tmp/top1" \
	'^contended +48,213,377 +-$' '^osq_spin_ns +512,339,002,211 +-$' '^\(2 counter\(s\) at 0 not shown'
# Rates: the counters move between two samples 2 s apart.
top_rates() {
	cp -r "$snap" "$tmp/live"
	"$top" -n 2 -d 2 --root "$tmp/live" >"$tmp/top2" 2>&1 &
	local pid=$! i
	for i in $(seq 200); do
		grep -q '^COUNTER' "$tmp/top2" 2>/dev/null && break
		sleep 0.05
	done
	python3 -c '
import sys
p = sys.argv[1]
add = {"contended": 3000, "osq_spin_ns": 2000000000}
rows = [line.split() for line in open(p)]
open(p + ".new", "w").write("".join(f"{k} {int(v) + add.get(k, 0)}\n" for k, v in rows))' "$tmp/live/stats"
	mv "$tmp/live/stats.new" "$tmp/live/stats"
	wait $pid || return 1
	sed -n '/sample 2/,$p' "$tmp/top2" >"$tmp/top2b"
	# 3000 events and 2 s of spinning in a little over 2 s
	awk '$1 == "contended" { gsub(",", "", $3); c = ($3 >= 1000 && $3 <= 1500) }
	     $1 == "osq_spin_ns" { o = ($3 >= 0.66 && $3 <= 1.0 && $4 == "CPUs") }
	     $1 == "group_update" { g = ($3 == "0.0") }
	     END { exit !(c && o && g) }' "$tmp/top2b" || { cat "$tmp/top2"; return 1; }
}
check "affsched-top -n 2 -d 2: rates per second (contended 1500/s, osq_spin_ns 1.00 CPUs)" top_rates
mkdir -p "$tmp/dbg"
echo "proc /proc proc rw 0 0" >"$tmp/mounts.none"
echo "debugfs $tmp/dbg debugfs rw,relatime 0 0" >"$tmp/mounts.debugfs"
check "debugfs not mounted: exit 3, says how to mount it" \
	status_msg 3 "debugfs is not mounted on $tmp/dbg: mount it with 'mount -t debugfs" \
	"$top" --once --debugfs "$tmp/dbg" --mounts "$tmp/mounts.none"
check "module not loaded (debugfs mounted, no affsched/): exit 4, says modprobe affsched" \
	status_msg 4 "the affsched module is not loaded: $tmp/dbg/affsched does not exist; load it with 'modprobe affsched'" \
	"$top" --once --debugfs "$tmp/dbg" --mounts "$tmp/mounts.debugfs"
check "--root DIR that does not exist: exit 4" status_msg 4 'no such directory' \
	"$top" --once --root "$tmp/nope"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	cp -r "$snap" "$tmp/dbg/affsched"
	chmod 700 "$tmp/dbg"
	check "permission denied (debugfs root-only, run as nobody): exit 5, says run as root" \
		status_msg 5 'permission denied: .*run affsched-top as root' \
		setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 "$top" --once \
		--debugfs "$tmp/dbg" --mounts "$tmp/mounts.debugfs"
	chmod 755 "$tmp/dbg"
	chmod 400 "$tmp/dbg/affsched/groups"
	check "permission denied on the files (mode 0400 root): exit 5" \
		status_msg 5 'permission denied: .*/groups' \
		setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 "$top" --once \
		--root "$tmp/dbg/affsched"
else
	skip "permission denied: exit 5" "needs root and setpriv to run as nobody"
	skip "permission denied on the files: exit 5" "needs root and setpriv to run as nobody"
fi
cp -r "$snap" "$tmp/nostats"
rm "$tmp/nostats/stats"
check "a directory without stats: exit 1, not an affsched directory" \
	status_msg 1 'not an affsched debugfs directory' "$top" --once --root "$tmp/nostats"
cp -r "$snap" "$tmp/badgroups"
echo 'garbage' >"$tmp/badgroups/groups"
check "a malformed groups file: exit 1" status_msg 1 'groups: no "id kind members' \
	"$top" --once --root "$tmp/badgroups"
check "affsched-top -n 0: exit 2" status_msg 2 'not a positive integer' "$top" -n 0
check "affsched-top -d 0: exit 2" status_msg 2 'not a positive number' "$top" -d 0
check "affsched-top --bogus: exit 2" status_msg 2 'unrecognized' "$top" --bogus
check "affsched-top --help documents the exit codes" bash -c '
	"$1" --help | grep -q "^exit status:" && "$1" --help | grep -Eq "^ +3 +debugfs is not mounted" &&
	"$1" --help | grep -Eq "^ +4 +no affsched directory" && "$1" --help | grep -Eq "^ +5 +permission denied"' \
	_ "$top"

tap_done
