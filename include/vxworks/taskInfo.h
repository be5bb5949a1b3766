/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: taskInfo, what a program may ask about its tasks
 * (declared by <taskLib.h> too, as on VxWorks).
 */
#ifndef FUSION_VXWORKS_TASKINFO_H
#define FUSION_VXWORKS_TASKINFO_H

#include <vxworks/vxWorks.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What taskGetInfo() reports (a subset of VxWorks's TASK_DESC). */
typedef struct {
	TASK_ID td_id;	    /**< its ID */
	char *td_name;	    /**< the task's own, valid while it lives */
	int td_priority;    /**< current, inheritance included */
	int td_status;	    /**< WIND_READY, or WIND_SUSPEND|PEND|DELAY */
	int td_options;	    /**< as spawned */
	FUNCPTR td_entry;   /**< its entry point */
	int td_stackSize;   /**< as asked for */
	int td_errorStatus; /**< its errno */
} TASK_DESC;

#define taskName vxworks_taskName
#define taskNameToId vxworks_taskNameToId
#define taskIdDefault vxworks_taskIdDefault
#define taskIsReady vxworks_taskIsReady
#define taskIsSuspended vxworks_taskIsSuspended
#define taskGetInfo vxworks_taskGetInfo

/* @tid's name (0: the caller's), valid while it lives; NULL if none. */
char *taskName(TASK_ID tid);
/*
 * The ID of a live task named @name (the first spawned if several share
 * it), else ERROR with S_taskLib_NAME_NOT_FOUND.
 */
TASK_ID taskNameToId(const char *name);
/* Set the default task ID if @tid is not 0; return the default. */
TASK_ID taskIdDefault(TASK_ID tid);
/* TRUE if @tid is ready to run (neither pended, delayed nor suspended). */
BOOL taskIsReady(TASK_ID tid);
/* TRUE if @tid is suspended. */
BOOL taskIsSuspended(TASK_ID tid);
/* Describe @tid into *@pTaskDesc.  ERROR, S_objLib_OBJ_ID_ERROR. */
STATUS taskGetInfo(TASK_ID tid, TASK_DESC *pTaskDesc);

#ifdef __cplusplus
}
#endif

#endif
