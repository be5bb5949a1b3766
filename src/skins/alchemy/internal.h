/* SPDX-License-Identifier: MIT */
/*
 * Alchemy skin internals: the skin on the common object layer
 * (skins/common/skin.h), and its per-instance state.
 *
 * Every Alchemy object lives in malloc'd storage owned by the skin; the
 * user's descriptor (RT_SEM, RT_TASK...) holds only its handle, so a
 * stale, forged or never-created descriptor is refused (-EINVAL)
 * instead of being dereferenced.  Each class has its own namespace in
 * the instance's registry ("alchemy.sem"...), as in Xenomai.  Lookups
 * are serialised by the nucleus lock, which is recursive: a holder may
 * call any nucleus service, so an object looked up under the lock is
 * used under the same hold.  The helpers below bind the layer's calls
 * to the Alchemy descriptor.
 */
#ifndef ALCHEMY_INTERNAL_H
#define ALCHEMY_INTERNAL_H

#include "skins/common/skin.h"

#include <alchemy/alchemy.h>
#include <alchemy/pipe.h>
#include <fusion/fusion.h>

#include <stdbool.h>

/* Skin internals stay out of libfusion.so's interface. */
#pragma GCC visibility push(hidden)

/* Alchemy priority p runs at nucleus priority p + 1; main stays at 0. */
#define ALCHEMY_PRIO_MIN 0
#define ALCHEMY_PRIO_MAX 99
#define alchemy_nk_prio(p) ((p) + 1)
#define alchemy_prio(nkprio) ((nkprio)-1)

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

struct alchemy_pipe;

/* The skin's state in an instance.  Lock held for every field. */
struct alchemy_state {
	struct skin skin;
};

extern const struct skin_desc alchemy_skin;

/*
 * Alchemy's thread hooks (task.c), in its personality (alchemy_skin.pers,
 * object.c): the thread extension is the task control block, struct
 * alchemy_task (task_internal.h).  Lock held.
 */
int alchemy_task_attach(struct nk_thread *thread, void *ext);
void alchemy_task_exit(struct nk_thread *thread, void *ext);
void alchemy_task_finalize(struct nk_thread *thread, void *ext);

/*
 * Each class's reclaim hook (skin_class.reclaim), in the class's file:
 * free an object, deleted (rt_*_delete) or left when the instance goes.
 * Lock held.
 */
void alchemy_sem_reclaim(struct nk_instance *nk, void *object);
void alchemy_mutex_reclaim(struct nk_instance *nk, void *object);
void alchemy_cond_reclaim(struct nk_instance *nk, void *object);
void alchemy_event_reclaim(struct nk_instance *nk, void *object);
void alchemy_queue_reclaim(struct nk_instance *nk, void *object);
void alchemy_buffer_reclaim(struct nk_instance *nk, void *object);
void alchemy_heap_reclaim(struct nk_instance *nk, void *object);
void alchemy_alarm_reclaim(struct nk_instance *nk, void *object);
void alchemy_pipe_reclaim(struct nk_instance *nk, void *object);
void alchemy_pipe_describe(const void *object, struct nk_object_info *info);
/* Describe hooks (skin_class.describe) of the classes of their own. */
void alchemy_cond_describe(const void *object, struct nk_object_info *info);
void alchemy_event_describe(const void *object, struct nk_object_info *info);
void alchemy_queue_describe(const void *object, struct nk_object_info *info);
void alchemy_buffer_describe(const void *object, struct nk_object_info *info);
void alchemy_heap_describe(const void *object, struct nk_object_info *info);
void alchemy_alarm_describe(const void *object, struct nk_object_info *info);

/*
 * The skin's instance (the process runtime), initialising the skin on
 * first use (registering its personality there): the caller may
 * become the "main" thread.  Errors: those of fusion_runtime() and
 * nk_personality_register(), -ENOMEM.
 */
static inline int alchemy_enter(struct nk_instance **nk)
{
	return skin_enter(&alchemy_skin, nk, NULL);
}

/*
 * As alchemy_enter(), for the services that only tasks may call (as in
 * Xenomai, objects are made by tasks): -EPERM for a plain pthread or
 * a timer handler.
 */
int alchemy_enter_thread(struct nk_instance **nk);
/*
 * As alchemy_enter(), for the services that create objects: as in
 * Xenomai, any Linux thread of the program may, a task or not; only an
 * alarm handler (interrupt context) is refused with -EPERM.
 */
int alchemy_enter_object(struct nk_instance **nk);

/* The skin's state, NULL before the first alchemy_enter(). */
static inline struct skin *alchemy(void)
{
	return skin_state(&alchemy_skin);
}

static inline struct alchemy_state *alchemy_state(void)
{
	return (struct alchemy_state *)alchemy();
}

/* skin_synch_name() in an entered skin. */
static inline const char *alchemy_synch_name(enum alchemy_class_id id,
					     const char *name)
{
	return skin_synch_name(alchemy(), id, name);
}

/*
 * The start of creating an object with wait queues (skin_create()
 * ends it): refuse too long a @name (-EINVAL), enter the runtime from
 * any Linux thread but an alarm handler (-EPERM) and allocate a zeroed
 * control block of @size bytes into *@object (-ENOMEM).  Lock NOT held.
 */
int alchemy_waitable_alloc(const char *name, size_t size,
			   struct nk_instance **nk, void **object);

#define alchemy_handle(desc) skin_handle(desc)

/* skin_register_locked() in an entered skin.  Lock held. */
static inline int alchemy_register(enum alchemy_class_id id, const char *name,
				   void *object, uintptr_t *handle)
{
	return skin_register_locked(alchemy(), id, name, object, handle);
}

/* skin_publish(), taking the lock. */
static inline int alchemy_publish(enum alchemy_class_id id, const char *name,
				  void *object, uintptr_t *handle)
{
	return skin_publish(alchemy(), id, name, object, handle);
}

/* skin_unregister_locked().  Lock held. */
static inline void alchemy_unregister(uintptr_t handle)
{
	skin_unregister_locked(alchemy(), handle);
}

/*
 * Free the entry's name (rt_*_bind() no longer finds it, another object
 * may take it); the handle stays valid until alchemy_unregister().
 * Lock held.
 */
static inline void alchemy_unlink(uintptr_t handle)
{
	skin_unlink_locked(alchemy(), handle);
}

/* skin_lookup_locked(): -EINVAL for a bad handle.  Lock held. */
static inline int alchemy_lookup(enum alchemy_class_id id, uintptr_t handle,
				 void **object)
{
	return skin_lookup_locked(alchemy(), id, handle, object);
}

/* skin_get(): returns with the lock held on success only. */
static inline int alchemy_get(enum alchemy_class_id id, const uintptr_t *handle,
			      struct nk_instance **nk, void **object)
{
	return skin_get(&alchemy_skin, id, handle, nk, object);
}

/* skin_delete().  Lock NOT held. */
static inline int
alchemy_delete(enum alchemy_class_id id, const uintptr_t *handle,
	       int (*refuse)(struct nk_instance *nk, void *object))
{
	return skin_delete(&alchemy_skin, id, handle, refuse);
}

/* Name of a registered object into @buf (XNOBJECT_NAME_LEN).  Lock held. */
static inline void alchemy_name(uintptr_t handle, char *buf)
{
	skin_name_locked(alchemy(), handle, buf);
}

/* A relative RTIME: TM_INFINITE, TM_NONBLOCK or ns from now. */
static inline struct skin_timeout alchemy_rel(RTIME timeout)
{
	if (timeout == TM_INFINITE)
		return skin_infinite();
	return timeout == TM_NONBLOCK ? skin_nonblock() : skin_rel_ns(timeout);
}

/* An absolute RTIME (the _until forms): TM_INFINITE, TM_NONBLOCK or a date. */
static inline struct skin_timeout alchemy_abs(RTIME date)
{
	if (date == TM_INFINITE || date == TM_NONBLOCK)
		return alchemy_rel(date);
	return skin_abs_ns(date);
}

/* rt_*_bind(): wait up to @timeout (relative); skin_bind(). */
static inline int alchemy_bind(enum alchemy_class_id id, uintptr_t *handle,
			       const char *name, RTIME timeout)
{
	return skin_bind(&alchemy_skin, id, handle, name, alchemy_rel(timeout));
}

#pragma GCC visibility pop

#endif
