#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kabi-check.sh olk | size ARCH
#
# olk: on the OLK-5.10 tree that scripts/check/olk-apply-check.sh left in
#   build/olk or OLK_TREE (fixture + series), check include/linux/sched.h
#   against the fixture's own:
#   - in the body of struct task_struct, every line the series adds or
#     removes is a KABI_* line, a preprocessor conditional or a comment;
#   - with CONFIG_SCHED_AFFSCHED off (unifdef), the whole header is the
#     fixture's, to the byte;
#   - with it on, the only difference is KABI_RESERVE(N) becoming
#     KABI_USE(N, <pointer>), so no member moves and no KABI struct
#     changes size.
# size ARCH: sizeof(struct task_struct) in the built guest kernel
#   (build/obj/ARCH, the series applied) is at most one pointer more than
#   in the base tree with the same configuration (base_obj in lib.sh).
#   Both are read with nm -S from one global object of that size, compiled
#   as an external module object against each tree.
#
# Exit status: 0 if the check passed, 1 if not, 2 on bad usage.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: kabi-check.sh olk | size x86_64|arm64" >&2
	exit 2
}

# task_struct_body FILE: the lines of struct task_struct's definition
task_struct_body() {
	awk '/^struct task_struct {/ { on = 1 } on { print } on && /^};/ { exit }' "$1"
}

check_olk() {
	local tree=${OLK_TREE:-$BUILD/olk} h=include/linux/sched.h tmp st=0
	[[ "$tree" = /* ]] || tree=$PWD/$tree
	git -C "$tree" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1 ||
		die "no OLK tree in $tree: run scripts/check/olk-apply-check.sh first"
	command -v unifdef >/dev/null || die "unifdef missing (scripts/build/deps.sh installs it)"
	tmp=$(mktemp -d)
	git -C "$tree" show "$BASE_TAG:$h" >"$tmp/base.h"
	git -C "$tree" show "$BRANCH:$h" >"$tmp/new.h"

	# 1. task_struct: nothing but KABI lines, conditionals and comments change
	task_struct_body "$tmp/base.h" >"$tmp/base.body"
	task_struct_body "$tmp/new.h" >"$tmp/new.body"
	[ -s "$tmp/base.body" ] && [ -s "$tmp/new.body" ] || die "no struct task_struct in $h"
	local other
	other=$(diff "$tmp/base.body" "$tmp/new.body" | grep -E '^[<>]' |
		grep -vE '^[<>][[:space:]]*(KABI_[A-Z_0-9]+\(|#[[:space:]]*(if|ifdef|ifndef|else|elif|endif)\b|/\*.*\*/[[:space:]]*$)' || true)
	if [ -n "$other" ]; then
		echo "task_struct: lines changed outside KABI_* lines:"
		echo "$other" | sed 's/^/  /'
		st=1
	else
		echo "ok: task_struct changes only KABI_* lines, conditionals and comments"
	fi

	# 2. option off: the header is the fixture's
	unifdef -UCONFIG_SCHED_AFFSCHED -o "$tmp/base.off" "$tmp/base.h" || [ $? -eq 1 ]
	unifdef -UCONFIG_SCHED_AFFSCHED -o "$tmp/new.off" "$tmp/new.h" || [ $? -eq 1 ]
	if diff -u "$tmp/base.off" "$tmp/new.off" >"$tmp/off.diff"; then
		echo "ok: with CONFIG_SCHED_AFFSCHED off, $h is OLK-5.10's"
	else
		echo "with CONFIG_SCHED_AFFSCHED off, $h differs from OLK-5.10's:"
		sed 's/^/  /' "$tmp/off.diff"
		st=1
	fi

	# 3. option on (and outside genksyms): only reserved slots put to use
	unifdef -DCONFIG_SCHED_AFFSCHED -U__GENKSYMS__ -o "$tmp/base.on" "$tmp/base.h" || [ $? -eq 1 ]
	unifdef -DCONFIG_SCHED_AFFSCHED -U__GENKSYMS__ -o "$tmp/new.on" "$tmp/new.h" || [ $? -eq 1 ]
	python3 - "$tmp/base.on" "$tmp/new.on" <<'PY' || st=1
import difflib, re, sys
old = [l.strip() for l in open(sys.argv[1]) if not re.match(r'\s*/\*.*\*/\s*$', l)]
new = [l.strip() for l in open(sys.argv[2]) if not re.match(r'\s*/\*.*\*/\s*$', l)]
bad, used = [], []
for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
    if tag == 'equal':
        continue
    o, n = old[i1:i2], new[j1:j2]
    ok = tag == 'replace' and len(o) == len(n)
    for a, b in zip(o, n) if ok else []:
        ma = re.fullmatch(r'KABI_RESERVE\((\d+)\)', a)
        mb = re.fullmatch(r'KABI_USE\((\d+),\s*[\w\s]+\*\s*\w+\)', b)
        if not (ma and mb and ma.group(1) == mb.group(1)):
            ok = False
        else:
            used.append(b)
    if not ok:
        bad.append((o, n))
for o, n in bad:
    print('with CONFIG_SCHED_AFFSCHED on, a change that is not a reserved slot put to use:')
    for l in o:
        print('  - ' + l)
    for l in n:
        print('  + ' + l)
if not bad:
    print('ok: with CONFIG_SCHED_AFFSCHED on, only KABI_RESERVE slots become pointers: '
          + '; '.join(used))
sys.exit(1 if bad or not used else 0)
PY
	rm -rf "$tmp"
	return $st
}

# tsk_size OBJDIR SRCDIR: sizeof(struct task_struct) in bytes for that build
tsk_size() {
	local dir
	dir=$(mktemp -d)
	cat >"$dir/tsk_size.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/sched.h>
/* nm -S prints this object's size: sizeof(struct task_struct) */
char affsched_task_struct_size[sizeof(struct task_struct)];
EOF
	echo 'obj-m := tsk_size.o' >"$dir/Kbuild"
	make -s -C "$2" O="$1" ARCH="$(karch "$arch")" CROSS_COMPILE="$(kcross "$arch")" \
		M="$dir" tsk_size.o >&2
	printf "%d\n" "0x$(nm -S "$dir/tsk_size.o" | awk '$4 == "affsched_task_struct_size" { print $2 }')"
	rm -rf "$dir"
}

check_size() {
	local obj=$BUILD/obj/$arch bobj before after ptr
	[ -f "$obj/.config" ] || die "no built $arch kernel in $obj (scripts/build/build-kernel.sh $arch)"
	grep -q '^CONFIG_SCHED_AFFSCHED=y' "$obj/.config" || die "$obj is not built with CONFIG_SCHED_AFFSCHED"
	bobj=$(base_obj "$arch")
	before=$(tsk_size "$bobj" "$BUILD/linux-base")
	after=$(tsk_size "$obj" "$KSRC")
	ptr=8
	[ "${before:-0}" -gt 0 ] && [ "${after:-0}" -gt 0 ] || die "could not read sizeof(struct task_struct)"
	echo "sizeof(struct task_struct), $arch: base $before, with the series $after bytes (+$((after - before)), at most +$ptr)"
	[ $((after - before)) -le $ptr ]
}

case "${1:-}" in
olk)
	[ $# -eq 1 ] || usage
	check_olk
	;;
size)
	[ $# -eq 2 ] || usage
	arch=$2
	karch "$arch" >/dev/null
	check_size
	;;
*) usage ;;
esac
