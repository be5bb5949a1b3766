/* SPDX-License-Identifier: MIT */
/** @file
 * __STD(call) and __RT(call), as Xenomai's user-space headers define
 * them: a program names the real-time or the plain Linux version of a
 * POSIX service explicitly.  Fusion does not wrap the C library (its
 * real-time services have names of their own), so both are the call
 * itself, as on Xenomai's Mercury core.
 */
#ifndef FUSION_BOILERPLATE_WRAPPERS_H
#define FUSION_BOILERPLATE_WRAPPERS_H

#define __RT(call) call	 /**< the real-time version of @p call */
#define __STD(call) call /**< the plain Linux version of @p call */

#endif
