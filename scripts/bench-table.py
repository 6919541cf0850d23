#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise the BENCH lines of guest-bench.sh: medians per load and state,
and the on/off ratio of the medians.  Reads the guest output on stdin.

With --targets (bench mode) it also prints the placement targets: fstime
on one shared file on/off, on against the best static confinement (the
taskset sweep), KB per CPU-second against the single copy, ctx and shell8
on/off, and the lock bound P = p/u of seed 004 from the single copy's
score p and the median hold ratio u of the load's group.  Missed targets
are reported, not turned into an error: the exit status says only whether
every run completed."""
import re
import statistics
import sys


def med(xs):
    return statistics.median(xs) if xs else None


def fmt(x, nd=1):
    return '-' if x is None else f'{x:,.{nd}f}'


targets = '--targets' in sys.argv[1:]
runs = {}
groups = []
fails = 0
for line in sys.stdin:
    if line.startswith('BENCH-GROUP '):
        groups.append(dict(re.findall(r'(\w+)=(\S*)', line)))
        continue
    if line.startswith('BENCH-FAIL'):
        fails += 1
        continue
    if not line.startswith('BENCH '):
        continue
    kv = dict(re.findall(r'(\w+)=(\S*)', line))
    key = (kv['load'], int(kv['enable']))
    r = runs.setdefault(key, {'score': [], 'index': [], 'kbcpu': [], 'unit': kv.get('unit', '')})
    for f in ('score', 'index', 'kbcpu'):
        try:
            r[f].append(float(kv.get(f, '')))
        except ValueError:
            pass

loads = []
for (load, _en) in runs:
    if load not in loads:
        loads.append(load)

hdr = f"{'load':<33} {'enable':>6} {'n':>3} {'score (median)':>18} {'unit':>5} {'index':>9} {'KB/CPU-s':>12} {'on/off':>7}"
print(hdr)
print('-' * len(hdr))
for load in loads:
    off = runs.get((load, 0))
    on = runs.get((load, 1))
    for en, r in ((0, off), (1, on)):
        if not r:
            continue
        ratio = ''
        if en == 1 and off and med(off['score']) and med(r['score']) is not None:
            ratio = f"{med(r['score']) / med(off['score']):.3f}"
        print(f"{load:<33} {en:>6} {len(r['score']):>3} {fmt(med(r['score'])):>18} "
              f"{r['unit']:>5} {fmt(med(r['index'])):>9} {fmt(med(r['kbcpu']), 0):>12} {ratio:>7}")


def score(load, en, field='score'):
    r = runs.get((load, en))
    return med(r[field]) if r else None


def target(what, value, want, fmt_value):
    if value is None:
        print(f'  {what:<52} {"-":>8}  (no data)')
        return
    ok = 'met' if value >= want else 'MISSED'
    print(f'  {what:<52} {fmt_value(value):>8}  {ok}')


if targets and runs:
    fs = [load for load in loads if re.fullmatch(r'fstime-shared-\d+(-capped)?', load) and load != 'fstime-shared-1']
    print()
    print('targets (medians):')
    for sub in fs:
        load = sub.removesuffix('-capped')
        off, on = score(load, 0), score(sub, 1)
        ratio = on / off if on is not None and off else None
        target(f'{sub} on/off >= 20x', ratio, 20, lambda v: f'{v:.1f}x')
        static = [(score(s, 0), s[len(load) + len('-taskset-'):])
                  for s in loads if s.startswith(load + '-taskset-') and score(s, 0)]
        if static:
            best, where = max(static)
            target(f'{sub} on / best static ({where}) >= 0.80',
                   on / best if on is not None else None, 0.8, lambda v: f'{v:.2f}')
        one_kb = score('fstime-shared-1', 0, 'kbcpu')
        on_kb = score(sub, 1, 'kbcpu')
        target(f'{sub} on KB/CPU-s / single copy >= 0.50',
               on_kb / one_kb if on_kb is not None and one_kb else None, 0.5, lambda v: f'{v:.2f}')
        p = score('fstime-shared-1', 0)
        us = [float(g['u']) for g in groups if g.get('u', '').isdigit() and int(g['u']) > 0]
        if p and us and on is not None and sub == load:
            u = med(us) / 1000
            ns = sorted(int(g['n']) for g in groups if g.get('n', '').isdigit())
            cpus = sorted({g.get('cpus', '-') for g in groups})
            print(f'  lock bound P = p/u (seed 004): p = {p:,.0f} KBps (one copy), '
                  f'u = {u:.3f} (median of {len(us)} samples of the group), '
                  f'P = {p / u:,.0f} KBps; on = {on / (p / u):.2f} P')
            print(f'  group while on: n {ns[0]}..{ns[-1]}, sub-domains seen: {" ".join(cpus)}')
    for load in loads:
        if load.startswith('ctx-') or load == 'shell8':
            off, on = score(load, 0), score(load, 1)
            target(f'{load} on/off >= 0.97', on / off if on is not None and off else None,
                   0.97, lambda v: f'{v:.3f}')
if fails:
    print(f'{fails} run(s) failed; see the guest output above')
sys.exit(1 if fails or not runs else 0)
