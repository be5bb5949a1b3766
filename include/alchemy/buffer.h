/* SPDX-License-Identifier: MIT */
/** @file
 * Alchemy IPC buffers (Xenomai 3 API): a one-way byte stream through a
 * ring of @p bufsz bytes, with blocking on both sides.
 *
 * A write is atomic: all @p size bytes go in at once, the writer waiting
 * for room if need be.  A read returns exactly @p size bytes, the reader
 * waiting until that many are buffered, with one exception that avoids
 * a deadlock: when a reader would wait while writers wait for room (and
 * some bytes are buffered), it returns the bytes present (a short
 * read).  Waiters of each side are served in FIFO (B_FIFO) or priority
 * (B_PRIO) order: data or room that satisfies the first one wakes that
 * side.
 */
#ifndef FUSION_ALCHEMY_BUFFER_H
#define FUSION_ALCHEMY_BUFFER_H

#include <alchemy/alchemy.h>
#include <alchemy/timer.h>

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Creation modes. */
#define B_FIFO 0x0 /**< waiters in arrival order */
#define B_PRIO 0x1 /**< waiters by priority */

/** A descriptor; a zeroed, stale or forged one is refused. */
typedef struct RT_BUFFER {
	uintptr_t handle; /**< class tag and registry handle, never a pointer */
} RT_BUFFER;

/** What rt_buffer_inquire() reports. */
typedef struct RT_BUFFER_INFO {
	int iwaiters;		      /**< tasks waiting to read */
	int owaiters;		      /**< tasks waiting to write */
	size_t totalmem;	      /**< bufsz */
	size_t availmem;	      /**< room left */
	char name[XNOBJECT_NAME_LEN]; /**< its name */
} RT_BUFFER_INFO;

#define rt_buffer_create alchemy_rt_buffer_create
#define rt_buffer_delete alchemy_rt_buffer_delete
#define rt_buffer_write_timed alchemy_rt_buffer_write_timed
#define rt_buffer_write_until alchemy_rt_buffer_write_until
#define rt_buffer_write alchemy_rt_buffer_write
#define rt_buffer_read_timed alchemy_rt_buffer_read_timed
#define rt_buffer_read_until alchemy_rt_buffer_read_until
#define rt_buffer_read alchemy_rt_buffer_read
#define rt_buffer_clear alchemy_rt_buffer_clear
#define rt_buffer_inquire alchemy_rt_buffer_inquire
#define rt_buffer_bind alchemy_rt_buffer_bind
#define rt_buffer_unbind alchemy_rt_buffer_unbind

/**
 * Create a buffer of @p bufsz bytes.  Errors: -EINVAL (NULL buffer,
 * @p bufsz 0, unknown mode bits, name too long), -EEXIST, -ENOMEM,
 * -EPERM (from an alarm handler; any Linux thread may create).
 */
int rt_buffer_create(RT_BUFFER *bf, const char *name, size_t bufsz, int mode);
/** Delete @p bf: waiters of both sides wake with -EIDRM.  -EINVAL. */
int rt_buffer_delete(RT_BUFFER *bf);
/** @{ */
/**
 * Write @p size bytes (0: returns 0 at once), waiting for room until
 * @p abs_timeout (NULL: forever; {0, 0}: not at all), @p timeout ticks
 * (TM_INFINITE, TM_NONBLOCK) or the date @p timeout (_until).  Returns
 * @p size.  Errors: -EINVAL (bad descriptor, NULL @p ptr, @p size above the
 * buffer size, malformed timespec), -EWOULDBLOCK, -ETIMEDOUT, -EINTR,
 * -EIDRM, -EPERM (cannot wait in this context).
 */
ssize_t rt_buffer_write_timed(RT_BUFFER *bf, const void *ptr, size_t size,
			      const struct timespec *abs_timeout);
ssize_t rt_buffer_write_until(RT_BUFFER *bf, const void *ptr, size_t size,
			      RTIME timeout);
ssize_t rt_buffer_write(RT_BUFFER *bf, const void *ptr, size_t size,
			RTIME timeout);
/** @} */
/** @{ */
/**
 * Read @p size bytes (0: returns 0 at once), waiting for them as the
 * write forms wait for room.  Returns the bytes read: @p size, or fewer
 * on a short read (see above).  Errors: as rt_buffer_write.
 */
ssize_t rt_buffer_read_timed(RT_BUFFER *bf, void *ptr, size_t size,
			     const struct timespec *abs_timeout);
ssize_t rt_buffer_read_until(RT_BUFFER *bf, void *ptr, size_t size,
			     RTIME timeout);
ssize_t rt_buffer_read(RT_BUFFER *bf, void *ptr, size_t size, RTIME timeout);
/** @} */
/** Discard the buffered bytes (waiting writers may proceed).  -EINVAL. */
int rt_buffer_clear(RT_BUFFER *bf);
/** Status of @p bf.  -EINVAL (bad descriptor, NULL info). */
int rt_buffer_inquire(RT_BUFFER *bf, RT_BUFFER_INFO *info);
/** Find a buffer by name, as rt_queue_bind. */
int rt_buffer_bind(RT_BUFFER *bf, const char *name, RTIME timeout);
/** Forget the binding (the object lives on).  -EINVAL (NULL descriptor). */
int rt_buffer_unbind(RT_BUFFER *bf);

#ifdef __cplusplus
}
#endif

#endif
