#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Predict 96 copies of UnixBench's fsdisk on a 96-core Kunpeng 920 with
and without each part of the series, from per-acquisition costs.

The model (Documentation/results.rst, "Model for a Kunpeng 920"):

  The copies share one inode rwsem.  The figures measured there are
  UnixBench index values; fsdisk's baseline is 5,800 KBps for an index of
  10, so an index I is I x 580 KBps.  One copy alone moves p KBps; it
  holds the lock for the share u of its time, so one 4 KB block costs
  T = 4 KB / p of which h = u T under the lock.  However many copies run,
  the lock passes one block per h + c + t, where c is the hand-off from
  one holder to the next and t the work the series adds inside the
  critical section (the tracking hooks): the utilisation law gives

      X = 4 KB / (h + c + t),   at most P = p / u when c = t = 0,

  as long as the CPUs given to the group can run ceil(T / (h + c + t))
  copies at once.  Unplaced, the measured score of 96 copies fixes an
  effective hand-off c0 for the spread group; the parts of the series
  change c and t as below.  Placed, a hand-off goes to a spinner in the
  cluster (the lines it moves, locally) for the measured share of them
  (--spun-share) and wakes a sleeper (--wake) for the rest; the model
  prints the share at which placement just matches one copy.  Every
  input is an option whose help gives its
  unit (index, KBps, us, instructions), default and source; the output is
  a table of X (KBps and index), X / P and X over one copy.  --json prints
  the same as one JSON object.

Exit status: 0; 2 bad arguments."""
import argparse
import math

ap = argparse.ArgumentParser(
    description='Kunpeng 920 model for 96 copies of fsdisk (see the module docstring).',
    formatter_class=argparse.ArgumentDefaultsHelpFormatter)
ap.add_argument('--p-index', type=float, default=4125,
                help='one copy of fsdisk, UnixBench index (measured on a 96-core Kunpeng 920)')
ap.add_argument('--u', type=float, default=0.43,
                help="one copy's hold ratio of the inode rwsem, a fraction (measured there)")
ap.add_argument('--unplaced-index', type=float, default=3000,
                help='96 copies without the series, UnixBench index (measured there)')
ap.add_argument('--baseline-kbps', type=float, default=5800,
                help="fsdisk's UnixBench baseline, KBps for an index of 10 (UnixBench "
                '5.1.3, pgms/index.base)')
ap.add_argument('--block-kb', type=float, default=4,
                help="fsdisk's block, KB (4096-byte buffer)")
ap.add_argument('--cpus', type=int, default=96, help='CPUs (and copies), count')
ap.add_argument('--cluster', type=int, default=4, help='CPUs per cluster, count')
ap.add_argument('--line-local', type=float, default=0.1,
                help='cache-line transfer inside a cluster, us (L2 shared by the cluster)')
ap.add_argument('--line-remote', type=float, default=1.7,
                help='cache-line read across sockets, us (measured with a pointer chase)')
ap.add_argument('--handoff-lines', type=int, default=3,
                help='cache lines a hand-off moves, count: the OSQ node, the lock word and '
                'owner, the data the holder writes first')
ap.add_argument('--wake', type=float, default=5.0,
                help='waking a sleeping waiter on a busy CPU of the sub-domain, us '
                '(a context switch; an idle exit and IPI would be 5-10 us)')
ap.add_argument('--clock', type=float, default=0.025,
                help='one local_clock() read, us (arm64 CNTVCT with an ISB)')
ap.add_argument('--clock-reads', type=int, default=0,
                help='clock reads, count, of the tracking inside the critical section per '
                'contended acquisition (none: the scheduler tick samples ownership)')
ap.add_argument('--clock-reads-all', type=float, default=1.25,
                help='clock reads, count, of the tracking per contended acquisition, in and out of '
                'the critical section (1 at the slow path\'s start, 2/hold_sample for the '
                'OSQ spin time)')
ap.add_argument('--hook-instr', type=float, default=270,
                help='instructions the tracking hooks add per contended acquisition, in and '
                'out of the critical section, besides the clock reads (make overhead, '
                'icount: fsdisk-16 on one CPU, 1,163 -> 1,242 instructions per KB with '
                'tracking alone, about 317 per 4 KB write and its slow path, less 1.25 '
                'sched_clock() calls of 38)')
ap.add_argument('--hook-cs-instr', type=float, default=35,
                help='of them, inside the critical section, at most (lockcost, icount: the '
                'inline acquire hook adds 14 instructions to an uncontended acquisition '
                'and release, which has no hook; a contended one in a placed group adds '
                'the 21 of __affsched_lock_acquired and its call)')
ap.add_argument('--ghz', type=float, default=2.6, help='core clock, GHz (Kunpeng 920)')
ap.add_argument('--ipc', type=float, default=1.0,
                help="instructions per cycle of the hooks' branchy code (assumed)")
ap.add_argument('--flush-atomics', type=int, default=0,
                help="atomic adds, count, to the group's line inside the critical section "
                "(none: a member's tick hands its counts in, once per window)")
ap.add_argument('--numa-local', type=float, default=0.71,
                help='share of OSQ hand-offs on the releaser node, a fraction, with the bounded NUMA '
                'hand-off (0.71 measured in the 2-node guest with B = 4)')
ap.add_argument('--nodes', type=int, default=4, help='NUMA nodes, count')
ap.add_argument('--spun-share', type=float, default=0.998,
                help="share of a placed group's contended acquisitions taken by a spinner, "
                'not by a woken sleeper, a fraction (stats handoff_spun / (handoff_spun + '
                'handoff_woken): 0.998 for each file test with 16 copies placed in the 8-vCPU '
                'arm64 guest, make bench)')
ap.add_argument('--json', action='store_true', help='print the inputs derived and the rows as JSON')
args = ap.parse_args()
if not 0 <= args.spun_share <= 1:
    ap.error('--spun-share must be a fraction from 0 to 1')
for k in ('p_index', 'u', 'unplaced_index', 'baseline_kbps', 'block_kb', 'line_local', 'line_remote', 'wake', 'clock', 'numa_local',
          'ghz', 'ipc'):
    if getattr(args, k) <= 0:
        ap.error(f'--{k.replace("_", "-")} must be positive')
if not args.u < 1 or args.numa_local > 1 or args.cpus < 1 or args.cluster < 1 or args.nodes < 1:
    ap.error('need 0 < u < 1, numa-local <= 1, and positive counts')
if args.hook_instr < 0 or not 0 <= args.hook_cs_instr <= args.hook_instr or args.clock_reads_all < 0:
    ap.error('need 0 <= hook-cs-instr <= hook-instr and clock-reads-all >= 0')

kbps_per_index = args.baseline_kbps / 10
p = args.p_index * kbps_per_index          # KBps of one copy
unplaced = args.unplaced_index * kbps_per_index
T = args.block_kb / p * 1e6                # us per block of one copy
h = args.u * T                             # us of it under the lock
P = p / args.u                             # KBps at most (utilisation law)
n = math.ceil(1 / args.u)
sub = math.ceil(n / args.cluster) * args.cluster
# Unplaced: the effective hand-off that the measured score implies.
c0 = args.block_kb / unplaced * 1e6 - h
remote_fifo = 1 - 1 / args.nodes         # FIFO hand-off off the releaser node
c_local = args.handoff_lines * args.line_local
# A remote line as the unplaced score sees it: c0 is a local hand-off plus,
# for the share remote_fifo of them, handoff_lines remote lines.  The
# pointer chase's line_remote is an upper bound (hand-offs overlap with the
# spinners' own traffic); the model takes the smaller of the two.
line_eff = min(args.line_remote,
               max(0.0, c0 - c_local) / (remote_fifo * args.handoff_lines)) \
    if remote_fifo > 0 else args.line_remote
# The tracking inside the critical section: clock reads, the hooks' other
# instructions there, and the flush's atomics on the group's line, remote
# when the group is spread.
instr_us = 1 / (args.ghz * args.ipc * 1000)
t_cs = args.clock_reads * args.clock + args.hook_cs_instr * instr_us
t_spread = t_cs + args.flush_atomics * line_eff * remote_fifo
t_placed = t_cs + args.flush_atomics * args.line_local
# Tracking alone costs CPU time per contended acquisition, in and out of
# the critical section; with every copy on one CPU that is all it changes.
t_cpu = args.hook_instr * instr_us + args.clock_reads_all * args.clock
# The bounded NUMA hand-off keeps numa_local of the hand-offs on the node
# instead of 1 - remote_fifo: fewer hand-offs move their lines remotely.
c_numa_saving = max(0.0, remote_fifo - (1 - args.numa_local)) * args.handoff_lines * line_eff


# A placed group's hand-offs go to a spinner in the cluster for the share
# spun_share, else they wake a sleeper.
c_split = args.spun_share * c_local + (1 - args.spun_share) * args.wake
# The spinners' share at which the placed group moves as much as one copy:
# x(c, t_placed) = p when c = T - h - t_placed.
c_even = T - h - t_placed
s_even = (args.wake - c_even) / (args.wake - c_local) if args.wake > c_local else float('nan')


def x(c, t):
    """KBps of the group for hand-off c and added critical section t, us."""
    return args.block_kb / (h + c + t) * 1e6


rows = [
    ('base 5.10 (measured)', c0, 0.0),
    ('+ tracking (sched-affsched 5-8), unplaced', c0, t_spread),
    ('+ OSQ hand-off, node-local (locking-osq 2), unplaced', c0 - c_numa_saving, t_spread),
    ('+ placement, spinners in one cluster (9-13)', c_local, t_placed),
    (f'  placement, measured split ({args.spun_share:.3f} spun)', c_split, t_placed),
    ('  placement, every hand-off wakes a sleeper', args.wake, t_placed),
    ('  placement, nothing added inside the section', c_local, 0.0),
    ('  ... and every hand-off wakes a sleeper', args.wake, 0.0),
]
base = x(c0, 0.0)
if args.json:
    import json
    print(json.dumps({
        'p_kbps': p, 'T_us': T, 'h_us': h, 'P_kbps': P, 'n': n, 'subdomain_cpus': sub,
        'c0_us': c0, 'line_eff_us': line_eff, 'spun_share': args.spun_share,
        'spun_share_even': s_even, 't_spread_us': t_spread, 't_placed_us': t_placed, 't_cpu_us': t_cpu,
        'rows': [{'configuration': name.strip(' .'), 'c_us': c, 't_us': t, 'x_kbps': x(c, t),
                  'x_over_p': x(c, t) / p} for name, c, t in rows],
    }, indent=1))
    raise SystemExit(0)
print(f'Kunpeng 920, {args.cpus} copies of fsdisk: one copy index {args.p_index:,.0f} = '
      f'p = {p:,.0f} KBps, u = {args.u}')
print(f'T = {T:.2f} us per {args.block_kb:g} KB block, h = u T = {h:.2f} us under the lock, '
      f'P = p/u = {P:,.0f} KBps (index {P / kbps_per_index:,.0f})')
print(f'n = ceil(1/u) = {n}, sub-domain {sub} CPUs (whole clusters of {args.cluster}); '
      f'CPUs needed at X = P: T/h = {T / h:.1f}')
print(f'unplaced ({args.unplaced_index:,.0f} index = {unplaced:,.0f} KBps): effective '
      f'hand-off c0 = {c0:.2f} us per block, a remote line {line_eff:.2f} us as it sees it '
      f'(pointer chase {args.line_remote:g} us)')
print(f'tracking inside the critical section: {t_spread:.2f} us spread, {t_placed:.2f} us '
      f'placed, {100 * t_placed / h:.0f} % of the hold h when placed')
print(f'placed hand-offs: {args.spun_share:.3f} to spinners ({c_local:.2f} us each), '
      f'the rest wake a sleeper ({args.wake:g} us); placement matches one copy at a '
      f'share of {s_even:.3f}')
print(f'tracking alone: {t_cpu:.2f} us of CPU per contended acquisition, '
      f'{100 * t_cpu / T:.1f} % of one copy\'s block (T = {T:.2f} us)')
print()
hdr = (f"{'configuration':<52} {'c (us)':>7} {'t (us)':>7} {'X (KBps)':>10} {'index':>6} "
       f"{'X/P':>5} {'X/p':>5}")
print(hdr)
print('-' * len(hdr))
for name, c, t in rows:
    v = x(c, t)
    print(f'{name:<52} {c:>7.2f} {t:>7.2f} {v:>10,.0f} {v / kbps_per_index:>6,.0f} '
          f'{v / P:>5.2f} {v / p:>5.2f}')
print()
print('The unplaced rows keep the measured collapse c0: the model cannot say how much of it '
      'the spin cap removes without placement.')
for name, c, t in rows[3:]:
    v = x(c, t)
    print(f'{name.strip(" ."):<52} {"above" if v >= p else "below"} one copy '
          f'({v / p:.2f} p), {"above" if v >= base else "below"} unplaced 5.10 ({base / p:.2f} p)')
