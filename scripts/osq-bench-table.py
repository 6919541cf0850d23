#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise guest-osq-bench.sh output (stdin): per load and OSQ
configuration, the medians over the rounds of the score, the spin time per
second of wall time, the hand-offs per second, the local share of the
hand-offs, and the passed (osq_bypass) and capped spinners per second, with
the score and spin time as ratios to the "none" configuration."""
import re
import statistics
import sys
from collections import defaultdict

CONFIGS = ["none", "prev_cpu", "numa", "cap", "all"]


def main():
    runs = defaultdict(list)
    order = list(CONFIGS)
    fails = 0
    for line in sys.stdin:
        if line.startswith("OSQ-FAIL"):
            fails += 1
            continue
        if not line.startswith("OSQ load="):
            continue
        kv = dict(re.findall(r"(\w+)=(\S*)", line))
        runs[(kv["load"], kv["config"])].append(kv)
        if kv["config"] not in order:
            order.append(kv["config"])  # e.g. numa:4, a sweep of the bound
    if not runs:
        print("osq-bench-table: no OSQ lines on stdin", file=sys.stderr)
        return 1
    med = statistics.median
    print("%-18s %-9s %10s %6s %8s %6s %9s %6s %9s %9s %3s" %
          ("load", "config", "score", "unit", "/none", "spin", "spin/none",
           "local", "hand-off/s", "bypass/s", "n"))
    print("%-18s %-9s %10s %6s %8s %6s %9s %6s %9s %9s %3s" %
          ("", "", "", "", "", "CPUs", "", "share", "", "capped/s", ""))
    for load in sorted({k[0] for k in runs}):
        base = runs.get((load, "none"))
        bscore = med(float(r["score"]) for r in base) if base else None
        bspin = med(int(r["osq_spin_ns"]) / float(r["wall"]) / 1e9 for r in base) if base else None
        for cfg in order:
            rs = runs.get((load, cfg))
            if not rs:
                continue
            score = med(float(r["score"]) for r in rs)
            spin = med(int(r["osq_spin_ns"]) / float(r["wall"]) / 1e9 for r in rs)
            hand = [int(r["osq_handoff_local"]) + int(r["osq_handoff_remote"]) for r in rs]
            share = med(int(r["osq_handoff_local"]) / h if h else 0.0 for r, h in zip(rs, hand))
            hps = med(h / float(r["wall"]) for r, h in zip(rs, hand))
            byp = med(int(r["osq_bypass"]) / float(r["wall"]) for r in rs)
            cap = med(int(r["spin_capped"]) / float(r["wall"]) for r in rs)
            print("%-18s %-9s %10.0f %6s %8s %6.2f %9s %6.3f %9.0f %9s %3d" %
                  (load, cfg, score, rs[0]["unit"],
                   "%.3f" % (score / bscore) if bscore else "-", spin,
                   "%.3f" % (spin / bspin) if bspin else "-", share, hps,
                   "%.0f/%.0f" % (byp, cap), len(rs)))
    if fails:
        print("%d run(s) failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
