/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin internals: the skin on the common object layer
 * (skins/common/skin.h), its per-instance state and its task control
 * block.
 *
 * Every service returns ERROR (or NULL) after setting the caller's
 * error status with vx_fail(); inside the skin, functions return 0 or
 * that status (a positive VxWorks code: S_objLib_OBJ_ID_ERROR for any
 * bad ID, the layer's bad-handle code).  Nucleus results become
 * VxWorks codes in one place, vx_error() (object.c).  Every object and
 * task is found through its ID under the nucleus lock, as in Alchemy.
 */
#ifndef VXWORKS_INTERNAL_H
#define VXWORKS_INTERNAL_H

#include "skins/common/skin.h"

#include <vxworks/errnoLib.h>
#include <vxworks/kernLib.h>
#include <vxworks/memPartLib.h>
#include <vxworks/rngLib.h>
#include <vxworks/sysLib.h>
#include <vxworks/taskHookLib.h>
#include <vxworks/taskInfo.h>
#include <vxworks/tickLib.h>
#include <vxworks/wdLib.h>
#include <fusion/fusion.h>

#pragma GCC visibility push(hidden)

/* VxWorks priority p runs at nucleus priority 255 - p: 0 most urgent. */
#define VX_PRIO_MIN 0
#define VX_PRIO_MAX 255
#define vx_nk_prio(p) (NK_PRIO_MAX - (p))
#define vx_prio(nkprio) (NK_PRIO_MAX - (nkprio))

enum vx_class_id {
	VX_TASK,
	VX_SEM,
	VX_MSGQ,
	VX_WD,
	VX_PART,
	VX_RING,
	VX_NR_CLASSES
};

/* A task being spawned, for the attach hook (taskLib.c). */
struct vx_spawn;

/* The skin's state in an instance.  Lock held for every field. */
struct vx_state {
	struct skin skin;
	TASK_ID default_tid;   /* taskIdDefault() */
	int clk_rate;	       /* sysClkRateGet() */
	int slice;	       /* kernelTimeSlice(), ticks; 0: off */
	unsigned long spawned; /* names "tN" of anonymous tasks */
	uintptr_t sys_part;    /* memSysPartId, once asked for */
};

/*
 * What a task ID names in the registry: the task's current TCB, which
 * taskRestart() replaces under the same ID.  From nk_alloc(), freed
 * when the task ends for good.  Lock held.
 */
struct vx_task_anchor {
	struct vx_task *tcb;
};

/*
 * The task control block: the extension of the skin's personality on a
 * nucleus thread, set up by the attach hook, torn down by the exit hook
 * whoever ends the thread, freed with it.  Lock held for every field.
 */
struct vx_task {
	WIND_TCB tcb; /* taskTcb(), the hooks' argument */
	uintptr_t handle;
	struct vx_task_anchor *anchor; /* NULL once restarted */
	/* taskInit(): the program's WIND_TCB, whose address is the ID. */
	WIND_TCB *user_tcb;
	struct nk_thread *thread;
	_Vx_usr_arg_t args[10];
	int safe; /* taskSafe() nesting */
	/* errnoOfTaskSet() by another task: errnoGet() takes it up. */
	bool errno_set;
	struct nk_synch safe_wait; /* deleters waiting for taskUnsafe() */
};

extern const struct skin_desc vxworks_skin;

/*
 * The personality's thread hooks (taskLib.c); none is needed at
 * finalize: the TCB goes with the thread.  Lock held.
 */
int vx_task_attach(struct nk_thread *thread, void *ext);
void vx_task_exit(struct nk_thread *thread, void *ext);
/* Run the create or delete hooks on @t (taskHookLib.c).  Lock held. */
void vx_run_create_hooks(struct vx_task *t);
void vx_run_delete_hooks(struct vx_task *t);

/* Each class's reclaim hook (skin_class.reclaim).  Lock held. */
void vx_sem_reclaim(struct nk_instance *nk, void *object);
void vx_msgq_reclaim(struct nk_instance *nk, void *object);
void vx_wd_reclaim(struct nk_instance *nk, void *object);
void vx_wd_describe(const void *object, struct nk_object_info *info);
void vx_part_reclaim(struct nk_instance *nk, void *object);
void vx_part_describe(const void *object, struct nk_object_info *info);
void vx_ring_reclaim(struct nk_instance *nk, void *object);
/* Describe hooks (skin_class.describe), in the class's file. */
void vx_sem_describe(const void *object, struct nk_object_info *info);
void vx_msgq_describe(const void *object, struct nk_object_info *info);
void vx_ring_describe(const void *object, struct nk_object_info *info);

/* Set the caller's error status to @status; returns ERROR.  Any. */
int vx_fail(int status);
/* OK for 0, else ERROR with the caller's error status set to @status. */
STATUS vx_status(int status);
/* The caller's task's error slot (NULL outside a task).  Any. */
int *vx_errno_slot(void);

/* The nucleus's @err (-errno or wake reason) as a VxWorks status. */
int vx_error(int err);

/*
 * Enter the skin: the instance into *@nk, the state into *@vs (either
 * may be NULL).  Errors: VxWorks statuses (of skin_enter()).
 */
int vx_enter(struct nk_instance **nk, struct vx_state **vs);
/* As vx_enter(), refused in interrupt context (S_intLib_NOT_ISR_CALLABLE). */
int vx_enter_task_level(struct nk_instance **nk, struct vx_state **vs);

/* The skin's state, NULL before the first entry.  Lock held or not. */
static inline struct vx_state *vx_state(void)
{
	return (struct vx_state *)skin_state(&vxworks_skin);
}

/*
 * The caller's TCB, attaching the skin to a nucleus thread that does not
 * carry it yet (main, a thread of another skin).  Errors:
 * S_intLib_NOT_ISR_CALLABLE (interrupt context), S_objLib_OBJ_ID_ERROR
 * (a plain pthread), S_memLib_NOT_ENOUGH_MEMORY.  Lock held or not.
 */
int vx_task_current(struct nk_instance **nk, struct vx_task **out);
/*
 * Enter, lock and find task @tid (0: the caller).  Returns with the lock
 * held on success only.  Errors: S_objLib_OBJ_ID_ERROR (also for a task
 * that ended), those of vx_task_current().
 */
int vx_task_get(TASK_ID tid, struct nk_instance **nk, struct vx_task **out);
/*
 * The task of ID @tid (a handle, or a taskInit() WIND_TCB's address,
 * compared, never followed): S_objLib_OBJ_ID_ERROR.  Lock held.
 */
int vx_task_lookup_locked(uintptr_t tid, struct vx_task **out);
/*
 * Undo one taskSafe() of @t; at zero, its waiting deleters are readied
 * (the caller reschedules).  Lock held.
 */
void vx_task_unsafe_locked(struct vx_task *t);
/*
 * Task @t's ID: its handle, or for a task made by taskInit() the address
 * of the program's WIND_TCB, as on VxWorks.  Lock held.
 */
static inline TASK_ID vx_task_id(const struct vx_task *t)
{
	return t->user_tcb ? (TASK_ID)(uintptr_t)t->user_tcb
			   : (TASK_ID)t->handle;
}

/*
 * A timeout in ticks (NO_WAIT, WAIT_FOREVER or any negative: for ever).
 */
static inline struct skin_timeout vx_timeout(struct skin *sk, int ticks)
{
	if (ticks < 0)
		return skin_infinite();
	return skin_rel_ticks(sk, (uint64_t)ticks);
}

/* Enter, lock and find object @id of class @cls: lock held on success. */
static inline int vx_get(enum vx_class_id cls, const void *id,
			 struct nk_instance **nk, void **object)
{
	uintptr_t handle = (uintptr_t)id;

	return skin_get(&vxworks_skin, cls, &handle, nk, object);
}

/*
 * The start of creating an object: enter at task level and allocate a
 * zeroed control block of @size bytes into *@object.  Errors:
 * S_intLib_NOT_ISR_CALLABLE, S_memLib_NOT_ENOUGH_MEMORY.
 */
int vx_object_alloc(size_t size, struct nk_instance **nk, void **object);

/*
 * VxWorks lets a task wait under taskLock(): the lock is dropped while
 * it waits (the tasks it held back run) and is taken back, at the same
 * depth, when it runs again.  vx_sched_drop() drops the caller's
 * scheduler lock and returns the depth to give vx_sched_restore().
 * Lock NOT held.
 */
int vx_sched_drop(struct nk_instance *nk);
void vx_sched_restore(struct nk_instance *nk, int depth);
/*
 * Run @op(@arg, @timeout), a service that waits up to @timeout ticks
 * and returns a status, S_objLib_OBJ_UNAVAILABLE when NO_WAIT cannot be
 * served: under taskLock(), first without waiting, then, if it would
 * wait, with the scheduler lock dropped meanwhile.  Lock NOT held.
 */
int vx_wait(int (*op)(void *arg, int timeout), void *arg, int timeout);

/* Delete object @id of class @cls (skin_delete()); not from interrupts. */
int vx_delete(enum vx_class_id cls, const void *id);

/*
 * Make @object, set up by @setup, an object of class @cls: its handle
 * into *@id.  On error, @release frees it.  Errors: statuses.
 */
int vx_create(enum vx_class_id cls, void *object,
	      int (*setup)(struct nk_instance *nk, void *object,
			   const char *wname),
	      void (*release)(struct nk_instance *nk, void *object),
	      uintptr_t *id);

/*
 * A FUNCPTR called as what it really is (through void (*)(void), the
 * cast that states the change of function type on purpose).
 */
#define vx_fn(type, fn) ((type)(void (*)(void))(fn))

/* Apply kernelTimeSlice()'s setting to @thread, or every task.  Lock
 * held. */
void vx_apply_slice(struct vx_state *vs, struct nk_thread *thread);
void vx_slice_all(struct vx_state *vs);

#pragma GCC visibility pop

#endif
