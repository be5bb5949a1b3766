/* SPDX-License-Identifier: MIT */
/** @file
 * RTAI event bits: a mask of bits that tasks set and clear, and wait
 * on until a test of theirs holds, changing the mask as they leave.
 *
 * Tests: ALL_SET, ANY_SET, ALL_CLR, ANY_CLR on one mask; changes:
 * SET_BITS, CLR_BITS, NOP_BITS.  The compound tests (ALL_SET_AND_...)
 * and SET_CLR_BITS, which take two masks in one argument, are not
 * supported: refused with RTE_OBJINV.
 */
#ifndef FUSION_RTAI_BITS_H
#define FUSION_RTAI_BITS_H

#include "rtai_lxrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Event bits, as LXRT hands them out: never dereferenced. */
typedef struct rt_bits_struct {
	int opaque; /**< never read: the pointer is a handle */
} BITS;

/** @{ */
/** Tests. */
#define ALL_SET 0
#define ANY_SET 1
#define ALL_CLR 2
#define ANY_CLR 3
/** @} */

/** @{ */
/** Changes of the mask. */
#define SET_BITS 0
#define CLR_BITS 1
#define NOP_BITS 3
/** @} */

#define BITS_ERR RTE_OBJINV    /**< RTAI's name: not event bits */
#define BITS_TIMOUT RTE_TIMOUT /**< RTAI's name: timed out */

#define rt_bits_init rtai_rt_bits_init
#define rt_bits_delete rtai_rt_bits_delete
#define rt_get_bits rtai_rt_get_bits
#define rt_bits_reset rtai_rt_bits_reset
#define rt_bits_signal rtai_rt_bits_signal
#define rt_bits_wait rtai_rt_bits_wait
#define rt_bits_wait_if rtai_rt_bits_wait_if
#define rt_bits_wait_until rtai_rt_bits_wait_until
#define rt_bits_wait_timed rtai_rt_bits_wait_timed

/** Event bits named @p name (0: anonymous) holding @p mask.  NULL: the
 * name taken, no memory. */
BITS *rt_bits_init(unsigned long name, unsigned long mask);
/** Delete @p bits; its waiters return RTE_OBJREM.  0, RTE_OBJINV. */
int rt_bits_delete(BITS *bits);
/** The mask, 0 for bad event bits. */
unsigned long rt_get_bits(BITS *bits);
/** Set the mask to @p mask (waking whom it satisfies); the previous
 * mask, 0 for bad event bits. */
unsigned long rt_bits_reset(BITS *bits, unsigned long mask);
/**
 * Change the mask by @p setfun with @p masks, then wake the waiters
 * whose test holds, in priority order, each changing the mask as it
 * asked.  Returns the mask after all that, 0 for bad arguments.
 */
unsigned long rt_bits_signal(BITS *bits, int setfun, unsigned long masks);
/**
 * Wait until @p testfun holds for @p testmasks, then change the mask
 * by @p exitfun with @p exitmasks; the mask that satisfied the test
 * goes to *@p resulting_mask (may be NULL).  Returns 0, RTE_OBJINV
 * (bad bits or function), RTE_TIMOUT, RTE_UNBLKD, RTE_OBJREM, RTE_PERM.
 */
int rt_bits_wait(BITS *bits, int testfun, unsigned long testmasks, int exitfun,
		 unsigned long exitmasks, unsigned long *resulting_mask);
/** rt_bits_wait() without waiting: 1 if the test held (and the exit
 * change was made), else 0; the mask found into *@p resulting_mask. */
int rt_bits_wait_if(BITS *bits, int testfun, unsigned long testmasks,
		    int exitfun, unsigned long exitmasks,
		    unsigned long *resulting_mask);
/** rt_bits_wait() until the date @p time at the latest. */
int rt_bits_wait_until(BITS *bits, int testfun, unsigned long testmasks,
		       int exitfun, unsigned long exitmasks, RTIME time,
		       unsigned long *resulting_mask);
/** rt_bits_wait() for @p delay counts at most. */
int rt_bits_wait_timed(BITS *bits, int testfun, unsigned long testmasks,
		       int exitfun, unsigned long exitmasks, RTIME delay,
		       unsigned long *resulting_mask);

#ifdef __cplusplus
}
#endif

#endif
