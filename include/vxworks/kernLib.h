/* SPDX-License-Identifier: MIT */
/* VxWorks skin: kernLib, round-robin scheduling. */
#ifndef FUSION_VXWORKS_KERNLIB_H
#define FUSION_VXWORKS_KERNLIB_H

#include <vxworks/vxWorks.h>

#ifdef __cplusplus
extern "C" {
#endif

#define kernelTimeSlice vxworks_kernelTimeSlice

/*
 * Round robin among tasks of equal priority, each running at most
 * @ticks ticks in turn (0: off, tasks run until they block or yield).
 * Applies to every task, present and future.  ERROR with EINVAL for a
 * negative @ticks.
 */
STATUS kernelTimeSlice(int ticks);

#ifdef __cplusplus
}
#endif

#endif
