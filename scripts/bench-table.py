#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise the BENCH lines of guest-bench.sh: medians per load and state,
and the on/off ratio of the medians.  Reads the guest output on stdin."""
import re
import statistics
import sys


def med(xs):
    return statistics.median(xs) if xs else None


def fmt(x, nd=1):
    return '-' if x is None else f'{x:,.{nd}f}'


runs = {}
fails = 0
for line in sys.stdin:
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

hdr = f"{'load':<20} {'enable':>6} {'n':>3} {'score (median)':>18} {'unit':>5} {'index':>9} {'KB/CPU-s':>12} {'on/off':>7}"
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
        print(f"{load:<20} {en:>6} {len(r['score']):>3} {fmt(med(r['score'])):>18} "
              f"{r['unit']:>5} {fmt(med(r['index'])):>9} {fmt(med(r['kbcpu']), 0):>12} {ratio:>7}")
if fails:
    print(f'{fails} run(s) failed; see the guest output above')
sys.exit(1 if fails or not runs else 0)
