# SPDX-License-Identifier: GPL-2.0
# TAP helpers of the host-side check scripts (test-trace-summary.sh,
# tools-check.sh); source it, do not run it.  The caller sets $tmp to a
# scratch directory.  check() numbers the results; tap_done prints the
# "# N passed, N failed" line and returns non-zero if any failed.

n=0
nfail=0

# check DESCRIPTION COMMAND...: one numbered result; output shown on failure
check() {
	local desc=$1 out
	shift
	n=$((n + 1))
	if out=$("$@" 2>&1); then
		echo "ok $n - $desc"
	else
		nfail=$((nfail + 1))
		echo "not ok $n - $desc"
		[ -n "$out" ] && echo "$out" | tail -n 30 | sed 's/^/#   /'
	fi
}

# skip DESCRIPTION REASON: a numbered result that was not run
skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# status_is WANT COMMAND...: COMMAND exits with status WANT
status_is() {
	local want=$1 st
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -ne "$want" ]; then
		echo "exit status $st, want $want"
		cat "$tmp/out" "$tmp/err"
		return 1
	fi
}

# status_msg WANT PATTERN COMMAND...: exit status WANT, and PATTERN (ERE;
# empty: anything) on stderr
status_msg() {
	local want=$1 pat=$2
	shift 2
	status_is "$want" "$@" || return 1
	[ -z "$pat" ] || grep -Eq -- "$pat" "$tmp/err" ||
		{ echo "stderr lacks '$pat':"; cat "$tmp/err"; return 1; }
}

# grep_in FILE PATTERN...: every extended regexp matches a line of FILE
grep_in() {
	local f=$1 p
	shift
	for p in "$@"; do
		grep -Eq -- "$p" "$f" || { echo "no line matching '$p' in $f:"; cat "$f"; return 1; }
	done
}

# json_is FILE PYTHON-EXPR: the expression over the parsed JSON "r" is true
json_is() {
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
ok = eval("(" + sys.argv[2] + ")")
if not ok:
    print("false:", sys.argv[2])
    print(json.dumps(r, indent=1))
sys.exit(0 if ok else 1)' "$1" "$2"
}

# tap_done: the closing line; fails if any check failed
tap_done() {
	echo "# $((n - nfail)) passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
