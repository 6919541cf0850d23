#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lock-paths.py: with affsched off, the lock functions are 5.10's.

Usage: lock-paths.py OBJDUMP ARCH SERIES_DIR BASE_DIR

ARCH is arm64 or x86_64; SERIES_DIR and BASE_DIR are object directories
of the patched tree and of the base, each holding kernel/locking/mutex.o,
rwsem.o and osq_lock.o built with the same configuration.

For each lock function users call (mutex_lock, mutex_unlock, down_write,
up_write, down_read, up_read) it walks the code reachable from the
function's entry, in both objects.  A jump-label site keyed on one of
affsched's static keys is a NOP while affsched is off and only falls
through; another key's site is followed both ways.  The check: the
series' reachable instructions, less those NOPs, are the base's, one for
one in address order, with branch targets compared by position in the
path and relocations by symbol.  So the frame, the spills, the register
allocation and the length are 5.10's, and what affsched adds while off is
at most the NOPs.  An affsched site's out-of-line body is not reachable
while its key is off; the table counts it in the whole function.

osq_lock() and osq_unlock() change by design in the locking-osq series:
their rows are printed for the record and not checked.

Prints a table (function, whole-function instructions base and series,
off-path instructions base and series, affsched NOPs on the path, result)
and exits 1 if a checked function differs.
"""
import importlib.util
import os
import re
import sys

_spec = importlib.util.spec_from_file_location(
    'off_cost', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'off-cost.py'))
off_cost = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(off_cost)

CHECKED = [('kernel/locking/mutex.o', 'mutex_lock'),
           ('kernel/locking/mutex.o', 'mutex_unlock'),
           ('kernel/locking/rwsem.o', 'down_write'),
           ('kernel/locking/rwsem.o', 'up_write'),
           ('kernel/locking/rwsem.o', 'down_read'),
           ('kernel/locking/rwsem.o', 'up_read')]
RECORDED = [('kernel/locking/osq_lock.o', 'osq_lock'),
            ('kernel/locking/osq_lock.o', 'osq_unlock')]

AFF = re.compile(r'affsched')
TARGET = off_cost.TARGET
SUFFIX = re.compile(r'\.(constprop|isra|part|cold)\.\d+')


def normalise(insns, path, drop):
    """The instructions at @path less @drop, in address order, each as
    text: branch targets as their position in that list, relocations as
    their symbols."""
    keep = sorted(a for a in path if a not in drop)
    pos = {a: n for n, a in enumerate(keep)}
    # A branch to a dropped NOP goes on to what follows it.
    for a in sorted(drop, reverse=True):
        nxt = [k for k in keep if k > a]
        pos[a] = pos[nxt[0]] if nxt else len(keep)
    by_addr = {a: (mn, ops, rel) for a, mn, ops, rel in insns}
    out = []
    for a in keep:
        mn, ops, rel = by_addr[a]
        m = TARGET.search(ops)
        if m and not rel:
            dest = int(m.group(1), 16)
            ops = ops[:m.start()] + ('@%d' % pos[dest] if dest in pos else '@out')
        syms = ','.join(SUFFIX.sub('', re.sub(r'[+-]0x[0-9a-f]+$', '', r)) for r in rel)
        if syms:
            ops = re.sub(r'\b[0-9a-f]+ <[^>]*>', '', ops) + ' [' + syms + ']'
        out.append((mn + ' ' + ops).strip())
    return out


def analyse(objdump, obj, name, isa):
    """(whole-function length, path, affsched sites on the path, normalised
    path) of function @name in @obj, or None if @obj has no @name."""
    funcs = off_cost.disassemble(objdump, obj)
    found = [(s, i) for (s, f), i in funcs.items() if f == name and i]
    if not found:
        return None
    sect, insns = found[0]
    lo, hi = insns[0][0], insns[-1][0]
    sites = {c: (None if AFF.search(k) else t)
             for sc, c, t, k in off_cost.jump_sites(objdump, obj)
             if sc == sect and lo <= c <= hi}
    path = off_cost.reachable(insns, sites, isa)
    nops = {a for a, t in sites.items() if t is None and a in path}
    return len(insns), path, nops, normalise(insns, path, nops)


def main():
    if len(sys.argv) != 5 or sys.argv[2] not in ('arm64', 'x86_64'):
        sys.exit(__doc__)
    objdump, arch, sdir, bdir = sys.argv[1:]
    isa = off_cost.ARM64 if arch == 'arm64' else off_cost.X86
    bad = 0
    print('%-7s %-13s %13s %13s %5s  %s' % ('arch', 'function', 'whole (insns)',
                                           'off path', 'NOPs', 'result'))
    print('%-7s %-13s %6s %6s %6s %6s' % ('', '', 'base', 'series', 'base', 'series'))
    for obj, name in CHECKED + RECORDED:
        s = analyse(objdump, os.path.join(sdir, obj), name, isa)
        b = analyse(objdump, os.path.join(bdir, obj), name, isa)
        if s is None or b is None:
            print('%-7s %-13s missing in the %s object' % (arch, name,
                                                           'series' if s is None else 'base'))
            bad = 1
            continue
        checked = (obj, name) in CHECKED
        same = s[3] == b[3]
        if not checked:
            result = 'recorded (changed by locking-osq)'
        elif same:
            result = "ok: the base's path" + (' + %d NOP(s)' % len(s[2]) if s[2] else '')
        else:
            result = 'FAIL: differs from the base beyond the NOPs'
            bad = 1
        print('%-7s %-13s %6d %6d %6d %6d %5d  %s' % (arch, name, b[0], s[0], len(b[1]),
                                                      len(s[1]), len(s[2]), result))
        if checked and not same:
            for n, (x, y) in enumerate(zip(b[3] + [''] * len(s[3]), s[3] + [''] * len(b[3]))):
                if x != y:
                    print('#   first difference at path instruction %d: base "%s", series "%s"'
                          % (n, x, y))
                    break
    sys.exit(bad)


if __name__ == '__main__':
    main()
