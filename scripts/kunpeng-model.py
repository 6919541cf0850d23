#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Predict 96 copies of UnixBench's fsdisk on a 96-core Kunpeng 920 with
and without each part of the series, from per-acquisition costs.

The model (Documentation/results.rst, "Model for a Kunpeng 920"):

  The copies share one inode rwsem.  One copy alone moves p KBps; it holds
  the lock for the share u of its time, so one 4 KB block costs
  T = 4 / p s of which h = u T under the lock.  However many copies run,
  the lock passes one block per h + c + t, where c is the hand-off from
  one holder to the next and t the work the series adds inside the
  critical section (the tracking hooks): the utilisation law gives

      X = 4 / (h + c + t)  KBps,   at most P = p / u when c = t = 0,

  as long as the CPUs given to the group can run ceil(T / (h + c + t))
  copies at once.  Unplaced, the measured score (3,000 KBps with 92 % of
  the cycles in osq_lock) fixes an effective hand-off c0 for the spread
  group; the parts of the series change c and t as below.  Every input is
  an option, with its default and its source in --help; the output is a
  table of X, X / P and X over one copy.

Exit status: 0; 2 bad arguments."""
import argparse
import math

ap = argparse.ArgumentParser(
    description='Kunpeng 920 model for 96 copies of fsdisk (see the module docstring).',
    formatter_class=argparse.ArgumentDefaultsHelpFormatter)
ap.add_argument('--p', type=float, default=4125,
                help='one copy of fsdisk, KBps (measured on a 96-core Kunpeng 920)')
ap.add_argument('--u', type=float, default=0.43,
                help="one copy's hold ratio of the inode rwsem (measured there)")
ap.add_argument('--unplaced', type=float, default=3000,
                help='96 copies without the series, KBps (measured there)')
ap.add_argument('--cpus', type=int, default=96, help='CPUs (and copies)')
ap.add_argument('--cluster', type=int, default=4, help='CPUs per cluster')
ap.add_argument('--line-local', type=float, default=0.1,
                help='cache-line transfer inside a cluster, us (L2 shared by the cluster)')
ap.add_argument('--line-remote', type=float, default=1.7,
                help='cache-line read across sockets, us (measured with a pointer chase)')
ap.add_argument('--handoff-lines', type=int, default=3,
                help='lines a hand-off moves: the OSQ node, the lock word and owner, '
                'the data the holder writes first')
ap.add_argument('--wake', type=float, default=5.0,
                help='waking a sleeping waiter on a busy CPU of the sub-domain, us '
                '(a context switch; an idle exit and IPI would be 5-10 us)')
ap.add_argument('--clock', type=float, default=0.025,
                help='one local_clock() read, us (arm64 CNTVCT with an ISB)')
ap.add_argument('--clock-reads', type=int, default=3,
                help='clock reads of the tracking inside the critical section per '
                'contended acquisition (acquired: clock and CPU time; released: clock)')
ap.add_argument('--clock-reads-all', type=float, default=4.25,
                help='clock reads of the tracking per contended acquisition, in and out of '
                'the critical section (4 + 2/hold_sample)')
ap.add_argument('--hook-instr', type=float, default=540,
                help='instructions the tracking hooks add per contended acquisition, in and '
                'out of the critical section, besides the clock reads (make overhead, '
                'icount: fsdisk-16 on one CPU, 1,159 -> 1,333 instructions per KB with '
                'tracking alone, about 700 per 4 KB write and its slow path, less 4.25 '
                'sched_clock() calls of 38)')
ap.add_argument('--hook-cs-instr', type=float, default=250,
                help='of them, inside the critical section besides the clock reads, at most '
                '(arm64 sizes of __affsched_lock_acquired, affsched_current_runtime, '
                'affsched_placed_refresh, __affsched_lock_released and the early return '
                'of affsched_group_flush)')
ap.add_argument('--ghz', type=float, default=2.6, help='core clock, GHz (Kunpeng 920)')
ap.add_argument('--ipc', type=float, default=1.0,
                help="instructions per cycle of the hooks' branchy code (assumed)")
ap.add_argument('--flush-atomics', type=int, default=4,
                help="atomic adds to the group's line when a member flushes its sums")
ap.add_argument('--numa-local', type=float, default=0.71,
                help='share of OSQ hand-offs on the releaser node with the bounded NUMA '
                'hand-off (0.71 measured in the 2-node guest with B = 4)')
ap.add_argument('--nodes', type=int, default=4, help='NUMA nodes')
args = ap.parse_args()
for k in ('p', 'u', 'unplaced', 'line_local', 'line_remote', 'wake', 'clock', 'numa_local',
          'ghz', 'ipc'):
    if getattr(args, k) <= 0:
        ap.error(f'--{k.replace("_", "-")} must be positive')
if not args.u < 1 or args.numa_local > 1 or args.cpus < 1 or args.cluster < 1 or args.nodes < 1:
    ap.error('need 0 < u < 1, numa-local <= 1, and positive counts')
if args.hook_instr < 0 or not 0 <= args.hook_cs_instr <= args.hook_instr or args.clock_reads_all < 0:
    ap.error('need 0 <= hook-cs-instr <= hook-instr and clock-reads-all >= 0')

T = 4096 / 1024 / args.p * 1e6          # us per 4 KB block of one copy
h = args.u * T                            # us under the lock
P = args.p / args.u
n = math.ceil(1 / args.u)
sub = math.ceil(n / args.cluster) * args.cluster
# Unplaced: the effective hand-off that the measured score implies.
c0 = 4096 / 1024 / args.unplaced * 1e6 - h
remote_fifo = 1 - 1 / args.nodes         # FIFO hand-off off the releaser node
# The tracking inside the critical section: clock reads, the hooks' other
# instructions there, and the flush's atomics on the group's line, remote
# when the group is spread.
instr_us = 1 / (args.ghz * args.ipc * 1000)
t_cs = args.clock_reads * args.clock + args.hook_cs_instr * instr_us
t_spread = t_cs + args.flush_atomics * args.line_remote * remote_fifo
t_placed = t_cs + args.flush_atomics * args.line_local
# Tracking alone costs CPU time per contended acquisition, in and out of
# the critical section; with every copy on one CPU that is all it changes.
t_cpu = args.hook_instr * instr_us + args.clock_reads_all * args.clock
c_local = args.handoff_lines * args.line_local
# The bounded NUMA hand-off keeps numa_local of the hand-offs on the node:
# a remote hand-off moves handoff_lines lines across the interconnect.
c_numa_saving = (remote_fifo - (1 - args.numa_local)) * args.handoff_lines * args.line_remote


def x(c, t):
    return 4096 / 1024 / (h + c + t) * 1e6


rows = [
    ('base 5.10 (measured)', c0, 0.0),
    ('+ tracking (patches 1-7)', c0, t_spread),
    ('+ OSQ hand-off, node-local (12-14), unplaced', c0 - c_numa_saving, t_spread),
    ('+ placement, spinners in one cluster (8-11)', c_local, t_placed),
    ('  placement, every hand-off wakes a sleeper', args.wake, t_placed),
]
print(f'Kunpeng 920, {args.cpus} copies of fsdisk: p = {args.p:,.0f} KBps, u = {args.u}, '
      f'T = {T:.0f} us, h = {h:.0f} us, P = p/u = {P:,.0f} KBps')
print(f'n = ceil(1/u) = {n}, sub-domain {sub} CPUs (whole clusters of {args.cluster}); '
      f'CPUs needed at X = P: T/h = {T / h:.1f}')
print(f'unplaced effective hand-off c0 = {c0:.0f} us per block; tracking in the critical '
      f'section {t_spread:.2f} us spread, {t_placed:.2f} us placed')
print(f'tracking alone: {t_cpu:.2f} us of CPU per contended acquisition, '
      f'{100 * t_cpu / T:.3f} % of one copy\'s block (T = {T:.0f} us)')
print()
hdr = f"{'configuration':<48} {'c (us)':>8} {'t (us)':>7} {'X (KBps)':>9} {'X/P':>5} {'X/p':>5}"
print(hdr)
print('-' * len(hdr))
for name, c, t in rows:
    v = x(c, t)
    print(f'{name:<48} {c:>8.2f} {t:>7.2f} {v:>9,.0f} {v / P:>5.2f} {v / args.p:>5.2f}')
print()
print('The spread rows keep the measured collapse c0: the model cannot say how much of it '
      'the spin cap (sched-affsched patch 13) removes without placement, where it leaves '
      '2 of about 88 spinners; placed, the sub-domain already has n CPUs and the cap changes nothing.')
print(f'Target (96 copies >= one copy): {"met" if x(c_local, t_placed) >= args.p else "missed"} '
      f'by the placed rows; the wake-up row is the pessimistic bound.')
