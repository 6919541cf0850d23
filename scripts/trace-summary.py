#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise affsched tracepoints, one row per lock group.

Reads the text of /sys/kernel/tracing/trace (or trace_pipe) or the output
of 'trace-cmd report' from the files given, or from stdin.  Understood:

  group_update:   id=%08x kind=%s members=%u u_permille=%u n=%u windows=%u
  state_change:   enabled=%d
  tunable_change: key=value ...

An event counts as affsched's if its name carries the "affsched:" system
prefix (trace-cmd can print one), or if it has no system prefix and is one
of the three names above.  Other events and header lines are ignored.

For each group: kind, number of updates, first and last timestamp,
members (max, last), u_permille (min, median, max, last) and n (median,
last); "last" is the update with the latest timestamp.  Then the counts of
the other affsched events.  --json prints the same as one JSON object;
--id limits the groups to one (the event counts are not filtered).

Exit status: 0 on success, 1 if no affsched event (or no update of the
--id group) was found, 2 on bad arguments or an unreadable file.
"""
import argparse
import json
import os
import re
import statistics
import sys

PROG = 'trace-summary.py'
KNOWN_EVENTS = ('group_update', 'state_change', 'tunable_change')
GROUP_FIELDS = ('id', 'kind', 'members', 'u_permille', 'n', 'windows')
TRACE_DAT_MAGIC = b'\x17\x08\x44tracing'

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


def group_id(text):
    """Normalise a group id to 8 lower-case hex digits; None if invalid."""
    m = ID_RE.match(text)
    return f'{int(m.group(1), 16):08x}' if m else None


def arg_group_id(text):
    gid = group_id(text)
    if gid is None:
        raise argparse.ArgumentTypeError(f"'{text}' is not a group id (up to 8 hex digits)")
    return gid


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


class Summary:
    def __init__(self):
        self.groups = {}
        self.events = {}
        self.malformed = 0

    def feed(self, name, lines):
        for lineno, line in enumerate(lines, 1):
            m = LINE_RE.match(line)
            if not m:
                continue
            system, event = m.group('system'), m.group('event')
            if system is not None and system != 'affsched':
                continue
            if system is None and event not in KNOWN_EVENTS:
                continue
            self.events[event] = self.events.get(event, 0) + 1
            if event == 'group_update':
                self.group_update(name, lineno, float(m.group('ts')), m.group('fields'))

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
            return
        rec = {f: int(kv[f]) for f in GROUP_FIELDS[2:]}
        rec['kind'] = kv['kind']
        self.groups.setdefault(gid, Group(gid)).add(ts, rec)

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
        raise InputError(f"{name} is a trace.dat file: run 'trace-cmd report' on it first")
    return data.decode('utf-8', errors='replace').splitlines()


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
        description='Summarise affsched tracepoints (group_update, state_change, '
                    'tunable_change) from ftrace text or trace-cmd report output.')
    ap.add_argument('files', nargs='*', metavar='FILE',
                    help="trace text to read ('-' or none: stdin)")
    ap.add_argument('--json', action='store_true', help='print one JSON object')
    ap.add_argument('--id', type=arg_group_id, metavar='ID',
                    help='only the group with this id (hex, as printed)')
    args = ap.parse_args()

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
        json.dump(res, sys.stdout, indent=2)
        print()
    else:
        print_table(res)
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except BrokenPipeError:
        # Reader went away (| head): no traceback, no second error at
        # exit, and the status a shell gives a process killed by SIGPIPE.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
