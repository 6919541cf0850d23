/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asid.pml - the Linux 5.10 arm64 ASID allocator (arch/arm64/mm/context.c:
 * check_and_switch_context(), new_context(), flush_context(),
 * check_update_reserved_asid()) and the TTBR writes of cpu_switch_mm()
 * (arch/arm64/include/asm/mmu_context.h, cpu_do_switch_mm() in context.c),
 * for spin.  -DSERIES models the series' change to
 * check_and_switch_context() (arm64-mm patch 2); -DIRQ adds interrupts.
 *
 * NCPU CPUs (pids 0..NCPU-1) each do SW context switches, each to a
 * nondeterministically chosen mm out of NMM mm slots (never to the mm it
 * already runs: switch_mm() does nothing when prev == next).  A switch may
 * also go to a new mm that replaces one nobody uses (fork/exec and exit:
 * the old mm is freed, its ASID is not, the new one starts with
 * context.id == 0); that is what makes the tiny ASID space run out and
 * roll over.  After its last switch a CPU keeps running its mm in user
 * space, and the properties keep being checked.
 *
 * Run by scripts/check/models-check.sh; models/README.md lists the properties,
 * the bounds, the checks and what is abstracted away.  In short:
 *
 *  - sequential consistency: each step is one load or store of the
 *    kernel, or one atomic read-modify-write (the cmpxchg() of the fast
 *    path, the xchg() of flush_context(), atomic64_add_return() of the
 *    generation) in atomic { }.  Memory ordering and the barriers (the
 *    _relaxed atomics, the lock's acquire/release, the isb()s after the
 *    TTBR writes) are not modelled: the argument that the kernel's
 *    barriers give this behaviour is a separate one.
 *  - under cpu_asid_lock, the accesses to state that only lock holders
 *    touch (asid_map, reserved_asids, tlb_flush_pending, cur_idx, and
 *    loads of context.id and asid_generation, which only lock holders
 *    write) are joined with the neighbouring step: no other CPU can tell
 *    them apart.  The accesses that other CPUs make without the lock
 *    (context.id, asid_generation, active_asids) stay separate steps, one
 *    per kernel access.
 *  - the hardware: per CPU TTBR0_EL1 (the mm whose page tables it points
 *    at, or RSV for reserved_pg_dir) and the ASID field of TTBR1_EL1 (the
 *    one in use, TCR_EL1.A1 = 1).  The TLB is, per ASID, the set of mms
 *    whose translations may be cached under that ASID.  A table walk can
 *    happen at any time (speculation), so the TLB fill is eager: the
 *    pair (ASID, TTBR0 mm) of a CPU is added whenever it changes and again
 *    right after every TLB flush.  An eager TLB holds at every point a
 *    superset of what a lazy one could, so no stale-entry bug is hidden.
 *    A reserved TTBR0 walks nothing.  Without CNP every CPU has its own
 *    TLB; with -DCNP all CPUs share one (the CPUs of one CnP domain), and
 *    local_flush_tlb_all() on one empties it for all.
 *  - the generation is bounded by GENS: a CPU that would roll over past
 *    it releases the lock (it has changed nothing shared yet) and stops
 *    forever at a valid end state: the run is cut there, as if that CPU
 *    just never got the lock.
 *  - interrupts (-DIRQ): without software PAN, an interrupt (IRQ,
 *    pseudo-NMI, SDEI) entered and left at EL1 writes no TTBR, and its
 *    uaccess flips PSTATE.PAN only; what does write them is an EFI
 *    runtime call from interrupt context (efi-pstore at an oops or
 *    panic, efi_reboot()), a nested switch to efi_mm and back to
 *    current->active_mm.  With -DIRQ, one handler per CPU may run that
 *    nested pair, two whole check_and_switch_context() calls, at any
 *    point of a switch where interrupts are not masked (everywhere but
 *    under cpu_asid_lock), at most IRQS times in a run.  It runs on the
 *    CPU's behalf: the interrupted code takes no step until it returns,
 *    and then goes on with the values it had loaded.  efi_mm is one more
 *    mm slot (EFI), never freed; while it runs, the properties hold for
 *    it as for a user mm.  -DIRQ_PREV returns to the previous mm instead
 *    of the next one: a pseudo-NMI inside context_switch().
 *  - not modelled: pinned ASIDs (arm64_mm_context_get/put; no SVA
 *    device), KPTI's ASID pairs, the software-PAN deferral of TTBR0,
 *    switches to init_mm (kernel threads), TLB maintenance other
 *    than the rollover's local flush (flush_tlb_mm() and the like), and
 *    interrupts outside a switch (a nested pair there is two more
 *    ordinary switches).
 *
 * Compile-time switches (spin -D...):
 *   NCPU=n      CPUs (default 3)
 *   NASID=n     hardware ASIDs, ASID 0 included (default NCPU + 2, the
 *               fewest the kernel accepts: asids_update_limit() warns
 *               unless NUM_USER_ASIDS - 1 > num_possible_cpus())
 *   NMM=n       mm slots, 2..4 (default 3)
 *   GENS=n      highest generation (default 3: two rollovers)
 *   SW=n        context switches per CPU (default 2)
 *   SWX=mask    CPUs that do one switch more, bit 0 = CPU 0 (default 0)
 *   CNP         one TLB shared by all CPUs (Common not Private)
 *   SERIES      check_and_switch_context() as the affsched series' patch
 *               17 has it: the reserved TTBR0 written once, first, for
 *               every switch, and cpu_do_switch_mm() called without
 *               cpu_switch_mm()'s second write (default: 5.10's)
 *   COLD        start just after boot (default: warm, see below)
 *   IRQ         interrupt handlers that switch to efi_mm and back to
 *               current->active_mm, the next mm (exec_mmap()), at any
 *               point of a switch with interrupts on
 *   IRQ_PREV    with IRQ: back to the previous mm (a pseudo-NMI in
 *               context_switch())
 *   IRQS=n      with IRQ: interrupts in a run, all CPUs together
 *               (default 1)
 *   NO_P2       check P1 and P0 only (to see the P1 consequence of a
 *               mutant that breaks both)
 * Witnesses, each must make spin report an error, showing that the
 * configuration reaches what the pass checks are about:
 *   WITNESS_ROLLOVER   fails when generation GENS is reached
 *   WITNESS_RACE       fails when the fast path's cmpxchg() loses to a
 *                      rollover (returns 0)
 *   WITNESS_IRQ        with IRQ: fails when the fast path's cmpxchg()
 *                      finds the active_asids an interrupt's nested
 *                      switch stored (not 0: the slow path follows)
 * Mutants, each must make spin report an error:
 *   MUT_REPLACE_ZERO   the fast path before mainline a8ffaaa060b8 ("arm64:
 *                      asid: Do not replace active_asids if already 0"):
 *                      no read of active_asids, an xchg() that stores the
 *                      ASID even over the 0 of a rollover
 *   MUT_NO_FLUSH       the rollover does not set tlb_flush_pending
 *   MUT_NO_RESERVED    flush_context() does not set the running ASIDs in
 *                      asid_map
 *   MUT_NO_RESERVED_TTBR0      cpu_switch_mm() does not write the reserved
 *                      TTBR0 before cpu_do_switch_mm() (caught without
 *                      CNP; with CNP invisible, see models/README.md);
 *                      with SERIES, the one write at the start is missing
 *   MUT_NO_CNP_RESERVED_TTBR0  with CNP, check_and_switch_context() does
 *                      not write the reserved TTBR0 first
 */

#ifndef NCPU
#define NCPU	3
#endif
#ifndef NASID
#define NASID	(NCPU + 2)
#endif
#ifndef NMM
#define NMM	3
#endif
#ifndef GENS
#define GENS	3
#endif
#ifndef SW
#define SW	2
#endif
#ifndef SWX
#define SWX	0
#endif

#if NCPU < 2 || NCPU > 3
#error "NCPU must be 2 or 3"
#endif
#if NMM < 2 || NMM > 4
#error "NMM must be 2, 3 or 4"
#endif
#if NASID > 8
#error "NASID must be at most 8 (asid_map is a byte)"
#endif

/* mm->context.id: generation and ASID in one number, as the kernel's
 * generation | asid with NASID for ASID_FIRST_VERSION.  0 is a new mm. */
#define ID(g, a)	((g) * NASID + (a))
#define GEN(id)		((id) / NASID)
#define IDX(id)		((id) % NASID)	/* asid2idx() */

#ifdef IRQ
#define EFI	NMM		/* efi_mm: the slot after the user mms */
#define NSLOT	(NMM + 1)
#else
#define NSLOT	NMM
#endif
#define NONE	NSLOT		/* no mm (cur[], nxt[]) */
#define RSV	NSLOT		/* TTBR0 = reserved_pg_dir */
#define DEAD	(1 << NSLOT)	/* TLB: translations of a freed mm */
#define ALLCPUS	((1 << NCPU) - 1)

#ifdef CNP
#define NTLB		1
#define TLBOF(c)	0
#else
#define NTLB		NCPU
#define TLBOF(c)	(c)
#endif
#define TLB(c, a)	tlb[TLBOF(c) * NASID + (a)]

/* switches of CPU c */
#define SWITCHES(c)	(SW + ((SWX >> (c)) & 1))

/*
 * The start state.  COLD: just booted, nothing allocated.  Otherwise
 * (warm): the system has been up for a while; every ASID of generation 1
 * has been handed out to mms that have all exited since, so the first
 * allocation rolls over; each CPU last ran one of them (a threaded mm
 * with ASID 1, whose id is still in active_asids) and went idle: TTBR0
 * reserved, TTBR1 still with ASID 1, and its TLB may hold entries of the
 * exited mms under every ASID.
 */
#ifdef COLD
#define START_MAP	0
#define START_IDX	1
#define START_ACTIVE	0
#define START_ASID	0
#define START_TLB	0
#else
#define START_MAP	((1 << NASID) - 2)
#define START_IDX	(NASID - 1)
#define START_ACTIVE	ID(1, 1)
#define START_ASID	1
#define START_TLB	DEAD
#endif

/* ---- the allocator's state (context.c) ---- */
byte mmid[NSLOT];		/* mm->context.id */
byte gen = 1;			/* asid_generation / ASID_FIRST_VERSION */
byte amap = START_MAP;		/* asid_map: bit a for ASID a */
byte act[NCPU] = START_ACTIVE;	/* active_asids */
byte reserved[NCPU];		/* reserved_asids */
byte pending;			/* tlb_flush_pending: bit c for CPU c */
byte lock;			/* cpu_asid_lock: 0 free, else holder + 1 */
byte cur_idx = START_IDX;	/* new_context()'s static cur_idx */

/* ---- the hardware ---- */
byte pgd[NCPU] = RSV;		/* TTBR0_EL1: whose page tables, or RSV */
byte hwasid[NCPU] = START_ASID;	/* TTBR1_EL1.ASID */
byte tlb[NTLB * NASID] = START_TLB; /* per TLB and ASID: bit m = mm m's
				 * entries, DEAD: of exited mms */

/* ---- ghost state, for the properties ---- */
byte cur[NCPU] = NONE;	/* the mm the CPU runs (prev, while switching) */
byte nxt[NCPU] = NONE;	/* the mm it is switching to, NONE outside */

/*
 * The CPU a process runs on: cpu() is CPU _pid, irq() (-DIRQ) the
 * interrupt handler of CPU _pid - NCPU.
 */
#define me	cpuid

#ifdef IRQ
/*
 * Interrupts (-DIRQ).  inirq[c]: an interrupt handler runs on CPU c, and
 * the interrupted code of CPU c takes no step until it returns.  Every
 * step of both begins with RUN_AND or RUN_THEN, a guard that holds only for the context that
 * runs (ctx: 0 in cpu(), 1 in irq()).  icur/inxt: the interrupted
 * switch's prev and next mm (the handler's nested switches use cur and
 * nxt), so that no other CPU frees them meanwhile.  halt[c]: the
 * handler stopped at the generation bound, and CPU c stops with it.
 */
#ifndef IRQS
#define IRQS	1
#endif
bit inirq[NCPU];
byte icur[NCPU] = NONE;
byte inxt[NCPU] = NONE;
bit halt[NCPU];
byte irqs;			/* interrupts taken so far, at most IRQS */
#ifdef IRQ_PREV
#define PREV_KNOWN	(cur[me] != NONE)	/* prev is a user mm */
#else
#define PREV_KNOWN	true
#endif
#define RUN_AND		(inirq[me] == ctx) &&
#define RUN_THEN	(inirq[me] == ctx) ->
#define IBUSY(c, x)	(icur[c] == (x) || inxt[c] == (x))
#else
#define RUN_AND
#define RUN_THEN
#define IBUSY(c, x)	false
#endif

/* cpu_asid_lock's value while this CPU holds it */
#ifdef IRQ
#define LOCK_HELD	(me + 1)
/* the generation bound in a handler stops its CPU too */
#define HALT_CPU	halt[me] = ctx
#else
#define LOCK_HELD	1
#define HALT_CPU	skip
#endif

/* A CPU is in user space: not switching, and running an mm. */
#define USER(c)		(nxt[c] == NONE && cur[c] != NONE)

/* Nobody runs mm x, is switching to or from it: it may be freed. */
#define BUSY(c, x)	(cur[c] == (x) || nxt[c] == (x) || IBUSY(c, x))
#if NCPU == 2
#define FREE(x)	(!BUSY(0, x) && !BUSY(1, x))
#else
#define FREE(x)	(!BUSY(0, x) && !BUSY(1, x) && !BUSY(2, x))
#endif

/*
 * The TLB of CPU c may now cache what its TTBR0 and ASID translate; a
 * reserved TTBR0 translates nothing.
 */
inline fill(c)
{
	if
	:: pgd[c] != RSV -> TLB(c, hwasid[c]) = TLB(c, hwasid[c]) | (1 << pgd[c])
	:: else -> skip
	fi
}

/*
 * local_flush_tlb_all() on this CPU: its TLB (with CNP the shared one) is
 * emptied, and refilled at once from the TTBRs of the CPUs that use it.
 */
inline local_flush()
{
#ifdef CNP
	k = 0;
	do
	:: k < NASID -> tlb[k] = 0; k++
	:: else -> break
	od;
	k = 0;
	do
	:: k < NCPU -> fill(k); k++
	:: else -> break
	od;
#else
	k = 0;
	do
	:: k < NASID -> TLB(me, k) = 0; k++
	:: else -> break
	od;
	fill(me);
#endif
	k = 0
}

/*
 * Mm x is freed and a new mm takes the slot (init_new_context():
 * context.id = 0).  Its ASID stays set in asid_map, and the TLBs keep its
 * entries, which now belong to no live mm.
 */
inline recycle(x)
{
	mmid[x] = 0;
	k = 0;
	do
	:: k < NTLB * NASID ->
		if
		:: tlb[k] & (1 << (x)) -> tlb[k] = (tlb[k] & ~(1 << (x))) | DEAD
		:: else -> skip
		fi;
		k++
	:: else -> break
	od;
	k = 0
}

/* context_switch(): the next mm, another one than the CPU runs. */
inline pick_next()
{
	if
	:: cur[me] != 0 -> m = 0
	:: cur[me] != 1 -> m = 1
#if NMM > 2
	:: cur[me] != 2 -> m = 2
#endif
#if NMM > 3
	:: cur[me] != 3 -> m = 3
#endif
	fi
}

/* a new mm, in a slot nobody uses */
inline pick_new()
{
	if
	:: FREE(0) -> m = 0
	:: FREE(1) -> m = 1
#if NMM > 2
	:: FREE(2) -> m = 2
#endif
#if NMM > 3
	:: FREE(3) -> m = 3
#endif
	fi;
	recycle(m)
}

/*
 * The first step of check_and_switch_context() after the choice of mm.
 * 5.10 with CnP: if (system_supports_cnp()) cpu_set_reserved_ttbr0();
 * the series (-DSERIES, arm64-mm patch 2) for every switch (software PAN is not
 * modelled); otherwise asid = atomic64_read(&mm->context.id).
 */
#if defined(SERIES) && !defined(MUT_NO_RESERVED_TTBR0)
#define EARLY_RSV
#define FIRST_STEP	pgd[me] = RSV
#define EV_FIRST	printf("cpu%d:   TTBR0 = reserved\n", me)
#elif !defined(SERIES) && defined(CNP) && !defined(MUT_NO_CNP_RESERVED_TTBR0)
#define EARLY_RSV
#define FIRST_STEP	pgd[me] = RSV
#define EV_FIRST	printf("cpu%d:   TTBR0 = reserved (CnP)\n", me)
#else
#define FIRST_STEP	id = mmid[m]
#define EV_FIRST	printf("cpu%d:   read mm%d id %d/%d\n", me, m, GEN(id), IDX(id))
#endif

/*
 * new_context(mm), the part before a rollover: it reads and writes only
 * lock-protected state, so it is one step with the load of context.id
 * and the generation check before it.  Leaves got = 1 and the new id in
 * id, or got = 0 when the ASIDs ran out.
 */
inline new_context_try()
{
	got = 0;
	if
	:: id != 0 ->
		a = ID(gen, IDX(id));		/* newasid */
		/* check_update_reserved_asid(asid, newasid): all copies */
		i = 0;
		do
		:: i < NCPU ->
			if
			:: reserved[i] == id -> got = 1; reserved[i] = a
			:: else -> skip
			fi;
			i++
		:: else -> break
		od;
		i = 0;
		if
		:: got -> skip
		:: else ->	/* !__test_and_set_bit(asid2idx(asid), asid_map) */
			if
			:: (amap & (1 << IDX(id))) == 0 ->
				amap = amap | (1 << IDX(id));
				got = 1
			:: else -> skip
			fi
		fi;
		if
		:: got -> id = a
		:: else -> skip
		fi
	:: else -> skip
	fi;
	if
	:: !got ->	/* find_next_zero_bit(asid_map, NUM_USER_ASIDS, cur_idx) */
		a = cur_idx;
		do
		:: a < NASID && (amap & (1 << a)) -> a++
		:: else -> break
		od;
		if
		:: a < NASID ->		/* set_asid: */
			amap = amap | (1 << a);
			cur_idx = a;
			id = ID(gen, a);
			got = 1
		:: else -> skip		/* out of ASIDs: rollover */
		fi
	:: else -> skip
	fi;
	a = 0
}

/*
 * check_and_switch_context(m) after its first step, the last step
 * included: shared by cpu() and irq().  Labels and the goto end_cut
 * resolve in the proctype it is expanded in.
 */
inline switch_rest()
{
#ifdef EARLY_RSV
		atomic {	/* asid = atomic64_read(&mm->context.id) */
			RUN_THEN
			id = mmid[m];
			printf("cpu%d:   read mm%d id %d/%d\n", me, m, GEN(id), IDX(id))
		};
#endif

#ifdef MUT_REPLACE_ZERO
		/*
		 * Before a8ffaaa060b8: if (!((asid ^
		 * atomic64_read(&asid_generation)) >> asid_bits) &&
		 * atomic64_xchg_relaxed(&per_cpu(active_asids, cpu), asid))
		 *	goto switch_mm_fastpath;
		 */
		if
		:: atomic {	/* the load of asid_generation: a match */
			RUN_AND GEN(id) == gen ->
			printf("cpu%d:   generation %d matches\n", me, gen)
		   };
		   atomic {	/* atomic64_xchg_relaxed(): stores even over 0 */
			RUN_THEN
			fast = (act[me] != 0);
			printf("cpu%d:   xchg active_asids[%d] %d/%d -> %d/%d\n",
				me, me, GEN(act[me]), IDX(act[me]), GEN(id), IDX(id));
			act[me] = id
		   }
		:: atomic {
			RUN_AND GEN(id) != gen ->
			printf("cpu%d:   generation %d does not match\n", me, gen)
		   }
		fi;
#else
		atomic {	/* old_active_asid = atomic64_read(this_cpu_ptr(&active_asids)) */
			RUN_THEN
			old = act[me];
			printf("cpu%d:   read active_asids[%d] %d/%d\n", me, me, GEN(old), IDX(old))
		};
		if
		:: atomic {	/* asid_gen_match(asid): the load of asid_generation */
			RUN_AND old != 0 && GEN(id) == gen ->
			printf("cpu%d:   generation %d matches\n", me, gen)
		   };
		   atomic {	/* atomic64_cmpxchg_relaxed(.., old_active_asid, asid) */
			RUN_THEN
			if
			:: act[me] == old ->
				act[me] = id;
				fast = 1;
				printf("cpu%d:   cmpxchg active_asids[%d] %d/%d -> %d/%d\n",
					me, me, GEN(old), IDX(old), GEN(id), IDX(id))
			:: else ->
				/* only a rollover changes another
				 * CPU's active_asids: it returns 0;
				 * with -DIRQ a nested switch on this
				 * CPU changes it too */
#if !defined(IRQ) || defined(WITNESS_IRQ)
				assert(act[me] == 0);
#endif
				printf("cpu%d:   cmpxchg active_asids[%d] finds 0\n", me, me);
#ifdef WITNESS_RACE
				witness_no_race = 0;
				assert(witness_no_race);
#endif
				fast = 0
			fi
		   }
		:: atomic {	/* old_active_asid == 0 (no load), or no match */
			RUN_AND !(old != 0 && GEN(id) == gen) ->
			printf("cpu%d:   no fast path (generation %d)\n", me, gen)
		   }
		fi;
		old = 0;
#endif
		if
		:: fast -> fast = 0; goto switch_mm_fastpath
		:: else -> skip
		fi;

		/* the slow path */
		atomic {	/* raw_spin_lock_irqsave(&cpu_asid_lock) */
			RUN_AND lock == 0 -> lock = LOCK_HELD;
			printf("cpu%d:   lock\n", me)
		};
		atomic {
			RUN_THEN
			id = mmid[m];	/* asid = atomic64_read(&mm->context.id) */
			if
			:: GEN(id) == gen ->	/* asid_gen_match(asid) */
				nc = 0;
				printf("cpu%d:   mm%d id %d/%d matches\n", me, m, GEN(id), IDX(id))
			:: else ->
				new_context_try();
				if
				:: got ->
					nc = 1;
					got = 0;
					printf("cpu%d:   new_context(mm%d): %d/%d\n", me, m, GEN(id), IDX(id))
				:: gen == GENS && !got ->
					/* the bound: give the lock back,
					 * nothing changed, stop for good */
					lock = 0;
					HALT_CPU;
					printf("cpu%d:   new_context(mm%d): bound GENS, stop\n", me, m);
					goto end_cut
				:: else ->
					nc = 2;
					printf("cpu%d:   new_context(mm%d): out of ASIDs\n", me, m)
				fi
			fi
		};
		if
		:: nc == 0 -> goto flush_pending
		:: nc == 2 ->
			/* new_context() ran out of ASIDs: the rollover.
			 * atomic64_add_return_relaxed(ASID_FIRST_VERSION,
			 * &asid_generation); then flush_context():
			 * set_reserved_asid_bits() clears asid_map (lock-
			 * protected, joined) */
			atomic {
				RUN_THEN
				gen++;
				printf("cpu%d:   ROLLOVER: generation %d\n", me, gen);
#ifdef WITNESS_ROLLOVER
				assert(gen < GENS);
#endif
				amap = 0
			};
			i = 0;
			do
			:: i < NCPU ->
				atomic {
					RUN_THEN
					/* asid = atomic64_xchg_relaxed(&per_cpu(active_asids, i), 0) */
					a = act[i];
					act[i] = 0;
					/* a CPU that has not switched since the
					 * last rollover keeps its reserved ASID */
					if
					:: a == 0 -> a = reserved[i]
					:: else -> skip
					fi;
#ifndef MUT_NO_RESERVED
					amap = amap | (1 << IDX(a));	/* __set_bit() */
#endif
					reserved[i] = a;
					printf("cpu%d:   xchg active_asids[%d] -> 0, reserved_asids[%d] = %d/%d\n",
						me, i, i, GEN(a), IDX(a));
					i++
				}
			:: else -> break
			od;
			atomic {
				RUN_THEN
				i = 0;
#ifndef MUT_NO_FLUSH
				pending = ALLCPUS;	/* cpumask_setall(&tlb_flush_pending) */
#endif
				/* find_next_zero_bit(asid_map, NUM_USER_ASIDS, 1) */
				a = 1;
				do
				:: a < NASID && (amap & (1 << a)) -> a++
				:: else -> break
				od;
				/* the kernel counts on a free ASID here (more
				 * ASIDs than CPUs): fails with NASID < NCPU + 2 */
				assert(a < NASID);
				amap = amap | (1 << a);
				cur_idx = a;
				id = ID(gen, a);
				a = 0;
				printf("cpu%d:   flush pending everywhere; mm%d gets %d/%d\n",
					me, m, GEN(id), IDX(id))
			}
		:: else -> skip
		fi;
		atomic {	/* atomic64_set(&mm->context.id, asid) */
			RUN_THEN
			mmid[m] = id;
			printf("cpu%d:   store mm%d id %d/%d\n", me, m, GEN(id), IDX(id))
		};
flush_pending:
		/*
		 * if (cpumask_test_and_clear_cpu(cpu, &tlb_flush_pending))
		 *	local_flush_tlb_all();
		 * atomic64_set(this_cpu_ptr(&active_asids), asid);
		 * raw_spin_unlock_irqrestore();
		 * active_asids is read by no other CPU but a lock holder,
		 * so the store and the unlock are one step with the flush.
		 */
		atomic {
			RUN_THEN
			nc = 0;
			if
			:: pending & (1 << me) ->
				pending = pending & ~(1 << me);
				local_flush();
				printf("cpu%d:   local TLB flush\n", me)
			:: else -> skip
			fi;
			act[me] = id;
			lock = 0;
			printf("cpu%d:   active_asids[%d] = %d/%d, unlock\n", me, me, GEN(id), IDX(id))
		};

switch_mm_fastpath:
		/*
		 * 5.10: cpu_switch_mm(mm->pgd, mm); the series calls
		 * cpu_do_switch_mm() directly, TTBR0 being reserved since
		 * the first step.
		 */
#if !defined(MUT_NO_RESERVED_TTBR0) && !defined(SERIES)
		atomic {	/* cpu_set_reserved_ttbr0() */
			RUN_THEN
			pgd[me] = RSV;
			printf("cpu%d:   TTBR0 = reserved\n", me)
		};
#endif
		atomic {	/* cpu_do_switch_mm(): asid = ASID(mm), a new
				 * load of mm->context.id */
			RUN_THEN
			a = IDX(mmid[m]);
			printf("cpu%d:   ASID(mm%d) = %d\n", me, m, a)
		};
		atomic {	/* write_sysreg(ttbr1, ttbr1_el1): the new ASID */
			RUN_THEN
			hwasid[me] = a;
			fill(me);
			printf("cpu%d:   TTBR1.ASID = %d\n", me, a)
		};
		atomic {	/* write_sysreg(ttbr0, ttbr0_el1): the new tables */
			RUN_THEN
			pgd[me] = m;
			fill(me);
			switch_done();
			printf("cpu%d:   TTBR0 = mm%d: runs mm%d with ASID %d\n", me, m, m, a);
			a = 0;
			id = 0;
			m = NONE;
			n++
		}
}

/* The locals of check_and_switch_context(), in cpu() and irq() alike. */
#ifdef WITNESS_RACE
#define WITNESS_LOCALS	; bit witness_no_race = 1
#else
#define WITNESS_LOCALS
#endif
#define SWITCH_LOCALS \
	byte m = NONE;	/* the next mm */ \
	byte id;	/* check_and_switch_context()'s asid */ \
	byte old;	/* old_active_asid */ \
	byte a;		/* ASID(mm) in cpu_do_switch_mm(); scratch */ \
	byte i, k;	/* loop counters */ \
	bit got;	/* new_context() found an ASID */ \
	bit fast;	/* the fast path succeeded */ \
	byte nc;	/* slow path: 0 generation matched, 1 new_context() \
			 * found an ASID, 2 it rolled over */ \
	byte n		/* switches done */ \
	WITNESS_LOCALS

/*
 * The last step of a switch: the CPU runs mm m in user space, or, the
 * handler's switch back to current->active_mm done, it returns to the
 * interrupted switch.
 */
inline switch_done()
{
#ifdef IRQ
	if
	:: ctx && n == 1 ->
		cur[me] = icur[me];
		nxt[me] = inxt[me];
		icur[me] = NONE;
		inxt[me] = NONE;
		inirq[me] = 0
	:: else ->
		cur[me] = m;
		nxt[me] = NONE
	fi
#else
	cur[me] = m;	/* back to user space in mm m */
	nxt[me] = NONE
#endif
}

active [NCPU] proctype cpu()
{
	byte cpuid = _pid;
	bit ctx = 0;
	SWITCH_LOCALS;

#ifdef IRQ
	{
#endif
	do
	:: n < SWITCHES(me) ->
		/*
		 * check_and_switch_context(next).  The choice of the next
		 * mm reads only this CPU's own state, so it is joined with
		 * the first step; the replacement of a freed mm by a new
		 * one is an event of its own.  (No interrupt handler runs
		 * here: one starts only inside a switch.)
		 */
		if
		:: atomic {
			pick_next();
			nxt[me] = m;
			FIRST_STEP;
			printf("cpu%d: switch to mm%d\n", me, m);
			EV_FIRST
		   }
		:: atomic {
			pick_new();
			nxt[me] = m;
			printf("cpu%d: switch to mm%d, a new mm (id 0)\n", me, m)
		   };
		   atomic { RUN_THEN FIRST_STEP; EV_FIRST }
		fi;
		switch_rest()
	:: else -> break
	od;
	goto end_done
#ifdef IRQ
	} unless { halt[me] };	/* its handler was cut by the bound */
#endif
	;
end_cut:
	false;		/* cut by the generation bound: a valid end */
end_done:
	skip
}

#ifdef IRQ
/*
 * The interrupt handler of CPU _pid - NCPU: at any point of a switch
 * where interrupts are not masked (this CPU does not hold
 * cpu_asid_lock, taken with raw_spin_lock_irqsave()), an EFI runtime
 * service called from interrupt context switches to efi_mm and back to
 * current->active_mm (efi_set_pgd(), __switch_mm(): two whole
 * check_and_switch_context() calls), then returns.  In exec_mmap(),
 * where activate_mm() runs with interrupts on, current->active_mm is
 * already the next mm; with -DIRQ_PREV it is the previous one, as for a
 * pseudo-NMI inside context_switch().  Other interrupts write no TTBR
 * without software PAN (arm64-mm patch 2's message): they are no step here.
 */
active [NCPU] proctype irq()
{
	byte cpuid = _pid - NCPU;
	bit ctx = 1;
	SWITCH_LOCALS;
	byte back;	/* current->active_mm */

end_idle:
	atomic {
		irqs < IRQS && !inirq[me] && nxt[me] != NONE &&
		lock != LOCK_HELD && PREV_KNOWN ->
		irqs++;
		inirq[me] = 1;
		icur[me] = cur[me];
		inxt[me] = nxt[me];
#ifdef IRQ_PREV
		back = cur[me];
#else
		back = nxt[me];
#endif
		printf("cpu%d: interrupt: EFI call, then back to mm%d\n", me, back)
	};
	do
	:: n < 2 ->
		atomic {
			RUN_THEN
			if
			:: n == 0 -> m = EFI
			:: else -> m = back
			fi;
			nxt[me] = m;
			FIRST_STEP;
			printf("cpu%d: (irq) switch to mm%d\n", me, m);
			EV_FIRST
		};
		switch_rest()
	:: else -> break
	od;
	goto end_done;
end_cut:
	false;		/* cut by the generation bound: a valid end */
end_done:
	skip
}
#endif

/*
 * The properties, checked in every reachable state by the monitor.
 *   P1 two CPUs in user space that run different mms use different
 *      ASIDs (whatever their generation; implies the same for ASIDs of
 *      the current generation)
 *   P2 a CPU in user space running mm m with ASID a finds in its TLB no
 *      entry for ASID a of another mm (live or freed)
 *   P0 no CPU runs user space with ASID 0
 */
#define P1(c, d)	(!USER(c) || !USER(d) || cur[c] == cur[d] || \
			 hwasid[c] != hwasid[d])
#ifdef NO_P2
#define P2(c)		1
#else
#define P2(c)		(!USER(c) || (TLB(c, hwasid[c]) & ~(1 << cur[c])) == 0)
#endif
#define P0(c)		(!USER(c) || hwasid[c] != 0)
#if NCPU == 2
#define P1_ALL	P1(0, 1)
#define P2_ALL	(P2(0) && P2(1))
#define P0_ALL	(P0(0) && P0(1))
#else
#define P1_ALL	(P1(0, 1) && P1(0, 2) && P1(1, 2))
#define P2_ALL	(P2(0) && P2(1) && P2(2))
#define P0_ALL	(P0(0) && P0(1) && P0(2))
#endif

active proctype monitor()
{
	bit P1_distinct_asids, P2_no_stale_tlb_entry, P0_no_asid_zero;

end_monitor:
	atomic {
		!(P1_ALL && P2_ALL && P0_ALL) ->
		P1_distinct_asids = P1_ALL;
		P2_no_stale_tlb_entry = P2_ALL;
		P0_no_asid_zero = P0_ALL;
		assert(P1_distinct_asids);
		assert(P2_no_stale_tlb_entry);
		assert(P0_no_asid_zero)
	}
}
