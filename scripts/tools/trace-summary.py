#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise affsched tracepoints, one row per lock group; optionally draw
a timeline of each group as a PNG.

Reads the text of /sys/kernel/tracing/trace (or trace_pipe) or the output
of 'trace-cmd report' from the files given, or from stdin.  A trace-cmd
binary file (trace.dat, the file KernelShark opens) is read through
'trace-cmd report -i FILE' when trace-cmd is installed.  Understood:

  group_update:   id=%08x kind=%s members=%u u_permille=%u n=%u windows=%u
  group_assign:   id=%08x n=%u nr_cpus=%u resize=%d cpus=<hex mask>
  group_release:  id=%08x reason=%s
  wake_redirect:  pid=%d id=%08x from=%d to=%d
  state_change:   enabled=%d
  tunable_change: key=value ...

The kernel names them affsched_group_update and so on; the names without
the "affsched_" prefix, which traces recorded before the rename carry, are
read too.
An event counts as affsched's if its name carries the "affsched:" system
prefix (trace-cmd can print one), or if it has no system prefix and is one
of the names above.  sched_migrate_task events (recorded with
-e sched:sched_migrate_task) are used by the timeline only.  Other events
and header lines are ignored.

For each group: kind, number of updates, first and last timestamp,
members (max, last), u_permille (min, median, max, last) and n (median,
last); "last" is the update with the latest timestamp.  Then the counts of
the other affsched events.  --json prints the same as one JSON object
(with --png, plus a "timeline" object: what each group's timeline has);
--id limits the groups to one (the event counts are not filtered).

--png FILE also draws, per group over time: members, n and u from
group_update; the sub-domain's size and CPUs from group_assign and
group_release; wake-ups redirected into the sub-domain (wake_redirect) and
member migrations into it as marks.  The series has no tracepoint for the
placement worker's member moves (they are counted in the member_moved
counter); the marks are the sched_migrate_task events of the group's
members (tasks seen in its group_update or wake_redirect events) from a
CPU outside the sub-domain to one inside that were not a redirected
wake-up, when the trace has them, and the carves (group_assign), after
which the worker moves runnable members in.  Wake-ups of other tasks moved
off the reserved CPUs (wake_redirect with id 0) get a panel of their own.

Exit status: 0 on success, 1 if no affsched event (or no update of the
--id group, or with --png no group to draw) was found, 2 on bad arguments
or an unreadable file, 3 if the picture could not be drawn (matplotlib
missing, file not writable).
"""
import argparse
import importlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

PROG = 'trace-summary.py'
KNOWN_EVENTS = ('group_update', 'state_change', 'tunable_change',
                'group_assign', 'group_release', 'wake_redirect')
EVENT_PREFIX = 'affsched_'
GROUP_FIELDS = ('id', 'kind', 'members', 'u_permille', 'n', 'windows')
TRACE_DAT_MAGIC = b'\x17\x08\x44tracing'
CPUS_RE = re.compile(r'^cpus=(\d+)\s*$')
MASK_RE = re.compile(r'^[0-9a-fA-F,]+$')
INT_RE = re.compile(r'^-?\d+$')
# A member's sched_migrate_task this soon after its own wake_redirect to
# the same CPU is that wake-up's migration, not a move.
REDIRECT_MIGRATION_S = 0.001

# "comm-pid [cpu] flags timestamp: [system:]event: fields".  The comm may
# hold spaces and dashes, ftrace may show a "( tgid)" column, and the
# flags column is missing from trace-cmd's default output.
LINE_RE = re.compile(
    r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+'
    r'(?:\(\s*[\d-]+\)\s+)?'
    r'\[(?P<cpu>\d+)\]\s+'
    r'(?:\S+\s+)?'
    r'(?P<ts>\d+\.\d+):\s+'
    r'(?:(?P<system>\w+):)?(?P<event>\w+):'
    r'(?P<fields>.*)$')
KV_RE = re.compile(r'(\w+)=(\S*)')
ID_RE = re.compile(r'^(?:0[xX])?([0-9a-fA-F]{1,8})$')
UINT_RE = re.compile(r'^\d+$')


class InputError(Exception):
    """A file that cannot be read or is not text."""


class PlotError(Exception):
    """The timeline cannot be drawn or written."""


def group_id(text):
    """Normalise a group id to 8 lower-case hex digits; None if invalid."""
    m = ID_RE.match(text)
    return f'{int(m.group(1), 16):08x}' if m else None


def arg_group_id(text):
    gid = group_id(text)
    if gid is None:
        raise argparse.ArgumentTypeError(f"'{text}' is not a group id (up to 8 hex digits)")
    return gid


def arg_positive(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive integer")
    return int(text)


def plot_module():
    """affsched_plot.py, beside this script (no __pycache__ left there)."""
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
    return importlib.import_module('affsched_plot')


def plural(k, word):
    return f'{k} {word}' + ('' if k == 1 else 's')


def number(x):
    """An int when whole (medians of an even count may not be)."""
    return int(x) if float(x).is_integer() else round(float(x), 1)


class Group:
    def __init__(self, gid):
        self.id = gid
        self.kind = None
        self.first = None
        self.last = None
        self.members = []
        self.u = []
        self.n = []
        self.last_rec = None

    def add(self, ts, rec):
        self.members.append(rec['members'])
        self.u.append(rec['u_permille'])
        self.n.append(rec['n'])
        if self.first is None or ts < self.first:
            self.first = ts
        # ">=": of equal timestamps, the later line wins.
        if self.last is None or ts >= self.last:
            self.last = ts
            self.last_rec = rec
            self.kind = rec['kind']

    def summary(self):
        last = self.last_rec
        return {
            'id': self.id,
            'kind': self.kind,
            'updates': len(self.u),
            'first_s': self.first,
            'last_s': self.last,
            'members': {'max': max(self.members), 'last': last['members']},
            'u_permille': {
                'min': min(self.u),
                'median': number(statistics.median(self.u)),
                'max': max(self.u),
                'last': last['u_permille'],
            },
            'n': {'median': number(statistics.median(self.n)), 'last': last['n']},
            'windows': {'last': last['windows']},
        }


def cpu_mask(text):
    """The CPUs of a hex bitmask as printed for a __bitmask field
    ("30", "00000000,00000030"); None if it is not one."""
    if not MASK_RE.match(text) or not text.replace(',', ''):
        return None
    bits = int(text.replace(',', ''), 16)
    return frozenset(i for i in range(bits.bit_length()) if bits >> i & 1)


def cpu_list(cpus):
    """A CPU set as a CPU list: {0, 1, 2, 5} -> "0-2,5"."""
    out, run = [], []
    for c in sorted(cpus):
        if run and c == run[-1] + 1:
            run.append(c)
            continue
        if run:
            out.append(f'{run[0]}-{run[-1]}' if len(run) > 1 else str(run[0]))
        run = [c]
    if run:
        out.append(f'{run[0]}-{run[-1]}' if len(run) > 1 else str(run[0]))
    return ','.join(out) or '-'


class GroupTimeline:
    """What the trace says about one group over time."""

    def __init__(self, gid):
        self.id = gid
        self.kind = None
        self.updates = []       # (ts, members, u_permille, n)
        self.assigns = []       # (ts, n, frozenset cpus, resize)
        self.releases = []      # (ts, reason)
        self.redirects = []     # (ts, pid, from, to)
        self.pids = set()       # tasks seen as members
        self.moves = []         # (ts, pid, from, to), filled by Timeline.finish()

    def first(self):
        return min((e[0] for e in self.updates + self.assigns + self.releases + self.redirects),
                   default=float('inf'))

    def subdomains(self, end):
        """[(start, stop, cpus)]: the sub-domain's life, from the carves and releases."""
        out = []
        cur = None
        marks = sorted([(a[0], 1, a[2]) for a in self.assigns] +
                       [(r[0], 0, None) for r in self.releases], key=lambda x: (x[0], x[1]))
        for ts, is_assign, cpus in marks:
            if cur is not None:
                out.append((cur[0], ts, cur[1]))
            cur = (ts, cpus) if is_assign else None
        if cur is not None:
            out.append((cur[0], max(end, cur[0]), cur[1]))
        return out

    def cpus_at(self, spans, ts):
        for start, stop, cpus in spans:
            if start <= ts < stop:
                return cpus
        return frozenset()


class Timeline:
    """The events of a trace that the picture needs, per group."""

    def __init__(self):
        self.groups = {}
        self.other_redirects = []  # (ts, pid, from, to) of tasks outside groups
        self.migrations = []       # (ts, pid, from, to), every task
        self.states = []           # (ts, enabled)
        self.tunables = []         # (ts, name, new)
        self.nr_cpus = None        # from trace-cmd report's "cpus=N"
        self.skipped = []          # messages: malformed events other than group_update
        self.first = None
        self.last = None

    def group(self, gid):
        return self.groups.setdefault(gid, GroupTimeline(gid))

    def seen(self, ts):
        self.first = ts if self.first is None else min(self.first, ts)
        self.last = ts if self.last is None else max(self.last, ts)

    def update(self, ts, pid, rec):
        g = self.group(rec['id'])
        g.kind = rec['kind']
        g.updates.append((ts, rec['members'], rec['u_permille'], rec['n']))
        g.pids.add(pid)
        self.seen(ts)

    def migration(self, ts, fields):
        kv = dict(KV_RE.findall(fields))
        try:
            self.migrations.append((ts, int(kv['pid']), int(kv['orig_cpu']), int(kv['dest_cpu'])))
        except (KeyError, ValueError):
            pass

    def event(self, name, lineno, ts, event, fields):
        kv = dict(KV_RE.findall(fields))
        try:
            if event == 'state_change':
                self.states.append((ts, int(kv['enabled'])))
            elif event == 'tunable_change':
                self.tunables.append((ts, kv.get('name', '?'), kv.get('new', '?')))
            elif event in ('group_assign', 'group_release', 'wake_redirect'):
                gid = group_id(kv['id'])
                if gid is None:
                    raise ValueError(f"bad id '{kv['id']}'")
                if event == 'group_assign':
                    cpus = cpu_mask(kv['cpus'])
                    if cpus is None:
                        raise ValueError(f"bad cpus '{kv['cpus']}'")
                    self.group(gid).assigns.append((ts, int(kv['n']), cpus,
                                                    kv.get('resize', '0') == '1'))
                elif event == 'group_release':
                    reason = kv['reason']
                    self.group(gid).releases.append((ts, reason))
                else:
                    rec = (ts, int(kv['pid']), int(kv['from']), int(kv['to']))
                    if gid == '00000000':
                        self.other_redirects.append(rec)
                    else:
                        self.group(gid).redirects.append(rec)
                        self.group(gid).pids.add(rec[1])
            else:
                return
        except (KeyError, ValueError) as e:
            why = f'missing {e}' if isinstance(e, KeyError) else str(e)
            self.skipped.append(f'{name}:{lineno}: malformed {event} skipped ({why})')
            return
        self.seen(ts)

    def finish(self):
        """Sort every series and find the members' migrations into their
        sub-domain that were not a redirected wake-up."""
        for g in self.groups.values():
            for series in (g.updates, g.assigns, g.releases, g.redirects):
                series.sort(key=lambda e: e[0])
        self.other_redirects.sort(key=lambda e: e[0])
        self.migrations.sort(key=lambda e: e[0])
        end = self.last if self.last is not None else 0.0
        for g in self.groups.values():
            g.moves = []
            spans = g.subdomains(end)
            if not spans:
                continue
            last_redirect = {}
            events = sorted([(r[0], 0, r) for r in g.redirects] +
                            [(m[0], 1, m) for m in self.migrations if m[1] in g.pids],
                            key=lambda e: (e[0], e[1]))
            for ts, is_migration, rec in events:
                _ts, pid, src, dst = rec
                if not is_migration:
                    last_redirect[pid] = (ts, dst)
                    continue
                cpus = g.cpus_at(spans, ts)
                if dst not in cpus or src in cpus:
                    continue
                lr = last_redirect.get(pid)
                if lr and lr[1] == dst and ts - lr[0] <= REDIRECT_MIGRATION_S:
                    continue
                g.moves.append(rec)

    def counts(self, only_id=None):
        """What the timeline has, per group (JSON with --png)."""
        self.finish()
        return {
            'groups': {g.id: {'updates': len(g.updates), 'assigns': len(g.assigns),
                              'releases': len(g.releases), 'redirects': len(g.redirects),
                              'moves': len(g.moves)}
                       for g in sorted(self.groups.values(), key=lambda g: (g.first(), g.id))
                       if only_id is None or g.id == only_id},
            'other_redirects': len(self.other_redirects),
            'migrations': len(self.migrations),
            'cpus': self.highest_cpu() + 1,
        }

    def highest_cpu(self):
        top = -1
        for g in self.groups.values():
            for a in g.assigns:
                top = max([top] + list(a[2]))
            for r in g.redirects + g.moves:
                top = max(top, r[2], r[3])
        for r in self.other_redirects:
            top = max(top, r[2], r[3])
        if self.nr_cpus:
            top = max(top, self.nr_cpus - 1)
        return top


class Summary:
    def __init__(self):
        self.groups = {}
        self.events = {}
        self.malformed = 0
        self.timeline = Timeline()

    def feed(self, name, lines):
        for lineno, line in enumerate(lines, 1):
            m = LINE_RE.match(line)
            if not m:
                c = CPUS_RE.match(line)
                if c:
                    self.timeline.nr_cpus = max(self.timeline.nr_cpus or 0, int(c.group(1)))
                continue
            system, event = m.group('system'), m.group('event')
            if event.startswith(EVENT_PREFIX) and event[len(EVENT_PREFIX):] in KNOWN_EVENTS:
                event = event[len(EVENT_PREFIX):]
            ts = float(m.group('ts'))
            if event == 'sched_migrate_task' and system in (None, 'sched'):
                self.timeline.migration(ts, m.group('fields'))
                continue
            if system is not None and system != 'affsched':
                continue
            if system is None and event not in KNOWN_EVENTS:
                continue
            self.events[event] = self.events.get(event, 0) + 1
            if event == 'group_update':
                rec = self.group_update(name, lineno, ts, m.group('fields'))
                if rec is not None:
                    self.timeline.update(ts, int(m.group('pid')), rec)
            else:
                self.timeline.event(name, lineno, ts, event, m.group('fields'))

    def group_update(self, name, lineno, ts, fields):
        kv = dict(KV_RE.findall(fields))
        missing = [f for f in GROUP_FIELDS if f not in kv]
        bad = [f for f in GROUP_FIELDS[2:] if f in kv and not UINT_RE.match(kv[f])]
        gid = group_id(kv.get('id', ''))
        if missing or bad or gid is None or not kv['kind']:
            self.malformed += 1
            why = []
            if missing:
                why.append('missing ' + ', '.join(missing))
            if bad:
                why.append('not a number: ' + ', '.join(f'{f}={kv[f]}' for f in bad))
            if 'id' in kv and gid is None:
                why.append(f"bad id '{kv['id']}'")
            if 'kind' in kv and not kv['kind']:
                why.append('empty kind')
            print(f'{PROG}: {name}:{lineno}: malformed group_update skipped ({"; ".join(why)})',
                  file=sys.stderr)
            return None
        rec = {f: int(kv[f]) for f in GROUP_FIELDS[2:]}
        rec['kind'] = kv['kind']
        rec['id'] = gid
        self.groups.setdefault(gid, Group(gid)).add(ts, rec)
        return rec

    def result(self, only_id=None):
        groups = sorted(self.groups.values(), key=lambda g: (g.first, g.id))
        if only_id is not None:
            groups = [g for g in groups if g.id == only_id]
        return {
            'groups': [g.summary() for g in groups],
            'events': dict(sorted(self.events.items())),
            'malformed': self.malformed,
        }


def read_lines(name):
    """The lines of file @name ('-': stdin) as text."""
    try:
        if name == '-':
            data = sys.stdin.buffer.read()
        else:
            with open(name, 'rb') as f:
                data = f.read()
    except OSError as e:
        raise InputError(f'cannot read {name}: {e.strerror or e}') from e
    if data.startswith(TRACE_DAT_MAGIC):
        data = trace_cmd_report(name, data)
    return data.decode('utf-8', errors='replace').splitlines()


def trace_cmd_report(name, data):
    """The text 'trace-cmd report' makes of the trace.dat file @name
    (whose contents are @data)."""
    tc = shutil.which('trace-cmd')
    if tc is None:
        raise InputError(f"{name} is a trace.dat file and trace-cmd is not installed: "
                         "install trace-cmd or run 'trace-cmd report' on it first")
    tmp = None
    try:
        if name == '-':
            with tempfile.NamedTemporaryFile(prefix='trace-summary-', suffix='.dat',
                                             delete=False) as f:
                f.write(data)
                tmp = f.name
        p = subprocess.run([tc, 'report', '-i', tmp or name], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, check=False)
    except OSError as e:
        raise InputError(f"cannot run 'trace-cmd report' on {name}: {e.strerror or e}") from e
    finally:
        if tmp:
            os.unlink(tmp)
    # trace-cmd 3.1 exits 0 and prints nothing for a file it cannot parse.
    if p.returncode != 0 or not p.stdout.strip():
        err = p.stderr.decode('utf-8', errors='replace').strip().splitlines()
        why = f'exit {p.returncode}' if p.returncode else 'no output'
        raise InputError(f"'trace-cmd report -i {name}' failed ({why})" +
                         (f': {err[-1]}' if err else '') + '; is it a complete trace.dat?')
    return p.stdout


class NothingToDraw(Exception):
    """The trace has no group to draw."""


def draw_timeline(tl, path, title_text, only_id=None, max_groups=4):
    """Write the timeline of the groups of @tl to the PNG @path; return the
    ids drawn and the number of groups left out."""
    ap = plot_module()
    plt = ap.pyplot()
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    tl.finish()
    groups = [g for g in tl.groups.values() if g.updates or g.assigns]
    if only_id is not None:
        groups = [g for g in groups if g.id == only_id]
    if not groups:
        raise NothingToDraw('no group_update or group_assign event' +
                            (f' of group {only_id}' if only_id else ''))
    # The busiest groups, drawn in order of first appearance.
    groups.sort(key=lambda g: (-(len(g.updates) + len(g.assigns) + len(g.redirects)), g.first()))
    omitted = max(0, len(groups) - max_groups)
    groups = sorted(groups[:max_groups], key=lambda g: (g.first(), g.id))

    t0, end = tl.first, tl.last
    ncpu = max(1, tl.highest_cpu() + 1)
    cpu_h = max(1.3, 0.22 * ncpu)
    others = bool(tl.other_redirects) and only_id is None
    # A group that was never placed gets no CPU panel.
    placed = {g.id: bool(g.assigns or g.redirects or g.moves) for g in groups}
    ratios = []
    for g in groups:
        ratios += [1.6, 1.0] + ([cpu_h] if placed[g.id] else [])
    if others:
        ratios.append(cpu_h)
    fig, axes = plt.subplots(len(ratios), 1, sharex=True, squeeze=False,
                             figsize=(13, 0.95 * sum(ratios) + 1.6),
                             gridspec_kw={'height_ratios': ratios}, constrained_layout=True)
    axes = [a[0] for a in axes]
    span = max(end - t0, 1e-3)

    def rel(ts):
        return ts - t0

    def legend(ax, handles=None):
        ax.legend(handles=handles, loc='upper left', bbox_to_anchor=(1.01, 1), fontsize=8)

    def mark(ax, ts, text, color, dy):
        """A label at the top of @ax beside the vertical line at @ts."""
        right = rel(ts) > 0.85 * span
        ax.annotate(text, (rel(ts), 1), xycoords=('data', 'axes fraction'),
                    xytext=(-3 if right else 3, dy), textcoords='offset points',
                    fontsize=7, color=color, va='top', ha='right' if right else 'left')

    def cpu_axis(ax):
        ax.set_ylim(-0.6, ncpu - 0.4)
        ax.set_ylabel('CPU')
        if ncpu <= 16:
            ax.set_yticks(range(ncpu))
        else:
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(axis='x', alpha=0.3)

    def spans_bars(ax, spans, color, alpha):
        for cpu in range(ncpu):
            bars = [(rel(a), b - a) for a, b, cpus in spans if cpu in cpus]
            if bars:
                ax.broken_barh(bars, (cpu - 0.4, 0.8), facecolors=color, alpha=alpha, linewidth=0)

    def counts_panel(ax, g, spans):
        ts = [rel(u[0]) for u in g.updates]
        if g.updates:
            ax.step(ts, [u[1] for u in g.updates], where='post', color=ap.COLOR_MEMBERS,
                    linewidth=2.5, alpha=0.7, label='members (tasks)')
            ax.step(ts, [u[3] for u in g.updates], where='post', color=ap.COLOR_N,
                    linewidth=1.2, linestyle='--', label='n = ceil(1/u) (CPUs)')
        xs, ys = [0.0], [0]
        for a, b, cpus in spans:
            xs += [rel(a), rel(b)]
            ys += [len(cpus), 0]
        xs.append(rel(end))
        ys.append(0)
        ax.plot(xs, ys, drawstyle='steps-post', color=ap.COLOR_SIZE, linewidth=2, alpha=0.8,
                label='sub-domain size (CPUs)')
        ax.set_ylim(bottom=0)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel('tasks, CPUs')
        ax.grid(alpha=0.3)
        legend(ax)

    def u_panel(ax, g):
        ax.plot([rel(u[0]) for u in g.updates], [u[2] for u in g.updates], color=ap.COLOR_U,
                linewidth=1, label='hold ratio u')
        ax.set_ylim(0, 1000)
        ax.set_ylabel('u (permille)')
        ax.grid(alpha=0.3)
        legend(ax)

    def cpu_panel(ax, g, spans):
        spans_bars(ax, spans, ap.COLOR_SIZE, 0.35)
        handles = [Patch(facecolor=ap.COLOR_SIZE, alpha=0.35, label="the group's sub-domain")]
        if g.redirects:
            dense = len(g.redirects) > 500
            ax.scatter([rel(r[0]) for r in g.redirects], [r[3] for r in g.redirects],
                       marker='>', s=6 if dense else 14, alpha=0.5 if dense else 1,
                       linewidths=0, color=ap.COLOR_REDIRECT, zorder=3)
            handles.append(Line2D([], [], marker='>', linestyle='', color=ap.COLOR_REDIRECT,
                                  label=f'wake-up redirected in, at its new CPU ({len(g.redirects)})'))
        if g.moves:
            ax.scatter([rel(m[0]) for m in g.moves], [m[3] for m in g.moves],
                       marker='x', s=36, color=ap.COLOR_MOVE, zorder=4)
            handles.append(Line2D([], [], marker='x', linestyle='', color=ap.COLOR_MOVE,
                                  label=f'member migrated in ({len(g.moves)})'))
        for a in g.assigns:
            ax.axvline(rel(a[0]), color=ap.COLOR_SIZE, linewidth=0.8, linestyle='--')
        if g.assigns:
            handles.append(Line2D([], [], color=ap.COLOR_SIZE, linewidth=0.8, linestyle='--',
                                  label=f'carve / re-carve ({len(g.assigns)})'))
        for r in g.releases:
            ax.axvline(rel(r[0]), color='black', linewidth=0.8, linestyle=':')
            mark(ax, r[0], f'released: {r[1]}', 'black', -2)
        if g.releases:
            handles.append(Line2D([], [], color='black', linewidth=0.8, linestyle=':',
                                  label=f'released ({len(g.releases)})'))
        cpu_axis(ax)
        legend(ax, handles)

    def title(g):
        what = [f'group {g.id} ({g.kind or "?"})', f'{len(g.updates)} updates']
        if g.updates:
            what.append(f'members up to {max(x[1] for x in g.updates)}')
            u = [x[2] for x in g.updates]
            what.append(f'u median {number(statistics.median(u))} permille')
        if placed[g.id]:
            resized = sum(1 for a in g.assigns if a[3])
            what.append(f'{plural(len(g.assigns), "carve")} ({resized} re-carved), '
                        f'{plural(len(g.releases), "release")}')
        else:
            what.append('never placed')
        return ', '.join(what)

    all_spans = []
    row = 0
    for g in groups:
        spans = g.subdomains(end)
        all_spans += spans
        counts_panel(axes[row], g, spans)
        axes[row].set_title(title(g), loc='left', fontsize=10)
        u_panel(axes[row + 1], g)
        if placed[g.id]:
            cpu_panel(axes[row + 2], g, spans)
        row += 3 if placed[g.id] else 2

    if others:
        ax = axes[-1]
        spans_bars(ax, all_spans, 'grey', 0.25)
        r = tl.other_redirects
        ax.scatter([rel(x[0]) for x in r], [x[2] for x in r], marker='<', s=14,
                   color=ap.COLOR_REDIRECT, zorder=3)
        legend(ax, [Patch(facecolor='grey', alpha=0.25, label='reserved CPUs (groups drawn)'),
                    Line2D([], [], marker='<', linestyle='', color=ap.COLOR_REDIRECT,
                           label=f'moved off, at the CPU it left ({len(r)})')])
        ax.set_title('wake-ups of other tasks moved off reserved CPUs (wake_redirect, id 0)',
                     loc='left', fontsize=10)
        cpu_axis(ax)

    for ts, on in tl.states:
        for ax in axes:
            ax.axvline(rel(ts), color='#555555', linewidth=1, linestyle='-.')
        mark(axes[0], ts, f'enable={on}', '#555555', -2)
    for ts, name, new in tl.tunables:
        axes[0].axvline(rel(ts), color='#8c564b', linewidth=0.8, linestyle=':')
        mark(axes[0], ts, f'{name}={new}', '#8c564b', -12)
    axes[-1].set_xlim(0, span)
    axes[-1].set_xlabel(f'time (s) since the first affsched event, at {t0:.6f} s of the trace clock')
    extra = f' ({omitted} more group(s) not drawn)' if omitted else ''
    fig.suptitle((title_text or 'affsched trace timeline') + extra, fontsize=12)
    ap.save(fig, path)
    return [g.id for g in groups], omitted

def fmt(x):
    return f'{x:.1f}' if isinstance(x, float) else str(x)


def print_table(res):
    cols = [('id', 8), ('kind', 6), ('updates', 7), ('first_s', 14), ('last_s', 14),
            ('mem_max', 7), ('mem_last', 8), ('u_min', 5), ('u_med', 6), ('u_max', 5),
            ('u_last', 6), ('n_med', 5), ('n_last', 6)]
    print('  '.join(f'{c:<{w}}' if i < 2 else f'{c:>{w}}'
                    for i, (c, w) in enumerate(cols)))
    for g in res['groups']:
        vals = [g['id'], g['kind'], g['updates'], f"{g['first_s']:.6f}", f"{g['last_s']:.6f}",
                g['members']['max'], g['members']['last'],
                g['u_permille']['min'], g['u_permille']['median'], g['u_permille']['max'],
                g['u_permille']['last'], g['n']['median'], g['n']['last']]
        print('  '.join(f'{fmt(v):<{w}}' if i < 2 else f'{fmt(v):>{w}}'
                        for i, (v, (_c, w)) in enumerate(zip(vals, cols))))
    others = {k: v for k, v in res['events'].items() if k != 'group_update'}
    print()
    if others:
        print('other affsched events:')
        for name, count in others.items():
            print(f'  {name:<20} {count:>8}')
    else:
        print('other affsched events: none')
    if res['malformed']:
        print(f"malformed group_update events skipped: {res['malformed']}")


def main():
    ap = argparse.ArgumentParser(
        prog=PROG,
        description='Summarise affsched tracepoints (group_update, group_assign, '
                    'group_release, wake_redirect, state_change, tunable_change) from '
                    'ftrace text, trace-cmd report output or a trace.dat file, and '
                    'optionally draw a timeline of each group.',
        epilog='Exit status: 0 success; 1 no affsched event, no update of the --id group, '
               'or with --png no group to draw; 2 bad arguments or an unreadable file; '
               '3 the picture could not be drawn.  Recording for your own load: '
               'trace-cmd record -e affsched -e sched:sched_migrate_task -- COMMAND, '
               'then trace-summary.py --png timeline.png trace.dat.')
    ap.add_argument('files', nargs='*', metavar='FILE',
                    help="trace text or trace.dat to read ('-' or none: stdin)")
    ap.add_argument('--json', action='store_true', help='print one JSON object')
    ap.add_argument('--id', type=arg_group_id, metavar='ID',
                    help='only the group with this id (hex, as printed)')
    ap.add_argument('--png', metavar='FILE',
                    help='also draw the timeline of each group to this PNG (needs matplotlib)')
    ap.add_argument('--max-groups', type=arg_positive, default=4, metavar='N',
                    help='with --png, draw at most N groups, the busiest (default 4)')
    ap.add_argument('--title', metavar='TEXT', help='with --png, the title of the picture')
    args = ap.parse_args()
    if args.png is not None:
        if not args.png:
            ap.error('--png needs a file name')
        # Before stdin is read: this may run the script again under
        # another python3 (see affsched_plot.py).
        plot_module().require(PROG)

    summary = Summary()
    names = args.files or ['-']
    for name in names:
        try:
            lines = read_lines(name)
        except InputError as e:
            print(f'{PROG}: {e}', file=sys.stderr)
            return 2
        summary.feed('<stdin>' if name == '-' else name, lines)

    where = ', '.join('<stdin>' if n == '-' else n for n in names)
    if not summary.events:
        print(f'{PROG}: no affsched events found in {where} '
              '(is the affsched tracepoint enabled?)', file=sys.stderr)
        return 1
    res = summary.result(args.id)
    if args.id is not None and not res['groups']:
        print(f'{PROG}: no group_update event for group {args.id} in {where}',
              file=sys.stderr)
        return 1

    if args.json:
        if args.png is not None:
            res['timeline'] = summary.timeline.counts(args.id)
        json.dump(res, sys.stdout, indent=2)
        print()
    else:
        print_table(res)
    if args.png is None:
        return 0
    sys.stdout.flush()
    for msg in summary.timeline.skipped:
        print(f'{PROG}: {msg}', file=sys.stderr)
    title = args.title or f'affsched trace timeline: {where}'
    try:
        drawn, omitted = draw_timeline(summary.timeline, args.png, title, args.id,
                                       args.max_groups)
    except NothingToDraw as e:
        print(f'{PROG}: nothing to draw in {where}: {e}', file=sys.stderr)
        return 1
    except plot_module().PlotError as e:
        print(f'{PROG}: {e}', file=sys.stderr)
        return 3
    print(f'{PROG}: timeline of {len(drawn)} group(s) in {args.png}' +
          (f' ({omitted} more not drawn)' if omitted else ''), file=sys.stderr)
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except BrokenPipeError:
        # Reader went away (| head): no traceback, no second error at
        # exit, and the status a shell gives a process killed by SIGPIPE.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
