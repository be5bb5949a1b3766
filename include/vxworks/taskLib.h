/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: taskLib.  Tasks are nucleus threads; priority 0 is the
 * most urgent, 255 the least, all 256 distinct (nucleus priority
 * 255 - p).  The program's main thread, and a thread of another skin
 * calling this one, become tasks at their own priority.  A task ID
 * argument of 0 means the calling task.
 */
#ifndef FUSION_VXWORKS_TASKLIB_H
#define FUSION_VXWORKS_TASKLIB_H

#include <vxworks/vxWorks.h>

#ifdef __cplusplus
extern "C" {
#endif

#define S_taskLib_NAME_NOT_FOUND (M_taskLib | 101)
#define S_taskLib_TASK_HOOK_TABLE_FULL (M_taskLib | 102)
#define S_taskLib_TASK_HOOK_NOT_FOUND (M_taskLib | 103)
#define S_taskLib_ILLEGAL_PRIORITY (M_taskLib | 109)
#define S_taskLib_ILLEGAL_OPTIONS (M_taskLib | 110)
#define S_taskLib_ILLEGAL_OPERATION (M_taskLib | 112)
#define S_taskLib_ILLEGAL_STACK_INFO (M_taskLib | 113)

/* taskSpawn() options: accepted, none changes how a task runs here. */
#define VX_SUPERVISOR_MODE 0x0001
#define VX_UNBREAKABLE 0x0002
#define VX_DEALLOC_STACK 0x0004
#define VX_FP_TASK 0x0008
#define VX_STDIO 0x0010
#define VX_ADA_DEBUG 0x0020
#define VX_FORTRAN 0x0040
#define VX_PRIVATE_ENV 0x0080
#define VX_NO_STACK_FILL 0x0100

/* Task states (taskGetInfo()'s td_status), as VxWorks numbers them. */
#define WIND_READY 0x00
#define WIND_SUSPEND 0x01
#define WIND_PEND 0x02
#define WIND_DELAY 0x04
#define WIND_DEAD 0x08

/* Longest task name kept, with its NUL: longer ones are truncated. */
#define VX_TASK_NAME_LENGTH 32

/**
 * The public part of a task control block (taskTcb(), task hooks,
 * taskInit()'s): what the task was spawned with.  The skin fills it;
 * programs read it.
 */
typedef struct windTcb {
	char name[VX_TASK_NAME_LENGTH]; /**< its name, cut to 31 characters */
	int options;			/**< VX_* options */
	int stackSize;			/**< as asked for */
	FUNCPTR entry;			/**< its entry point */
} WIND_TCB;

#define taskSpawn vxworks_taskSpawn
#define taskInit vxworks_taskInit
#define taskActivate vxworks_taskActivate
#define taskDelete vxworks_taskDelete
#define taskDeleteForce vxworks_taskDeleteForce
#define taskExit vxworks_taskExit
#define taskSuspend vxworks_taskSuspend
#define taskResume vxworks_taskResume
#define taskPrioritySet vxworks_taskPrioritySet
#define taskPriorityGet vxworks_taskPriorityGet
#define taskLock vxworks_taskLock
#define taskUnlock vxworks_taskUnlock
#define taskSafe vxworks_taskSafe
#define taskUnsafe vxworks_taskUnsafe
#define taskDelay vxworks_taskDelay
#define taskIdSelf vxworks_taskIdSelf
#define taskIdVerify vxworks_taskIdVerify
#define taskTcb vxworks_taskTcb
#define taskRestart vxworks_taskRestart

/*
 * Create and start a task named @name (NULL: "tN", N counting spawns)
 * at priority @priority running @entryPt(@arg1..@arg10); it ends when
 * the entry returns.  @stackSize: bytes, at least the framework's
 * default stack (Linux threads need more than VxWorks tasks).  Returns
 * its ID, or ERROR with S_taskLib_ILLEGAL_PRIORITY,
 * S_taskLib_ILLEGAL_OPTIONS (an unknown option bit),
 * S_taskLib_ILLEGAL_STACK_INFO (negative size), S_objLib_OBJ_ID_ERROR
 * (NULL entry), S_memLib_NOT_ENOUGH_MEMORY, S_intLib_NOT_ISR_CALLABLE.
 */
TASK_ID taskSpawn(const char *name, int priority, int options, int stackSize,
		  FUNCPTR entryPt, _Vx_usr_arg_t arg1, _Vx_usr_arg_t arg2,
		  _Vx_usr_arg_t arg3, _Vx_usr_arg_t arg4, _Vx_usr_arg_t arg5,
		  _Vx_usr_arg_t arg6, _Vx_usr_arg_t arg7, _Vx_usr_arg_t arg8,
		  _Vx_usr_arg_t arg9, _Vx_usr_arg_t arg10);
/*
 * As taskSpawn(), the task left ready to start, in the program's
 * control block *@pTcb, whose address is the task's ID (as on VxWorks:
 * (TASK_ID)pTcb): the skin fills its public part and keeps its own
 * control block.  @pStackBase is not used (a task runs on its Linux
 * thread's stack).  ERROR with the codes of taskSpawn(), EINVAL (NULL
 * @pTcb).
 */
STATUS taskInit(WIND_TCB *pTcb, const char *name, int priority, int options,
		char *pStackBase, int stackSize, FUNCPTR entryPt,
		_Vx_usr_arg_t arg1, _Vx_usr_arg_t arg2, _Vx_usr_arg_t arg3,
		_Vx_usr_arg_t arg4, _Vx_usr_arg_t arg5, _Vx_usr_arg_t arg6,
		_Vx_usr_arg_t arg7, _Vx_usr_arg_t arg8, _Vx_usr_arg_t arg9,
		_Vx_usr_arg_t arg10);
/*
 * Start a task made by taskInit().  ERROR with S_objLib_OBJ_ID_ERROR,
 * S_taskLib_ILLEGAL_OPERATION (started already).
 */
STATUS taskActivate(TASK_ID tid);
/*
 * Delete task @tid (0: the caller, which does not return).  A task made
 * safe by taskSafe() (or holding a SEM_DELETE_SAFE mutex) is deleted
 * once it is unsafe again: the caller waits for that (under taskLock()
 * it cannot: S_objLib_OBJ_UNAVAILABLE).  ERROR with
 * S_objLib_OBJ_ID_ERROR, S_intLib_NOT_ISR_CALLABLE.
 */
STATUS taskDelete(TASK_ID tid);
/* As taskDelete(), ignoring deletion safety. */
STATUS taskDeleteForce(TASK_ID tid);
/*
 * Restart task @tid (0: the caller, which does not return) from its
 * entry point with its original arguments, keeping its ID, name,
 * options and current base priority.  Deletion safety is not waited for.
 * ERROR with S_objLib_OBJ_ID_ERROR, S_taskLib_ILLEGAL_OPERATION (a task
 * that was not spawned: main, a thread of another skin),
 * S_memLib_NOT_ENOUGH_MEMORY, S_intLib_NOT_ISR_CALLABLE.
 */
STATUS taskRestart(TASK_ID tid);
/* End the calling task (@code is not kept). */
void taskExit(int code);
/*
 * Suspend @tid (0: the caller) until taskResume(); suspending a
 * suspended task does nothing.  A pended or delayed task stays so too.
 */
STATUS taskSuspend(TASK_ID tid);
/* Resume @tid; resuming a task that is not suspended does nothing. */
STATUS taskResume(TASK_ID tid);
/* Set @tid's priority (0..255): S_taskLib_ILLEGAL_PRIORITY. */
STATUS taskPrioritySet(TASK_ID tid, int newPriority);
/* @tid's current priority (inheritance included) into *@pPriority. */
STATUS taskPriorityGet(TASK_ID tid, int *pPriority);
/*
 * Keep the CPU (nests): a task the caller readies runs at the final
 * taskUnlock().  A semTake(), msgQSend(), msgQReceive() or taskDelay()
 * that must wait lets the others run meanwhile, and the caller has its
 * lock back when it runs again, as on VxWorks.
 */
STATUS taskLock(void);
STATUS taskUnlock(void);
/* Protect the caller from deletion by others (nests). */
STATUS taskSafe(void);
/* Undo one taskSafe(); at zero, waiting deleters proceed. */
STATUS taskUnsafe(void);
/*
 * Sleep @ticks ticks of the system clock (until the @ticks-th tick
 * boundary from now); 0 yields to the tasks of the same priority;
 * negative (WAIT_FOREVER) sleeps for ever.  ERROR with
 * S_intLib_NOT_ISR_CALLABLE.
 */
STATUS taskDelay(int ticks);
/* The caller's task ID (0 in interrupt context or a plain thread). */
TASK_ID taskIdSelf(void);
/* OK if @tid is a live task, else ERROR with S_objLib_OBJ_ID_ERROR. */
STATUS taskIdVerify(TASK_ID tid);
/* @tid's control block (0: the caller's), valid while it lives; NULL. */
WIND_TCB *taskTcb(TASK_ID tid);

#ifdef __cplusplus
}
#endif

/* taskName(), taskNameToId()... are taskLib's on VxWorks. */
#include <vxworks/taskInfo.h>

#endif
