#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""off-cost.py: with affsched off, each hook costs one static branch.

Usage: off-cost.py OBJDUMP SERIES_OBJ BASE_OBJ [SERIES_OBJ BASE_OBJ ...]

For every function of the series' object that holds a jump-label site
keyed on one of affsched's static keys, or refers to an affsched symbol,
it walks the code reachable from the function's entry with affsched's
sites taken as NOPs (their keys off: fall through only), and other
keys' sites both ways.  The sites come from the relocations of
__jump_table (code, target, key).

Checks, per function:
  1. no reference to an affsched symbol (a call, or the address of a
     variable) is reachable: with the keys off nothing of affsched runs
     but the NOPs;
  2. nothing reachable calls a function that the same function of the
     base object, walked the same way, does not call: a hook must not
     push an inline helper out of line.  A function the base does not
     have (one the series adds, such as the OSQ's NUMA-aware hand-off,
     reached through the locking code's own key) has nothing to compare
     with and gets check 1 only; an out-of-line copy of a helper that a
     hook grew shows up as a new call in the base function that calls it.
It also prints the reachable instructions against the base's, less one
per NOP, for the record (GCC's block layout moves that either way).
Prints one line per function; exits 1 if any check fails.  arm64 only.
"""
import re
import subprocess
import sys


AFF = re.compile(r'affsched')
INSN = re.compile(r'^\s*([0-9a-f]+):\t(\S+)\s*(.*)$')
FUNC = re.compile(r'^([0-9a-f]+) <([^>]+)>:$')
SECT = re.compile(r'^Disassembly of section (\S+):$')
RELOC = re.compile(r'^\s*([0-9a-f]+): (R_\S+)\s+(\S+)$')
TARGET = re.compile(r'\b([0-9a-f]+) <')


def disassemble(objdump, obj):
    """{(section, function): [(addr, mnemonic, operands, [reloc symbols])]}"""
    out = subprocess.run([objdump, '-dr', '--no-show-raw-insn', obj],
                         check=True, capture_output=True, text=True).stdout
    funcs, sect, cur = {}, None, None
    for line in out.splitlines():
        m = SECT.match(line)
        if m:
            sect, cur = m.group(1), None
            continue
        m = FUNC.match(line)
        if m:
            cur = funcs.setdefault((sect, m.group(2)), [])
            continue
        if cur is None:
            continue
        m = RELOC.match(line)
        if m and cur:
            cur[-1][3].append(m.group(3))
            continue
        m = INSN.match(line)
        if m:
            cur.append((int(m.group(1), 16), m.group(2), m.group(3), []))
    return funcs


def jump_sites(objdump, obj):
    """[(section, code offset, target offset, key)] of the object's jump table."""
    out = subprocess.run([objdump, '-r', '-j', '__jump_table', obj],
                         capture_output=True, text=True).stdout
    rel = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and re.match(r'^[0-9a-f]+$', f[0]) and f[1].startswith('R_'):
            rel.append((int(f[0], 16), f[2]))
    rel.sort()
    sites = []
    for i in range(0, len(rel) - 2, 3):
        code, target, key = rel[i][1], rel[i + 1][1], rel[i + 2][1]
        cs, co = (code.split('+') + ['0'])[:2]
        to = (target.split('+') + ['0'])[1]
        sites.append((cs, int(co, 16), int(to, 16), re.sub(r'[+-].*', '', key)))
    return sites


# How each instruction set ends a block, jumps and branches (reachable()).
ARM64 = {'stop': ('ret', 'br', 'eret', 'brk', 'udf'), 'jump': ('b',),
         'cond': lambda mn: mn.startswith('b.') or mn in ('cbz', 'cbnz', 'tbz', 'tbnz')}
X86 = {'stop': ('ret', 'retq', 'ud2', 'int3', 'hlt'), 'jump': ('jmp', 'jmpq'),
       'cond': lambda mn: mn.startswith('j') and mn not in ('jmp', 'jmpq')}


def reachable(insns, sites, isa=ARM64):
    """Addresses reachable from the entry.  @sites maps a jump-label site's
    address to its target, or to None for an affsched site, which is a NOP
    with the keys off and only falls through.  A jump with a relocation
    leaves the function (a tail call, or x86's return thunk); so does an
    indirect one."""
    index = {a: i for i, (a, _, _, _) in enumerate(insns)}
    seen, todo = set(), [insns[0][0]]
    while todo:
        i = index.get(todo.pop())
        while i is not None and insns[i][0] not in seen:
            addr, mn, ops, rel = insns[i]
            seen.add(addr)
            if addr in sites and sites[addr] is not None:
                todo.append(sites[addr])
            m = TARGET.search(ops)
            dest = int(m.group(1), 16) if m and not rel and '*' not in ops else None
            if mn in isa['stop']:
                break
            if mn in isa['jump']:
                if dest is not None:
                    todo.append(dest)
                break
            if dest is not None and isa['cond'](mn):
                todo.append(dest)
            i = i + 1 if i + 1 < len(insns) else None
    return seen


def callees(funcs, sect, insns, path):
    """Names of the functions called (bl) from the addresses in @path."""
    starts = {(sc, fi[0][0]): f for (sc, f), fi in funcs.items() if fi}
    names = set()
    for addr, mn, _, rel in insns:
        if addr not in path or mn != 'bl' or not rel:
            continue
        sym = rel[0]
        m = re.match(r'^(\.[\w.]+)\+0x([0-9a-f]+)$', sym)
        if m:
            sym = starts.get((m.group(1), int(m.group(2), 16)), sym)
        names.add(re.sub(r'\.(constprop|isra|part)\.\d+', '', sym))
    return names


def main():
    objdump, pairs = sys.argv[1], sys.argv[2:]
    if not pairs or len(pairs) % 2:
        sys.exit(__doc__)
    bad = 0
    for obj, base in zip(pairs[::2], pairs[1::2]):
        funcs = disassemble(objdump, obj)
        bfuncs_all = disassemble(objdump, base)
        bfuncs = {f: (s, i) for (s, f), i in bfuncs_all.items()}
        bsites = jump_sites(objdump, base)
        all_sites = jump_sites(objdump, obj)
        sites = [s for s in all_sites if AFF.search(s[3])]
        for (sect, name), insns in sorted(funcs.items()):
            if not insns:
                continue
            lo, hi = insns[0][0], insns[-1][0]
            mine = [s for s in sites if s[0] == sect and lo <= s[1] <= hi]
            refs = [a for a, _, _, r in insns if any(AFF.search(x) for x in r)]
            if not mine and not refs:
                continue
            lsites = {c: (None if AFF.search(k) else t)
                      for sc, c, t, k in all_sites if sc == sect and lo <= c <= hi}
            path = reachable(insns, lsites)
            stray = [a for a in refs if a in path]
            bname = bfuncs.get(name)
            if bname:
                bsect, binsns = bname
                bpath = reachable(binsns, {c: t for sc, c, t, k in bsites
                                           if sc == bsect})
                new_calls = callees(funcs, sect, insns, path) - \
                    callees(bfuncs_all, bsect, binsns, bpath)
                delta = '%+d' % (len(path) - len(bpath) - len(mine))
            else:
                new_calls, delta = set(), 'new'
            ok = not stray and not new_calls
            print('%-4s %-44s sites %d, off path %3d insns (%s)%s%s' %
                  ('ok' if ok else 'FAIL', obj.split('/')[-1] + ':' + name,
                   len(mine), len(path), delta,
                   ', affsched reached at ' + ','.join('%x' % a for a in stray)
                   if stray else '',
                   ', new calls: ' + ','.join(sorted(new_calls)) if new_calls else ''))
            if not ok:
                bad = 1
    sys.exit(bad)


if __name__ == '__main__':
    main()
