/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: intLib.  "Interrupt level" is the nucleus's interrupt
 * context: a watchdog routine, or a handler of the interrupt pipeline's
 * head domain.
 */
#ifndef FUSION_VXWORKS_INTLIB_H
#define FUSION_VXWORKS_INTLIB_H

#include <vxworks/vxWorks.h>

#ifdef __cplusplus
extern "C" {
#endif

#define S_intLib_NOT_ISR_CALLABLE (M_intLib | 1)

#define intContext vxworks_intContext
#define intLock vxworks_intLock
#define intUnlock vxworks_intUnlock

/* TRUE in interrupt context (a watchdog routine), else FALSE.  Any. */
BOOL intContext(void);
/*
 * Stall the interrupt pipeline's head domain on the caller's RT CPU:
 * timers (watchdogs, timeouts) and head-domain interrupts wait until
 * the matching intUnlock().  Returns the lock-out key to give back
 * to intUnlock(); nests.  Before the runtime exists: 0, nothing done.
 */
int intLock(void);
/* Restore the stall state @lockKey from intLock(); pending ones run. */
void intUnlock(int lockKey);

#ifdef __cplusplus
}
#endif

#endif
