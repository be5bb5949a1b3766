/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: errnoLib.  Every failing call of the skin returns ERROR
 * (or NULL) and sets the caller's error status, which is the C errno of
 * the caller's thread (each task runs on a thread of its own, so errno
 * is per task as on VxWorks) and is kept in the task's control block
 * too, where errnoOfTaskGet() reads another task's.
 */
#ifndef FUSION_VXWORKS_ERRNOLIB_H
#define FUSION_VXWORKS_ERRNOLIB_H

#include <vxworks/intLib.h>
#include <vxworks/memLib.h>
#include <vxworks/msgQLib.h>
#include <vxworks/objLib.h>
#include <vxworks/semLib.h>
#include <vxworks/taskLib.h>
#include <vxworks/vxWorks.h>

#include <errno.h>

#ifdef __cplusplus
extern "C" {
#endif

#define errnoGet vxworks_errnoGet
#define errnoSet vxworks_errnoSet
#define errnoOfTaskGet vxworks_errnoOfTaskGet
#define errnoOfTaskSet vxworks_errnoOfTaskSet
#define printErrno vxworks_printErrno

/* The caller's error status.  Any context. */
int errnoGet(void);
/* Set the caller's error status; OK.  Any context. */
STATUS errnoSet(int errorValue);
/*
 * The error status of task @tid (0: the caller).  ERROR with
 * S_objLib_OBJ_ID_ERROR for a bad ID.
 */
int errnoOfTaskGet(TASK_ID tid);
/* Set task @tid's (0: the caller's).  ERROR, S_objLib_OBJ_ID_ERROR. */
STATUS errnoOfTaskSet(TASK_ID tid, int errorValue);
/*
 * Print @errNo (0: the caller's error status) to stdout, by its symbolic
 * name for the skin's own values, else in hexadecimal.
 */
void printErrno(int errNo);

#ifdef __cplusplus
}
#endif

#endif
