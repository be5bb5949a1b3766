/* SPDX-License-Identifier: MIT */
/** @file
 * Personalities: how a skin plugs into the nucleus.
 *
 * A skin describes itself once, in a constant struct nk_personality, and
 * registers it with each instance it serves.  The nucleus then keeps,
 * for that skin, one block of per-instance state (the skin's tables and
 * counters: no file-scope globals in a skin) and, for every thread that
 * uses the skin, one block of per-thread extension data (a TCB).
 *
 * A thread may carry several personalities at once: a task created by
 * one skin that calls another skin's service is attached to that skin
 * too, with the defaults the skin chooses in its attach hook.  The
 * nucleus calls each attached personality's exit hook when the thread
 * ends, whatever ends it (return from its entry, an exit call, deletion
 * by another thread, instance destruction, the OS thread of a shadow
 * returning), so a skin never keeps its own list of threads to find the
 * dead ones.
 *
 * Hooks run with the nucleus lock held and must not block, switch
 * (nk_sched_run) or take other locks that a nucleus caller may hold.
 */
#ifndef FUSION_PERSONALITY_H
#define FUSION_PERSONALITY_H

#include <fusion/types.h>

#include <stddef.h>

/** Personalities one instance can hold. */
#define NK_MAX_PERSONALITIES 8

struct nk_instance;
struct nk_thread;
struct nk_synch;

/** One object, as a personality describes it to the debugger. */
struct nk_object_info {
	const char *cls;	       /**< its class: "sem" */
	const char *name;	       /**< "" when anonymous */
	long count;		       /**< value, depth, messages; -1: none */
	long capacity;		       /**< the most it holds; 0: unbounded */
	const struct nk_thread *owner; /**< NULL: not owned */
	/** Its queue of waiters (takers, receivers), NULL: none. */
	const struct nk_synch *waiters;
	/** A second queue (senders waiting for room), NULL: none. */
	const struct nk_synch *senders;
};

/** Where a walk of a personality's objects stands between two calls of
 * its objects hook: the personality's own, all zero at the start. */
struct nk_objects_cursor {
	uint32_t cls;  /**< the class being listed */
	uint32_t slot; /**< the place in it to go on from */
};

/** A skin's description of itself, one constant per skin. */
struct nk_personality {
	const char *name; /**< non-empty; one registration per name */
	/** Bytes of per-instance state and per-thread extension, zeroed
	 * when allocated; 0 allocates nothing (the pointer is NULL). @{ */
	size_t state_size;
	size_t thread_size;
	/** @} */
	/**
	 * Set up @p state once, at registration.  An error fails the
	 * registration (the state is freed, fini is not called).
	 */
	int (*init)(struct nk_instance *nk, void *state);
	/**
	 * @p thread starts using the skin; @p ext is its zeroed extension.
	 * An error refuses the attachment (the extension is freed, no
	 * other hook runs for it).  Also run for a thread attached while
	 * dormant or while it is the caller.
	 */
	int (*attach)(struct nk_thread *thread, void *ext);
	/**
	 * @p thread ends.  Runs once per attached thread, in the reverse
	 * order of attachment among its personalities, after the nucleus
	 * released what the thread held (its waits, timers and mutexes)
	 * and before its joiners wake.  The extension stays readable
	 * until finalize.
	 */
	void (*exit)(struct nk_thread *thread, void *ext);
	/** @p thread's storage is being freed (reaped, joined or destroyed). */
	void (*finalize)(struct nk_thread *thread, void *ext);
	/**
	 * The block of a thread's own state that @p ext points to, when
	 * the skin keeps it apart (a TCB that t_restart() hands to a new
	 * thread): in a session, noted in the lock's journal with @p ext
	 * each time the thread takes the lock (fusion/journal.h).  NULL:
	 * the extension holds it all.
	 */
	void *(*tcb)(void *ext);
	/** The instance is destroyed, after every thread was finalized. */
	void (*fini)(struct nk_instance *nk, void *state);
	/**
	 * This process leaves an instance that other processes of its
	 * session keep (its threads have ended): let go of what only this
	 * process can use.  NULL: nothing.
	 */
	void (*leave)(struct nk_instance *nk, void *state);
	/**
	 * Process @p member of the session died (its threads are gone):
	 * forget what only it could use, without calling its code.  NULL:
	 * nothing.
	 */
	void (*member_gone)(struct nk_instance *nk, void *state, int member);
	/**
	 * The objects of the personality, for the debugger (fusion sim)
	 * and the status of a running program (fusion ps): call @p emit
	 * once per object from @p at on, in an order that replays the
	 * same, until @p emit returns false or the hook has looked at
	 * *@p budget registry slots (each taken off it); then leave in
	 * *@p at where the next call goes on, and return false.  True:
	 * every object was emitted.  Lock held; between two calls it was
	 * let go, and objects may have come and gone: a cursor must stay
	 * safe to go on from (a place, not a pointer).  The objects are
	 * registry entries, so that a walk knows from the registry's count
	 * of changes that its set changed.  NULL: nothing to show.
	 */
	bool (*objects)(struct nk_instance *nk, void *state,
			struct nk_objects_cursor *at, uint32_t *budget,
			bool (*emit)(void *ctx,
				     const struct nk_object_info *info),
			void *ctx);
};

/**
 * Register @p pers with @p nk, or find it registered, and return its
 * per-instance state in *@p state (may be NULL).  Idempotent: a skin may
 * call it on every entry.  Personalities are known by name: in an
 * instance several processes share (a session), the first process to
 * register a name makes its state (@p pers->init runs once), and every
 * other binds its own @p pers, its copy of the skin, to that state.
 * Errors: -EINVAL (bad instance, NULL or unnamed @p pers, a name of
 * NK_NAME_MAX characters or more, another personality of this process
 * registered under the same name), -ENOSPC (the instance
 * holds NK_MAX_PERSONALITIES already), -ENOMEM, those of @p pers->init.
 * Context: any; calls @p pers->init with the lock held.
 */
nk_export int nk_personality_register(struct nk_instance *nk,
				      const struct nk_personality *pers,
				      void **state);

/**
 * The state of @p pers in @p nk, NULL if it is not registered there (or
 * for bad arguments).  Context: any.
 */
nk_export void *nk_personality_state(struct nk_instance *nk,
				     const struct nk_personality *pers);

/**
 * This process's personality whose state is @p state in @p nk, NULL if
 * none: the way back from a state shared by several processes, each
 * binding its own copy of the skin.  Context: any.
 */
nk_export const struct nk_personality *nk_personality_of(struct nk_instance *nk,
							 const void *state);

/**
 * Attach @p thread to @p pers (registered in its instance) if it is not
 * yet, and return its extension in *@p ext (may be NULL).
 * Errors: -EINVAL (bad thread, NULL @p pers, @p pers not registered),
 * -ESRCH (terminated), -ENOMEM, those of @p pers->attach.  Context: any.
 */
nk_export int nk_thread_attach(struct nk_thread *thread,
			       const struct nk_personality *pers, void **ext);

/**
 * @p thread's extension for @p pers, NULL when it is not attached (or for
 * bad arguments).  Stays valid until the thread is freed.  Context:
 * any; the caller keeps @p thread from being freed meanwhile (lock held,
 * or it is the caller).
 */
nk_export void *nk_thread_personality(struct nk_thread *thread,
				      const struct nk_personality *pers);

#endif
