/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: semLib.  Binary and counting semaphores are nucleus
 * semaphores, mutual-exclusion semaphores nucleus mutexes (recursive;
 * SEM_INVERSION_SAFE is the nucleus's transitive priority inheritance).
 */
#ifndef FUSION_VXWORKS_SEMLIB_H
#define FUSION_VXWORKS_SEMLIB_H

#include <vxworks/vxWorks.h>

#ifdef __cplusplus
extern "C" {
#endif

#define S_semLib_INVALID_STATE (M_semLib | 101)
#define S_semLib_INVALID_OPTION (M_semLib | 102)
#define S_semLib_INVALID_QUEUE_TYPE (M_semLib | 103)
#define S_semLib_INVALID_OPERATION (M_semLib | 104)

/* Options. */
#define SEM_Q_FIFO 0x00
#define SEM_Q_PRIORITY 0x01
#define SEM_Q_MASK 0x03
#define SEM_DELETE_SAFE 0x04	/* mutex: the owner cannot be deleted */
#define SEM_INVERSION_SAFE 0x08 /* mutex: priority inheritance */

typedef enum { SEM_EMPTY = 0, SEM_FULL = 1 } SEM_B_STATE;

/* A handle, never an address (vxWorks.h). */
typedef struct vxworks_semaphore *SEM_ID;

#define semBCreate vxworks_semBCreate
#define semCCreate vxworks_semCCreate
#define semMCreate vxworks_semMCreate
#define semDelete vxworks_semDelete
#define semTake vxworks_semTake
#define semGive vxworks_semGive
#define semFlush vxworks_semFlush

/*
 * A binary semaphore, @initialState SEM_EMPTY or SEM_FULL, waiters in
 * FIFO or priority order (@options SEM_Q_FIFO or SEM_Q_PRIORITY).
 * NULL with S_semLib_INVALID_QUEUE_TYPE, S_semLib_INVALID_OPTION,
 * S_semLib_INVALID_STATE, S_memLib_NOT_ENOUGH_MEMORY,
 * S_intLib_NOT_ISR_CALLABLE.
 */
SEM_ID semBCreate(int options, SEM_B_STATE initialState);
/* A counting semaphore holding @initialCount (>= 0) units. */
SEM_ID semCCreate(int options, int initialCount);
/*
 * A mutual-exclusion semaphore (recursive; the owner only may give it),
 * with SEM_DELETE_SAFE and SEM_INVERSION_SAFE (which needs
 * SEM_Q_PRIORITY: else S_semLib_INVALID_OPTION).
 */
SEM_ID semMCreate(int options);
/*
 * Delete @semId; its waiters fail with S_objLib_OBJ_DELETED.  ERROR with
 * S_objLib_OBJ_ID_ERROR, S_intLib_NOT_ISR_CALLABLE.
 */
STATUS semDelete(SEM_ID semId);
/*
 * Take @semId, waiting up to @timeout ticks (NO_WAIT, WAIT_FOREVER).
 * ERROR with S_objLib_OBJ_UNAVAILABLE (NO_WAIT), S_objLib_OBJ_TIMEOUT,
 * S_objLib_OBJ_DELETED, S_objLib_OBJ_ID_ERROR, S_intLib_NOT_ISR_CALLABLE
 * (interrupt context).  A semFlush() ends the wait with OK.
 */
STATUS semTake(SEM_ID semId, int timeout);
/*
 * Give @semId: to its first waiter (which may preempt the caller), else
 * it is full (binary; giving a full one does nothing) or counts one
 * more.  A mutex: its owner only (S_semLib_INVALID_OPERATION), once per
 * take.  From interrupt context: binary and counting only.
 */
STATUS semGive(SEM_ID semId);
/*
 * Wake every waiter of a binary or counting semaphore (their semTake()
 * returns OK), state unchanged.  A mutex: S_semLib_INVALID_OPERATION.
 */
STATUS semFlush(SEM_ID semId);

#ifdef __cplusplus
}
#endif

#endif
