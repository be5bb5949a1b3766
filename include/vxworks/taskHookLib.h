/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: task create and delete hooks.  A create hook runs when
 * a thread becomes a task (taskSpawn(), or a first call of the skin by
 * main or another skin's thread), a delete hook when a task ends, by
 * any path; each gets the task's WIND_TCB *.  They run with the
 * nucleus lock held, in the thread that creates or ends the task: they
 * must not block (they may give a semaphore, send NO_WAIT...).
 * Create hooks run in the order they were added, delete hooks in the
 * reverse order.  The hook tables belong to the process that adds them.
 */
#ifndef FUSION_VXWORKS_TASKHOOKLIB_H
#define FUSION_VXWORKS_TASKHOOKLIB_H

#include <vxworks/taskLib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Hooks of each kind a program may add. */
#define VX_MAX_TASK_HOOKS 16

#define taskCreateHookAdd vxworks_taskCreateHookAdd
#define taskCreateHookDelete vxworks_taskCreateHookDelete
#define taskDeleteHookAdd vxworks_taskDeleteHookAdd
#define taskDeleteHookDelete vxworks_taskDeleteHookDelete

/*
 * Add @hook, called as void hook(WIND_TCB *).  ERROR with
 * S_taskLib_TASK_HOOK_TABLE_FULL, S_objLib_OBJ_ID_ERROR (NULL).
 */
STATUS taskCreateHookAdd(FUNCPTR hook);
/* Remove @hook.  ERROR with S_taskLib_TASK_HOOK_NOT_FOUND. */
STATUS taskCreateHookDelete(FUNCPTR hook);
STATUS taskDeleteHookAdd(FUNCPTR hook);
STATUS taskDeleteHookDelete(FUNCPTR hook);

#ifdef __cplusplus
}
#endif

#endif
