#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Functional test of the affsched module's debugfs interface,
# /sys/kernel/debug/affsched/:
#   enable      0600  0 or 1; only "0" and "1" may be written
#   <tunable>   0600  one per tunable, decimal, within [min, max]
#   tunables    0400  "name value unit min max default", one tunable a line
#   groups      0400  "id kind members u_permille n windows state cpus uid"
#                     header, then one line per lock group
#   reserved    0400  CPU list held by sub-domains (empty line when none)
#   scope       0600  cgroup v2 path whose tasks may form groups, "/" for all
#   stats       0400  "name value" counters: enable, disable, tunable_set,
#                     tunable_reject, ...
#
# Loads the module if its directory is missing (insmod $AFFSCHED_KO, default
# /lib/modules/affsched.ko, else modprobe affsched), checks modes, accepted
# and rejected writes and the counters that count them, that no file shows
# something like a kernel pointer, and that unloading removes the files,
# switches the feature off and restores the default tunables.  Leaves the
# module loaded and disabled.
#
# POSIX sh; busybox ash is enough.  TAP 13 on stdout.
# Exit status: 0 all passed, 1 something failed, 4 skipped (not root, or
# no module to load).

DEBUGFS=/sys/kernel/debug
DIR=$DEBUGFS/affsched
KO=${AFFSCHED_KO:-/lib/modules/affsched.ko}
KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4
NL='
'

ntest=0
npass=0
nfail=0
nskip=0

diag()
{
	echo "# $*"
}

pass()
{
	ntest=$((ntest + 1))
	npass=$((npass + 1))
	echo "ok $ntest $*"
}

fail()
{
	ntest=$((ntest + 1))
	nfail=$((nfail + 1))
	echo "not ok $ntest $*"
}

# skip DESCRIPTION REASON
skip()
{
	ntest=$((ntest + 1))
	nskip=$((nskip + 1))
	echo "ok $ntest $1 # SKIP $2"
}

# result ERRORS DESCRIPTION: pass if ERRORS is empty, else say why and fail
result()
{
	if [ -z "$1" ]; then
		pass "$2"
	else
		diag "$2:$1"
		fail "$2"
	fi
}

skip_all()
{
	echo "1..0 # SKIP $*"
	exit $KSFT_SKIP
}

is_num()
{
	case $1 in
	'' | *[!0-9]*) return 1 ;;
	esac
	return 0
}

# A decimal number small enough for shell arithmetic (64-bit signed).
is_small()
{
	is_num "$1" && [ ${#1} -le 18 ]
}

# rd FILE: content of $DIR/FILE without the trailing newline
rd()
{
	cat "$DIR/$1" 2>/dev/null
}

# wr FILE VALUE: write "VALUE\n" to $DIR/FILE in one write(); the status is
# that of the write, so a value the kernel rejects makes wr fail.
wr()
{
	{ echo "$2" >"$DIR/$1"; } 2>/dev/null
}

# stat_get NAME: value of counter NAME in stats
stat_get()
{
	[ -r "$DIR/stats" ] || return 1
	while read -r _n _v; do
		if [ "$_n" = "$1" ]; then
			echo "$_v"
			return 0
		fi
	done <"$DIR/stats"
	return 1
}

# mode_of PATH: permission bits in octal, e.g. 600
mode_of()
{
	_m=$(stat -c %a "$1" 2>/dev/null)
	if is_num "$_m"; then
		echo "$_m"
		return 0
	fi
	# No stat -c (minimal busybox): decode ls -l's "-rw-------".
	_p=$(ls -ld "$1" 2>/dev/null) || return 1
	_p=${_p%% *}
	_p=${_p#?}
	_o=0
	_w=256
	while [ "$_w" -gt 0 ] && [ -n "$_p" ]; do
		_c=${_p%"${_p#?}"}
		_p=${_p#?}
		case $_c in
		- | S | T) ;;
		*) _o=$((_o + _w)) ;;
		esac
		_w=$((_w / 2))
	done
	printf '%o\n' "$_o"
}

debugfs_mounted()
{
	if [ -r /proc/mounts ]; then
		grep -q "^[^ ]* $DEBUGFS debugfs " /proc/mounts
	else
		# Without /proc: a mounted debugfs is never empty.
		[ -n "$(ls -A "$DEBUGFS" 2>/dev/null)" ]
	fi
}

load_module()
{
	if [ -f "$KO" ]; then
		_out=$(insmod "$KO" 2>&1) && return 0
		diag "insmod $KO: $_out"
	fi
	_out=$(modprobe affsched 2>&1) && return 0
	diag "modprobe affsched: ${_out:-failed}"
	return 1
}

# Parse the tunables file: sets tun_hdr, tun_lines (one tunable a line),
# tun_names and ntun.
read_tunables()
{
	tun_hdr=
	tun_lines=
	tun_names=
	ntun=0
	_all=$(rd tunables) || return 1
	tun_hdr=${_all%%"$NL"*}
	case $_all in
	*"$NL"*) tun_lines=${_all#*"$NL"} ;;
	esac
	while read -r _name _rest; do
		[ -n "$_name" ] || continue
		tun_names="$tun_names $_name"
		ntun=$((ntun + 1))
	done <<EOF
$tun_lines
EOF
}

# expect_reject FILE OLD VALUE: writing VALUE must fail and leave OLD;
# appends to errs, returns 0 if the write was rejected.
expect_reject()
{
	_rc=1
	if wr "$1" "$3"; then
		errs="$errs '$3' accepted;"
	else
		_rc=0
	fi
	_r=$(rd "$1")
	[ "$_r" = "$2" ] || errs="$errs reads '$_r' after writing '$3', was '$2';"
	return $_rc
}

# expect_accept FILE VALUE: writing VALUE must succeed and read back.
expect_accept()
{
	if ! wr "$1" "$2"; then
		errs="$errs '$2' rejected;"
		return 1
	fi
	_r=$(rd "$1")
	if [ "$_r" != "$2" ]; then
		errs="$errs reads '$_r' after writing '$2';"
		return 1
	fi
	return 0
}

# Whatever happens, do not leave the feature switched on.
cleanup()
{
	[ -d "$DIR" ] && wr enable 0
}
trap cleanup EXIT
trap 'exit $KSFT_FAIL' INT TERM HUP

[ -n "$KSFT_TAP_LEVEL" ] || echo "TAP version 13"

[ "$(id -u 2>/dev/null)" = 0 ] || skip_all "must be run as root"

# Nothing to test, and no reason to mount anything, without the module.
if [ ! -d /sys/module/affsched ] && [ ! -f "$KO" ] &&
   ! modinfo affsched >/dev/null 2>&1; then
	skip_all "affsched module not loaded, no $KO and modprobe does not know affsched"
fi

if ! debugfs_mounted; then
	mount -t debugfs debugfs "$DEBUGFS" 2>/dev/null ||
		skip_all "debugfs is not mounted on $DEBUGFS and cannot be mounted"
fi

preloaded=0
if [ -d "$DIR" ]; then
	preloaded=1
	diag "affsched module already loaded"
else
	load_module || skip_all "affsched module not available ($KO missing or not loadable, modprobe affsched failed)"
fi

if [ ! -d "$DIR" ]; then
	echo "1..1"
	fail "debugfs directory $DIR exists after loading the module"
	exit $KSFT_FAIL
fi

read_tunables
echo "1..$((12 + ntun))"
diag "tunables:$tun_names"

# 1
errs=
[ "$ntun" -gt 0 ] || errs="$errs tunables lists none;"
for f in enable tunables stats groups reserved scope $tun_names; do
	[ -f "$DIR/$f" ] || errs="$errs no file $f;"
done
result "$errs" "directory $DIR holds enable, tunables, stats, groups, reserved, scope and $ntun tunable files"

# 2: root only; enable and tunables writable, the rest read-only.
errs=
for f in "$DIR"/*; do
	[ -e "$f" ] || continue
	name=${f##*/}
	m=$(mode_of "$f")
	case $name in
	tunables | stats | groups | reserved) want=400 ;;
	*) want=600 ;;
	esac
	[ "$m" = "$want" ] || errs="$errs $name has mode ${m:-?}, want $want;"
done
result "$errs" "file modes are 0600 (enable, scope and tunable files) and 0400 (tunables, stats, groups, reserved)"

# 3
errs=
[ "$tun_hdr" = "name value unit min max default" ] ||
	errs="$errs header is '$tun_hdr';"
while read -r name value unit min max def extra; do
	[ -n "$name" ] || continue
	if [ -z "$def" ] || [ -n "$extra" ]; then
		errs="$errs line of $name does not have 6 fields;"
		continue
	fi
	if ! is_small "$value" || ! is_small "$min" || ! is_small "$max" ||
	   ! is_small "$def"; then
		errs="$errs $name: value, min, max or default not a (small enough) number;"
		continue
	fi
	[ "$min" -le "$def" ] && [ "$def" -le "$max" ] ||
		errs="$errs $name: default $def outside [$min, $max];"
	[ "$min" -le "$value" ] && [ "$value" -le "$max" ] ||
		errs="$errs $name: value $value outside [$min, $max];"
	v=$(rd "$name")
	[ "$v" = "$value" ] || errs="$errs $name: file reads '$v', tunables says $value;"
	diag "tunable $name = $value $unit, range [$min, $max], default $def"
done <<EOF
$tun_lines
EOF
result "$errs" "tunables: header and one well-formed line per tunable, values match the files"

# 4
errs=
nstat=0
if [ -r "$DIR/stats" ]; then
	while read -r name value extra; do
		nstat=$((nstat + 1))
		if ! is_num "$value" || [ -n "$extra" ]; then
			errs="$errs line '$name $value $extra' is not 'name value';"
		fi
	done <"$DIR/stats"
else
	errs="$errs cannot read stats;"
fi
for c in enable disable tunable_set tunable_reject; do
	v=$(stat_get $c)
	is_small "$v" || errs="$errs no counter $c;"
done
result "$errs" "stats: $nstat 'name value' lines including enable, disable, tunable_set, tunable_reject"

# 5
v=$(rd enable)
if [ "$preloaded" = 1 ] && [ "$v" = 1 ]; then
	skip "enable reads 0 after load" "module was loaded and enabled before the test"
	wr enable 0
elif [ "$v" = 0 ]; then
	pass "enable reads 0 after load"
else
	diag "enable reads '$v'"
	fail "enable reads 0 after load"
fi

# 6, 7
for on in 1 0; do
	if [ $on = 1 ]; then
		c=enable
	else
		c=disable
	fi
	errs=
	s0=$(stat_get $c)
	expect_accept enable $on
	s1=$(stat_get $c)
	if is_small "$s0" && is_small "$s1"; then
		[ $((s1 - s0)) -eq 1 ] || errs="$errs stats $c went from $s0 to $s1;"
	else
		errs="$errs no stats counter $c;"
	fi
	result "$errs" "echo $on > enable: reads $on, stats $c grew by 1"
done

# 8: in both states, so that a rejected write cannot pass for a no-op.
errs=
for on in 0 1; do
	wr enable $on
	for v in 2 -1 abc 1x "" " "; do
		expect_reject enable $on "$v"
	done
done
wr enable 0
result "$errs" "enable rejects '2', '-1', 'abc', '1x', '', ' ' and keeps its value"

# 9 .. 8 + ntun: range errors reach the kernel and count in tunable_reject;
# malformed numbers are refused by the module's parser before that and are
# not counted there.
tr0=$(stat_get tunable_reject)
ts0=$(stat_get tunable_set)
nreject=0
nset=0
while read -r name value unit min max def extra; do
	[ -n "$name" ] || continue
	errs=
	old=$(rd "$name")
	if ! is_small "$old" || ! is_small "$min" || ! is_small "$max"; then
		fail "tunable $name: cannot test, value '$old' range [$min, $max]"
		continue
	fi
	if [ "$min" -gt 0 ]; then
		expect_reject "$name" "$old" $((min - 1)) && nreject=$((nreject + 1))
	fi
	expect_reject "$name" "$old" $((max + 1)) && nreject=$((nreject + 1))
	for v in abc -5 "" "${min}x"; do
		expect_reject "$name" "$old" "$v"
	done
	expect_accept "$name" "$min" && nset=$((nset + 1))
	expect_accept "$name" "$max" && nset=$((nset + 1))
	if expect_accept "$name" "$old"; then
		nset=$((nset + 1))
	else
		errs="$errs could not restore $old;"
	fi
	result "$errs" "tunable $name: rejects out-of-range and malformed values, accepts $min and $max, restored to $old"
done <<EOF
$tun_lines
EOF

# 9 + ntun
errs=
tr1=$(stat_get tunable_reject)
ts1=$(stat_get tunable_set)
if is_small "$tr0" && is_small "$tr1" && is_small "$ts0" && is_small "$ts1"; then
	[ $((tr1 - tr0)) -ge $nreject ] ||
		errs="$errs tunable_reject grew by $((tr1 - tr0));"
	[ $((ts1 - ts0)) -ge $nset ] ||
		errs="$errs tunable_set grew by $((ts1 - ts0));"
else
	errs="$errs counters missing;"
fi
result "$errs" "stats: tunable_reject grew by >= $nreject (out-of-range writes), tunable_set by >= $nset"

# 10
errs=
for f in "$DIR"/*; do
	[ -f "$f" ] || continue
	if grep -Eiq '(^|[^0-9a-f])ffff[0-9a-f]{12}([^0-9a-f]|$)' "$f" 2>/dev/null; then
		errs="$errs ${f##*/};"
	fi
done
result "$errs" "no file shows a kernel pointer"

# 11, 12: leave the feature on and every tunable off its default, then
# check that unload + reload brings back the boot state.
can_reload=1
if [ "$preloaded" = 1 ] && [ ! -f "$KO" ] &&
   ! modinfo affsched >/dev/null 2>&1; then
	can_reload=0
fi
if [ $can_reload = 0 ]; then
	skip "rmmod affsched removes $DIR" "no $KO and no affsched in modprobe's path to load it again"
	skip "reload: enable is 0 and tunables are at their defaults" "module cannot be reloaded"
else
	while read -r name value unit min max def extra; do
		[ -n "$name" ] || continue
		if [ "$min" != "$def" ]; then
			wr "$name" "$min"
		else
			wr "$name" "$max"
		fi
	done <<EOF
$tun_lines
EOF
	wr enable 1
	unloaded=0
	if ! out=$(rmmod affsched 2>&1); then
		diag "rmmod affsched: $out"
		fail "rmmod affsched removes $DIR"
	elif [ -e "$DIR" ]; then
		fail "rmmod affsched removes $DIR"
	else
		unloaded=1
		pass "rmmod affsched removes $DIR"
	fi

	if [ $unloaded = 0 ]; then
		skip "reload: enable is 0 and tunables are at their defaults" "unload failed"
	elif ! load_module || [ ! -d "$DIR" ]; then
		fail "reload: enable is 0 and tunables are at their defaults (reload failed)"
	else
		errs=
		v=$(rd enable)
		[ "$v" = 0 ] || errs="$errs enable reads '$v';"
		v=$(rd scope)
		[ "$v" = / ] || errs="$errs scope reads '$v';"
		while read -r name value unit min max def extra; do
			[ -n "$name" ] || continue
			v=$(rd "$name")
			[ "$v" = "$def" ] || errs="$errs $name reads '$v', default $def;"
		done <<EOF
$tun_lines
EOF
		result "$errs" "reload: enable is 0 and tunables are at their defaults"
	fi
fi

if [ -d "$DIR" ]; then
	wr enable 0
	[ "$(rd enable)" = 0 ] || diag "WARNING: could not switch affsched off"
else
	diag "WARNING: affsched module is not loaded any more"
fi

[ $ntest -eq $((12 + ntun)) ] || diag "planned $((12 + ntun)) tests, ran $ntest"
diag "Totals: pass:$npass fail:$nfail skip:$nskip"
[ $nfail -eq 0 ] && exit $KSFT_PASS
exit $KSFT_FAIL
