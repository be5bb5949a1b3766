/* SPDX-License-Identifier: MIT */
/** @file
 * The pSOS+ kernel API (pSOSystem System Calls): tasks, events,
 * semaphores, message queues, time, memory regions and partitions, and
 * asynchronous signals, on the Fusion nucleus.
 *
 * Every call returns 0 or a pSOS error code (ERR_*, with its pSOS
 * value); objects are named by IDs (unsigned long) that hold a handle,
 * never a pointer: a stale, forged or zeroed ID gets ERR_OBJID (an ID
 * of another class ERR_OBJTYPE), never a crash.  A NULL pointer where
 * a call stores a result, which pSOS would follow, gets ERR_OBJID too.
 *
 * Names are 4 characters (a name shorter than 4 ends at its NUL), as
 * pSOS compares them; psos_configure() can make them strings of up to
 * 31 characters.  Names need not be unique: *_ident() finds one of the
 * objects of that name (pSOS does not say which either).
 *
 * Priorities run from 1 to 255, higher is more urgent, each on its own
 * nucleus priority; the program's main thread runs below them (nucleus
 * 0), threads of other skins at their own nucleus priorities.
 * Timeouts and delays count clock ticks (0: wait for ever); the tick
 * rate and the time slice are set by psos_configure().
 *
 * Functions link as psos_<name> (the macros below map each pSOS name
 * onto it) so that another skin using the same C names can share a
 * program.
 */
#ifndef FUSION_PSOS_PSOS_H
#define FUSION_PSOS_PSOS_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef SUCCESS
#define SUCCESS 0 /**< what every call returns when it succeeds */
#endif

/* Error codes, as pSOSystem System Calls, appendix B, numbers them. */
#define ERR_TIMEOUT 0x01  /**< timed out (a timeout was asked for) */
#define ERR_SSFN 0x03	  /**< illegal system service function number */
#define ERR_NODENO 0x04	  /**< node specifier out of range */
#define ERR_OBJDEL 0x05	  /**< object already deleted */
#define ERR_OBJID 0x06	  /**< ID failed the validity check */
#define ERR_OBJTYPE 0x07  /**< the ID is of another object type */
#define ERR_OBJTFULL 0x08 /**< object table full */
#define ERR_OBJNF 0x09	  /**< named object not found */
#define ERR_NOTCB 0x0E	  /**< too many tasks */
#define ERR_NOSTK 0x0F	  /**< no memory for the stack */
#define ERR_TINYSTK 0x10  /**< stack too small */
#define ERR_PRIOR 0x11	  /**< priority out of range */
#define ERR_ACTIVE 0x12	  /**< task already started */
#define ERR_NACTIVE 0x13  /**< task not started (t_restart) */
#define ERR_SUSP 0x14	  /**< task already suspended */
#define ERR_NOTSUSP 0x15  /**< task not suspended */
#define ERR_SETPRI 0x16	  /**< cannot change the priority */
#define ERR_REGNUM 0x17	  /**< register number out of range */
#define ERR_RNADDR 0x1B	  /**< region address not long-aligned */
#define ERR_UNITSIZE 0x1C /**< unit size not a power of 2 of 16 or more */
#define ERR_TINYUNIT 0x1D /**< more than 32767 units: unit too small */
#define ERR_TINYRN 0x1E	  /**< region smaller than one unit */
#define ERR_SEGINUSE 0x1F /**< segments still allocated (no RN_DEL) */
#define ERR_ZERO 0x20	  /**< segment of size 0 */
#define ERR_TOOBIG 0x21	  /**< segment larger than the region */
#define ERR_NOSEG 0x22	  /**< no segment free (RN_NOWAIT) */
#define ERR_NOTINRN 0x23  /**< segment outside the region */
#define ERR_SEGADDR 0x24  /**< not the start of a segment */
#define ERR_SEGFREE 0x25  /**< segment already free */
#define ERR_RNKILLD 0x26  /**< region deleted while the task waited */
#define ERR_TATRNDEL 0x27 /**< informative: tasks were waiting */
#define ERR_PTADDR 0x28	  /**< partition address not long-aligned */
#define ERR_BUFSIZE 0x29  /**< buffer size not a power of 2 of 4 or more */
#define ERR_TINYPT 0x2A	  /**< partition smaller than one buffer */
#define ERR_BUFINUSE 0x2B /**< buffers still allocated (no PT_DEL) */
#define ERR_NOBUF 0x2C	  /**< no buffer free */
#define ERR_BUFADDR 0x2D  /**< not the start of a buffer of it */
#define ERR_BUFFREE 0x2F  /**< buffer already free */
#define ERR_QKILLD 0x36	  /**< queue deleted while the task waited */
#define ERR_NOQCB 0x33	  /**< too many queues */
#define ERR_NOMGB 0x34	  /**< no message buffer */
#define ERR_QFULL 0x35	  /**< queue at its length limit */
#define ERR_NOMSG 0x37	  /**< queue empty (Q_NOWAIT) */
#define ERR_TATQDEL 0x38  /**< informative: tasks were waiting */
#define ERR_MATQDEL 0x39  /**< informative: messages were pending */
#define ERR_VARQ 0x3A	  /**< the queue is of variable length */
#define ERR_NOTVARQ 0x3B  /**< the queue is not of variable length */
#define ERR_NOEVS 0x3C	  /**< events not pending (EV_NOWAIT) */
#define ERR_NOTINASR 0x3E /**< not called from an ASR */
#define ERR_NOASR 0x3F	  /**< the task has no ASR */
#define ERR_MSGSIZ 0x31	  /**< message longer than the queue's */
#define ERR_BUFSIZ 0x32	  /**< buffer shorter than the queue's messages */
#define ERR_NOSCB 0x41	  /**< too many semaphores */
#define ERR_NOSEM 0x42	  /**< no token (SM_NOWAIT) */
#define ERR_SKILLD 0x43	  /**< semaphore deleted while the task waited */
#define ERR_TATSDEL 0x44  /**< informative: tasks were waiting */
#define ERR_NOTIME 0x47	  /**< date and time not set yet */
#define ERR_ILLDATE 0x48  /**< date out of range */
#define ERR_ILLTIME 0x49  /**< time of day out of range */
#define ERR_ILLTICKS 0x4A /**< ticks out of range */
#define ERR_NOTIMERS 0x4B /**< too many timers */
#define ERR_BADTMID 0x4C  /**< bad timer ID */
#define ERR_TMNOTSET 0x4D /**< timer not armed */
#define ERR_TOOLATE 0x4E  /**< date and time already past */

/* t_create() flags. */
#define T_LOCAL 0x0000	/**< local to its node (the only kind here) */
#define T_GLOBAL 0x0001 /**< known to other nodes: accepted, as T_LOCAL */
#define T_NOFPU 0x0000	/**< no floating point */
/** Floating point: every task has it here.  0, as Alchemy's T_FPU, so
 * that <alchemy/task.h> and this header go in one file. */
#define T_FPU 0x0

/* Task modes, t_start() and t_mode(); the 0 of each pair is the default. */
#define T_PREEMPT 0x0000	  /**< preemptible */
#define T_NOPREEMPT 0x0001	  /**< not preempted by other tasks */
#define T_NOTSLICE 0x0000	  /**< no round robin */
#define T_TSLICE 0x0002		  /**< round robin among equal priorities */
#define T_ASR 0x0000		  /**< its ASR is enabled */
#define T_NOASR 0x0004		  /**< its ASR is disabled */
#define T_USER 0x0000		  /**< user mode (the only one here) */
#define T_SUPV 0x2000		  /**< supervisor mode: accepted, as T_USER */
#define T_ISR 0x0000		  /**< interrupts enabled while it runs */
#define T_NOISR 0x0700		  /**< interrupts disabled: recorded only */
#define T_LEVELMASK(n) ((n) << 8) /**< interrupt level 0..7: recorded */
#define T_LEVELMASK0 0x0000	  /**< interrupt level 0 */
#define T_LEVELMASK7 0x0700	  /**< interrupt level 7 */

/* Semaphores. */
#define SM_LOCAL 0x0  /**< known on this node */
#define SM_GLOBAL 0x1 /**< accepted, as SM_LOCAL */
#define SM_FIFO 0x0   /**< waiters in arrival order */
#define SM_PRIOR 0x2  /**< waiters by priority */
#define SM_WAIT 0x0   /**< sm_p(): wait for a token */
#define SM_NOWAIT 0x1 /**< sm_p(): ERR_NOSEM instead of waiting */

/* Events. */
#define EV_WAIT 0x0   /**< ev_receive(): wait for the events */
#define EV_NOWAIT 0x1 /**< ev_receive(): ERR_NOEVS instead of waiting */
#define EV_ALL 0x0    /**< all the events asked for */
#define EV_ANY 0x2    /**< any of them */

/* Queues. */
#define Q_LOCAL 0x0   /**< known on this node */
#define Q_GLOBAL 0x1  /**< accepted, as Q_LOCAL */
#define Q_FIFO 0x0    /**< receivers in arrival order */
#define Q_PRIOR 0x2   /**< receivers by priority */
#define Q_NOLIMIT 0x0 /**< any number of messages */
#define Q_LIMIT 0x4   /**< at most count messages */
#define Q_SYSBUF 0x0  /**< buffers taken as messages come */
#define Q_PRIBUF 0x8  /**< count buffers of its own, from creation */
#define Q_WAIT 0x0    /**< q_receive(): wait for a message */
#define Q_NOWAIT 0x1  /**< q_receive(): ERR_NOMSG instead of waiting */

/* Regions and partitions. */
#define RN_FIFO 0x0   /**< waiters served in arrival order */
#define RN_PRIOR 0x2  /**< waiters by priority */
#define RN_NODEL 0x0  /**< rn_delete() refused while segments are out */
#define RN_DEL 0x4    /**< rn_delete() allowed with segments out */
#define RN_WAIT 0x0   /**< rn_getseg(): wait for a segment */
#define RN_NOWAIT 0x1 /**< rn_getseg(): ERR_NOSEG instead of waiting */
#define PT_LOCAL 0x0  /**< known on this node */
#define PT_GLOBAL 0x1 /**< accepted, as PT_LOCAL */
#define PT_NODEL 0x0  /**< pt_delete() refused while buffers are out */
#define PT_DEL 0x4    /**< pt_delete() allowed with buffers out */

/** What psos_configure() sets (pSOS's configuration table). */
struct psos_config {
	unsigned long kc_ticks2sec;   /**< clock ticks per second (100) */
	unsigned long kc_ticks2slice; /**< ticks per time slice (10) */
	int long_names; /**< names are strings of up to 31 chars (0) */
};

#define psos_configure psos_psos_configure
#define t_create psos_t_create
#define t_start psos_t_start
#define t_restart psos_t_restart
#define t_delete psos_t_delete
#define t_suspend psos_t_suspend
#define t_resume psos_t_resume
#define t_setpri psos_t_setpri
#define t_ident psos_t_ident
#define t_getreg psos_t_getreg
#define t_setreg psos_t_setreg
#define t_mode psos_t_mode
#define ev_send psos_ev_send
#define ev_receive psos_ev_receive
#define sm_create psos_sm_create
#define sm_delete psos_sm_delete
#define sm_ident psos_sm_ident
#define sm_p psos_sm_p
#define sm_v psos_sm_v
#define q_create psos_q_create
#define q_delete psos_q_delete
#define q_ident psos_q_ident
#define q_send psos_q_send
#define q_urgent psos_q_urgent
#define q_broadcast psos_q_broadcast
#define q_receive psos_q_receive
#define q_vcreate psos_q_vcreate
#define q_vdelete psos_q_vdelete
#define q_vident psos_q_vident
#define q_vsend psos_q_vsend
#define q_vurgent psos_q_vurgent
#define q_vbroadcast psos_q_vbroadcast
#define q_vreceive psos_q_vreceive
#define as_catch psos_as_catch
#define as_send psos_as_send
#define as_return psos_as_return
#define rn_create psos_rn_create
#define rn_delete psos_rn_delete
#define rn_ident psos_rn_ident
#define rn_getseg psos_rn_getseg
#define rn_retseg psos_rn_retseg
#define pt_create psos_pt_create
#define pt_delete psos_pt_delete
#define pt_ident psos_pt_ident
#define pt_getbuf psos_pt_getbuf
#define pt_retbuf psos_pt_retbuf
#define tm_tick psos_tm_tick
#define tm_set psos_tm_set
#define tm_get psos_tm_get
#define tm_wkafter psos_tm_wkafter
#define tm_wkwhen psos_tm_wkwhen
#define tm_evafter psos_tm_evafter
#define tm_evevery psos_tm_evevery
#define tm_evwhen psos_tm_evwhen
#define tm_cancel psos_tm_cancel

/**
 * Set the clock rate, the time slice and the kind of names (a Fusion
 * extension: pSOS reads them from its configuration table at boot).
 * The tick count carries on at the new rate; a slice applies from the
 * next T_TSLICE change of each task.  Errors: ERR_ILLTICKS (a rate of 0
 * or above 1e9, a slice of 0), ERR_OBJID (NULL).  Context: any.
 */
unsigned long psos_configure(const struct psos_config *config);

/** @name Tasks
 * A task's ID stays valid from t_create() to its deletion, t_restart()
 * included; tid 0 names the caller where pSOS allows it.  Context:
 * task, except t_create/t_start (any thread of the program) and
 * t_ident.  @{ */
/**
 * Create a dormant task at priority @p prio (1..255) with a stack of
 * @p sstack + @p ustack bytes (at least 256; the host thread gets the
 * instance's default if that is larger).  Errors: ERR_PRIOR,
 * ERR_TINYSTK, ERR_OBJTFULL, ERR_NOTCB (no thread), ERR_OBJID (NULL
 * @p tid).
 */
unsigned long t_create(const char *name, unsigned long prio,
		       unsigned long sstack, unsigned long ustack,
		       unsigned long flags, unsigned long *tid);
/**
 * Start a dormant task at @p start_addr(targs[0..3]) in @p mode
 * (T_NOPREEMPT, T_TSLICE, T_NOASR, interrupt level).  It may preempt the
 * caller at once.  Returning from @p start_addr deletes the task.
 * Errors: ERR_OBJID, ERR_OBJTYPE, ERR_ACTIVE (started), ERR_SSFN (NULL
 * @p start_addr).  @p targs may be NULL (four zeros).
 */
unsigned long t_start(unsigned long tid, unsigned long mode,
		      void (*start_addr)(unsigned long, unsigned long,
					 unsigned long, unsigned long),
		      unsigned long targs[4]);
/**
 * Start a started task over, whatever it was doing (its waits end, its
 * suspension too), at its entry with @p targs, its t_create() priority
 * and its t_start() mode; its pending events and timers are dropped.
 * On the caller (tid 0 or its own), does not return.  Errors:
 * ERR_OBJID, ERR_OBJTYPE, ERR_NACTIVE (never started).
 */
unsigned long t_restart(unsigned long tid, unsigned long targs[4]);
/** Delete a task (tid 0: the caller; then does not return).  Errors:
 * ERR_OBJID, ERR_OBJTYPE. */
unsigned long t_delete(unsigned long tid);
/** Suspend (once: no nesting).  Errors: ERR_OBJID, ERR_OBJTYPE,
 * ERR_SUSP (already suspended).  tid 0: the caller. */
unsigned long t_suspend(unsigned long tid);
/** Resume.  Errors: ERR_OBJID, ERR_OBJTYPE, ERR_NOTSUSP. */
unsigned long t_resume(unsigned long tid);
/**
 * Set the priority (0 @p newprio: leave it) and store the old one in
 * *@p oldprio (may be NULL).  A raised ready task may preempt the caller.
 * Errors: ERR_OBJID, ERR_OBJTYPE, ERR_SETPRI (@p newprio above 255).
 */
unsigned long t_setpri(unsigned long tid, unsigned long newprio,
		       unsigned long *oldprio);
/**
 * The ID of the first task named @p name (NULL: the caller) into
 * *@p tid.  @p node must be 0.  Errors: ERR_OBJNF, ERR_NODENO, ERR_OBJID
 * (NULL @p tid, or a NULL name outside a task).
 */
unsigned long t_ident(const char *name, unsigned long node, unsigned long *tid);
/** Read notepad register @p regnum (0..15) of a task (tid 0: the
 * caller).  Errors: ERR_OBJID, ERR_OBJTYPE, ERR_REGNUM. */
unsigned long t_getreg(unsigned long tid, unsigned long regnum,
		       unsigned long *reg_value);
/** Write notepad register @p regnum; errors as t_getreg(). */
unsigned long t_setreg(unsigned long tid, unsigned long regnum,
		       unsigned long reg_value);
/**
 * Change the bits of the caller's mode named in @p mask to those of
 * @p new_mode; the previous mode into *@p old_mode (may be NULL).
 * Turning preemption back on lets a more urgent ready task run at once.
 * Always 0 from a task; ERR_SSFN outside one.
 */
unsigned long t_mode(unsigned long mask, unsigned long new_mode,
		     unsigned long *old_mode);
/** @} */

/** @name Events: 16 bits per task for the application, 16 for the
 * system (the time services send any of the 32).  @{ */
/** Send @p events to a task.  Errors: ERR_OBJID, ERR_OBJTYPE.  Context:
 * any (ISR included). */
unsigned long ev_send(unsigned long tid, unsigned long events);
/**
 * Wait for all (EV_ALL) or any (EV_ANY) of @p events, up to @p timeout
 * ticks (0: for ever); those received are cleared and stored in
 * *@p events_r (may be NULL).  @p events 0 returns the pending events,
 * clearing nothing.  Errors: ERR_NOEVS (EV_NOWAIT), ERR_TIMEOUT,
 * ERR_SSFN (not a task).
 */
unsigned long ev_receive(unsigned long events, unsigned long flags,
			 unsigned long timeout, unsigned long *events_r);
/** @} */

/** @name Semaphores
 * Counting, waiters in FIFO or priority order.  @{ */
/** Errors: ERR_OBJTFULL, ERR_NOSCB, ERR_OBJID (NULL @p smid). */
unsigned long sm_create(const char *name, unsigned long count,
			unsigned long flags, unsigned long *smid);
/** Waiters wake with ERR_SKILLD; returns ERR_TATSDEL if there were. */
unsigned long sm_delete(unsigned long smid);
/** Errors: ERR_OBJNF, ERR_NODENO, ERR_OBJID (NULL @p smid). */
unsigned long sm_ident(const char *name, unsigned long node,
		       unsigned long *smid);
/**
 * Take a token, waiting up to @p timeout ticks (0: for ever) unless
 * SM_NOWAIT.  Errors: ERR_OBJID, ERR_OBJTYPE, ERR_NOSEM, ERR_TIMEOUT,
 * ERR_SKILLD, ERR_SSFN (would wait outside a task).
 */
unsigned long sm_p(unsigned long smid, unsigned long flags,
		   unsigned long timeout);
/** Give a token to the first waiter, or to the count.  Context: any. */
unsigned long sm_v(unsigned long smid);
/** @} */

/** @name Message queues
 * Fixed queues carry messages of four unsigned longs; variable ones
 * (q_v*) messages of up to their maxlen bytes.  A message given to a
 * waiting receiver goes straight to it.  @{ */
/**
 * @p count: with Q_LIMIT the most messages it holds, with Q_PRIBUF the
 * buffers it owns from creation.  Errors: ERR_NOQCB, ERR_NOMGB,
 * ERR_OBJTFULL, ERR_OBJID (NULL @p qid).
 */
unsigned long q_create(const char *name, unsigned long count,
		       unsigned long flags, unsigned long *qid);
/** Receivers wake with ERR_QKILLD; returns ERR_TATQDEL (there were
 * receivers) or ERR_MATQDEL (messages were lost).  ERR_VARQ. */
unsigned long q_delete(unsigned long qid);
/** A fixed queue named @p name; errors as sm_ident(). */
unsigned long q_ident(const char *name, unsigned long node, unsigned long *qid);
/** Queue a message at the tail.  Errors: ERR_OBJID, ERR_OBJTYPE,
 * ERR_QFULL, ERR_NOMGB, ERR_VARQ.  Context: any. */
unsigned long q_send(unsigned long qid, unsigned long msgbuf[4]);
/** As q_send(), at the head of the queue. */
unsigned long q_urgent(unsigned long qid, unsigned long msgbuf[4]);
/** Give a copy to every waiting receiver (none: nothing is queued);
 * their number into *@p count.  Context: any. */
unsigned long q_broadcast(unsigned long qid, unsigned long msgbuf[4],
			  unsigned long *count);
/** Errors: ERR_NOMSG (Q_NOWAIT), ERR_TIMEOUT, ERR_QKILLD, ERR_VARQ,
 * ERR_SSFN (would wait outside a task). */
unsigned long q_receive(unsigned long qid, unsigned long flags,
			unsigned long timeout, unsigned long msgbuf[4]);
/** At most @p maxnum messages of @p maxlen bytes.  Errors: as
 * q_create, ERR_MSGSIZ (@p maxlen 0). */
unsigned long q_vcreate(const char *name, unsigned long flags,
			unsigned long maxnum, unsigned long maxlen,
			unsigned long *qid);
/** As q_delete(), for a variable queue (ERR_NOTVARQ). */
unsigned long q_vdelete(unsigned long qid);
/** A variable queue named @p name; errors as sm_ident(). */
unsigned long q_vident(const char *name, unsigned long node,
		       unsigned long *qid);
/** As q_send(), @p msglen bytes.  Errors: ERR_MSGSIZ (longer than
 * maxlen), ERR_QFULL, ERR_NOTVARQ. */
unsigned long q_vsend(unsigned long qid, void *msgbuf, unsigned long msglen);
/** As q_vsend(), at the head of the queue. */
unsigned long q_vurgent(unsigned long qid, void *msgbuf, unsigned long msglen);
/** As q_broadcast(), @p msglen bytes (ERR_MSGSIZ, ERR_NOTVARQ). */
unsigned long q_vbroadcast(unsigned long qid, void *msgbuf,
			   unsigned long msglen, unsigned long *count);
/** Errors: ERR_BUFSIZ (@p buflen below the queue's maxlen), as
 * q_receive. */
unsigned long q_vreceive(unsigned long qid, unsigned long flags,
			 unsigned long timeout, void *msgbuf,
			 unsigned long buflen, unsigned long *msglen);
/** @} */

/** @name Asynchronous signals
 * A task's ASR runs in the task itself, before the task goes on with
 * its own code: on its next entry into a pSOS call and on return from
 * each wait (a waiting task stays waiting: pSOS runs the ASR when the
 * task is next dispatched).  It runs in the mode given to as_catch()
 * and ends by returning or with as_return().  @{ */
/**
 * Make @p start_addr(signals) the caller's ASR (NULL: none, as_send()
 * then fails), run in @p mode (T_NOASR: not nested).  Always 0 from a
 * task; ERR_SSFN outside one.
 */
unsigned long as_catch(void (*start_addr)(unsigned long signals),
		       unsigned long mode);
/** Add @p signals to a task's pending ones; on the caller, its ASR
 * runs before this returns.  Errors: ERR_NOASR (no ASR), ERR_OBJID,
 * ERR_OBJTYPE.  Context: any. */
unsigned long as_send(unsigned long tid, unsigned long signals);
/** Leave the running ASR: the task goes on where the ASR found it.
 * Does not return from an ASR; ERR_NOTINASR elsewhere. */
unsigned long as_return(void);
/** @} */

/** @name Memory regions
 * A region hands out segments of whole units from memory the caller
 * gives it, lowest address first; its bookkeeping lives outside that
 * memory, so all of it is allocatable.  @{ */
/**
 * Manage [@p saddr, @p saddr + @p length) in units of @p unit_size
 * bytes (a power of 2, 16 or more; at most 32767 units); the bytes
 * allocatable into *@p asiz.  Errors: ERR_RNADDR (NULL or not
 * long-aligned), ERR_UNITSIZE, ERR_TINYUNIT, ERR_TINYRN, ERR_OBJTFULL,
 * ERR_OBJID (NULL @p rnid or @p asiz).
 */
unsigned long rn_create(const char *name, void *saddr, unsigned long length,
			unsigned long unit_size, unsigned long flags,
			unsigned long *rnid, unsigned long *asiz);
/** Waiters wake with ERR_RNKILLD; returns ERR_TATRNDEL if there were.
 * Errors: ERR_SEGINUSE (segments out, no RN_DEL). */
unsigned long rn_delete(unsigned long rnid);
unsigned long rn_ident(const char *name, unsigned long *rnid);
/**
 * A segment of @p size bytes (rounded up to units) into *@p seg_addr,
 * waiting up to @p timeout ticks (0: for ever) unless RN_NOWAIT.
 * Errors: ERR_ZERO, ERR_TOOBIG, ERR_NOSEG, ERR_TIMEOUT, ERR_RNKILLD,
 * ERR_SSFN (would wait outside a task), ERR_OBJID (NULL @p seg_addr).
 */
unsigned long rn_getseg(unsigned long rnid, unsigned long size,
			unsigned long flags, unsigned long timeout,
			void **seg_addr);
/**
 * Give a segment back; the waiters it lets through are served in queue
 * order, every one that fits.  Errors: ERR_NOTINRN, ERR_SEGADDR,
 * ERR_SEGFREE.
 */
unsigned long rn_retseg(unsigned long rnid, void *seg_addr);
/** @} */

/** @name Memory partitions
 * Fixed-size buffers, never waited for.  @{ */
/**
 * Cut [@p paddr, @p paddr + @p length) into buffers of @p bsize bytes
 * (a power of 2, 4 or more); their number into *@p nbuf.  @p laddr is
 * ignored (one node).  Errors: ERR_PTADDR, ERR_BUFSIZE, ERR_TINYPT,
 * ERR_OBJTFULL, ERR_OBJID (NULL @p ptid or @p nbuf).
 */
unsigned long pt_create(const char *name, void *paddr, void *laddr,
			unsigned long length, unsigned long bsize,
			unsigned long flags, unsigned long *ptid,
			unsigned long *nbuf);
/** Errors: ERR_BUFINUSE (buffers out, no PT_DEL). */
unsigned long pt_delete(unsigned long ptid);
unsigned long pt_ident(const char *name, unsigned long node,
		       unsigned long *ptid);
/** Errors: ERR_NOBUF, ERR_OBJID (NULL @p bufaddr).  Context: any. */
unsigned long pt_getbuf(unsigned long ptid, void **bufaddr);
/** Errors: ERR_BUFADDR, ERR_BUFFREE.  Context: any. */
unsigned long pt_retbuf(unsigned long ptid, void *bufaddr);
/** @} */

/** @name Time
 * Dates are packed: date = year << 16 | month << 8 | day, time = hour
 * << 16 | minute << 8 | second, plus ticks within the second.  @{ */
/**
 * Announce one tick beyond those of the clock, which counts its own:
 * the tick count and the calendar advance by one at once, and the
 * dated waits and timers aim again (delays already running in ticks
 * keep their dates).  Always 0.  Context: any.
 */
unsigned long tm_tick(void);
/** Errors: ERR_ILLDATE, ERR_ILLTIME, ERR_ILLTICKS.  Context: any. */
unsigned long tm_set(unsigned long date, unsigned long time,
		     unsigned long ticks);
/** Errors: ERR_NOTIME, ERR_OBJID (a NULL pointer). */
unsigned long tm_get(unsigned long *date, unsigned long *time,
		     unsigned long *ticks);
/** Sleep @p ticks (0: yield to equal priorities).  ERR_SSFN outside a
 * task. */
unsigned long tm_wkafter(unsigned long ticks);
/** Sleep until a date; a tm_set() past it wakes the caller.  Errors:
 * ERR_NOTIME, ERR_ILLDATE, ERR_ILLTIME, ERR_ILLTICKS, ERR_TOOLATE. */
unsigned long tm_wkwhen(unsigned long date, unsigned long time,
			unsigned long ticks);
/** Send @p events to the caller once, after @p ticks; the timer's ID
 * into *@p tmid.  Errors: ERR_ILLTICKS (0 ticks), ERR_NOTIMERS,
 * ERR_OBJID (NULL @p tmid), ERR_SSFN (not a task). */
unsigned long tm_evafter(unsigned long ticks, unsigned long events,
			 unsigned long *tmid);
/** As tm_evafter(), every @p ticks until tm_cancel(). */
unsigned long tm_evevery(unsigned long ticks, unsigned long events,
			 unsigned long *tmid);
/** As tm_evafter, at a date (errors of tm_wkwhen). */
unsigned long tm_evwhen(unsigned long date, unsigned long time,
			unsigned long ticks, unsigned long events,
			unsigned long *tmid);
/** Disarm a timer.  Errors: ERR_BADTMID (bad, fired or cancelled). */
unsigned long tm_cancel(unsigned long tmid);
/** @} */

#ifdef __cplusplus
}
#endif

#endif
