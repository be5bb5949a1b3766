/* SPDX-License-Identifier: MIT */
/** @file
 * RTAI FIFOs: byte streams between real-time tasks and the Linux side.
 *
 * RTAI's Linux side is the device /dev/rtfN; Fusion has no kernel
 * device, and fusion_rtf_open(N) replaces the open() of it:
 *
 *	fd = open("/dev/rtf3", O_RDWR);    becomes    fd = fusion_rtf_open(3);
 *
 * The descriptor is an ordinary one that a Linux thread reads, writes
 * and polls.  What the real-time side puts comes out of it in the
 * pieces it was put in, several puts made before the Linux side read
 * joined into one; what the Linux side writes, rtf_get() takes in any
 * amount.  The real-time side never waits for Linux: rtf_put() and
 * rtf_get() never block.
 */
#ifndef FUSION_RTAI_FIFOS_H
#define FUSION_RTAI_FIFOS_H

#include "rtai_lxrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How many FIFOs there are (0 to RTF_NO - 1). */
#define RTF_NO 64

#define rtf_create rtai_rtf_create
#define rtf_destroy rtai_rtf_destroy
#define rtf_put rtai_rtf_put
#define rtf_get rtai_rtf_get
#define rtf_reset rtai_rtf_reset
#define rtf_get_avbs rtai_rtf_get_avbs
#define rtf_get_frbs rtai_rtf_get_frbs
#define rtf_resize rtai_rtf_resize
#define rtf_sem_init rtai_rtf_sem_init
#define rtf_sem_post rtai_rtf_sem_post
#define rtf_sem_trywait rtai_rtf_sem_trywait
#define rtf_sem_wait rtai_rtf_sem_wait
#define rtf_sem_timed_wait rtai_rtf_sem_timed_wait
#define rtf_sem_destroy rtai_rtf_sem_destroy
/** RTAI's other name of rtf_sem_destroy(). */
#define rtf_sem_delete rtf_sem_destroy

/**
 * Create FIFO @p fifo holding @p size bytes each way (4096 at least),
 * or open it once more if it exists (its size stays).  Returns 0, -ENODEV (@p
 * fifo >= RTF_NO), -EINVAL
 * (@p size <= 0), -ENOMEM.  Any thread.
 */
int rtf_create(unsigned int fifo, int size);
/** One open less: the last deletes the FIFO (the Linux side then
 * reads end-of-file).  Returns the opens left, -ENODEV, -EINVAL (not
 * created). */
int rtf_destroy(unsigned int fifo);
/**
 * Put the @p count bytes of @p buf for the Linux side: all of them, or
 * none when the Linux side does not keep up.  Returns @p count or 0,
 * -ENODEV, -EINVAL (not created, NULL buffer, negative count).
 */
int rtf_put(unsigned int fifo, const void *buf, int count);
/** Take up to @p count bytes the Linux side wrote: how many, -ENODEV,
 * -EINVAL. */
int rtf_get(unsigned int fifo, void *buf, int count);
/** Drop what the Linux side wrote and was not taken yet: 0, -ENODEV,
 * -EINVAL. */
int rtf_reset(unsigned int fifo);
/** Bytes rtf_get() would take now, -ENODEV, -EINVAL. */
int rtf_get_avbs(unsigned int fifo);
/**
 * Make FIFO @p fifo hold @p size bytes each way (4096 at least): what
 * either side has not taken yet is dropped, as by rtf_reset(); the
 * Linux side's descriptor stays.  Returns @p size, -ENODEV, -EINVAL
 * (not created, @p size <= 0), -ENOMEM, -EBUSY (the Linux side is
 * being handed a put: try again).
 */
int rtf_resize(unsigned int fifo, int size);
/** Bytes one rtf_put() takes now (what the Linux side has not read
 * holds the rest), -ENODEV, -EINVAL. */
int rtf_get_frbs(unsigned int fifo);

/**
 * FIFO semaphores: one per FIFO, binary (up or down), for the two
 * sides to signal each other.  The real-time side posts and tries; a
 * Linux thread waits.  RTAI's Linux side calls these on the device's
 * descriptor; here every call names the FIFO's number, as
 * fusion_rtf_open() does.  A real-time post makes no system call: a
 * Linux thread waiting is woken from the root domain.
 */
/** Give FIFO @p fifo a semaphore, up when @p value > 0 (or set it so
 * again): 0, -ENODEV, -EINVAL (no FIFO, @p value < 0), -ENOMEM. */
int rtf_sem_init(unsigned int fifo, int value);
/** Raise it (a waiter takes it): 0, -ENODEV, -EINVAL (no semaphore).
 * Any thread. */
int rtf_sem_post(unsigned int fifo);
/** Take it if it is up: 1 taken, 0 not, -ENODEV, -EINVAL.  Any thread. */
int rtf_sem_trywait(unsigned int fifo);
/** Take it, waiting for a post as long as it takes (a Linux thread):
 * 0, -ENODEV, -EINVAL (none, or destroyed meanwhile). */
int rtf_sem_wait(unsigned int fifo);
/** rtf_sem_wait() for @p ms_delay milliseconds at most: also
 * -ETIMEDOUT, and -EINVAL for @p ms_delay < 0. */
int rtf_sem_timed_wait(unsigned int fifo, int ms_delay);
/** Remove it (its waiters get -EINVAL): 0, -ENODEV, -EINVAL. */
int rtf_sem_destroy(unsigned int fifo);

/**
 * The Linux side of FIFO @p fifo: a new file descriptor (close() it),
 * -ENOENT when the FIFO does not exist, -errno of dup().  From any
 * Linux thread; never starts the runtime.
 */
int fusion_rtf_open(unsigned int fifo);

#ifdef __cplusplus
}
#endif

#endif
