/* SPDX-License-Identifier: MIT */
/* VxWorks skin: the error status values every object service sets. */
#ifndef FUSION_VXWORKS_OBJLIB_H
#define FUSION_VXWORKS_OBJLIB_H

#include <vxworks/vxWorks.h>

#define S_objLib_OBJ_ID_ERROR (M_objLib | 1)	/* stale, forged, wrong kind */
#define S_objLib_OBJ_UNAVAILABLE (M_objLib | 2) /* NO_WAIT and not there */
#define S_objLib_OBJ_DELETED (M_objLib | 3)	/* deleted while waited for */
#define S_objLib_OBJ_TIMEOUT (M_objLib | 4)	/* the timeout elapsed */
#define S_objLib_OBJ_NO_METHOD (M_objLib | 5)

#endif
