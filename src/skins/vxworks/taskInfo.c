/* SPDX-License-Identifier: MIT */
/* VxWorks taskInfo: names, states and descriptions of tasks. */
#include "internal.h"

#include <errno.h>
#include <string.h>

char *taskName(TASK_ID tid)
{
	WIND_TCB *tcb = taskTcb(tid);

	return tcb ? tcb->name : NULL;
}

TASK_ID taskNameToId(const char *name)
{
	char key[VX_TASK_NAME_LENGTH];
	struct nk_instance *nk;
	struct vx_state *vs;
	struct vx_task *t;
	uintptr_t handle;
	TASK_ID tid;
	int ret;

	if (name == NULL || name[0] == '\0')
		return vx_fail(S_taskLib_NAME_NOT_FOUND);
	ret = vx_enter(&nk, &vs);
	if (ret)
		return vx_fail(ret);
	/* Names are kept cut to the registry's length: look them up so. */
	snprintf(key, sizeof(key), "%s", name);
	nk_lock(nk);
	ret = skin_find_locked(&vs->skin, VX_TASK, key, &handle);
	if (ret == 0)
		ret = vx_task_lookup_locked(handle, &t);
	tid = ret ? ERROR : vx_task_id(t);
	nk_unlock(nk);
	return ret ? vx_fail(S_taskLib_NAME_NOT_FOUND) : tid;
}

TASK_ID taskIdDefault(TASK_ID tid)
{
	struct nk_instance *nk;
	struct vx_state *vs;
	TASK_ID ret;

	if (vx_enter(&nk, &vs))
		return 0;
	nk_lock(nk);
	nk_journal_obj(&vs->default_tid);
	if (tid != 0)
		vs->default_tid = tid;
	ret = vs->default_tid;
	nk_unlock(nk);
	return ret;
}

/* VxWorks counts the running task as ready. */
BOOL taskIsReady(TASK_ID tid)
{
	TASK_DESC desc = {0}; /* for -O3, which cannot see it filled */

	return taskGetInfo(tid, &desc) == OK && desc.td_status == WIND_READY;
}

BOOL taskIsSuspended(TASK_ID tid)
{
	TASK_DESC desc = {0}; /* for -O3, which cannot see it filled */

	return taskGetInfo(tid, &desc) == OK && (desc.td_status & WIND_SUSPEND);
}

/* A nucleus state as VxWorks's: a pend with a timeout is PEND|DELAY. */
static int task_status(unsigned int state)
{
	return (state & NK_THREAD_SUSPENDED ? WIND_SUSPEND : 0) |
	       (state & NK_THREAD_PENDING ? WIND_PEND : 0) |
	       (state & NK_THREAD_DELAYED ? WIND_DELAY : 0);
}

STATUS taskGetInfo(TASK_ID tid, TASK_DESC *pTaskDesc)
{
	struct nk_instance *nk;
	struct vx_task *t;
	int ret;

	if (pTaskDesc == NULL)
		return vx_fail(EINVAL);
	ret = vx_task_get(tid, &nk, &t);
	if (ret)
		return vx_fail(ret);
	memset(pTaskDesc, 0, sizeof(*pTaskDesc));
	pTaskDesc->td_id = vx_task_id(t);
	pTaskDesc->td_name = t->tcb.name;
	pTaskDesc->td_priority =
	    vx_prio(nk_thread_effective_priority(t->thread));
	pTaskDesc->td_status = task_status(nk_thread_state(t->thread));
	pTaskDesc->td_options = t->tcb.options;
	pTaskDesc->td_entry = t->tcb.entry;
	pTaskDesc->td_stackSize = t->tcb.stackSize;
	/* The caller's own status is errno, which it may set directly. */
	pTaskDesc->td_errorStatus = t->thread == nk_thread_self(nk)
					? errno
					: *nk_thread_errno(t->thread);
	nk_unlock(nk);
	return OK;
}
