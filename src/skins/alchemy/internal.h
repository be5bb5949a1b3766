/*
 * Alchemy skin internals: object classes over nucleus registries, and
 * the conversion of Alchemy timeouts into nucleus ones.
 *
 * Every Alchemy object lives in malloc'd storage owned by the skin; the
 * user's descriptor (RT_SEM, RT_TASK...) holds only its registry handle,
 * so a stale, forged or never-created descriptor is refused (-EINVAL)
 * instead of being dereferenced.  Each class has its own registry (its
 * own namespace, as in Xenomai) and a wait queue for rt_*_bind().
 * Class registries and lookups are serialised by the nucleus lock.
 */
#ifndef ALCHEMY_INTERNAL_H
#define ALCHEMY_INTERNAL_H

#include <alchemy/alchemy.h>
#include <fusion/fusion.h>

#include <stdbool.h>

/* Alchemy priority p runs at nucleus priority p + 1; main stays at 0. */
#define ALCHEMY_PRIO_MIN 0
#define ALCHEMY_PRIO_MAX 99
#define alchemy_nk_prio(p) ((p) + 1)
#define alchemy_prio(nkprio) ((nkprio) - 1)

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
 * The skin's instance (the process runtime), initialising the skin on
 * first use: the caller may become the "main" thread.  Errors: those
 * of fusion_runtime(), -ENOMEM.
 */
int alchemy_enter(struct nk_instance **nk);
struct alchemy_class *alchemy_class(enum alchemy_class_id id);

/*
 * Register @object under @name (NULL or "": anonymous) and store its
 * handle in *@handle; wakes binders waiting for that name.
 * Errors: -EEXIST (name in use in the class), -ENOMEM (class full),
 * -EINVAL (name too long).  Lock held.
 */
int alchemy_register(enum alchemy_class_id id, const char *name,
		     void *object, uintptr_t *handle);
/* Remove the entry (the object must no longer be reachable).  Lock held. */
void alchemy_unregister(enum alchemy_class_id id, uintptr_t handle);
/*
 * The object behind a descriptor's @handle.  Errors: -EINVAL (stale,
 * forged, wrong class or never created).  Lock held.
 */
int alchemy_lookup(enum alchemy_class_id id, uintptr_t handle, void **object);
/*
 * Wait until an object named @name exists in the class, then store its
 * handle.  Errors: -EINVAL (NULL or empty name), -ETIMEDOUT,
 * -EWOULDBLOCK (TM_NONBLOCK and absent), -EINTR, -EPERM (cannot wait
 * in this context).  Lock held.
 */
int alchemy_bind(enum alchemy_class_id id, const char *name,
		 uintptr_t *handle, nk_time_t timeout, enum nk_tmode mode);
/* Name of a registered object into @buf (XNOBJECT_NAME_LEN). Lock held. */
void alchemy_name(enum alchemy_class_id id, uintptr_t handle, char *buf);

/*
 * Timeouts.  alchemy_rel: a relative RTIME (TM_INFINITE, TM_NONBLOCK or
 * ns from now); alchemy_abs: an absolute RTIME (_until forms: TM_INFINITE,
 * TM_NONBLOCK or a date); alchemy_timespec: the _timed forms (NULL:
 * infinite, {0, 0}: non-blocking, else a date).  A non-blocking request
 * becomes relative 0, which every nucleus service reads as "do not
 * wait".  alchemy_timespec returns -EINVAL for a malformed timespec.
 */
void alchemy_rel(RTIME timeout, nk_time_t *nkto, enum nk_tmode *mode);
void alchemy_abs(RTIME date, nk_time_t *nkto, enum nk_tmode *mode);
int alchemy_timespec(const struct timespec *date, nk_time_t *nkto,
		     enum nk_tmode *mode);
static inline bool alchemy_nonblock(nk_time_t nkto, enum nk_tmode mode)
{
	return mode == NK_RELATIVE && nkto == 0;
}

#endif
