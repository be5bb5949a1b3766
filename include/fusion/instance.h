/* SPDX-License-Identifier: MIT */
/** @file
 * A nucleus instance: one RTOS, with its schedulers, threads, timers and
 * registry, running on one backend.  Instances share nothing, so a
 * process (a test) may run several.
 *
 * Calling contexts named in this API:
 *   thread    - a nucleus thread (its own code, not a timer handler)
 *   interrupt - a timer or interrupt handler run by the nucleus
 *   any       - either, or a plain OS thread of the process
 */
#ifndef FUSION_INSTANCE_H
#define FUSION_INSTANCE_H

#include <fusion/types.h>
#include <fusion/registry.h>
#include <fusion/trace.h>

#define NK_MAX_CPUS 64 /**< RT CPUs per instance, at most */
/** Processes sharing an instance (a session's members), at most. */
#define NK_MAX_MEMBERS 64

/** What nk_instance_create() is given. */
struct nk_instance_attr {
	/** "sim" ...; NULL: $FUSION_BACKEND, else the default backend. */
	const char *backend;
	/** RT CPUs (schedulers); 0 means 1. */
	int nr_cpus;
	/** The caller becomes a nucleus thread: its name (NULL: "main"),
	 * priority and RT CPU. */
	const char *main_name;
	int main_priority; /**< its nucleus priority */
	int main_cpu;	   /**< its RT CPU */
	/** Registry entries (0: 4096). */
	uint32_t registry_capacity;
	/** Stack of threads created with stack_size 0 (0: 256 KiB). */
	size_t default_stack_size;
	/** Live only: place the instance in the session the process joined
	 * (fusion_session_join()): its core and every object in the
	 * session's segment, its view at the session's fixed address. */
	bool session;
	/** With session: join the instance another member placed there, if
	 * one did: one scheduler per RT CPU for the threads of every member,
	 * on the instance's CPUs (nr_cpus must be 0 or their count), and
	 * its personalities and named objects. */
	bool join;
};

/**
 * Create an instance and adopt the calling OS thread as its first
 * thread (named attr->main_name), current on its CPU.  @p attr may be NULL
 * for the defaults.
 * Errors: -EINVAL (NULL out, nr_cpus or main_cpu out of range, bad
 * priority), -ENODEV (unknown backend), -EBUSY (the caller is already a
 * nucleus thread), -ENOMEM.  With attr->session: -ENOTSUP (not the live
 * backend), -ENOENT (in no session), -EBUSY (the session holds an
 * instance already, this process's, or another member's without
 * attr->join), -EAGAIN (the instance to join is still being made),
 * -EADDRINUSE (the view's fixed range is taken), -ENOSPC (no room in
 * the segment), -ENOTRECOVERABLE.  A joiner's main thread waits for its
 * CPU as any thread made ready there.
 * Context: a plain OS thread.
 */
nk_export int nk_instance_create(const struct nk_instance_attr *attr,
				 struct nk_instance **out);

/**
 * End every other thread of @p nk (wherever it waits), release all its
 * resources and unbind the caller.  An instance placed in a session
 * ends for this process only: its threads, its personalities and its
 * backend; the other members' threads run on, and the shared part goes
 * with the last member's.  Context: the thread that created (or joined)
 * the instance, lock not held.  Errors: -EINVAL (bad instance), -EPERM
 * (other caller).
 */
nk_export int nk_instance_destroy(struct nk_instance *nk);

/** Name of the backend @p nk runs on ("sim"), or NULL for a bad instance. */
nk_export const char *nk_instance_backend(struct nk_instance *nk);
/** Number of RT CPUs, or -EINVAL. */
nk_export int nk_instance_nr_cpus(struct nk_instance *nk);
/**
 * The Linux CPU that RT CPU @p cpu of @p nk runs on, as the process
 * that made the instance chose it (a session's other members follow).
 * Errors: -EINVAL (bad instance or CPU), -ENOSYS (a backend of virtual
 * CPUs: sim).  Context: any.
 */
nk_export int nk_instance_host_cpu(struct nk_instance *nk, int cpu);
/** The instance's registry (for skins), or NULL for a bad instance. */
nk_export struct nk_registry *nk_instance_registry(struct nk_instance *nk);

/**
 * Install @p fn as the trace sink (NULL removes it).  Replaces the
 * backend's default sink.  Errors: -EINVAL.  Context: any.
 */
nk_export int nk_instance_set_trace(struct nk_instance *nk, nk_trace_fn fn,
				    void *ctx);

/**
 * Write a description of every thread (state, priority, what it waits
 * for and who owns it), one line per @p emit call.  Context: any.
 * Errors: -EINVAL (bad instance, NULL emit).
 */
nk_export int nk_instance_describe(struct nk_instance *nk,
				   void (*emit)(void *ctx, const char *line),
				   void *ctx);

/**
 * Does the caller run in interrupt context of @p nk: a timer handler
 * (an Alchemy alarm's included) or a head-side pipeline handler, on
 * whatever OS thread the backend runs it?  False in a nucleus thread's
 * own code, in root-side handlers and in plain OS threads; false on a
 * bad instance (no error).  For skins whose API refuses some calls from
 * handlers.  Context: any.
 */
nk_export bool nk_in_interrupt(struct nk_instance *nk);

/**
 * Is @p nk placed in a session (nk_instance_attr.session)?  Memory from
 * nk_alloc() is then shared with the session's other processes, and a
 * futex in it must use the shared operations.  Context: any.
 */
nk_export bool nk_instance_shared(struct nk_instance *nk);

/**
 * Whether every process of @p nk's session reaches the @p len bytes at
 * @p mem at that address: memory of the session's segment (named
 * shared memory, fusion_session_shm(), or from nk_alloc()).  Always
 * true for a private instance, which one process uses; false for a bad
 * instance.  For skins whose objects work in memory the program gives
 * them (a VxWorks partition's pool).  Context: any.
 */
nk_export bool nk_instance_memory_shared(struct nk_instance *nk,
					 const void *mem, size_t len);

/**
 * This process's number among those sharing @p nk: its session slot,
 * 0 for a private instance (a backend's program_timer gets it; a skin
 * tags what only this process can use with it).  Errors: -EINVAL.
 * Context: any.
 */
nk_export int nk_instance_member(struct nk_instance *nk);

/**
 * Zeroed memory of @p size bytes for an object that lives in @p nk: a
 * skin's control block, a queue's pool.  Everything an instance's
 * objects hold comes from here, never from malloc, so that the instance
 * chooses where it lives (a session shares it with other processes).
 * Returns NULL for a bad instance, a zero size or no memory.
 * Context: any.
 */
nk_export void *nk_alloc(struct nk_instance *nk, size_t size);
/** Give back memory from nk_alloc() (NULL: nothing).  Context: any; it
 * stays valid while the instance is destroyed, for reclaim hooks. */
nk_export void nk_free(struct nk_instance *nk, void *mem);
/**
 * As nk_alloc(), for an object only this process can use (a pipe's
 * Linux side is a descriptor here; an alarm's handler is code here): in
 * a session the block is this member's, and when the member dies the
 * member that cleans up after it frees the block, which nobody else
 * could find (docs/architecture.md, "A member dying").  The owner's
 * nucleus timers in it are disarmed by then.  Context: any, after the
 * instance's backend is up.
 */
nk_export void *nk_alloc_local(struct nk_instance *nk, size_t size);
/** Give back memory from nk_alloc_local() (NULL: nothing).  Context: as
 * nk_free(). */
nk_export void nk_free_local(struct nk_instance *nk, void *mem);
/**
 * How many blocks of nk_alloc_local() member @p member holds in @p nk,
 * for tools and tests: none once a dead member was cleaned up after.
 * Errors: -EINVAL.  Context: a plain thread (takes the lock).
 */
nk_export int nk_member_blocks(struct nk_instance *nk, int member);

/**
 * Check the invariants of @p nk by walking it (under its lock): every
 * list well linked, every ready thread queued once at its level, every
 * waiter in its object's queue and in order, every owner alive, every
 * effective priority what its ownerships justify, every timer tree in
 * date order, the registry's counts.  On a violation, the first one
 * found is written to @p why (@p len bytes; may be NULL).  O(threads^2):
 * for tests and debugging.  Returns 0, -EUCLEAN (violated) or -EINVAL.
 * Context: any.
 */
nk_export int nk_instance_check(struct nk_instance *nk, char *why, size_t len);

/** @{ */
/**
 * The nucleus lock.  Skins take it to make several nucleus calls atomic
 * (the *_locked services in synch.h require it).  Recursive for the OS
 * thread holding it: a holder may call any nucleus service, which takes
 * it again (a blocking one releases every level while it waits).
 * Context: any; nk_unlock: lock held.
 */
nk_export void nk_lock(struct nk_instance *nk);
nk_export void nk_unlock(struct nk_instance *nk);
/** @} */

#endif
