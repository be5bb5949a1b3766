/* SPDX-License-Identifier: MIT */
/*
 * VxWorks task hooks, run from the personality's hooks (taskLib.c):
 * create hooks when a thread becomes a task, delete hooks when it ends.
 * A hook is code of the process that added it: the tables are each
 * process's, and run for that process's tasks (in a session, the tasks
 * of other processes run theirs).
 */
#include "internal.h"

/* The process's hooks, in the order added.  Lock held. */
static FUNCPTR create_hooks[VX_MAX_TASK_HOOKS];
static FUNCPTR delete_hooks[VX_MAX_TASK_HOOKS];
static int nr_create_hooks, nr_delete_hooks;

/* Enter and find the table of create (@create) or delete hooks. */
static int hook_table(bool create, struct nk_instance **nk, FUNCPTR **table,
		      int **nr)
{
	int ret = vx_enter(nk, NULL);

	if (ret)
		return ret;
	*table = create ? create_hooks : delete_hooks;
	*nr = create ? &nr_create_hooks : &nr_delete_hooks;
	return 0;
}

static STATUS hook_add(bool create, FUNCPTR hook)
{
	struct nk_instance *nk;
	FUNCPTR *table;
	int *nr, ret;

	if (hook == NULL)
		return vx_fail(S_objLib_OBJ_ID_ERROR);
	ret = hook_table(create, &nk, &table, &nr);
	if (ret)
		return vx_fail(ret);
	nk_lock(nk);
	if (*nr < VX_MAX_TASK_HOOKS)
		table[(*nr)++] = hook;
	else
		ret = S_taskLib_TASK_HOOK_TABLE_FULL;
	nk_unlock(nk);
	return ret ? vx_fail(ret) : OK;
}

/* Remove the first entry of @hook, keeping the others' order. */
static STATUS hook_delete(bool create, FUNCPTR hook)
{
	struct nk_instance *nk;
	FUNCPTR *table;
	int *nr, ret;

	ret = hook_table(create, &nk, &table, &nr);
	if (ret)
		return vx_fail(ret);
	ret = S_taskLib_TASK_HOOK_NOT_FOUND;
	nk_lock(nk);
	for (int i = 0; i < *nr; i++) {
		if (table[i] != hook)
			continue;
		for (int j = i + 1; j < *nr; j++)
			table[j - 1] = table[j];
		(*nr)--;
		ret = 0;
		break;
	}
	nk_unlock(nk);
	return ret ? vx_fail(ret) : OK;
}

STATUS taskCreateHookAdd(FUNCPTR hook)
{
	return hook_add(true, hook);
}

STATUS taskCreateHookDelete(FUNCPTR hook)
{
	return hook_delete(true, hook);
}

STATUS taskDeleteHookAdd(FUNCPTR hook)
{
	return hook_add(false, hook);
}

STATUS taskDeleteHookDelete(FUNCPTR hook)
{
	return hook_delete(false, hook);
}

typedef void (*task_hook_fn)(WIND_TCB *tcb);

void vx_run_create_hooks(struct vx_task *t)
{
	for (int i = 0; i < nr_create_hooks; i++)
		vx_fn(task_hook_fn, create_hooks[i])(&t->tcb);
}

void vx_run_delete_hooks(struct vx_task *t)
{
	/* A dead process's task, cleaned up here: its hooks went with it. */
	if (!nk_thread_here(t->thread))
		return;
	for (int i = nr_delete_hooks - 1; i >= 0; i--)
		vx_fn(task_hook_fn, delete_hooks[i])(&t->tcb);
}
