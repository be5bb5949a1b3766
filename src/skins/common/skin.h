/* SPDX-License-Identifier: MIT */
/*
 * The object layer every skin stands on (Xenomai calls it copperplate):
 * a skin describes itself once, in a constant struct skin_desc, and
 * gets from this layer its per-instance state, object classes with
 * tagged handles, names in the instance's registry, bind with timeout,
 * deletion with waiters, timeouts in its own time unit, and waiting
 * with a request.  A skin writes only its API on top.
 *
 * Handles.  A user descriptor (RT_SEM, SEM_ID...) holds a handle, never
 * a pointer: the class tag in the high 32 bits (the registry namespace
 * id interned for "<skin>.<class>", never 0) and the registry handle
 * (slot and generation) in the low 32.  A zeroed, forged, stale or
 * wrong-class handle is refused with the class's (or else the skin's)
 * bad_handle code before anything is dereferenced.
 *
 * Names.  Objects are named in the instance's registry
 * (nk_instance_registry), in the namespace "<skin>.<class>" (a name
 * space per class, as Alchemy) or "<skin>" for all classes of a skin
 * with shared_names (VxWorks).  Binders wait on a queue of their class.
 *
 * Locking.  Everything here is serialised by the nucleus lock, which is
 * recursive: a function named _locked expects the caller to hold it
 * (and nothing else); the others take it themselves, and say when they
 * return with it held.  Errors are the skin's: the layer passes every
 * nucleus -errno it returns through the skin's error() once.
 */
#ifndef SKIN_COMMON_H
#define SKIN_COMMON_H

#include "trace/sinks.h"

#include <fusion/fusion.h>

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* Skin internals stay out of libfusion.so's interface. */
#pragma GCC visibility push(hidden)

#define SKIN_MAX_CLASSES 16

_Static_assert(sizeof(uintptr_t) >= sizeof(uint64_t),
	       "a descriptor handle holds a class tag and a registry handle");

struct skin_class {
	const char *name; /* "sem": the namespace "<skin>.sem" */
	/* Code for a bad handle of this class; 0: the skin's. */
	int bad_handle;
	/*
	 * Free @object, unregistered, and all it owns (its nucleus
	 * structures, its memory): at its deletion (skin_delete(), its
	 * waiters waking with -EIDRM) and when instance @nk is destroyed
	 * with the object still registered (skin_fini).  Also fit for
	 * skin_create()'s release.  Lock held.  At the instance's end it
	 * runs in the thread destroying it, once every thread let go of
	 * what it waited for and held and was freed: nobody waits on
	 * @object or owns it, and a reschedule finds nobody to run.
	 */
	void (*reclaim)(struct nk_instance *nk, void *object);
	/*
	 * For the debugger (fusion sim, describe.c): fill in @info's
	 * count, capacity, owner and wait queues for @object (the layer
	 * sets its class, its name in the registry, which a skin naming
	 * objects itself replaces, and count -1).  Lock held, the
	 * simulation stopped.  NULL: the class's objects are not shown.
	 */
	void (*describe)(const void *object, struct nk_object_info *info);
	/*
	 * Its objects hold what only the process that made them can use
	 * (a handler's address, a file descriptor): in a session another
	 * process neither finds them by name nor by handle (it gets the bad
	 * handle code), they go when their process leaves (reclaim), and
	 * when it dies they are forgotten (unregistered; their memory, of
	 * nk_alloc_local(), is freed by the nucleus).
	 */
	bool local;
};

struct skin_desc {
	/*
	 * The skin's personality: .name is the skin's name, .state_size
	 * the size of its per-instance state, which starts with a struct
	 * skin.  Its .init, if any, runs before the layer's set-up; its
	 * .fini is skin_fini, or calls it.
	 */
	struct nk_personality pers;
	const struct skin_class *classes;
	unsigned int nr_classes; /* at most SKIN_MAX_CLASSES */
	bool shared_names;	 /* one namespace for every class */
	/* Initial tick period in ns of the skin's time base; 0: the skin
	 * counts nanoseconds. */
	nk_time_t tick;
	int bad_handle; /* code for a bad handle (Alchemy: -EINVAL) */
	/*
	 * Turn a nucleus -errno or wake reason into the skin's code: the
	 * one place a skin translates.  NULL: the skin's codes are the
	 * nucleus's.
	 */
	int (*error)(int err);
};

/* Per class, per instance. */
struct skin_class_state {
	uint32_t tag; /* handle tag and registry type, non-zero */
	uint32_t ns;  /* registry namespace of the class's names */
	bool local;   /* skin_class.local */
	struct nk_synch binders;
};

/*
 * A local class's objects carry their process's member number above
 * the tag in their registry type (tags are namespace ids, below
 * NK_REGISTRY_MAX_NS).
 */
#define SKIN_MEMBER_SHIFT 16

/*
 * The layer's part of a skin's per-instance state (its first member).
 * In a session it is shared by every process that uses the skin, so it
 * holds no address of code or of a process's memory: each process finds
 * its own descriptor with skin_desc_of().
 */
struct skin {
	bool ready; /* set last: the state is ready */
	struct nk_instance *nk;
	struct nk_registry *reg;
	struct nk_tbase tbase; /* the skin's time unit (tickless for ns) */
	/* Its first tick period, which the personality's init may choose
	 * (a configured clock rate); 0: the descriptor's. */
	nk_time_t tick;
	struct skin_class_state classes[SKIN_MAX_CLASSES];
};

/*
 * The process runtime instance (fusion_runtime(): the caller may become
 * "main") into *@nk and @desc's state there into *@sk, registering the
 * personality and setting up classes and time base on first use.
 * Either out pointer may be NULL.  Errors (translated): those of
 * fusion_runtime() and nk_personality_register(), -ENOSPC (too many
 * namespaces in the registry).  Lock NOT held.
 */
int skin_enter(const struct skin_desc *desc, struct nk_instance **nk,
	       struct skin **sk);
/*
 * The personality's fini hook: unregister and reclaim the objects of
 * every class that has a reclaim hook, still registered as the
 * instance goes (after every thread was freed).  Lock held.
 */
void skin_fini(struct nk_instance *nk, void *state);
/*
 * The personality's leave hook: as skin_fini(), for the objects of
 * local classes this process made (it leaves a session that goes on).
 * Lock held.
 */
void skin_leave(struct nk_instance *nk, void *state);
/*
 * The personality's member_gone hook: unregister the objects of local
 * classes that dead member @member made, without their reclaim (that
 * process's resources went with it).  Lock held.
 */
void skin_member_gone(struct nk_instance *nk, void *state, int member);
/*
 * The personality's objects hook (describe.c): the objects of the
 * classes with a describe hook, from @at on.  Lock held.
 */
bool skin_objects(struct nk_instance *nk, void *state,
		  struct nk_objects_cursor *at, uint32_t *budget,
		  bool (*emit)(void *ctx, const struct nk_object_info *info),
		  void *ctx);
/* Describe hooks of objects that are a struct nk_sem, a struct nk_mutex
 * or a bare struct nk_synch (its waiters). */
void skin_describe_sem(const void *object, struct nk_object_info *info);
void skin_describe_mutex(const void *object, struct nk_object_info *info);
void skin_describe_synch(const void *object, struct nk_object_info *info);
/* @desc's state in the process runtime, NULL before skin_enter().
 * Never starts the runtime.  Lock held or not. */
struct skin *skin_state(const struct skin_desc *desc);
/* This process's descriptor of the skin whose state is @sk (entered by
 * this process).  Lock held or not. */
static inline const struct skin_desc *skin_desc_of(const struct skin *sk)
{
	/* The personality is the descriptor's first member. */
	return (const struct skin_desc *)nk_personality_of(sk->nk, sk);
}

/* The registry type of class @cls's objects made by this process. */
static inline unsigned int skin_type(const struct skin *sk, unsigned int cls)
{
	const struct skin_class_state *c = &sk->classes[cls];

	return c->local ? c->tag | (unsigned int)nk_instance_member(sk->nk)
				       << SKIN_MEMBER_SHIFT
			: c->tag;
}

/* Translate @err with the skin's error().  Lock held or not. */
int skin_error(const struct skin_desc *desc, int err);
/* The code a bad handle of class @cls gets.  Lock held or not. */
static inline int skin_bad_handle(const struct skin_desc *desc,
				  unsigned int cls)
{
	int code = cls < desc->nr_classes ? desc->classes[cls].bad_handle : 0;

	return code ? code : desc->bad_handle;
}

/*
 * A descriptor's handle, NULL for a NULL descriptor: what the services
 * below take, so that each checks the descriptor itself.
 */
#define skin_handle(desc) ((desc) ? &(desc)->handle : NULL)

/*
 * Service tracing (src/skins/NAME/services.c, generated): whether the
 * process's instance records anything, and the record of a call of
 * @service on @object (a handle, an ID; 0: none) that returned @result,
 * as tracepoint @event (the skin's).  Any context.
 */
static inline bool skin_tracing(void)
{
	return trace_any_sink() && nk_trace_active(fusion_runtime_peek());
}

void skin_service(enum nk_trace_event event, const char *service,
		  uintptr_t object, long result);

/*
 * Name @object (NULL or "": anonymous) in class @cls and store its
 * handle in *@handle; wakes the class's binders.  The object must be
 * ready: a binder may run at once.  Errors (translated): -EEXIST (name
 * in use in the namespace), -ENOSPC (registry full), -EINVAL (name too
 * long).  Lock held.
 */
int skin_register_locked(struct skin *sk, unsigned int cls, const char *name,
			 void *object, uintptr_t *handle);
/* As skin_register_locked(), taking the lock. */
int skin_publish(struct skin *sk, unsigned int cls, const char *name,
		 void *object, uintptr_t *handle);
/* Remove the entry (the object must no longer be reachable).  Lock held. */
void skin_unregister_locked(struct skin *sk, uintptr_t handle);
/*
 * The handle of the object of class @cls named @name into *@handle.
 * Errors: -ESRCH (no such object; NULL or empty @name).  Lock held.
 */
int skin_find_locked(struct skin *sk, unsigned int cls, const char *name,
		     uintptr_t *handle);
/*
 * Free the entry's name (binders no longer find it, another object may
 * take it); the handle stays valid until skin_unregister_locked().
 * Lock held.
 */
void skin_unlink_locked(struct skin *sk, uintptr_t handle);
/*
 * The state of @desc in the process runtime (into *@nk) once set up,
 * else NULL: the fast path of every entry, lock-free.  The runtime is
 * only peeked at: once it exists, fusion_runtime() would do no more.
 */
static inline struct skin *skin_entered(const struct skin_desc *desc,
					struct nk_instance **nk)
{
	struct skin *sk;

	*nk = fusion_runtime_peek();
	if (__builtin_expect(*nk == NULL, 0))
		return NULL;
	sk = nk_personality_state(*nk, &desc->pers);
	return sk && __atomic_load_n(&sk->ready, __ATOMIC_ACQUIRE) ? sk : NULL;
}

/* skin_enter() the first time: start the runtime, register, set up. */
int skin_enter_slow(const struct skin_desc *desc, struct nk_instance **nk,
		    struct skin **sk);

/*
 * The object of class @cls behind @handle.  Errors: the bad-handle code
 * (zeroed, forged, stale, wrong class), -EINVAL when @sk is NULL (the
 * skin was never entered).  Lock held.
 */
static inline int skin_lookup_locked(struct skin *sk, unsigned int cls,
				     uintptr_t handle, void **object)
{
	unsigned int tag;

	if (sk == NULL)
		return -EINVAL;
	/* The tag says the class before the registry checks the slot's
	 * generation and type: a handle of another class, or of another
	 * skin, reads as stale. */
	tag = sk->classes[cls].tag;
	if (__builtin_expect(handle >> 32 == tag, 1) &&
	    nk_registry_lookup(sk->reg, (nk_handle_t)handle, skin_type(sk, cls),
			       object) == 0) {
		/* Found to be changed, most often: noted for the journal of
		 * a shared instance's lock. */
		nk_journal_block(*object);
		return 0;
	}
	return skin_bad_handle(skin_desc_of(sk), cls);
}

/*
 * Enter the skin, take the lock and find the object behind *@handle
 * (see skin_handle()).  Returns with the lock held on success only.
 * Errors: the bad-handle code (also for a NULL @handle), those of
 * skin_enter().  Inline: it is the way into every service.
 */
static inline int skin_get(const struct skin_desc *desc, unsigned int cls,
			   const uintptr_t *handle, struct nk_instance **nk,
			   void **object)
{
	struct skin *sk;
	int ret;

	if (handle == NULL)
		return skin_bad_handle(desc, cls);
	sk = skin_entered(desc, nk);
	if (__builtin_expect(sk == NULL, 0)) {
		ret = skin_enter_slow(desc, nk, &sk);
		if (ret)
			return ret;
	}
	nk_lock(*nk);
	ret = skin_lookup_locked(sk, cls, *handle, object);
	if (ret)
		nk_unlock(*nk);
	return ret;
}

/*
 * Delete the object behind *@handle: find it, let @refuse (NULL:
 * nothing refuses) return an error to keep it, else free it with the
 * class's reclaim hook under the lock (its waiters wake with -EIDRM),
 * unregister it and let the woken waiters run.  Errors: those of
 * skin_get() and @refuse.  Lock NOT held.
 */
int skin_delete(const struct skin_desc *desc, unsigned int cls,
		const uintptr_t *handle,
		int (*refuse)(struct nk_instance *nk, void *object));
/* Name of a registered object into @buf (NK_NAME_MAX bytes, "" when
 * gone or anonymous).  Lock held. */
void skin_name_locked(struct skin *sk, uintptr_t handle, char *buf);

/*
 * Timeouts, as every blocking service of the nucleus takes them: a
 * value and a mode.  A non-blocking request is relative 0, which every
 * nucleus service reads as "do not wait".  A skin turns its own forms
 * (special values, units) into one of these once, at its entry, and
 * an implementation fails with @error first if it is set.  Values never
 * overflow: what does not fit is infinite.  None of these fails or
 * takes the lock: callable with it held or not.
 */
struct skin_timeout {
	nk_time_t value; /* NK_INFINITE, from now or a date, per @mode */
	enum nk_tmode mode;
	int error; /* -EINVAL: a malformed timespec */
};

static inline struct skin_timeout skin_infinite(void)
{
	return (struct skin_timeout){.value = NK_INFINITE, .mode = NK_RELATIVE};
}

static inline struct skin_timeout skin_nonblock(void)
{
	return (struct skin_timeout){.value = 0, .mode = NK_RELATIVE};
}

static inline bool skin_nonblocking(struct skin_timeout to)
{
	return to.mode == NK_RELATIVE && to.value == 0;
}

/* @ns nanoseconds from now (0: non-blocking). */
static inline struct skin_timeout skin_rel_ns(uint64_t ns)
{
	return (struct skin_timeout){.value = ns > (uint64_t)NK_INFINITE - 1
						  ? NK_INFINITE
						  : (nk_time_t)ns,
				     .mode = NK_RELATIVE};
}

/* The date @date in ns on the nucleus clock. */
static inline struct skin_timeout skin_abs_ns(uint64_t date)
{
	return (struct skin_timeout){.value = date > (uint64_t)NK_INFINITE - 1
						  ? NK_INFINITE
						  : (nk_time_t)date,
				     .mode = NK_ABSOLUTE};
}

/*
 * @ticks of the skin's time base from now, expiring on a tick boundary
 * (0: non-blocking); nanoseconds for a skin without a tick.  Lock held
 * or not.
 */
struct skin_timeout skin_rel_ticks(struct skin *sk, uint64_t ticks);
/* The date of tick @tick of the skin's time base (past: expired). */
struct skin_timeout skin_abs_ticks(struct skin *sk, uint64_t tick);
/* A POSIX date: NULL infinite, {0, 0} non-blocking, malformed -EINVAL. */
struct skin_timeout skin_timespec(const struct timespec *date);
/*
 * The same timeout as a date, for a service that may sleep several
 * times and must keep one deadline across.
 */
struct skin_timeout skin_deadline(struct nk_instance *nk,
				  struct skin_timeout to);

/*
 * Wait until an object named @name exists in class @cls, up to @to,
 * then store its handle in *@handle.  Errors (translated): -EINVAL
 * (NULL @handle, NULL, empty or too long a name, a malformed timeout),
 * -EWOULDBLOCK (non-blocking and absent), -ETIMEDOUT, -EINTR, -EPERM
 * (cannot wait in this context), those of skin_enter().  Lock NOT held.
 */
int skin_bind(const struct skin_desc *desc, unsigned int cls, uintptr_t *handle,
	      const char *name, struct skin_timeout to);
/* Forget the handle.  Errors: -EINVAL (NULL @handle), untranslated. */
int skin_unbind(uintptr_t *handle);

/* One object of a class, as skin_list_locked() gives it. */
struct skin_entry {
	uintptr_t handle;
	void *object;
	char name[NK_NAME_MAX]; /* "" for anonymous objects */
};

/*
 * List class @cls, for status tools: set *@cursor to 0, then each call
 * stores the next object into *@entry.  Errors: -ENOENT (no more),
 * -EINVAL (@sk NULL, bad class).  Lock held (across calls, for a
 * consistent list).
 */
int skin_list_locked(struct skin *sk, unsigned int cls, uint32_t *cursor,
		     struct skin_entry *entry);
/* As skin_list_locked(), looking at @max registry slots at most:
 * -EAGAIN when they held none of the class (see
 * nk_registry_next_within). */
int skin_list_within(struct skin *sk, unsigned int cls, uint32_t *cursor,
		     uint32_t max, struct skin_entry *entry);

/*
 * Waiting with a request, for objects whose waiters each ask for
 * something of their own (a mask, a size, a buffer) and are served one
 * by one.  Each wait queue is one nucleus synch.  A waiter describes
 * its request in a context on its own stack and sleeps with it; a waker
 * walks the queue in order, writes the result into the context of each
 * waiter it serves and wakes it, all under the nucleus lock, so the
 * hand-over is atomic.  A waiter leaves the queue on any wake-up
 * (served, timed out, unblocked, its thread deleted).
 *
 * What a waker granted is the waiter's once the waker wakes it.  If the
 * object is deleted before the waiter runs, the wait ends with -EIDRM:
 * what it was given went with the object.
 */

/*
 * The name an object's wait queues carry (traces, deadlock reports):
 * its own, or its class's ("sem", "queue"...) when it is anonymous, so
 * that every wait names its object.
 */
static inline const char *skin_synch_name(const struct skin *sk,
					  unsigned int cls, const char *name)
{
	return name && name[0] ? name : skin_desc_of(sk)->classes[cls].name;
}

/* Prepare a wait queue named @name: by priority with @by_prio, else
 * FIFO.  Errors: those of nk_synch_init().  Lock held or not. */
int skin_wait_init(struct nk_instance *nk, struct nk_synch *synch,
		   const char *name, bool by_prio);
/*
 * Invalidate a wait queue, its waiters waking with -EIDRM (the caller
 * reschedules); nothing for a zeroed one.  Lock held or not.
 */
void skin_wait_destroy(struct nk_instance *nk, struct nk_synch *synch);
/*
 * Sleep on @synch, a wait queue of @object (behind @handle, class
 * @cls), with the request @ctx (@size bytes), until a waker serves it
 * or per @to.  Returns 0 when served and @object is still there (@ctx
 * holds the result), -EIDRM when it was served but the object was
 * deleted before the caller ran (nothing of it may be touched), else
 * the wait's own (untranslated) result.  Lock held, on return too.
 */
int skin_wait_sleep_locked(struct skin *sk, unsigned int cls, uintptr_t handle,
			   void *object, struct nk_synch *synch, void *ctx,
			   size_t size, struct skin_timeout to);
/*
 * Offer each waiter of @synch, in queue order, to @serve, which fills
 * in its context @ctx and returns true if it serves it; those served
 * are woken, and with @all false the walk stops at the first.  A
 * buffer the context names is in @waiter's process: @serve moves data
 * there and back with nk_thread_copy_to() and _from().  Returns how
 * many woke (the caller reschedules).  Lock held.
 */
int skin_wait_serve_locked(struct nk_synch *synch,
			   bool (*serve)(struct nk_thread *waiter, void *ctx,
					 void *arg),
			   void *arg, bool all);
/*
 * Create an object with wait queues: let @setup prepare them, named
 * @wname (see skin_synch_name()), and the rest of @object, then
 * publish it under @name into *@handle.  On any
 * error, @release frees all of it, whatever was prepared so far (a
 * zeroed synch is no synch: destroying it does nothing).  Errors: those
 * of @setup and skin_publish().  Lock NOT held.
 */
int skin_create(
    struct skin *sk, unsigned int cls, const char *name, void *object,
    int (*setup)(struct nk_instance *nk, void *object, const char *wname),
    void (*release)(struct nk_instance *nk, void *object), uintptr_t *handle);

#pragma GCC visibility pop

#endif
