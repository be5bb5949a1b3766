/* SPDX-License-Identifier: MIT */
/*
 * VxWorks tasks over nucleus threads.
 *
 * A task is a nucleus thread carrying the skin's personality, whose
 * extension is the TCB (internal.h).  Its ID is the handle of its
 * anchor in the registry, under its name (taskRestart() hands the
 * anchor to a new thread), or for a task made by taskInit() the address
 * of the program's WIND_TCB, found by comparing.  VxWorks lets tasks
 * share a name, so a task whose name is taken is registered anonymously
 * (taskNameToId() finds the first).  The attach hook sets a TCB up and
 * runs the create hooks, the exit hook runs the delete hooks and makes
 * the ID stale at once, whoever ends the thread (its return, taskExit(),
 * taskDelete(), the instance's end).  Threads that never went through
 * taskSpawn() (main, a thread of another skin) become tasks on their first
 * call.
 *
 * nk_thread_* services are called with the nucleus lock held on a
 * thread found under it: a task cannot end between lookup and use.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#define VX_TASK_OPTIONS                                                        \
	(VX_SUPERVISOR_MODE | VX_UNBREAKABLE | VX_DEALLOC_STACK | VX_FP_TASK | \
	 VX_STDIO | VX_ADA_DEBUG | VX_FORTRAN | VX_PRIVATE_ENV |               \
	 VX_NO_STACK_FILL)

/* Stacks below this get the framework's default (256 KiB): Linux
 * threads need more than VxWorks tasks were given. */
#define VX_STACK_FLOOR (256 * 1024)

/*
 * What taskSpawn() and taskRestart() pass to the attach hook of the
 * thread they make.
 */
struct vx_spawn {
	struct nk_thread *thread;
	/* taskRestart(): the ID the new thread takes over, else NULL. */
	struct vx_task *restarted;
	WIND_TCB *user_tcb; /* taskInit()'s, else NULL */
	bool dormant;	    /* taskInit(): until taskActivate() */
	const char *name;
	int options;
	int stack_size;
	FUNCPTR entry;
	const _Vx_usr_arg_t *args;
};

/* The spawn in progress in this process, for the attach hook (it is on
 * the spawner's stack: another process of a session has its own).  Lock
 * held. */
static struct vx_spawn *spawning;

void vx_apply_slice(struct vx_state *vs, struct nk_thread *thread)
{
	nk_time_t quantum =
	    nk_tbase_ticks_to_ns(&vs->skin.tbase, (uint64_t)vs->slice);

	(void)nk_thread_set_policy(thread,
				   vs->slice ? NK_SCHED_RR : NK_SCHED_FIFO,
				   vs->slice ? quantum : 0);
}

/*
 * Give @t its ID: @old's (taskRestart()), else a new one under its
 * name, or anonymous when the name is taken (VxWorks lets tasks share a
 * name).  Errors: statuses.  Lock held.
 */
static int task_register(struct vx_state *vs, struct vx_task *t,
			 struct vx_task *old)
{
	struct nk_instance *nk = vs->skin.nk;
	int ret;

	if (old) {
		t->user_tcb = old->user_tcb;
		t->anchor = old->anchor;
		t->handle = old->handle;
		old->anchor = NULL;
		nk_journal_obj(t->anchor);
		t->anchor->tcb = t;
		return 0;
	}
	t->anchor = nk_alloc(nk, sizeof(*t->anchor));
	if (t->anchor == NULL)
		return S_memLib_NOT_ENOUGH_MEMORY;
	t->anchor->tcb = t;
	ret = skin_register_locked(&vs->skin, VX_TASK, t->tcb.name, t->anchor,
				   &t->handle);
	if (ret == EEXIST)
		ret = skin_register_locked(&vs->skin, VX_TASK, NULL, t->anchor,
					   &t->handle);
	if (ret) {
		nk_free(nk, t->anchor);
		t->anchor = NULL;
	}
	return ret;
}

int vx_task_attach(struct nk_thread *thread, void *ext)
{
	struct vx_task *t = ext;
	struct nk_instance *nk = nk_thread_instance(thread);
	struct vx_state *vs = nk_personality_state(nk, &vxworks_skin.pers);
	struct vx_spawn *sp = spawning;
	int ret;

	if (sp && sp->thread != thread)
		sp = NULL;
	t->thread = thread;
	snprintf(t->tcb.name, sizeof(t->tcb.name), "%s",
		 sp ? sp->name : nk_thread_name(thread));
	if (sp) {
		t->tcb.options = sp->options;
		t->tcb.stackSize = sp->stack_size;
		t->tcb.entry = sp->entry;
		memcpy(t->args, sp->args, sizeof(t->args));
		t->user_tcb = sp->user_tcb;
	}
	ret = nk_synch_init(nk, &t->safe_wait, t->tcb.name, NK_SYNCH_FIFO, 0);
	if (ret == 0)
		ret = task_register(vs, t, sp ? sp->restarted : NULL);
	if (ret) {
		nk_synch_destroy_locked(&t->safe_wait);
		return -ENOMEM;
	}
	if (vs->slice)
		vx_apply_slice(vs, thread);
	vx_run_create_hooks(t);
	return 0;
}

void vx_task_exit(struct nk_thread *thread, void *ext)
{
	struct vx_task *t = ext;
	struct vx_state *vs = nk_personality_state(nk_thread_instance(thread),
						   &vxworks_skin.pers);

	vx_run_delete_hooks(t);
	/* Restarted: its ID lives on in its successor. */
	if (t->anchor) {
		skin_unregister_locked(&vs->skin, t->handle);
		nk_free(vs->skin.nk, t->anchor);
	}
	/* Its deleters wake: it is gone, as they asked. */
	nk_synch_destroy_locked(&t->safe_wait);
}

int vx_task_current(struct nk_instance **nk, struct vx_task **out)
{
	struct nk_thread *self;
	int ret = vx_enter_task_level(nk, NULL);

	if (ret)
		return ret;
	self = nk_thread_self(*nk);
	if (self == NULL)
		return S_objLib_OBJ_ID_ERROR;
	/* Attached already: the common case needs no lock. */
	*out = nk_thread_personality(self, &vxworks_skin.pers);
	if (*out)
		return 0;
	return vx_error(
	    nk_thread_attach(self, &vxworks_skin.pers, (void **)out));
}

int vx_task_get(TASK_ID tid, struct nk_instance **nk, struct vx_task **out)
{
	int ret;

	if (tid == 0) {
		ret = vx_task_current(nk, out);
		if (ret == 0) {
			nk_lock(*nk);
			nk_journal_block(*out);
		}
		return ret;
	}
	ret = vx_enter(nk, NULL);
	if (ret)
		return ret;
	nk_lock(*nk);
	ret = vx_task_lookup_locked((uintptr_t)tid, out);
	if (ret)
		nk_unlock(*nk);
	return ret;
}

int vx_task_lookup_locked(uintptr_t tid, struct vx_task **out)
{
	struct skin *sk = skin_state(&vxworks_skin);
	struct vx_task_anchor *anchor;
	struct skin_entry e;
	uint32_t cursor = 0;
	int ret = skin_lookup_locked(sk, VX_TASK, tid, (void **)&anchor);

	if (ret == 0) {
		*out = anchor->tcb;
		nk_journal_block(*out);
		return 0;
	}
	/* Not a handle: maybe a taskInit() task's WIND_TCB address. */
	while (tid && skin_list_locked(sk, VX_TASK, &cursor, &e) == 0) {
		anchor = e.object;
		if ((uintptr_t)anchor->tcb->user_tcb == tid) {
			*out = anchor->tcb;
			return 0;
		}
	}
	return ret;
}

/* Returning from the entry ends the thread: the exit hook cleans up. */
static void task_trampoline(void *arg)
{
	struct vx_task *t = arg;
	struct nk_instance *nk = nk_thread_instance(t->thread);
	_Vx_usr_arg_t a[10];
	FUNCPTR entry;

	nk_lock(nk);
	entry = t->tcb.entry;
	memcpy(a, t->args, sizeof(a));
	nk_unlock(nk);
	entry(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
}

/*
 * Create and start the task @sp describes (its thread still NULL) at
 * @priority; its ID into *@tid.  Once started, the task may run, end
 * and be freed before this returns: nothing of it is read after.
 * Errors: nucleus -errno.  Lock held.
 */
static int task_make_locked(struct nk_instance *nk, struct vx_spawn *sp,
			    int priority, TASK_ID *tid)
{
	struct nk_thread_attr attr = {.policy = NK_SCHED_FIFO};
	struct vx_task *t;
	int ret;

	attr.name = sp->name;
	attr.priority = vx_nk_prio(priority);
	attr.stack_size =
	    sp->stack_size > VX_STACK_FLOOR ? (size_t)sp->stack_size : 0;
	ret = nk_thread_create(nk, &attr, &sp->thread);
	if (ret)
		return ret;
	spawning = sp;
	ret = nk_thread_attach(sp->thread, &vxworks_skin.pers, (void **)&t);
	spawning = NULL;
	if (ret == 0) {
		*tid = vx_task_id(t);
		if (sp->user_tcb)
			*sp->user_tcb = t->tcb;
		if (!sp->dormant)
			ret = nk_thread_start(sp->thread, task_trampoline, t);
	}
	if (ret)
		nk_thread_delete(sp->thread);
	return ret;
}

/* taskSpawn() once its arguments are checked. */
static int task_spawn(struct vx_spawn *sp, int priority, TASK_ID *tid)
{
	char name[VX_TASK_NAME_LENGTH];
	struct nk_instance *nk;
	struct vx_state *vs;
	int ret;

	ret = vx_enter_task_level(&nk, &vs);
	if (ret)
		return ret;
	nk_lock(nk);
	nk_journal_obj(&vs->spawned);
	/* Anonymous tasks are named as VxWorks names them; long names are
	 * cut to what the registry and the nucleus keep. */
	if (sp->name == NULL || sp->name[0] == '\0')
		snprintf(name, sizeof(name), "t%lu", ++vs->spawned);
	else
		snprintf(name, sizeof(name), "%s", sp->name);
	sp->name = name;
	ret = task_make_locked(nk, sp, priority, tid);
	nk_unlock(nk);
	return vx_error(ret);
}

/*
 * A new thread takes over the task's ID, name, options, entry and
 * arguments, at its base priority; the old one is deleted.  Deletion
 * safety is not waited for.  The new thread is made dormant and the
 * old one deleted before it starts (either may let others run: each
 * is found again by its ID), but on the caller, which cannot go first.
 */
STATUS taskRestart(TASK_ID tid)
{
	struct nk_instance *nk;
	struct vx_state *vs;
	struct vx_task *old, *t;
	struct nk_thread *old_thread;
	struct vx_spawn sp;
	TASK_ID new_tid;
	int ret;

	ret = vx_enter_task_level(&nk, &vs);
	if (ret == 0)
		ret = vx_task_get(tid, &nk, &old);
	if (ret)
		return vx_fail(ret);
	/* A thread that was never spawned has no entry to restart, and
	 * another process's (a session's) has its entry there. */
	if (old->tcb.entry == NULL || !nk_thread_here(old->thread)) {
		nk_unlock(nk);
		return vx_fail(S_taskLib_ILLEGAL_OPERATION);
	}
	sp = (struct vx_spawn){.restarted = old,
			       .dormant = true,
			       .name = old->tcb.name,
			       .options = old->tcb.options,
			       .stack_size = old->tcb.stackSize,
			       .entry = old->tcb.entry,
			       .args = old->args};
	old_thread = old->thread;
	ret = task_make_locked(nk, &sp, vx_prio(nk_thread_priority(old_thread)),
			       &new_tid);
	if (ret == 0 && old_thread != nk_thread_self(nk))
		ret = nk_thread_delete(old_thread);
	if (ret == 0 && vx_task_lookup_locked((uintptr_t)new_tid, &t) == 0)
		ret = nk_thread_start(t->thread, task_trampoline, t);
	/* On the caller: does not return. */
	if (ret == 0 && old_thread == nk_thread_self(nk))
		ret = nk_thread_delete(old_thread);
	nk_unlock(nk);
	return vx_status(vx_error(ret));
}

/*
 * taskSpawn() (@user_tcb NULL: started) and taskInit() (left dormant in
 * @user_tcb): check, then make the task.  Errors: statuses.
 */
static int task_new(WIND_TCB *user_tcb, const char *name, int priority,
		    int options, int stackSize, FUNCPTR entryPt,
		    const _Vx_usr_arg_t *args, TASK_ID *tid)
{
	struct vx_spawn sp = {.name = name,
			      .options = options,
			      .stack_size = stackSize,
			      .entry = entryPt,
			      .args = args,
			      .user_tcb = user_tcb,
			      .dormant = user_tcb != NULL};

	if (priority < VX_PRIO_MIN || priority > VX_PRIO_MAX)
		return S_taskLib_ILLEGAL_PRIORITY;
	if (options & ~VX_TASK_OPTIONS)
		return S_taskLib_ILLEGAL_OPTIONS;
	if (stackSize < 0)
		return S_taskLib_ILLEGAL_STACK_INFO;
	return entryPt ? task_spawn(&sp, priority, tid) : EINVAL;
}

TASK_ID taskSpawn(const char *name, int priority, int options, int stackSize,
		  FUNCPTR entryPt, _Vx_usr_arg_t arg1, _Vx_usr_arg_t arg2,
		  _Vx_usr_arg_t arg3, _Vx_usr_arg_t arg4, _Vx_usr_arg_t arg5,
		  _Vx_usr_arg_t arg6, _Vx_usr_arg_t arg7, _Vx_usr_arg_t arg8,
		  _Vx_usr_arg_t arg9, _Vx_usr_arg_t arg10)
{
	const _Vx_usr_arg_t args[10] = {arg1, arg2, arg3, arg4, arg5,
					arg6, arg7, arg8, arg9, arg10};
	TASK_ID tid = 0;
	int ret = task_new(NULL, name, priority, options, stackSize, entryPt,
			   args, &tid);

	return ret ? vx_fail(ret) : tid;
}

/* The stack the program gives is not used: a task runs on its thread's. */
STATUS taskInit(WIND_TCB *pTcb, const char *name, int priority, int options,
		char *pStackBase, int stackSize, FUNCPTR entryPt,
		_Vx_usr_arg_t arg1, _Vx_usr_arg_t arg2, _Vx_usr_arg_t arg3,
		_Vx_usr_arg_t arg4, _Vx_usr_arg_t arg5, _Vx_usr_arg_t arg6,
		_Vx_usr_arg_t arg7, _Vx_usr_arg_t arg8, _Vx_usr_arg_t arg9,
		_Vx_usr_arg_t arg10)
{
	const _Vx_usr_arg_t args[10] = {arg1, arg2, arg3, arg4, arg5,
					arg6, arg7, arg8, arg9, arg10};
	TASK_ID tid;

	(void)pStackBase;
	if (pTcb == NULL)
		return vx_fail(EINVAL);
	return vx_status(task_new(pTcb, name, priority, options, stackSize,
				  entryPt, args, &tid));
}

STATUS taskActivate(TASK_ID tid)
{
	struct nk_instance *nk;
	struct vx_task *t;
	int ret = vx_task_get(tid, &nk, &t);

	if (ret)
		return vx_fail(ret);
	ret = (nk_thread_state(t->thread) & NK_THREAD_DORMANT)
		  ? vx_error(nk_thread_start(t->thread, task_trampoline, t))
		  : S_taskLib_ILLEGAL_OPERATION;
	nk_unlock(nk);
	return vx_status(ret);
}

/*
 * taskDelete() (@force false) and taskDeleteForce(): a safe task is
 * deleted once it is unsafe (its deleters wait on its queue); one that
 * ends meanwhile is gone, as asked.
 */
static STATUS task_delete(TASK_ID tid, bool force)
{
	struct nk_instance *nk;
	struct vx_task *t;
	uintptr_t handle;
	int ret;

	ret = vx_enter_task_level(NULL, NULL);
	if (ret == 0)
		ret = vx_task_get(tid, &nk, &t);
	if (ret)
		return vx_fail(ret);
	handle = t->handle;
	while (!force && t->safe > 0 && t->thread != nk_thread_self(nk)) {
		ret = nk_synch_sleep(&t->safe_wait, NK_INFINITE, NK_RELATIVE);
		if (ret == 0 && vx_task_lookup_locked(handle, &t))
			ret = -EIDRM;
		if (ret) {
			nk_unlock(nk);
			return ret == -EIDRM ? OK : vx_fail(vx_error(ret));
		}
	}
	/* On the caller: does not return. */
	ret = nk_thread_delete(t->thread);
	nk_unlock(nk);
	return vx_status(vx_error(ret));
}

STATUS taskDelete(TASK_ID tid)
{
	return task_delete(tid, false);
}

STATUS taskDeleteForce(TASK_ID tid)
{
	return task_delete(tid, true);
}

void taskExit(int code)
{
	struct nk_instance *nk;
	struct vx_task *t;

	(void)code;
	if (vx_task_current(&nk, &t) == 0)
		nk_thread_exit(nk);
}

/* What taskSuspend() and its kind do to a task's thread. */
enum task_op { TASK_SUSPEND, TASK_RESUME, TASK_PRIORITY };

static STATUS task_control(TASK_ID tid, enum task_op op, int arg)
{
	struct nk_instance *nk;
	struct vx_task *t;
	unsigned int state;
	int ret;

	ret = vx_task_get(tid, &nk, &t);
	if (ret)
		return vx_fail(ret);
	state = nk_thread_state(t->thread);
	switch (op) {
	case TASK_SUSPEND:
		/* VxWorks suspensions do not nest. */
		if (!(state & NK_THREAD_SUSPENDED))
			ret = nk_thread_suspend(t->thread);
		break;
	case TASK_RESUME:
		if (state & NK_THREAD_SUSPENDED)
			ret = nk_thread_resume(t->thread);
		break;
	case TASK_PRIORITY:
		ret = nk_thread_set_priority(t->thread, vx_nk_prio(arg));
		break;
	}
	nk_unlock(nk);
	return vx_status(vx_error(ret));
}

STATUS taskSuspend(TASK_ID tid)
{
	return task_control(tid, TASK_SUSPEND, 0);
}

STATUS taskResume(TASK_ID tid)
{
	return task_control(tid, TASK_RESUME, 0);
}

STATUS taskPrioritySet(TASK_ID tid, int newPriority)
{
	if (newPriority < VX_PRIO_MIN || newPriority > VX_PRIO_MAX)
		return vx_fail(S_taskLib_ILLEGAL_PRIORITY);
	return task_control(tid, TASK_PRIORITY, newPriority);
}

STATUS taskPriorityGet(TASK_ID tid, int *pPriority)
{
	TASK_DESC desc;

	if (pPriority == NULL)
		return vx_fail(EINVAL);
	if (taskGetInfo(tid, &desc))
		return ERROR;
	*pPriority = desc.td_priority;
	return OK;
}

void vx_task_unsafe_locked(struct vx_task *t)
{
	if (t->safe > 0 && --t->safe == 0)
		nk_synch_flush(&t->safe_wait, NK_WAKE_OK);
}

/* What taskLock() and its kind do to the caller. */
enum self_op { SELF_LOCK, SELF_UNLOCK, SELF_SAFE, SELF_UNSAFE };

static STATUS self_control(enum self_op op)
{
	struct nk_instance *nk;
	struct vx_task *t;
	int ret = vx_task_current(&nk, &t);

	if (ret)
		return vx_fail(ret);
	switch (op) {
	case SELF_LOCK:
		ret = vx_error(nk_sched_lock(nk));
		break;
	case SELF_UNLOCK:
		/* Unlocking an unlocked task does nothing. */
		if (nk_sched_lock_depth(nk) > 0)
			ret = vx_error(nk_sched_unlock(nk));
		break;
	case SELF_SAFE:
		nk_lock(nk);
		t->safe++;
		nk_unlock(nk);
		break;
	case SELF_UNSAFE:
		nk_lock(nk);
		vx_task_unsafe_locked(t);
		nk_sched_run(nk);
		nk_unlock(nk);
		break;
	}
	return vx_status(ret);
}

STATUS taskLock(void)
{
	return self_control(SELF_LOCK);
}

STATUS taskUnlock(void)
{
	return self_control(SELF_UNLOCK);
}

STATUS taskSafe(void)
{
	return self_control(SELF_SAFE);
}

STATUS taskUnsafe(void)
{
	return self_control(SELF_UNSAFE);
}

STATUS taskDelay(int ticks)
{
	struct nk_instance *nk;
	struct vx_task *t;
	struct skin_timeout to;
	int ret = vx_task_current(&nk, &t);

	if (ret)
		return vx_fail(ret);
	if (ticks == 0) {
		ret = nk_thread_yield(nk);
	} else {
		/* Under taskLock(), the lock waits with the task. */
		int depth = vx_sched_drop(nk);

		to = vx_timeout(skin_state(&vxworks_skin), ticks);
		ret = nk_thread_sleep(nk, to.value, to.mode);
		vx_sched_restore(nk, depth);
	}
	return vx_status(vx_error(ret));
}

TASK_ID taskIdSelf(void)
{
	struct nk_instance *nk;
	struct vx_task *t;

	return vx_task_current(&nk, &t) ? 0 : vx_task_id(t);
}

/* 0 names no task here, unlike for the services that take it. */
STATUS taskIdVerify(TASK_ID tid)
{
	if (tid == 0)
		return vx_fail(S_objLib_OBJ_ID_ERROR);
	return taskTcb(tid) ? OK : ERROR;
}

WIND_TCB *taskTcb(TASK_ID tid)
{
	struct nk_instance *nk;
	struct vx_task *t;
	int ret = vx_task_get(tid, &nk, &t);

	if (ret) {
		vx_fail(ret);
		return NULL;
	}
	nk_unlock(nk);
	return &t->tcb;
}
