/* SPDX-License-Identifier: MIT */
/* VxWorks skin: the system clock's rate (sysLib). */
#ifndef FUSION_VXWORKS_SYSLIB_H
#define FUSION_VXWORKS_SYSLIB_H

#include <vxworks/vxWorks.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The system clock's rate when a program starts, as VxWorks's default. */
#define VX_DEFAULT_CLK_RATE 60
/* The rates sysClkRateSet() accepts. */
#define VX_CLK_RATE_MIN 1
#define VX_CLK_RATE_MAX 100000

#define sysClkRateGet vxworks_sysClkRateGet
#define sysClkRateSet vxworks_sysClkRateSet

/* Ticks per second of the system clock. */
int sysClkRateGet(void);
/*
 * Set the ticks per second (a tick lasts 1e9 / @ticksPerSecond ns,
 * rounded down); the tick count carries on.  ERROR with EINVAL out of
 * VX_CLK_RATE_MIN..VX_CLK_RATE_MAX.
 */
STATUS sysClkRateSet(int ticksPerSecond);

#ifdef __cplusplus
}
#endif

#endif
