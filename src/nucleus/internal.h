/* SPDX-License-Identifier: MIT */
/*
 * Nucleus internals shared by src/nucleus/ files.  All nucleus state
 * hangs off struct nk_instance; there is no mutable file-scope state.
 */
#ifndef FUSION_NUCLEUS_INTERNAL_H
#define FUSION_NUCLEUS_INTERNAL_H

#include <fusion/fusion.h>
#include <fusion/backend.h>
#include <fusion/personality.h>
#include <fusion/journal.h>

#include "../session/nucleus.h"

#include <stddef.h>
#include <stdio.h>

#define NK_INSTANCE_MAGIC 0x4e4b494eu /* NKIN */
#define NK_THREAD_MAGIC 0x4e4b5448u   /* NKTH */
#define NK_SYNCH_MAGIC 0x4e4b5359u    /* NKSY */
#define NK_TIMER_MAGIC 0x4e4b544du    /* NKTM */
#define NK_SEM_MAGIC 0x4e4b5345u      /* NKSE */
#define NK_MUTEX_MAGIC 0x4e4b4d58u    /* NKMX */
#define NK_TBASE_MAGIC 0x4e4b5442u    /* NKTB */
#define NK_PIPE_MAGIC 0x4e4b5050u     /* NKPP */
#define NK_LOCAL_MAGIC 0x4e4b4c43u    /* NKLC */

/* Own invariants (lua_assert): checked in debug builds only. */
#ifdef NK_DEBUG
void nk_assert_fail(const char *expr, const char *file, int line)
    __attribute__((noreturn));
#define nk_assert(e) ((e) ? (void)0 : nk_assert_fail(#e, __FILE__, __LINE__))
#else
#define nk_assert(e) ((void)0)
#endif

/*
 * Callers' contracts (api_check), asserted in debug builds only, one
 * macro per kind, at the top of the entry points whose header states
 * it: the nucleus lock held (the _locked and synch services), or not
 * taken by the caller (calls that would hang or tear the instance down
 * under it; interrupt context holds it for the handler, and is refused
 * by those calls' own errors or by nk_check_not_interrupt).
 * Each names the function and aborts, so a misuse stops at the call
 * rather than corrupting state or hanging later.  @nk may be NULL or
 * junk (a bad object): the call then fails with -EINVAL, unchecked.
 * Wrong calling contexts whose header documents an error (-EPERM from
 * interrupt context or a plain thread) are not asserted: that error is
 * the contract, relied on by skins and tests.
 */
#ifdef NK_DEBUG
void nk_check_fail(const char *fn, const char *what) __attribute__((noreturn));
#define nk_check_locked(nk)                                                    \
	(!nk_instance_valid(nk) || (nk)->be->lock_held((nk)->be_priv)          \
	     ? (void)0                                                         \
	     : nk_check_fail(__func__, "called without the nucleus lock"))
#define nk_check_unlocked(nk)                                                  \
	(!nk_instance_valid(nk) || !(nk)->be->lock_held((nk)->be_priv) ||      \
		 nk_in_interrupt(nk)                                           \
	     ? (void)0                                                         \
	     : nk_check_fail(__func__, "called with the nucleus lock held"))
#define nk_check_not_interrupt(nk)                                             \
	(!nk_in_interrupt(nk)                                                  \
	     ? (void)0                                                         \
	     : nk_check_fail(__func__, "called from interrupt context"))
#else
#define nk_check_locked(nk) ((void)0)
#define nk_check_unlocked(nk) ((void)0)
#define nk_check_not_interrupt(nk) ((void)0)
#endif

/* Bits of thread->state that keep a thread from running. */
#define NK_BLOCK_BITS                                                          \
	(NK_THREAD_DORMANT | NK_THREAD_PENDING | NK_THREAD_DELAYED |           \
	 NK_THREAD_SUSPENDED | NK_THREAD_ZOMBIE | NK_THREAD_RELAXED)
/* Internal state: the idle placeholder of an RT CPU. */
#define NK_THREAD_ROOT 0x1000

/* thread->info: why the last wait ended, plus pending requests. */
#define NK_INFO_TIMEOUT 0x01
#define NK_INFO_DELETED 0x02
#define NK_INFO_UNBLOCKED 0x04
#define NK_INFO_OWNER_DEAD 0x08
#define NK_INFO_WAKE_MASK 0x0f
#define NK_INFO_CANCEL 0x10 /* deletion requested while current elsewhere */
#define NK_INFO_YIELD 0x20  /* go to the tail of the level at next resched */
/* Given an owned synch by its previous owner, not yet back from the wait:
 * a deletion in between fails the wait (NK_WAKE_DELETED). */
#define NK_INFO_HANDED 0x40
/* In a wait nothing breaks but its end or the object's deletion: a
 * relock (nk_synch_reacquire), which must come back owning. */
#define NK_INFO_NOBREAK 0x80
/* Deleted while it waited: the backend ends its OS thread (thread_kill),
 * for a thread of another process only once the deleter's section is
 * whole (see nk_member_handle_gone). */
#define NK_INFO_KILLED 0x100

struct nk_sched {
	struct nk_instance *nk;
	int cpu;
	/* From here to @levels: what a decision changes, noted at once for
	 * a shared instance's journal (nk_sched_note). */
	struct nk_thread *curr;
	struct nk_thread *root;
	bool resched;
	/* 256 levels: one bit per non-empty level, plus a summary word. */
	uint32_t level_map[NK_NR_PRIO / 32];
	uint32_t level_summary;
	nk_time_t switched_in; /* when curr became current */
	nk_time_t idle_time;   /* spent with root (Linux) current */
	nk_time_t rr_start;    /* when curr's current quantum began */
	int irq_depth;	       /* > 0: pipeline handlers run on curr's stack */
	struct nk_list levels[NK_NR_PRIO];
	/* Armed timers by the member process that runs them (a private
	 * instance's are all member 0's). */
	struct nk_rbtree timers[NK_MAX_MEMBERS];
	/* The deadline last handed to the backend for each member's timers,
	 * noted one by one. */
	nk_time_t programmed[NK_MAX_MEMBERS];
	struct nk_timer rr_timer;
};

struct nk_thread {
	unsigned int magic;
	struct nk_instance *nk;
	struct nk_sched *sched;
	int member; /* the process it runs in: its creator's (sessions) */
	pid_t pid;  /* that process's (remote.c) */
	/* A move asked while the thread was current: it leaves its CPU at
	 * its next reschedule (nk_thread_set_cpu). */
	struct nk_sched *migrate_to;
	char name[NK_NAME_MAX];
	unsigned int trace_id; /* nk_trace_id() */
	unsigned int state;
	unsigned int info;
	int base_prio;
	int prio; /* effective */
	enum nk_policy policy;
	nk_time_t quantum;
	nk_time_t rr_budget;
	int suspend_count;
	int lock_count;
	unsigned int flags;
	unsigned int mode; /* NK_MODE_* */
	struct nk_list ready_link;
	struct nk_list wait_link;
	struct nk_synch *wchan;
	void *wait_ctx;		/* nk_synch_sleep_ctx(): the waiter's request */
	struct nk_list owned;	/* synchs owned that carry PI or PP */
	struct nk_timer rtimer; /* sleeps and wait timeouts */
	nk_time_t period;
	nk_time_t next_release;
	/* The release nk_thread_wait_period() waits for, until it returns
	 * (what counts its overruns); 0 otherwise. */
	nk_time_t release_awaited;
	struct nk_synch joiners;
	/* The thread joining this one, and the one this one joins: a
	 * deleted joiner releases its claim. */
	struct nk_thread *joiner;
	struct nk_thread *joining;
	nk_thread_fn entry;
	void *arg;
	size_t stack_size;
	void *shadow;
	bool adopted;
	int errno_slot;
	/* Personalities: extension per instance slot, slots in order of
	 * attachment (personality.c). */
	void *pers_ext[NK_MAX_PERSONALITIES];
	bool pers_attached[NK_MAX_PERSONALITIES];
	unsigned char pers_order[NK_MAX_PERSONALITIES];
	int nr_attached;
	struct nk_list instance_link;
	struct nk_thread_stats stats;
};

/* A process's binding of a slot: its own hooks (NULL: this process has
 * not registered that personality) and the slot's state. */
struct nk_personality_slot {
	const struct nk_personality *pers;
	void *state;
};

/* A personality as the core knows it: by name, so that every member
 * of a shared instance agrees on its slot (personality.c). */
struct nk_core_personality {
	char name[NK_NAME_MAX];
	void *state;
};

/*
 * What the processes of a session will share of an instance
 * (docs/architecture.md, "Sessions"): its threads, the numbers it hands
 * out and its registry of names.  A private instance holds its own core;
 * in a session, the core lives in the segment and each member's
 * instance (its view: backend, pipeline, trace sink) points to it.
 */
struct nk_core {
	struct nk_list threads; /* every live or zombie thread */
	/* Dead non-joinable threads, each freed by its own process. */
	struct nk_list reapable;
	/* Blocks of nk_alloc_local() in a session, each its member's. */
	struct nk_list locals;
	unsigned int nr_threads;
	/* Bumped whenever threads gains or loses one: a walk that lets the
	 * lock go between steps knows its place still holds (status.c). */
	unsigned long threads_gen;
	unsigned long thread_serial;
	unsigned int trace_serial; /* the last nk_trace_id() */
	struct nk_registry registry;
	/* Its nucleus lock's undo journal, in a session (the backend's,
	 * nk_journal_make). */
	struct nk_journal *journal;
	/* Appended under the lock; a thread's extensions are by slot. */
	struct nk_core_personality personalities[NK_MAX_PERSONALITIES];
	int nr_personalities;
	/* Set by the process that made the instance, for those that join
	 * it in a session (instance.c). */
	int nr_cpus;
	struct nk_sched *scheds;
	void *be_state; /* nk_backend_state() */
};

struct nk_instance {
	unsigned int magic;
	const struct nk_backend_ops *be;
	void *be_priv;
	_Atomic bool be_ready; /* be_priv's lock may be taken (init to fini) */
	int nr_cpus;
	struct nk_sched *scheds;
	struct nk_core *core;
	/* This process's number among the members sharing the instance: its
	 * session slot, 0 for a private instance (timer.c), and its pid. */
	int member;
	pid_t pid;
	struct nk_thread *creator;
	nk_trace_fn trace;
	void *trace_ctx;
	struct trace_recorder *recorder; /* FUSION_TRACE's, or NULL */
	nk_time_t wall_offset;
	size_t default_stack_size;
	struct ipipe *pipeline;
	/* pipe.c: the pipes not freed yet, which their flush finds by its
	 * virtual IRQ among those not deleted, and deleted ones waiting for
	 * their last user (a NULL-terminated list: the zeroed instance
	 * holds none). */
	struct nk_pipe *pipes;
	/* This process's bindings of the core's slots, bound under the
	 * lock and read without; nr_personalities is one past the
	 * highest bound. */
	struct nk_personality_slot personalities[NK_MAX_PERSONALITIES];
	int nr_personalities;
	struct nk_core own_core; /* a private instance's */
	/* In a session (memory.c): the heap and core in the segment, and
	 * where the view and the block are; NULL for a private instance. */
	struct nk_arena *arena;
	struct session_place place;
};

/* The head of a session's nucleus block (memory.c). */
struct nk_arena {
	/* First: the block's word that says it is open (session_place). */
	_Atomic uint32_t open;
	/* Process-shared and robust: every member allocates here. */
	pthread_mutex_t lock;
	struct nk_heap heap;
	struct nk_core core;
};

/*
 * memory.c.  A zeroed instance (its core set), private or in this
 * process's session, whose core is another member's with @join if one
 * placed it there (nk->place.joined): 0, the -errno of session_place(),
 * -EAGAIN (that instance is not whole yet), -ENOMEM.  Give
 * it back, last; with @keep, a placed instance's memory stays held and
 * mapped while the process is in the session (a thread the backend
 * could not end may still touch it).
 */
int nk_place(bool session, bool join, struct nk_instance **out);
void nk_unplace(struct nk_instance *nk, bool keep);
/* The instance is whole: members may join it. */
void nk_placed_ready(struct nk_instance *nk);
/* Is this process the last to hold @nk (always, for a private one)?
 * Then nobody joins it any more. */
bool nk_placed_last(struct nk_instance *nk);
/*
 * synch.c.  Lock held: the highest priority @thread's ownerships justify
 * (-1: none), and which object justifies it in *@cause (traced).
 */
int nk_synch_boost_of(struct nk_thread *thread, const struct nk_synch **cause);

/* registry.c: nk_registry_init, with the memory of @nk (NULL: malloc). */
int nk_registry_init_in(struct nk_registry *reg, uint32_t capacity,
			struct nk_instance *nk);
/* Do its counts and hash chains add up?  0, -EUCLEAN or -EINVAL. */
int nk_registry_check(struct nk_registry *reg);

/* Where a walk of every skin's objects stands: all zero at the start. */
struct nk_objects_walk {
	int pers;		     /* the personality being listed */
	struct nk_objects_cursor in; /* its own cursor */
	uint32_t budget; /* registry slots the walk may still look at */
};

/*
 * personality.c.  Lock held: @fn for each object of the skins that
 * describe their objects, with the skin's name, in order of
 * registration, from @w on until @fn returns false or @w's budget is
 * spent (false back, and @w where to go on from, even after the lock was
 * let go).  True: the walk is done.
 */
bool nk_objects_walk(struct nk_instance *nk, struct nk_objects_walk *w,
		     bool (*fn)(void *ctx, const char *skin,
				const struct nk_object_info *info),
		     void *ctx);

/* Checks of caller-supplied objects (api_check): never dereference junk. */
static inline bool nk_instance_valid(const struct nk_instance *nk)
{
	return nk && nk->magic == NK_INSTANCE_MAGIC;
}

static inline bool nk_thread_valid(const struct nk_thread *t)
{
	return t && t->magic == NK_THREAD_MAGIC;
}

/* A CPU's root thread (Linux): fixed at creation, so no lock needed. */
static inline bool nk_thread_is_root(const struct nk_thread *t)
{
	return t == t->sched->root;
}

static inline void nk_lock_acquire(struct nk_instance *nk)
{
	nk->be->lock(nk->be_priv);
}

static inline void nk_lock_release(struct nk_instance *nk)
{
	nk->be->unlock(nk->be_priv);
}

/* Journal notes (fusion/journal.h) of what the nucleus changes most. */
static inline void nk_sched_note(struct nk_sched *sched)
{
	nk_journal_save(&sched->curr, offsetof(struct nk_sched, levels) -
					  offsetof(struct nk_sched, curr));
}

static inline void nk_core_note(struct nk_core *core)
{
	nk_journal_save(&core->nr_threads,
			offsetof(struct nk_core, registry) -
			    offsetof(struct nk_core, nr_threads));
}

static inline nk_time_t nk_clock_now(struct nk_instance *nk)
{
	return nk->be->now(nk->be_priv);
}

/*
 * The calling nucleus thread of @nk; NULL in interrupt context (the
 * backend's self() answers NULL there) and in foreign threads.
 */
static inline struct nk_thread *nk_current(struct nk_instance *nk)
{
	struct nk_thread *self;

	self = nk->be->self(nk->be_priv);
	/* A pipeline handler run on a thread's stack is interrupt context. */
	return self && self->nk == nk && !self->sched->irq_depth ? self : NULL;
}

/*
 * Convert a timeout to an absolute date, within [0, NK_INFINITE]
 * (clock.h): from there on, date arithmetic cannot overflow.  A wait
 * without a timeout reads no clock.
 */
static inline nk_time_t nk_abs_timeout(struct nk_instance *nk,
				       nk_time_t timeout, enum nk_tmode mode)
{
	if (timeout == NK_INFINITE)
		return NK_INFINITE;
	if (mode != NK_ABSOLUTE)
		timeout = nk_date_add(nk_clock_now(nk), timeout);
	return timeout < 0 ? 0 : timeout;
}

/*
 * A new number for a thread, synch or timer of @nk, by which its trace
 * records name it (nk_trace_record.thread_id): a recorder copies each
 * name once per number, not once per event.  Atomic: objects are set
 * up without the lock.  Any context.
 */
static inline unsigned int nk_trace_id(struct nk_instance *nk)
{
	unsigned int id;

	/* 0 means "no number": skipped when the counter wraps. */
	do
		id = __atomic_add_fetch(&nk->core->trace_serial, 1,
					__ATOMIC_RELAXED);
	while (id == 0);
	return id;
}

/*
 * Tracepoint: one predictable branch when no sink is installed.
 * @thread is a struct nk_thread; @object a name (NULL: none) and
 * @object_id its number (0: a constant text).  nk_trace_at() dates the
 * event @date, a clock reading the caller has already made (a reading
 * costs more than the rest of a record on live); nk_trace() reads it.
 */
void nk_trace_emit(struct nk_instance *nk, nk_time_t date, int cpu,
		   enum nk_trace_event ev, const struct nk_thread *thread,
		   const char *object, unsigned int object_id, long arg);
#define NK_TRACE_NOW ((nk_time_t)-1)
#define nk_trace_at(nk, date, cpu, ev, thread, object, object_id, arg)         \
	do {                                                                   \
		if (nk_unlikely((nk)->trace != NULL))                          \
			nk_trace_emit(nk, date, cpu, ev, thread, object,       \
				      object_id, arg);                         \
	} while (0)
#define nk_trace(nk, cpu, ev, thread, object, object_id, arg)                  \
	nk_trace_at(nk, NK_TRACE_NOW, cpu, ev, thread, object, object_id, arg)
/* The backend handler watchdog (backend.h). */
void nk_trace_handle_watchdog(struct nk_instance *nk, int cpu, const char *name,
			      nk_time_t date);

/* sched.c */
int nk_sched_init(struct nk_instance *nk, struct nk_sched *sched, int cpu);
void nk_sched_enqueue(struct nk_thread *thread, bool at_head);
void nk_sched_dequeue(struct nk_thread *thread);
void nk_sched_mark(struct nk_sched *sched);
void nk_sched_account(struct nk_sched *sched, nk_time_t now);
void nk_sched_handle_resched(struct nk_instance *nk, int cpu);
void nk_sched_handle_preempt(struct nk_instance *nk);
void nk_sched_rr_arm(struct nk_sched *sched);
void nk_sched_rr_expired(struct nk_timer *timer);
void nk_sched_set_policy(struct nk_thread *thread, enum nk_policy policy,
			 nk_time_t quantum);

/* thread.c */
void nk_thread_block(struct nk_thread *thread, unsigned int bits,
		     nk_time_t date, struct nk_synch *wchan);
void nk_thread_release(struct nk_thread *thread, unsigned int bits);
void nk_thread_timeout(struct nk_timer *timer);
/*
 * Lock held: the caller, current, leaves its instance for good while
 * other threads run on: off its CPU as a relaxing thread (the next one
 * there runs), then unlinked, its skins told, freed, its OS thread
 * unbound.
 */
void nk_thread_leave(struct nk_thread *self);
/* Lock held: the caller, just adopted, made ready as a started thread
 * is, waits for its CPU. */
void nk_thread_wait_cpu(struct nk_thread *self);
int nk_thread_wait_result(struct nk_thread *thread);
/* @cause: the object whose ownership boosts @thread (traced), or NULL. */
void nk_thread_set_effective(struct nk_thread *thread, int prio,
			     const struct nk_synch *cause);
void nk_thread_entry(struct nk_thread *thread);
void nk_thread_check_cancel(struct nk_thread *thread);
void nk_thread_handle_relax(struct nk_instance *nk, int reason, long nr);
void nk_thread_handle_harden(struct nk_instance *nk);
void nk_thread_handle_gone(struct nk_instance *nk);
/* member.c: the backend's member_gone handler. */
void nk_member_handle_gone(struct nk_instance *nk, int member);
/*
 * memory.c: a block of nk_alloc_local() in a session, on the core's
 * list of them, ahead of what the caller got.
 */
struct nk_local {
	struct nk_list link;
	unsigned int magic;
	int member;
	_Alignas(max_align_t) unsigned char data[];
};
/* Free dead member @member's blocks of nk_alloc_local().  Lock held. */
void nk_local_member_gone(struct nk_instance *nk, int member);
void nk_thread_handle_interrupted(struct nk_instance *nk,
				  struct nk_thread *thread);
int nk_thread_adopt(struct nk_instance *nk, const char *name, int prio, int cpu,
		    struct nk_thread **out);
/*
 * Undo everything that ties @thread to other objects: its wait, its
 * timer, its place in the ready queue, its join, the mutexes it owns
 * (passed to their next waiters).  Lock held.
 */
void nk_thread_unlink(struct nk_thread *thread);
void nk_thread_free(struct nk_thread *thread);
void nk_thread_reap_all(struct nk_instance *nk);
const char *nk_thread_wait_name(struct nk_thread *thread);
/* What a thread in @state waits for, @wchan_name its synch's name. */
const char *nk_thread_wait_word(unsigned int state, const char *wchan_name);

/* status.c: @t's status at date @now.  Lock held. */
struct nk_status_thread;
void nk_thread_status(struct nk_thread *t, nk_time_t now,
		      struct nk_status_thread *out);
/* What @t's status says of its own fields, @core its instance's, the
 * rest told: whether it is current, its CPU, what it waits for.  The
 * thread's id and the time since its switch in are the caller's. */
void nk_thread_status_fields(const struct nk_thread *t,
			     const struct nk_core *core, bool current, int cpu,
			     const char *waits, struct nk_status_thread *out);
/* inspect.c: handlers->inspect, ->object_level and ->overrun_date. */
void nk_inspect_handler(struct nk_instance *nk, int what,
			void (*emit)(void *ctx, const char *text), void *ctx);
int nk_inspect_level(struct nk_instance *nk, const char *name, long *count,
		     long *capacity);
nk_time_t nk_inspect_overrun(struct nk_instance *nk, const char *thread);
/* personality.c: hooks of every personality @thread carries.  Lock held. */
void nk_personality_exit(struct nk_thread *thread);
void nk_personality_finalize(struct nk_thread *thread);
/*
 * This process's part of the personalities ends: with @last, the
 * instance's end (fini hooks, then the states go); else the process
 * leaves an instance others keep (leave hooks).  Lock held.
 */
void nk_personality_end(struct nk_instance *nk, bool last);
/* Member @member died: the member_gone hook of every personality this
 * process binds.  Lock held. */
void nk_personality_member_gone(struct nk_instance *nk, int member);

/*
 * pipe.c: free the pipes left at instance destruction, after the
 * personalities' fini (threads ended: their readers never return); one
 * root context still sends on is freed by it when it returns.  Lock
 * held.
 */
void nk_pipe_fini_all(struct nk_instance *nk);

/* synch.c */
void nk_synch_forget_waiter(struct nk_thread *thread);
void nk_synch_requeue_waiter(struct nk_thread *thread);
void nk_synch_release_all(struct nk_thread *thread);
void nk_synch_update_chain(struct nk_thread *thread);
/*
 * Acquire @synch as nk_synch_acquire() with no timeout, waiting however
 * long it takes: neither an owner cycle (-EDEADLK there) nor an unblock
 * ends the wait, which priority inheritance follows as any other.  A
 * condition wait's relock.  Errors: -EINVAL, -EPERM, -EDEADLK (the
 * caller owns it), -EIDRM (destroyed).  Lock held.
 */
int nk_synch_reacquire(struct nk_synch *synch);

/* clock.c */
/*
 * The first date of the grid @point + k * @period (k > 0) after @now,
 * saturated at NK_INFINITE.  @point <= @now, @period > 0.
 */
nk_time_t nk_grid_next(nk_time_t point, nk_time_t period, nk_time_t now);

/* timer.c */
/*
 * The nucleus's own timers, named by kind rather than by handler: in a
 * session each member's copy of the code is at its own address, and
 * whichever member arms such a timer runs it.
 */
enum nk_timer_kind {
	NK_TIMER_USER,	 /* its handler, its owner's code */
	NK_TIMER_THREAD, /* a thread's sleep or wait timeout */
	NK_TIMER_RR,	 /* a CPU's round-robin quantum */
};
void nk_timer_init_own(struct nk_instance *nk, struct nk_timer *timer, int cpu,
		       enum nk_timer_kind kind, void *cookie);
/* Lock held, interrupt context: run @cpu's timers due at @now (a date
 * just read), then reschedule. */
void nk_timer_handler(struct nk_instance *nk, int cpu, nk_time_t now);
/* Lock held: tell the backend the earliest date of @member's timers on
 * @sched, if it changed. */
void nk_timer_reprogram(struct nk_sched *sched, int member);
void nk_timer_migrate(struct nk_timer *timer, int cpu);
/* Lock held: the timers of dead member @member on @sched: the nucleus's
 * own become this process's to run, the others are disarmed. */
void nk_timer_member_gone(struct nk_sched *sched, int member);

/* irq.c: what the nucleus registers with its pipeline, and the backend
 * handlers that lead there. */
struct ipipe_host;
extern const struct ipipe_host nk_ipipe_host;
void nk_irq_handle_timer(struct nk_instance *nk, int cpu, nk_time_t now);
void nk_irq_handle(struct nk_instance *nk, int cpu, unsigned int irq,
		   nk_time_t now);
void nk_irq_handle_sync(struct nk_instance *nk, int cpu);
void nk_irq_handle_root(struct nk_instance *nk);

#endif
