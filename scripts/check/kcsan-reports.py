#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kcsan-reports.py CONSOLE_LOG SERIES_FUNCS

Sort the KCSAN reports of a guest's console into those that touch the
series and those of the base kernel, print both, and exit 1 if any touches
the series (0 otherwise, 2 on bad arguments).

SERIES_FUNCS is a file of function names, one per line: the functions that
the series adds or changes (check.sh takes them from the hunk headers of
the series' diff).  Each racing access is charged to the function that
made it: its first frame or, when that is a generic helper that accesses
memory for its caller (bitmap and cpumask walkers, mem*), the first frame
that is not.  A report touches the series when either access is charged
to an affsched function or to one in SERIES_FUNCS, unless that access is
marked (READ_ONCE(), WRITE_ONCE(), atomics: of a racing pair the plain
access is the one that breaks the rules) or is one of the base kernel's
own races listed in BASE_RACES below.  Frames further down do not count:
a base function that races while an affsched caller waits below it in
the stack (load balancing entered from the placement worker's schedule())
is the base kernel's race.  Races of the base 5.10 kernel elsewhere (mm,
timers, ...) are printed and counted, but are not the series' to fix.
"""
import re
import sys

# Racing accesses inside functions the series changes that the base 5.10
# code makes itself: (function, access kind, size).  Each is a plain read
# that 5.10 makes on purpose and that the series does not touch.
BASE_RACES = {
    # owner_on_cpu(): a plain read of the owner's task_struct::on_cpu,
    # which the scheduler writes on another CPU; inlined into the rwsem
    # spinning code (rwsem_can_spin_on_owner() in the slow path).
    ('rwsem_spin_on_owner', 'read', 4),
    ('rwsem_down_write_slowpath', 'read', 4),
    # osq_wait_next(): the plain test of @node->next (a pointer) before its
    # xchg(), which the successor writes with WRITE_ONCE() when it queues;
    # inlined into osq_lock() (unqueue) and osq_unlock().  The series
    # leaves that line as 5.10 has it; its own reads of the queue nodes
    # are READ_ONCE() or of the int @locked.
    ('osq_wait_next', 'read', 8),
    ('osq_lock', 'read', 8),
    ('osq_unlock', 'read', 8),
}

# Helpers that access memory on behalf of their caller: the access is
# charged to the first frame below them.
HELPER = re.compile(r'^(_?_?find_(next|first)_\w*bit|_?_?bitmap_\w+|cpumask_\w+|'
                    r'_?_?mem(cpy|set|move|cmp)|str(n?cpy|scpy|n?cmp|n?len|r?chr))$')

ACCESS = re.compile(r'^(?:race at unknown origin, with )?(read-write|read|write)'
                    r'( \(marked\))? to 0x[0-9a-f]+ of (\d+) bytes by (?:task \d+|interrupt)')
FRAME = re.compile(r'^\s*([A-Za-z_][A-Za-z0-9_.]*)\+0x[0-9a-f]+/0x[0-9a-f]+')


def reports(lines):
    """Yield (title, [(kind, size, [frames], marked)]) for each report."""
    title, accesses, cur = None, [], None
    for line in lines:
        line = re.sub(r'^\[\s*\d+\.\d+\]\s?', '', line.rstrip('\n'))
        if line.startswith('BUG: KCSAN:'):
            if title:
                yield title, accesses
            title, accesses, cur = line, [], None
            continue
        if title is None:
            continue
        if line.startswith('====') or line.startswith('Reported by'):
            if line.startswith('Reported by'):
                yield title, accesses
                title, accesses, cur = None, [], None
            continue
        m = ACCESS.match(line)
        if m:
            cur = (m.group(1), int(m.group(3)), [], bool(m.group(2)))
            accesses.append(cur)
            continue
        m = FRAME.match(line)
        if m and cur is not None:
            cur[2].append(m.group(1).split('.')[0])
    if title:
        yield title, accesses


def owner(frames):
    """The function an access is charged to (see the docstring)."""
    for f in frames:
        if not HELPER.match(f):
            return f
    return frames[0] if frames else None


def touches_series(accesses, series):
    for kind, size, frames, marked in accesses:
        f = owner(frames)
        if marked or f is None or (f, kind, size) in BASE_RACES:
            continue
        if 'affsched' in f or f in series:
            return True
    return False


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    try:
        with open(sys.argv[2]) as f:
            series = {x.strip() for x in f if x.strip()}
        with open(sys.argv[1], errors='replace') as f:
            found = list(reports(f))
    except OSError as e:
        print(f'kcsan-reports.py: {e}', file=sys.stderr)
        return 2
    bad = 0
    for title, accesses in found:
        mine = touches_series(accesses, series)
        bad += mine
        tops = ' / '.join(f'{k} {s} B in {owner(fr) or "?"}' for k, s, fr, _ in accesses)
        print(f'{"SERIES" if mine else "base  "} {title[len("BUG: KCSAN: "):]} [{tops}]')
    print(f'KCSAN reports: {len(found)}, touching the series: {bad}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
