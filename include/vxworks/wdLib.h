/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: wdLib.  A watchdog calls its routine once, in
 * interrupt context (intContext() is TRUE there: services that block
 * fail with S_intLib_NOT_ISR_CALLABLE), a number of ticks after
 * wdStart(), on a tick boundary.  A watchdog is the process's that
 * created it, where its routine runs: in a session, another process's
 * calls on it fail with S_objLib_OBJ_ID_ERROR.
 */
#ifndef FUSION_VXWORKS_WDLIB_H
#define FUSION_VXWORKS_WDLIB_H

#include <vxworks/vxWorks.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A handle, never an address (vxWorks.h). */
typedef struct vxworks_wdog *WDOG_ID;

#define wdCreate vxworks_wdCreate
#define wdDelete vxworks_wdDelete
#define wdStart vxworks_wdStart
#define wdCancel vxworks_wdCancel

/* NULL with S_memLib_NOT_ENOUGH_MEMORY, S_intLib_NOT_ISR_CALLABLE. */
WDOG_ID wdCreate(void);
/* Cancel and delete.  ERROR with S_objLib_OBJ_ID_ERROR,
 * S_intLib_NOT_ISR_CALLABLE. */
STATUS wdDelete(WDOG_ID wdId);
/*
 * Call @pRoutine(@parameter), as void routine(_Vx_usr_arg_t), at the
 * @delay-th tick boundary from now (0: the next one); restarting an
 * armed watchdog moves it.  Callable from its own routine.  ERROR with
 * S_objLib_OBJ_ID_ERROR, EINVAL (NULL @pRoutine, negative @delay).
 */
STATUS wdStart(WDOG_ID wdId, int delay, FUNCPTR pRoutine,
	       _Vx_usr_arg_t parameter);
/* Disarm (nothing if not armed).  ERROR with S_objLib_OBJ_ID_ERROR. */
STATUS wdCancel(WDOG_ID wdId);

#ifdef __cplusplus
}
#endif

#endif
