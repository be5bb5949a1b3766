/*
 * Alchemy skin internals: object classes over nucleus registries, and
 * the conversion of Alchemy timeouts into nucleus ones.
 *
 * Every Alchemy object lives in malloc'd storage owned by the skin; the
 * user's descriptor (RT_SEM, RT_TASK...) holds only its registry handle,
 * so a stale, forged or never-created descriptor is refused (-EINVAL)
 * instead of being dereferenced.  Each class has its own registry (its
 * own namespace, as in Xenomai) and a wait queue for rt_*_bind().
 * Class registries and lookups are serialised by the nucleus lock,
 * which is recursive: a holder may call any nucleus service, so an
 * object looked up under the lock is used under the same hold.
 */
#ifndef ALCHEMY_INTERNAL_H
#define ALCHEMY_INTERNAL_H

#include <alchemy/alchemy.h>
#include <fusion/fusion.h>

#include <stdbool.h>

/* Skin internals stay out of libfusion.so's interface. */
#pragma GCC visibility push(hidden)

/* Alchemy priority p runs at nucleus priority p + 1; main stays at 0. */
#define ALCHEMY_PRIO_MIN 0
#define ALCHEMY_PRIO_MAX 99
#define alchemy_nk_prio(p) ((p) + 1)
#define alchemy_prio(nkprio) ((nkprio)-1)

struct alchemy_class {
	const char *name;
	unsigned int type; /* registry type tag, non-zero */
	struct nk_registry reg;
	struct nk_synch binders;
};

enum alchemy_class_id {
	ALCHEMY_TASK,
	ALCHEMY_SEM,
	ALCHEMY_MUTEX,
	ALCHEMY_COND,
	ALCHEMY_EVENT,
	ALCHEMY_QUEUE,
	ALCHEMY_BUFFER,
	ALCHEMY_HEAP,
	ALCHEMY_ALARM,
	ALCHEMY_PIPE,
	ALCHEMY_NR_CLASSES
};

/*
 * Alchemy's personality (task.c): its thread extension is the task
 * control block, struct alchemy_task (task_internal.h).
 */
extern const struct nk_personality alchemy_personality;

/*
 * The skin's instance (the process runtime), initialising the skin on
 * first use (registering alchemy_personality there): the caller may
 * become the "main" thread.  Errors: those of fusion_runtime() and
 * nk_personality_register(), -ENOMEM.
 */
int alchemy_enter(struct nk_instance **nk);
/*
 * As alchemy_enter(), for the services that only tasks may call (as in
 * Xenomai, objects are made by tasks): -EPERM for a plain pthread or
 * a timer handler.
 */
int alchemy_enter_thread(struct nk_instance **nk);
/*
 * As alchemy_enter(), for the services that create objects: as in
 * Xenomai, any Linux thread of the program may, a task or not; only an
 * alarm handler (interrupt context) is refused with -EPERM (alarm.c).
 */
int alchemy_enter_object(struct nk_instance **nk);
struct alchemy_class *alchemy_class(enum alchemy_class_id id);

/*
 * The name an object's wait queues carry (traces, deadlock reports):
 * its own, or its class's ("sem", "queue"...) when it is anonymous.
 */
static inline const char *alchemy_synch_name(enum alchemy_class_id id,
					     const char *name)
{
	return name && name[0] ? name : alchemy_class(id)->name;
}

/*
 * A descriptor's handle, NULL for a NULL descriptor: what the
 * services below take, so that each checks the descriptor itself.
 */
#define alchemy_handle(desc) ((desc) ? &(desc)->handle : NULL)

/*
 * Register @object under @name (NULL or "": anonymous) and store its
 * handle in *@handle; wakes binders waiting for that name.
 * Errors: -EEXIST (name in use in the class), -ENOMEM (class full),
 * -EINVAL (name too long).  Lock held.
 */
int alchemy_register(enum alchemy_class_id id, const char *name, void *object,
		     uintptr_t *handle);
/* As alchemy_register, taking the lock. */
int alchemy_publish(struct nk_instance *nk, enum alchemy_class_id id,
		    const char *name, void *object, uintptr_t *handle);
/* Remove the entry (the object must no longer be reachable).  Lock held. */
void alchemy_unregister(enum alchemy_class_id id, uintptr_t handle);
/*
 * Free the entry's name (rt_*_bind() no longer finds it, another object
 * may take it); the handle stays valid until alchemy_unregister().
 * Lock held.
 */
void alchemy_unlink(enum alchemy_class_id id, uintptr_t handle);
/*
 * The object behind a descriptor's @handle.  Errors: -EINVAL (stale,
 * forged, wrong class or never created).  Lock held.
 */
int alchemy_lookup(enum alchemy_class_id id, uintptr_t handle, void **object);
/*
 * Enter the skin, take the nucleus lock and find the object behind
 * *@handle (see alchemy_handle()).  Returns with the lock held on
 * success only.  Errors: -EINVAL (NULL @handle, or as alchemy_lookup),
 * those of alchemy_enter().
 */
int alchemy_get(enum alchemy_class_id id, const uintptr_t *handle,
		struct nk_instance **nk, void **object);
/*
 * rt_*_delete(): find the object behind *@handle and let @destroy tear
 * it down under the lock (waking its waiters with -EIDRM, freeing it),
 * then unregister it and let the woken waiters run.  @destroy may
 * refuse (its error is returned: the object stays).  Errors: those of
 * alchemy_get() and @destroy.  Lock NOT held.
 */
int alchemy_delete(enum alchemy_class_id id, const uintptr_t *handle,
		   int (*destroy)(struct nk_instance *nk, void *object));
/*
 * rt_*_bind(): wait up to @timeout (relative) until an object named
 * @name exists in the class, then store its handle in *@handle.
 * Errors: -EINVAL (NULL @handle, NULL or empty name), -ETIMEDOUT,
 * -EWOULDBLOCK (TM_NONBLOCK and absent), -EINTR, -EPERM (cannot wait
 * in this context), those of alchemy_enter().  Lock NOT held.
 */
int alchemy_bind(enum alchemy_class_id id, uintptr_t *handle, const char *name,
		 RTIME timeout);
/* rt_*_unbind(): forget the handle.  Errors: -EINVAL (NULL @handle). */
int alchemy_unbind(uintptr_t *handle);
/* Name of a registered object into @buf (XNOBJECT_NAME_LEN). Lock held. */
void alchemy_name(enum alchemy_class_id id, uintptr_t handle, char *buf);

/*
 * Timeouts, as every blocking service of the nucleus takes them.  A
 * non-blocking request becomes relative 0, which every nucleus service
 * reads as "do not wait".  The plain, _until and _timed forms of a
 * service convert their argument and call one implementation, which
 * fails with @error first if it is set.
 */
struct alchemy_timeout {
	nk_time_t value; /* NK_INFINITE, ns from now or a date, per @mode */
	enum nk_tmode mode;
	int error; /* -EINVAL: a malformed timespec */
};

/* A relative RTIME: TM_INFINITE, TM_NONBLOCK or ns from now. */
struct alchemy_timeout alchemy_rel(RTIME timeout);
/* An absolute RTIME (the _until forms): TM_INFINITE, TM_NONBLOCK or a date. */
struct alchemy_timeout alchemy_abs(RTIME date);
/* The _timed forms: NULL: infinite, {0, 0}: non-blocking, else a date. */
struct alchemy_timeout alchemy_timespec(const struct timespec *date);
/*
 * The same timeout as a date, for a service that may sleep several
 * times and must keep one deadline across.
 */
struct alchemy_timeout alchemy_deadline(struct nk_instance *nk,
					struct alchemy_timeout to);
static inline bool alchemy_nonblock(struct alchemy_timeout to)
{
	return to.mode == NK_RELATIVE && to.value == 0;
}

#pragma GCC visibility pop

#endif
