/* SPDX-License-Identifier: MIT */
/** @file
 * Alchemy message pipes (Xenomai 3 API): a two-way channel between
 * tasks and plain Linux threads or processes.
 *
 * The real-time side never waits for Linux: rt_pipe_write() copies the
 * message into the pipe's pool and returns; the Linux side receives it
 * later, one read() per message, in queue order (P_URGENT messages go
 * ahead of those still queued).  What the Linux side writes, one write()
 * per message, arrives at rt_pipe_read().  rt_pipe_stream() appends to
 * the last message still queued instead of starting a new one, so the
 * Linux side sees fewer, larger reads.
 *
 * The Linux side.  Xenomai exposes pipe N as the device /dev/rtpN;
 * Fusion has no kernel device, and fusion_pipe_open(N) replaces the
 * open() call.  This is the one line a Xenomai program changes:
 *
 *	fd = open("/dev/rtp3", O_RDWR);    becomes    fd = fusion_pipe_open(3);
 *
 * The descriptor is an AF_UNIX SOCK_SEQPACKET socket: read(), write(),
 * poll()/select()/epoll and close() work as on the device, and one read()
 * returns one whole message (a smaller buffer truncates it).  After
 * rt_pipe_delete(), read() returns what had already reached the Linux
 * side, then 0 (end of file), and write() fails with EPIPE, raising
 * SIGPIPE unless it is ignored (or send() is used with MSG_NOSIGNAL).
 * A child process inherits the descriptor across fork() and exec().
 *
 * Messages that a pipe holds in either direction share its pool: a
 * writer finds -ENOMEM when the other side does not keep up.
 */
#ifndef FUSION_ALCHEMY_PIPE_H
#define FUSION_ALCHEMY_PIPE_H

#include <alchemy/alchemy.h>
#include <alchemy/timer.h>

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Creation: let rt_pipe_create() choose the first free minor. */
#define P_MINOR_AUTO (-1)
/** Minors range over 0 .. P_MINOR_COUNT - 1 (Xenomai's default). */
#define P_MINOR_COUNT 32

/* Write modes. */
#define P_NORMAL 0x0 /**< behind the messages already queued (FIFO) */
#define P_URGENT 0x1 /**< ahead of the messages already queued (LIFO) */

/** A descriptor; a zeroed, stale or forged one is refused. */
struct RT_PIPE {
	uintptr_t handle; /**< class tag and registry handle, never a pointer */
};

/** Xenomai's name of struct RT_PIPE. */
typedef struct RT_PIPE RT_PIPE;

#define rt_pipe_create alchemy_rt_pipe_create
#define rt_pipe_delete alchemy_rt_pipe_delete
#define rt_pipe_read_timed alchemy_rt_pipe_read_timed
#define rt_pipe_read_until alchemy_rt_pipe_read_until
#define rt_pipe_read alchemy_rt_pipe_read
#define rt_pipe_write alchemy_rt_pipe_write
#define rt_pipe_stream alchemy_rt_pipe_stream
#define rt_pipe_bind alchemy_rt_pipe_bind
#define rt_pipe_unbind alchemy_rt_pipe_unbind

/**
 * Create a pipe on @p minor (P_MINOR_AUTO: the first free one) whose
 * queued messages share a pool of @p poolsize bytes (0: 16 KiB).  @p name
 * NULL or "": anonymous.  Returns the minor.  Errors: -EINVAL (NULL
 * pipe, name too long), -ENODEV (@p minor neither P_MINOR_AUTO nor in
 * 0..P_MINOR_COUNT-1), -EBUSY (@p minor in use; with P_MINOR_AUTO: every
 * minor in use), -EEXIST (name in use), -ENOMEM (no memory, or no
 * file descriptor left).  Context: any thread, task or not.
 */
int rt_pipe_create(RT_PIPE *pipe, const char *name, int minor, size_t poolsize);
/**
 * Delete @p pipe: tasks waiting in rt_pipe_read() return -EIDRM, queued
 * messages are dropped, the Linux side reads end of file, and the minor
 * and name are free again.  Errors: -EINVAL (bad descriptor).
 */
int rt_pipe_delete(RT_PIPE *pipe);
/**
 * Take the next message written by the Linux side into @p buf, waiting
 * until @p abs_timeout (NULL: forever; {0, 0}: do not wait).  Returns its
 * size.  @p size 0 returns 0 at once.  Errors: -EINVAL (bad descriptor or
 * timespec, NULL buf), -ENOBUFS (the message is larger than @p size: it
 * stays queued), -EWOULDBLOCK (none, non-blocking), -ETIMEDOUT, -EINTR
 * (rt_task_unblock), -EIDRM (deleted meanwhile), -EPERM (would block
 * outside a task, or with the scheduler locked).
 *
 * On the sim backend, whose runs must not depend on when a Linux thread
 * happens to write, a waiting task looks for Linux messages when it
 * calls and when its timeout expires, not when they are written: there,
 * wait for them with a timeout (an infinite wait never sees them).
 */
ssize_t rt_pipe_read_timed(RT_PIPE *pipe, void *buf, size_t size,
			   const struct timespec *abs_timeout);
/** As rt_pipe_read_timed, until the date @p abs_timeout (TM_INFINITE...). */
ssize_t rt_pipe_read_until(RT_PIPE *pipe, void *buf, size_t size,
			   RTIME abs_timeout);
/** As rt_pipe_read_timed, for @p timeout ns (TM_INFINITE, TM_NONBLOCK). */
ssize_t rt_pipe_read(RT_PIPE *pipe, void *buf, size_t size, RTIME timeout);
/**
 * Queue @p size bytes as one message for the Linux side (P_URGENT: ahead
 * of those queued).  Never blocks.  Returns @p size; @p size 0 sends nothing
 * and returns 0.  Errors: -EINVAL (bad descriptor, unknown mode, NULL
 * buf), -ENOMEM (no room in the pool).  Any context.
 */
ssize_t rt_pipe_write(RT_PIPE *pipe, const void *buf, size_t size, int mode);
/**
 * Queue @p size bytes for the Linux side without a message boundary of
 * their own: they extend the message of the previous rt_pipe_stream()
 * while it is still queued (and its pool block has room), else start
 * one; a message of rt_pipe_write() is never extended.  Returns @p size;
 * 0 for @p size 0.  Errors: -EINVAL, -ENOMEM.  Any context.
 */
ssize_t rt_pipe_stream(RT_PIPE *pipe, const void *buf, size_t size);
/**
 * Find the pipe named @p name, waiting up to @p timeout ns for its creation.
 * Errors: -EINVAL (NULL pipe or name), -EWOULDBLOCK (TM_NONBLOCK and
 * absent), -ETIMEDOUT, -EINTR, -EPERM (would block outside a task).
 */
int rt_pipe_bind(RT_PIPE *pipe, const char *name, RTIME timeout);
/** Forget the binding (the pipe lives on).  -EINVAL (NULL pipe). */
int rt_pipe_unbind(RT_PIPE *pipe);

/**
 * Fusion's replacement for open("/dev/rtpN"): a new descriptor (a dup)
 * on the Linux side of the pipe created on @p minor, that the caller
 * closes.  Errors: -ENOENT (no pipe on @p minor), -EMFILE/-ENFILE.  Any
 * thread; meant for plain Linux threads (a task relaxes for the call).
 */
int fusion_pipe_open(int minor);

#ifdef __cplusplus
}
#endif

#endif
