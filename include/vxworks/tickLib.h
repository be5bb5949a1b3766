/* SPDX-License-Identifier: MIT */
/*
 * VxWorks skin: tickLib.  The tick count of the system clock, computed
 * from the nucleus clock (no periodic interrupt runs).
 */
#ifndef FUSION_VXWORKS_TICKLIB_H
#define FUSION_VXWORKS_TICKLIB_H

#include <vxworks/vxWorks.h>

#ifdef __cplusplus
extern "C" {
#endif

#define tickGet vxworks_tickGet
#define tickSet vxworks_tickSet

/* Ticks since the skin started (or since tickSet()). */
ULONG tickGet(void);
/* Set the tick count: later tickGet() counts on from @ticks. */
void tickSet(ULONG ticks);

#ifdef __cplusplus
}
#endif

#endif
