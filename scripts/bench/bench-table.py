#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise the BENCH lines of guest/bench.sh: medians per load and state,
the smallest and largest copy's score, the stalled passes and the on/off
ratio of the medians.  Reads the guest output on stdin.

If the output has OSQ lines (guest/osq-bench.sh, bench mode), a second
table follows: per load and OSQ configuration, the medians over the rounds
of the score, the spin time per second of wall time (in CPUs), the
hand-offs per second, the local share of the hand-offs, and the passed
(osq_numa_pass) and capped spinners per second, with the score and spin time
as ratios to the "none" configuration.

If it has BENCH-STATS lines (bench and overhead modes), a table shows
for each load the contended acquisitions by members of placed groups,
summed over its enable 1 runs: those taken by a waiter that never slept in
the slow path (handoff_spun: the lock went to a running spinner) and those
that woke a sleeper (handoff_woken), with the spinners' share; and the
wake-ups of other tasks moved off reserved CPUs (wake_avoid) per run.

If it has BENCH-CPU and BENCH-PROF lines (PROFILE=1), a third part shows
for each load where the CPUs' time went with enable 0 and 1 (shares of the
/proc/stat ticks, summed over the rounds) and the kernel functions the
timer tick hit most, with their ticks per unit of score on against off
(the same duration runs in both states, so that ratio is the change in a
function's cost per unit of work).

With --targets (bench mode) it also prints the placement targets: each
UnixBench file test (fsdisk, fstime, fsbuffer) with enable 1 against its
best static confinement (the taskset sweep) and, for reference, against
one copy alone; no stalled pass with enable 1; context1, shell8 and
hackbench on/off; tracking alone on the one-CPU fsdisk and on each file
test's cluster, and the placement against that cluster with tracking
alone (its shortfall net of the tracking's cost); root's ctx beside
an unprivileged user's groups; and the lock bound P = p/u from the single
copy's score p and the median hold ratio u of the load's group (a lock
held for the fraction u of the time passes at most 1/u times what one
holder alone gets through it).  Missed targets are reported, not turned
into an error: the exit status says only whether every run completed.

With --png FILE it also draws the medians as a picture: one panel per load
with its score at enable 0 and 1 (and, in bench mode, with max_reserved
capped and under each static taskset confinement), every round as a dot,
and the single copy's score as a line on the file tests' panels.  --title
sets the picture's title.

Exit status: 0 every run completed; 1 a run failed or there was none; 2 bad
arguments; 3 the picture could not be drawn (matplotlib missing, file not
writable)."""
import argparse
import importlib
import os
import re
import statistics
import sys
import textwrap

PROG = 'bench-table.py'


def med(xs):
    return statistics.median(xs) if xs else None


def fmt(x, nd=1):
    return '-' if x is None else f'{x:,.{nd}f}'


def plot_module():
    """affsched_plot.py, in scripts/tools/ beside trace-summary.py (no
    __pycache__ left there)."""
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
        os.path.realpath(__file__))), 'tools'))
    return importlib.import_module('affsched_plot')


ap = argparse.ArgumentParser(prog=PROG, description='Summarise the BENCH lines of '
                             'guest/bench.sh (stdin): medians, on/off ratios, targets.',
                             epilog='Exit status: 0 every run completed; 1 a run failed or '
                             'there was none; 2 bad arguments; 3 the picture could not be drawn.')
ap.add_argument('--targets', action='store_true',
                help='also print the placement targets (bench mode)')
ap.add_argument('--png', metavar='FILE', help='also draw the medians to this PNG')
ap.add_argument('--title', metavar='TEXT', help='title of the picture')
args = ap.parse_args()
if args.png is not None:
    if not args.png:
        ap.error('--png needs a file name')
    # Before stdin is read: this may run the script again under another
    # python3 (see affsched_plot.py).
    plot_module().require(PROG)
targets = args.targets
FIELDS = ('score', 'index', 'kbcpu', 'min', 'max', 'stalls')
runs = {}
groups = []
scope = None
fails = 0
osq_runs = {}
run_stats = {}   # load -> {'runs': enable 1 runs, counter: sum over them}
cpu_ticks = {}   # (load, enable) -> {kind: ticks summed over the rounds}
prof = {}        # (load, enable) -> {function: ticks summed over the rounds}
osq_order = ['none', 'prev_cpu', 'numa', 'cap', 'all']
for line in sys.stdin:
    if line.startswith('OSQ-FAIL'):
        fails += 1
        continue
    if line.startswith(('BENCH-CPU ', 'BENCH-PROF ')):
        kv = dict(re.findall(r'([\w.]+)=(\S*)', line))
        key = (kv.pop('load'), int(kv.pop('enable')))
        kv.pop('round', None)
        into = (cpu_ticks if line.startswith('BENCH-CPU ') else prof).setdefault(key, {})
        for k, v in kv.items():
            if v.lstrip('-').isdigit():
                into[k] = into.get(k, 0) + int(v)
        continue
    if line.startswith('OSQ load='):
        kv = dict(re.findall(r'(\w+)=(\S*)', line))
        osq_runs.setdefault((kv['load'], kv['config']), []).append(kv)
        if kv['config'] not in osq_order:
            osq_order.append(kv['config'])  # e.g. numa:4, a sweep of the bound
        continue
    if line.startswith('BENCH-STATS '):
        kv = dict(re.findall(r'(\w+)=(\S*)', line))
        st = run_stats.setdefault(kv['load'], {'runs': 0})
        st['runs'] += 1
        for k in ('handoff_spun', 'handoff_woken', 'wake_avoid'):
            if kv.get(k, '').lstrip('-').isdigit():
                st[k] = st.get(k, 0) + int(kv[k])
        continue
    if line.startswith('BENCH-SCOPE '):
        scope = dict(re.findall(r'(\w+)=(\S*)', line))
        continue
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
    r = runs.setdefault(key, {f: [] for f in FIELDS})
    r['unit'] = kv.get('unit', '')
    for f in FIELDS:
        try:
            r[f].append(float(kv.get(f, '')))
        except ValueError:
            pass

loads = []
for (load, _en) in runs:
    if load not in loads:
        loads.append(load)


def ratio_text(v):
    return f'{v:.1f}x' if v >= 10 else f'{v:.3f}'


def stalls_text(r):
    """Stalled passes over all rounds, '-' for a load that does not count them."""
    return '-' if not r['stalls'] else f"{sum(r['stalls']):.0f}"


hdr = (f"{'load':<28} {'enable':>6} {'n':>3} {'score (median)':>16} {'unit':>5} {'index':>8} "
       f"{'KB/CPU-s':>9} {'min copy':>9} {'max copy':>9} {'stalls':>6} {'on/off':>7}")
print(hdr)
print('-' * len(hdr))
for load in loads:
    off = runs.get((load, 0))
    on = runs.get((load, 1))
    for en, r in ((0, off), (1, on)):
        if not r:
            continue
        onoff = ''
        if en == 1 and off and med(off['score']) and med(r['score']) is not None:
            onoff = ratio_text(med(r['score']) / med(off['score']))
        print(f"{load:<28} {en:>6} {len(r['score']):>3} {fmt(med(r['score'])):>16} "
              f"{r['unit']:>5} {fmt(med(r['index'])):>8} {fmt(med(r['kbcpu']), 0):>9} "
              f"{fmt(med(r['min']), 0):>9} {fmt(med(r['max']), 0):>9} {stalls_text(r):>6} {onoff:>7}")


def score(load, en, field='score'):
    r = runs.get((load, en))
    return med(r[field]) if r else None


def target(what, value, want, fmt_value, at_most=False):
    if value is None:
        print(f'  {what:<66} {"-":>8}  (no data)')
        return
    ok = 'met' if (value <= want if at_most else value >= want) else 'MISSED'
    print(f'  {what:<66} {fmt_value(value):>8}  {ok}')


def file_base(load):
    """(test, copies) of a UnixBench file test's N-copy load, else None."""
    m = re.fullmatch(r'(fsdisk|fstime|fsbuffer)-(\d+)', load)
    return (m.group(1), int(m.group(2))) if m and m.group(2) != '1' else None


def ratio(a, b):
    return a / b if a is not None and b else None


if targets and runs:
    print()
    print('targets (medians):')
    for load in [x for x in loads if file_base(x)]:
        test, _n = file_base(load)
        one = score(f'{test}-1', 0)
        static = [(score(s, 0), s[len(load) + len('-taskset-'):])
                  for s in loads if s.startswith(load + '-taskset-') and score(s, 0)]
        for sub in (load, load + '-capped'):
            on = score(sub, 1)
            if on is None:
                continue
            if static:
                best, where = max(static)
                target(f'{sub} on / best static ({where}) >= 0.95', ratio(on, best), 0.95,
                       lambda v: f'{v:.2f}')
            what = f"{sub} on / one copy (the users' figure)"
            print(f"  {what:<66} {fmt(ratio(on, one), 2):>8}  "
                  f"on/off {fmt(ratio(on, score(load, 0)), 2)}")
            st_on = runs[(sub, 1)]['stalls']
            st_off = runs.get((load, 0), {}).get('stalls', [])
            target(f'{sub} stalled passes with enable 1 (enable 0: '
                   f'{sum(st_off):.0f}) = 0', sum(st_on) if st_on else None, 0,
                   lambda v: f'{v:.0f}', at_most=True)
        us = [float(g['u']) for g in groups
              if g.get('load') == load and g.get('u', '').isdigit() and int(g['u']) > 0]
        on = score(load, 1)
        if one and us and on is not None:
            u = med(us) / 1000
            ns = sorted(int(g['n']) for g in groups if g.get('load') == load and g.get('n', '').isdigit())
            cpus = sorted({g.get('cpus', '-') for g in groups if g.get('load') == load})
            print(f'  {load}: lock bound P = p/u: p = {one:,.0f} KBps (one copy), '
                  f'u = {u:.3f} (median of {len(us)} samples of the group), '
                  f'P = {one / u:,.0f} KBps; on = {on / (one / u):.2f} P')
            print(f'  {load}: group while on: n {ns[0]}..{ns[-1]}, sub-domains seen: {" ".join(cpus)}')
        track = f'{load}-taskset-1cpu'
        if test == 'fsdisk' and runs.get((track, 1)):
            target(f'{track} tracking alone (enable 1, max_reserved 0) / enable 0 >= 0.97',
                   ratio(score(track, 1), score(track, 0)), 0.97, lambda v: f'{v:.3f}')
        # Placement's shortfall against a cluster, split in two: what
        # tracking alone costs there, and the placement against the
        # cluster with tracking alone (1.00: placement as good as the
        # static cluster, tracking aside).
        clu = f'{load}-taskset-cluster'
        if runs.get((clu, 1)):
            track_cost = ratio(score(clu, 1), score(clu, 0))
            what = f'{clu} tracking alone / enable 0'
            print(f'  {what:<66} {fmt(track_cost, 3):>8}')
            what = f'{load} on / {clu} with tracking alone'
            print(f'  {what:<66} {fmt(ratio(on, score(clu, 1)), 2):>8}')
    for load in loads:
        if load.startswith(('context1-', 'hackbench-')) or load == 'shell8':
            target(f'{load} on/off >= 0.99', ratio(score(load, 1), score(load, 0)),
                   0.99, lambda v: f'{v:.3f}')
    if scope is not None:
        off, on = (int(scope[k]) if scope.get(k, '').isdigit() else None for k in ('off', 'on'))
        target("root's ctx beside uid 65534's groups on/off >= 0.95",
               ratio(on, off), 0.95, lambda v: f'{v:.3f}')
        if scope.get('status') != '0':
            fails += 1
if fails:
    print(f'{fails} run(s) failed; see the guest output above')


def families():
    """[(base load, [(label, load, enable, kind)])], one per panel, in table
    order; kind is off, on, capped or static.  A file test's single copy
    (fsdisk-1, ...) is a line on its N-copy panel, not a panel of its own."""
    fams = {}
    for load in loads:
        m = re.fullmatch(r'(.+?)-(capped|taskset-(.+))', load)
        if load.endswith('-1') and any(file_base(x) and x.startswith(load[:-1]) for x in loads):
            continue
        base = m.group(1) if m else load
        bars = fams.setdefault(base, [])
        if not m:
            bars += [('off', load, 0, 'off'), ('on', load, 1, 'on')]
        elif m.group(2) == 'capped':
            bars.append(('on, capped', load, 1, 'capped'))
        else:
            bars.append((f'taskset\n{m.group(3)}', load, 0, 'static'))
    return [(base, [b for b in bars if runs.get((b[1], b[2])) and runs[(b[1], b[2])]['score']])
            for base, bars in fams.items()]


UNITS = {'lps': 'loops/s (lps)', 'lpm': 'loops/min (lpm)', 'KBps': 'KB/s (KBps)',
         'w/s': 'writes/s', 'msg/s': 'messages/s'}


def value_text(v):
    return f'{v:,.0f}' if v >= 100 else f'{v:.1f}'


def draw(path, title):
    plot = plot_module()
    plt = plot.pyplot()
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    colors = {'off': plot.COLOR_OFF, 'on': plot.COLOR_ON, 'capped': plot.COLOR_CAPPED,
              'static': plot.COLOR_STATIC}
    fams = [f for f in families() if f[1]]
    if not fams:
        raise plot.PlotError('no BENCH line with a score: no picture')
    # The file tests' panels in the first row, the other loads' in the
    # second when both are there and there are more than five panels.
    rows = [[f for f in fams if file_base(f[0])], [f for f in fams if not file_base(f[0])]]
    if len(fams) <= 5 or not all(rows):
        rows = [fams]
    fams = [f for row in rows for f in row]
    widths = [[max(2, len(bars)) for _b, bars in row] for row in rows]
    wide = max(sum(w) for w in widths)
    fig = plt.figure(figsize=(min(18, max(9, 2.5 + 1.1 * wide)), 1 + 5.5 * len(rows)))
    grid = fig.add_gridspec(len(rows), 1)
    axes = []
    for k, row in enumerate(rows):
        sub = grid[k].subgridspec(1, len(row), width_ratios=widths[k], wspace=0.6)
        axes += [fig.add_subplot(sub[0, j]) for j in range(len(row))]
    used = set()
    for ax, (base, bars) in zip(axes, fams):
        meds = [med(runs[(load, en)]['score']) for _l, load, en, _k in bars]
        unit = runs[(bars[0][1], bars[0][2])]['unit'] or 'score'
        ref = score(f'{file_base(base)[0]}-1', 0) if file_base(base) else None
        # Every round's dot and its label must fit, not just the medians.
        pts_all = [p for _l, load, en, _k in bars for p in runs[(load, en)]['score']]
        top = max(meds + pts_all + ([ref] if ref else []))
        low = min([v for v in meds + pts_all if v > 0] or [1])
        log = low > 0 and top / low > 30
        xs = range(len(bars))
        for x, (_label, load, en, kind), m in zip(xs, bars, meds):
            used.add(kind)
            ax.bar(x, m, width=0.7, color=colors[kind], hatch='//' if kind == 'static' else None,
                   edgecolor='white' if kind == 'static' else None, zorder=2)
            pts = runs[(load, en)]['score']
            dx = [x + 0.12 * (i - (len(pts) - 1) / 2) for i in range(len(pts))]
            ax.scatter(dx, pts, s=12, color='black', zorder=3)
            ax.annotate(value_text(m), (x, max([m] + pts)), xytext=(0, 4),
                        textcoords='offset points', ha='center', va='bottom', fontsize=8)
        if ref:
            ax.axhline(ref, color=plot.COLOR_ONE, linestyle='--', linewidth=1.5, zorder=1)
            ax.annotate(f'one copy: {value_text(ref)}', (0, ref), xycoords=('axes fraction', 'data'),
                        xytext=(3, 3), textcoords='offset points', fontsize=8,
                        color=plot.COLOR_ONE)
            used.add('one')
        if log:
            ax.set_yscale('log')
            ax.set_ylim(low / 3, top * 4)
        else:
            ax.set_ylim(0, top * 1.15)
        ax.set_xticks(list(xs))
        ax.set_xticklabels([b[0] for b in bars], fontsize=9)
        n = len(runs[(bars[0][1], bars[0][2])]['score'])
        ax.set_ylabel(f'score, {UNITS.get(unit, unit)}: median of {n} rounds' +
                      (' (log scale)' if log else ''))
        off, on = score(base, 0), score(base, 1)
        what = base
        if off and on is not None:
            r = on / off
            what += f'\non/off {r:.1f}x' if r >= 10 else f'\non/off {r:.3f}'
        ax.set_title(what, fontsize=10)
        ax.grid(axis='y', alpha=0.3, zorder=0)
    legend = {'off': Patch(color=plot.COLOR_OFF, label='enable 0'),
              'on': Patch(color=plot.COLOR_ON, label='enable 1'),
              'capped': Patch(color=plot.COLOR_CAPPED, label='enable 1, max_reserved capped'),
              'static': Patch(facecolor=plot.COLOR_STATIC, hatch='//', edgecolor='white',
                              label='enable 0, copies confined by taskset (static reference)'),
              'one': Line2D([], [], color=plot.COLOR_ONE, linestyle='--',
                            label='one copy alone (fsdisk-1, fstime-1, fsbuffer-1)')}
    handles = [h for k, h in legend.items() if k in used]
    handles.append(Line2D([], [], marker='o', linestyle='', color='black', markersize=4,
                          label='each round'))
    fig.legend(handles=handles, loc='lower center', ncol=min(3, len(handles)), fontsize=9,
               bbox_to_anchor=(0.5, 0.0))
    fig.suptitle('\n'.join(textwrap.wrap(title or 'affsched on/off, medians of alternating rounds',
                                          width=max(60, int(fig.get_figwidth() * 9)))) +
                 '\nhigher is better', fontsize=11)
    # the legend below the panels, the title above
    fig.subplots_adjust(left=0.06, right=0.98, top=1 - 1.1 / fig.get_figheight(),
                        bottom=1.1 / fig.get_figheight(), hspace=0.35)
    plot.save(fig, path)


def osq_table():
    """The OSQ configurations' medians, as ratios to "none" where it ran."""
    print()
    print('OSQ tweaks (guest/osq-bench.sh), enable 1 and placement off; medians of the rounds,')
    print('spin in CPUs (osq_spin_ns per second of wall time):')
    row = '%-18s %-9s %10s %6s %8s %6s %9s %6s %9s %9s %3s'
    print(row % ('load', 'config', 'score', 'unit', '/none', 'spin', 'spin/none',
                 'local', 'hand-off/s', 'passed/s', 'n'))
    print(row % ('', '', '', '', '', 'CPUs', '', 'share', '', 'capped/s', ''))

    def per_s(r, f):
        return int(r[f]) / float(r['wall'])

    for load in sorted({k[0] for k in osq_runs}):
        base = osq_runs.get((load, 'none'))
        bscore = med([float(r['score']) for r in base]) if base else None
        bspin = med([per_s(r, 'osq_spin_ns') / 1e9 for r in base]) if base else None
        for cfg in osq_order:
            rs = osq_runs.get((load, cfg))
            if not rs:
                continue
            sc = med([float(r['score']) for r in rs])
            spin = med([per_s(r, 'osq_spin_ns') / 1e9 for r in rs])
            hand = [int(r['osq_handoff_local']) + int(r['osq_handoff_remote']) for r in rs]
            share = med([int(r['osq_handoff_local']) / h if h else 0.0 for r, h in zip(rs, hand)])
            hps = med([h / float(r['wall']) for r, h in zip(rs, hand)])
            byp = med([per_s(r, 'osq_numa_pass') for r in rs])
            cap = med([per_s(r, 'spin_capped') for r in rs])
            print('%-18s %-9s %10.0f %6s %8s %6.2f %9s %6.3f %9.0f %9s %3d' %
                  (load, cfg, sc, rs[0]['unit'],
                   '%.3f' % (sc / bscore) if bscore else '-', spin,
                   '%.3f' % (spin / bspin) if bspin else '-', share, hps,
                   '%.0f/%.0f' % (byp, cap), len(rs)))


def profile_table(top=12):
    """CPU shares and kernel hot spots per load, enable 0 against 1."""
    print()
    print('Where the time went (PROFILE=1), summed over the rounds: CPU ticks by kind (%),')
    print('then the kernel functions with the most profile ticks; per-work = ticks per unit')
    print('of score with enable 1 over the same with enable 0:')
    kinds = ('user', 'system', 'softirq', 'irq', 'idle')
    for load in loads:
        c0, c1 = cpu_ticks.get((load, 0)), cpu_ticks.get((load, 1))
        if not c0 and not c1:
            continue
        print(f'  {load}')
        for en, c in ((0, c0), (1, c1)):
            if c:
                tot = sum(c.values()) or 1
                print(f'    enable {en}: ' + '  '.join(f'{k} {100 * c.get(k, 0) / tot:.1f}'
                                                    for k in kinds))
        p0, p1 = prof.get((load, 0), {}), prof.get((load, 1), {})
        s0 = sum(runs.get((load, 0), {}).get('score', [])) or None
        s1 = sum(runs.get((load, 1), {}).get('score', [])) or None
        t0, t1 = p0.pop('ticks', 0), p1.pop('ticks', 0)
        names = sorted(set(p0) | set(p1), key=lambda f: -(p0.get(f, 0) + p1.get(f, 0)))[:top]
        if not names:
            continue
        print(f"    {'function':<44} {'off':>7} {'on':>7} {'per-work':>8}")
        for f in names + ['(all kernel ticks)']:
            a, b = (t0, t1) if f.startswith('(') else (p0.get(f, 0), p1.get(f, 0))
            pw = '-'
            if a and b and s0 and s1:
                pw = f'{(b / s1) / (a / s0):.2f}'
            elif b and not a:
                pw = 'new'
            print(f'    {f:<44} {a:>7} {b:>7} {pw:>8}')


def handoff_table():
    """Hand-offs in placed groups and wake-ups moved off reserved CPUs."""
    print()
    print('Contended acquisitions by members of placed groups, enable 1, summed over the')
    print('rounds: by a spinner (handoff_spun) or a woken sleeper (handoff_woken); wake-ups')
    print('of other tasks moved off reserved CPUs (wake_avoid) per run:')
    row = '%-28s %10s %10s %8s %12s %5s'
    print(row % ('load', 'spun', 'woken', 'spun', 'wake_avoid', 'runs'))
    print(row % ('', '', '', 'share', 'per run', ''))
    for load, st in run_stats.items():
        sp, wk = st.get('handoff_spun', 0), st.get('handoff_woken', 0)
        share = f'{sp / (sp + wk):.3f}' if sp + wk else '-'
        print(row % (load, sp, wk, share, f"{st.get('wake_avoid', 0) / st['runs']:.0f}",
                     st['runs']))


if any('handoff_spun' in st for st in run_stats.values()):
    handoff_table()
if osq_runs:
    osq_table()
if cpu_ticks or prof:
    profile_table()
status = 1 if fails or not runs else 0
if args.png is not None:
    sys.stdout.flush()
    if not runs:
        print(f'{PROG}: no BENCH line with a score: no picture', file=sys.stderr)
    else:
        try:
            draw(args.png, args.title)
        except plot_module().PlotError as e:
            print(f'{PROG}: {e}', file=sys.stderr)
            status = 3
sys.exit(status)
