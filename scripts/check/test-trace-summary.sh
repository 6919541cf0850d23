#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test-trace-summary.sh - check scripts/tools/trace-summary.py against the
# hand-written fixture selftests/affsched/testdata/trace-sample.txt (both
# ftrace and trace-cmd layouts): the table and JSON figures of each group,
# the event counts, --id, stdin, and the exit status of the error cases.
#
# Prints one "ok N - ..." / "not ok N - ..." line per check and exits 0
# when all passed.  Needs python3 only.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
ts=$top/scripts/tools/trace-summary.py
fx=$top/selftests/affsched/testdata/trace-sample.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/tap-lib.sh"

# row_is ID FIELDS...: the table row of group ID, whitespace-normalised
row_is() {
	local id=$1 got want
	shift
	want="$id $*"
	got=$(awk -v id="$id" '$1 == id { $1 = $1; print }' "$tmp/table")
	[ "$got" = "$want" ] || { echo "row:  '$got'"; echo "want: '$want'"; return 1; }
}

has_docstring() {
	python3 -c '
import ast, sys
sys.exit(0 if ast.get_docstring(ast.parse(open(sys.argv[1]).read())) else 1)' "$1"
}
check "trace-summary.py is executable" test -x "$ts"
check "trace-summary.py has a module docstring" has_docstring "$ts"

"$ts" "$fx" >"$tmp/table" 2>"$tmp/table.err"
st=$?
check "table run on the fixture exits 0" test "$st" -eq 0
#                        kind  upd first      last       mmax mlast umin umed umax ulast nmed nlast
check "row 3f2a9c1e (ftrace layout, flags, tgid column)" \
	row_is 3f2a9c1e rwsem 5 100.500000 102.500000 8 8 240 251 262 249 4 5
check "row 0000abcd (both layouts, comm with space, median of an even count)" \
	row_is 0000abcd mutex 4 101.750000 103.300000 3 2 480 505 520 510 2 2
check "row 00ff00ff (affsched: system prefix)" \
	row_is 00ff00ff rwsem 1 103.400000 103.400000 1 1 1000 1000 1000 1000 1 1
group_order() {
	local got
	got=$(awk 'NR > 1 && NF == 13 { print $1 }' "$tmp/table" | tr '\n' ' ')
	[ "$got" = "3f2a9c1e 0000abcd 00ff00ff " ] || { echo "groups: $got"; return 1; }
}
check "groups in order of first update, nothing else" group_order
check "other events: state_change 2 (thermal:state_change ignored)" \
	grep_in "$tmp/table" '^ +state_change +2$'
check "other events: tunable_change 3" grep_in "$tmp/table" '^ +tunable_change +3$'
check "malformed group_update counted in the table" \
	grep_in "$tmp/table" '^malformed group_update events skipped: 1$'
msg='malformed group_update skipped \(not a number: members=abc\)'
check "malformed group_update reported on stderr with its line number" \
	grep_in "$tmp/table.err" "trace-sample.txt:[0-9]+: $msg"

"$ts" --json "$fx" >"$tmp/all.json" 2>/dev/null
check "--json: three groups with the expected figures" json_is "$tmp/all.json" '
	[g["id"] for g in r["groups"]] == ["3f2a9c1e", "0000abcd", "00ff00ff"] and
	r["groups"][0] == {"id": "3f2a9c1e", "kind": "rwsem", "updates": 5,
		"first_s": 100.5, "last_s": 102.5, "members": {"max": 8, "last": 8},
		"u_permille": {"min": 240, "median": 251, "max": 262, "last": 249},
		"n": {"median": 4, "last": 5}, "windows": {"last": 5}} and
	r["groups"][1]["u_permille"] == {"min": 480, "median": 505, "max": 520, "last": 510} and
	r["groups"][1]["members"] == {"max": 3, "last": 2} and
	r["groups"][1]["n"] == {"median": 2, "last": 2} and
	r["groups"][2]["updates"] == 1'
check "--json: event counts and malformed count" json_is "$tmp/all.json" '
	r["events"] == {"group_update": 11, "state_change": 2, "tunable_change": 3} and
	r["malformed"] == 1'

"$ts" --json --id 0xABCD "$fx" >"$tmp/one.json" 2>/dev/null
check "--id 0xABCD selects group 0000abcd only" json_is "$tmp/one.json" '
	[g["id"] for g in r["groups"]] == ["0000abcd"] and r["groups"][0]["updates"] == 4'

check "stdin gives the same table as a file argument" \
	bash -c 'cmp -s <("$1" <"$2" 2>/dev/null) "$3"' _ "$ts" "$fx" "$tmp/table"
check "two files: counts add up" \
	bash -c '"$1" --json "$2" - <"$2" 2>/dev/null | python3 -c "
import json, sys
r = json.load(sys.stdin)
sys.exit(0 if r[\"groups\"][0][\"updates\"] == 10 and r[\"malformed\"] == 2 else 1)"' _ "$ts" "$fx"

grep -v -e group_update -e state_change -e tunable_change "$fx" >"$tmp/none.txt"
check "no affsched event: exit 1 with a message" \
	status_msg 1 "no affsched events found" "$ts" "$tmp/none.txt"
check "--id of a group that is not there: exit 1" status_is 1 "$ts" --id 12345678 "$fx"
check "missing file: exit 2 with a message" \
	status_msg 2 "cannot read" "$ts" "$tmp/does-not-exist"
check "directory as input: exit 2" status_is 2 "$ts" "$tmp"
check "bad --id: exit 2" status_is 2 "$ts" --id xyz "$fx"
check "--id longer than 8 digits: exit 2" status_is 2 "$ts" --id 123456789 "$fx"
check "unknown option: exit 2" status_is 2 "$ts" --bogus "$fx"
printf '\027\010\104tracing6\0binary' >"$tmp/trace.dat"
check "trace.dat: exit 2, asks for trace-cmd report" \
	status_msg 2 "trace-cmd report" "$ts" "$tmp/trace.dat"

tap_done
