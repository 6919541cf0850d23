/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osq.pml - the Linux 5.10 OSQ (kernel/locking/osq_lock.c) with the
 * NUMA-aware hand-off of locking-osq patch 2, for spin.
 *
 * Four CPUs, numbered 1..4 (0 is NIL, the kernel's NULL node and
 * OSQ_UNLOCKED_VAL), each with its one per-CPU queue node; CPUs 1 and 2
 * are on NUMA node 0, CPUs 3 and 4 on NUMA node 1.  Each CPU runs R rounds
 * of
 *
 *	if (osq_lock()) { critical section; osq_unlock(); }
 *
 * and the spin wait of __osq_lock() may at any time give up, like
 * need_resched() or vcpu_is_preempted() do, and take the unqueue path.
 *
 * Run by scripts/check/models-check.sh; models/README.md lists the properties,
 * the bounds and what is abstracted away.  In short:
 *
 *  - sequential consistency: each step below is one load or store of
 *    the kernel, or one of its atomic read-modify-writes (xchg(),
 *    cmpxchg()) in atomic { }, except where a comment shows that joining
 *    two accesses cannot be told apart by the other CPUs.  The kernel's
 *    barriers are what give its weaker memory models this behaviour; they
 *    are not modelled (see MUT_STEPC_ORDER below).
 *  - busy-wait loops that only re-read memory until a condition holds are
 *    guards that block until it holds (the same behaviours under weak
 *    fairness; a livelock where nothing changes becomes a deadlock, which
 *    spin reports as an invalid end state).
 *  - a load of a location no other CPU can write at that point (the
 *    owner's own @locked) is folded into the statement that uses it.
 *  - the ghost variables (below) are updated inside the step they
 *    describe; they add no interleavings.
 *  - osq_cpu_node.prev_cpu is not modelled: it is only read by the
 *    vcpu_is_preempted() hint, and that hint is a nondeterministic choice
 *    here, so no value of the field can change what the model does.
 *
 * Compile-time switches (spin -D...):
 *   B=n                 osq_numa_bound (default 1)
 *   R=n                 rounds per CPU (default 1)
 *   RX=mask             CPUs that run one round more: bit 0 is CPU 1
 *                       (default 0)
 *   NO_UNQUEUE          the spin wait never gives up: a waiter can only
 *                       leave __osq_lock() by being handed the queue
 *   LIVENESS            adds the LTL progress property (run pan -a -f)
 *   WAIT_BOUND          adds the ghost counters of the wait bound (P3,
 *                       below), which multiply the states: run on the
 *                       smaller configurations
 * Witnesses, each must make spin report an error, showing the bounds are
 * reached (the checks of B would be empty otherwise):
 *   WITNESS_STREAK      fails when a turn is passed with streak B
 *   WITNESS_YIELDS      fails when one osq_lock() call passes B turns
 *   WITNESS_TRIP        with WAIT_BOUND: fails when a spinner is passed
 *                       over by NCPU - 2 hand-offs in one trip
 * Mutants, each must make spin report an error:
 *   MUT_NO_STREAK_BOUND osq_numa_pass() does not test streak < B
 *   MUT_NO_YIELD_BOUND  osq_numa_pass() does not test yields < B
 *   MUT_UNLOCK_NOXCHG   __osq_unlock() takes node->next with a load and a
 *                       store instead of xchg()
 *   MUT_YIELD_DIRECT    a yielding owner writes the ticket straight into
 *                       the successor it read, not through __osq_unlock()
 *   MUT_UNLOCK_NOWAIT   __osq_unlock() gives the queue up when
 *                       node->next is still NULL, without osq_wait_next()
 *                       (a successor that has swapped the tail but not
 *                       yet linked itself is never handed the queue)
 * Store orders that only matter without sequential consistency; spin finds
 * no error with them (a stale node->prev only makes a Step-A wait for a
 * hand-off or for the next Step-C), so scripts/check/models-check.sh does not
 * run them; they mark what this model cannot check:
 *   MUT_STEPC_ORDER     unqueue Step-C stores prev->next before next->prev
 *   MUT_QUEUE_ORDER     __osq_lock() stores prev->next before node->prev
 */

#ifndef B
#define B	1
#endif
#ifndef R
#define R	1
#endif
#ifndef RX
#define RX	0
#endif

#define NCPU	4
#define NIL	0

/* Rounds of CPU x: R, one more for the CPUs in the bit mask RX (bit 0 is
 * CPU 1). */
#define ROUNDS(x)	(R + ((RX >> ((x) - 1)) & 1))

/* cpu_to_node(): CPUs 1, 2 on node 0; CPUs 3, 4 on node 1. */
#define NODE_OF(x)	((x) > 2 -> 1 : 0)

/*
 * Hand-off tickets (osq_ticket()): 0 is "no ticket" (a direct acquisition
 * of an empty queue, or still waiting); otherwise one value per (node the
 * queue is handed off from, streak).  The kernel stores both in one int
 * with one WRITE_ONCE(), so one store here too.
 */
#define TICKET(nid, s)	(1 + (nid) + 2 * (s))
#define T_NODE(t)	(((t) - 1) % 2)
#define T_STREAK(t)	(((t) - 1) / 2)

/* The shared state: the lock's tail and the per-CPU queue nodes. */
byte tail;			/* lock->tail */
byte nxt[NCPU + 1];		/* node->next */
byte prv[NCPU + 1];		/* node->prev */
byte locked[NCPU + 1];		/* node->locked, a ticket */

/*
 * Ghost state, for the properties only.
 *   own[x]    x owns the OSQ: from the step that gives it the queue (the
 *             xchg() that finds it empty, or the store of its @locked)
 *             to the step that passes it on (the cmpxchg() that empties
 *             the tail, or the store of the successor's @locked);
 *             nown counts the owners.
 *   linked[x] x is queued behind a predecessor and may be handed the
 *             queue: from its xchg() of the tail to its Step-A cmpxchg()
 *             or to the load that sees @locked set.
 *   passes    turns passed (yields) since the last hand-off taken by a
 *             CPU on another node than the ticket's, or since the last
 *             acquisition of an empty queue.
 *   inlock[x] x is inside osq_lock() (for the LTL progress property).
 *   trip[x]   hand-offs to other CPUs while x is linked, since x last
 *             queued (one trip through the queue).
 *   wait[x]   the same since x entered osq_lock(), over all its trips.
 */
bit own[NCPU + 1];
byte nown;
bit linked[NCPU + 1];
byte passes;
bit inlock[NCPU + 1];
#ifdef WAIT_BOUND
byte trip[NCPU + 1];
byte wait[NCPU + 1];
#endif
byte ndone;			/* CPUs that finished their R rounds */

#ifdef NO_UNQUEUE
#define GIVE_UP	false
#else
#define GIVE_UP	true
#endif

#ifdef MUT_NO_STREAK_BOUND
#define STREAK_GATE(t)	true
#else
#define STREAK_GATE(t)	(T_STREAK(t) < B)
#endif

#ifdef MUT_NO_YIELD_BOUND
#define YIELD_GATE	true
#else
#define YIELD_GATE	(yields < B)
#endif

/* The CPU of the running process: cpu processes are pids 0..3. */
#define me	(_pid + 1)

/*
 * P3, the wait of a spinner: in one trip through the queue, CPU x is
 * passed over by at most NCPU - 2 hand-offs (the spinners queued ahead
 * of it; the owner it queued behind was served before), and in one
 * osq_lock() call, of at most B + 1 trips, by at most
 * (B + 1) * (NCPU - 2).  WITNESS_TRIP fails if a trip reaches its bound.
 */
#ifdef WAIT_BOUND
#ifdef WITNESS_TRIP
#define TRIP_MAX	(NCPU - 3)
#else
#define TRIP_MAX	(NCPU - 2)
#endif
#define PASSED_OVER(x, to) \
	if \
	:: linked[x] && x != to -> \
		trip[x]++; wait[x]++; \
		assert(trip[x] <= TRIP_MAX); \
		assert(wait[x] <= (B + 1) * (NCPU - 2)) \
	:: else \
	fi
#define TRIP_START	trip[me] = 0
#define WAIT_START	wait[me] = 0
#else
#define PASSED_OVER(x, to)	skip
#define TRIP_START	skip
#define WAIT_START	skip
#endif

/*
 * WRITE_ONCE(next->locked, ticket): the hand-off.  The OSQ moves from
 * this CPU to @to; @to must be queued, linked to its predecessor, and not
 * handed the queue before in this queueing.
 */
inline handoff(to, tk)
{
	d_step {
		assert(own[me] && !own[to]);
		assert(linked[to] && locked[to] == 0);
		PASSED_OVER(1, to);
		PASSED_OVER(2, to);
		PASSED_OVER(3, to);
		PASSED_OVER(4, to);
		locked[to] = tk;
		own[me] = 0;
		own[to] = 1
	}
}

/*
 * osq_wait_next(lock, node, prev): leaves in @n the stable next node, or
 * NIL after moving the tail from this CPU back to @old (prev's CPU, or
 * OSQ_UNLOCKED_VAL when called from __osq_unlock()).
 */
inline osq_wait_next(old)
{
	do
	:: atomic {
		/* atomic_read(&lock->tail) == curr &&
		 * atomic_cmpxchg_acquire(&lock->tail, curr, old) == curr:
		 * the read is only a filter, a failed cmpxchg changes nothing,
		 * so the pair is one step that is enabled when it succeeds */
		tail == me ->
		tail = old;
		n = NIL;
		if
		:: old == NIL ->	/* __osq_unlock(): the queue is empty */
			assert(own[me]);
			own[me] = 0;
			nown--
		:: else -> skip
		fi
	   };
	   break
	:: atomic {
		/* if (node->next) { next = xchg(&node->next, NULL); ... }:
		 * an xchg() that finds NULL stores NULL over NULL, so again
		 * one step, enabled when it returns a node */
		nxt[me] != NIL ->
		n = nxt[me];
		nxt[me] = NIL
	   };
	   break
	od
}

/*
 * __osq_unlock(lock, ticket), by the owner.  Leaves n = NIL, t = 0.
 */
inline osq_unlock_inner(tk)
{
	if
	:: atomic {
		/* atomic_cmpxchg_release(&lock->tail, curr, NIL) == curr:
		 * the uncontended fast path */
		tail == me ->
		tail = NIL;
		assert(own[me]);
		own[me] = 0;
		nown--
	   }
	:: tail != me ->	/* the same cmpxchg, failing */
#ifdef MUT_UNLOCK_NOXCHG
		n = nxt[me];	/* next = node->next; */
		nxt[me] = NIL;	/* node->next = NULL; */
#else
		atomic {	/* next = xchg(&node->next, NULL) */
			n = nxt[me];
			nxt[me] = NIL
		}
#endif
		if
		:: n != NIL -> handoff(n, tk)	/* WRITE_ONCE(next->locked, ticket) */
#ifdef MUT_UNLOCK_NOWAIT
		:: else ->	/* no next yet: give the queue up, no hand-off */
			d_step {
				own[me] = 0;
				nown--
			}
#else
		:: else ->
			osq_wait_next(NIL);	/* next = osq_wait_next(lock, node, NULL) */
			if
			:: n != NIL -> handoff(n, tk)
			:: else -> skip
			fi
#endif
		fi;
		n = NIL
	fi;
	t = 0
}

/*
 * __osq_lock(lock): the 5.10 protocol, unchanged.  Leaves the result in
 * ok, and p = n = NIL.
 */
inline osq_lock_inner()
{
	d_step {
		/*
		 * node->locked = 0; node->next = NULL;  Two stores no other
		 * CPU can see before our xchg() of the tail: only we read
		 * @locked, nobody hands us the queue before we are linked,
		 * and the assert shows the store to @next stores NIL over
		 * NIL (a node out of the queue has no next), so they are
		 * folded into one step.
		 */
		assert(nxt[me] == NIL);
		locked[me] = 0;
		nxt[me] = NIL;
		inlock[me] = 1	/* ghost: in osq_lock() */
	};
	atomic {		/* old = atomic_xchg(&lock->tail, curr) */
		p = tail;
		tail = me;
		if
		:: p == NIL ->	/* return true: the queue was empty */
			assert(nown == 0);	/* P1 */
			nown++;
			own[me] = 1;
			passes = 0;
			ok = 1
		:: else ->
			linked[me] = 1;
			TRIP_START;
			ok = 0
		fi
	};
	if
	:: ok -> skip
	:: else ->
#ifdef MUT_QUEUE_ORDER
		nxt[p] = me;	/* WRITE_ONCE(prev->next, node) */
		prv[me] = p;	/* node->prev = prev; osq_set_prev_cpu() */
#else
		/*
		 * node->prev = prev; osq_set_prev_cpu(); smp_wmb();
		 * WRITE_ONCE(prev->next, node);  No other CPU reads or writes
		 * @node->prev before it can see the store to @prev->next
		 * (only our predecessor's Step-C writes it, after taking us
		 * from @prev->next), so the two stores are one step; the
		 * MUT_QUEUE_ORDER mutant keeps them apart.
		 */
		atomic {
			prv[me] = p;
			nxt[p] = me
		}
#endif
		if
		:: d_step {	/* smp_cond_load_relaxed(&node->locked, VAL || ...)
				 * returns a ticket: return true */
			locked[me] != 0 ->
			linked[me] = 0;
			ok = 1
		   }
		:: GIVE_UP ->	/* ... || need_resched() || vcpu_is_preempted() */
			/*
			 * Step-A: stabilize @prev.  Each pass of the loop is
			 * the cmpxchg() of prev->next, the load of
			 * node->locked and the reload of node->prev; a pass
			 * that sees none of them change is a no-op, so the
			 * loop is a choice of the three that block until
			 * they can succeed.
			 */
			do
			:: atomic {	/* data_race(prev->next) == node &&
					 * cmpxchg(&prev->next, node, NULL) == node */
				nxt[p] == me ->
				nxt[p] = NIL;
				linked[me] = 0
			   };
			   break
			:: d_step {	/* smp_load_acquire(&node->locked): we
					 * lost the cmpxchg to an unlock() */
				locked[me] != 0 ->
				linked[me] = 0;
				ok = 1
			   };
			   break
			:: prv[me] != p ->	/* prev = READ_ONCE(node->prev):
						 * a Step-C moved us */
				p = prv[me]
			od;
			if
			:: ok -> skip
			:: else ->
				/* Step-B: stabilize @next.
				 * next = osq_wait_next(lock, node, prev) */
				osq_wait_next(p);
				if
				:: n == NIL -> skip	/* return false */
				:: else ->
					/* Step-C: unlink */
#ifdef MUT_STEPC_ORDER
					nxt[p] = n;	/* WRITE_ONCE(prev->next, next) */
					prv[n] = p;	/* WRITE_ONCE(next->prev, prev) */
#else
					/* Step-C: @prev waits for a new
					 * prev->next (still NULL from our
					 * Step-A) and @next for a new prev */
					assert(nxt[p] == NIL);
					prv[n] = p;	/* WRITE_ONCE(next->prev, prev);
							 * osq_set_prev_cpu() */
					nxt[p] = n;	/* WRITE_ONCE(prev->next, next) */
#endif
					n = NIL
				fi
			fi
		fi
	fi;
	p = NIL
}

/*
 * The global invariants (P1, P2, P3), checked in every reachable state
 * by the monitor process below.
 */
#define NOT_SELF(x)	(nxt[x] != x)
#define DISTINCT(x, y)	(nxt[x] == NIL || nxt[x] != nxt[y])
#define STREAK_OK(x)	(locked[x] == 0 || T_STREAK(locked[x]) <= B)
#define INVARIANT \
	(nown <= 1 && passes <= B && \
	 NOT_SELF(1) && NOT_SELF(2) && NOT_SELF(3) && NOT_SELF(4) && \
	 DISTINCT(1, 2) && DISTINCT(1, 3) && DISTINCT(1, 4) && \
	 DISTINCT(2, 3) && DISTINCT(2, 4) && DISTINCT(3, 4) && \
	 STREAK_OK(1) && STREAK_OK(2) && STREAK_OK(3) && STREAK_OK(4))

/* osq_unlock_ticket(): the ticket we got if it came from our node (it
 * carries the streak on), else a new one from our node. */
#define UNLOCK_TICKET \
	((locked[me] != 0 && T_NODE(locked[me]) == NODE_OF(me)) -> \
	 locked[me] : TICKET(NODE_OF(me), 0))

/* The end state: queue empty, no links left, no owner. */
#define ALL_CLEAR \
	(tail == NIL && nown == 0 && \
	 nxt[1] == NIL && nxt[2] == NIL && nxt[3] == NIL && nxt[4] == NIL)

active [NCPU] proctype cpu()
{
	byte p;		/* __osq_lock(): old, then prev */
	byte n;		/* next */
	byte t;		/* the ticket __osq_unlock() hands on */
	byte yields;	/* osq_lock(): turns passed in this call */
	byte r;		/* rounds done */
	bit ok;		/* __osq_lock()'s result */

	do
	:: r < ROUNDS(me) ->
		/*
		 * osq_lock(lock), the wrapper of locking-osq patch 2.
		 */
		do
		:: osq_lock_inner();	/* while (__osq_lock(lock)) { */
			if
			:: d_step {
				/*
				 * return false (unqueued), or return true: a
				 * direct acquisition (no ticket) or a hand-off
				 * from our own node.  The ticket, node->locked,
				 * is ours alone while we own the queue, so it
				 * is read where it is used.
				 */
				!ok || locked[me] == 0 ||
				T_NODE(locked[me]) == NODE_OF(me) ->
				inlock[me] = 0;
				if
				:: ok ->	/* P1, in the critical section */
					assert(own[me] && nown == 1);
					t = UNLOCK_TICKET	/* for osq_unlock() */
				:: else ->	/* we own nothing, and nobody may
						 * hand us the queue any more */
					assert(!own[me] && !linked[me])
				fi
			   };
			   break
			:: atomic {
				/* a hand-off from another node:
				 * osq_numa_pass() */
				ok && locked[me] != 0 &&
				T_NODE(locked[me]) != NODE_OF(me) ->
				if
				:: YIELD_GATE && STREAK_GATE(locked[me]) ->
					n = nxt[me]	/* next = READ_ONCE(node->next) */
				:: else -> n = NIL
				fi;
				if
				:: n != NIL && NODE_OF(n) == T_NODE(locked[me]) ->
					/* pass the turn on (P3: the per-lock
					 * bound, and the streak) */
					passes++;
					assert(passes <= B);
					assert(T_STREAK(locked[me]) + 1 <= B);
#ifdef WITNESS_STREAK
					/* fails if a pass reaches streak B */
					assert(T_STREAK(locked[me]) + 1 < B);
#endif
					/* the ticket to pass it on with */
					t = TICKET(T_NODE(locked[me]),
						   T_STREAK(locked[me]) + 1)
				:: else ->
					/* keep it (return true): a hand-off
					 * taken on another node than the
					 * ticket's */
					n = NIL;
					passes = 0;
					inlock[me] = 0;
					assert(own[me] && nown == 1);
					t = UNLOCK_TICKET	/* for osq_unlock() */
				fi
			   };
			   if
			   :: n == NIL -> break
			   :: else
			   fi
			fi;
#ifdef MUT_YIELD_DIRECT
			nxt[me] = NIL;
			handoff(n, t);
			n = NIL;
			t = 0;
#else
			/* __osq_unlock(lock, pass) */
			osq_unlock_inner(t);
#endif
			yields++;
			assert(yields <= B);	/* P3: per call */
#ifdef WITNESS_YIELDS
			/* fails if a call passes B turns */
			assert(yields < B)
#endif
		od;

		/* the owner's critical section, then osq_unlock(lock):
		 * __osq_unlock(lock, osq_unlock_ticket(node)) */
		if
		:: ok ->
			osq_unlock_inner(t);
			ok = 0
		:: else
		fi;
		yields = 0;
		WAIT_START;
		r++
	:: else -> break
	od;

	atomic {
		ndone++;
		if
		:: ndone == NCPU -> assert(ALL_CLEAR)	/* P2 at the end */
		:: else -> skip
		fi
	}
}

/* Checks INVARIANT in every reachable state. */
active proctype monitor()
{
end_monitor:
	atomic {
		!INVARIANT -> assert(false)
	}
}

#ifdef LIVENESS
/*
 * P4: every CPU that enters osq_lock() leaves it.  With pan -a -f (weak
 * fairness); a CPU stuck in osq_lock() at a deadlock counts as never
 * leaving, as spin extends a finite run by repeating its last state.
 */
ltl progress {
	[] ((inlock[1] -> <> !inlock[1]) && (inlock[2] -> <> !inlock[2]) &&
	    (inlock[3] -> <> !inlock[3]) && (inlock[4] -> <> !inlock[4]))
}
#endif
