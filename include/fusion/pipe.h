/* SPDX-License-Identifier: MIT */
/** @file
 * Message pipes between real-time threads and the Linux side.
 *
 * The real-time side never waits for Linux: nk_pipe_send() copies the
 * message into the pipe's pool (no system call) and raises a virtual IRQ
 * whose root-domain handler hands queued messages to the Linux side
 * later, from root context.  The Linux side is an ordinary file
 * descriptor (an AF_UNIX SOCK_SEQPACKET socket: one read() returns one
 * message) that a plain thread reads, writes and polls; a child process
 * inherits it across fork().
 *
 * Messages written on the Linux side reach nk_pipe_recv(): on live
 * through an fd interrupt source (a blocked reader wakes at once); on
 * sim, whose runs must not depend on when a Linux thread writes, a
 * reader looks for them when it asks and when its timeout expires.
 */
#ifndef FUSION_PIPE_H
#define FUSION_PIPE_H

#include <fusion/types.h>

#include <sys/types.h>

struct nk_pipe;

/* nk_pipe_send() flags */
#define NK_PIPE_URGENT 0x1 /**< ahead of the messages already queued */
#define NK_PIPE_STREAM 0x2 /**< append to the last queued message if any */

/**
 * Create a pipe whose queued messages (both directions) share a pool of
 * @p poolsize bytes (0: 16 KiB).  Errors: -EINVAL (bad instance, NULL out,
 * name too long), -ENOMEM, errors of socketpair(), -EAGAIN (no virtual
 * IRQ left).  Context: any.
 */
nk_export int nk_pipe_create(struct nk_instance *nk, const char *name,
			     size_t poolsize, struct nk_pipe **out);
/**
 * Delete @p pipe: readers wake with NK_WAKE_DELETED (so do readers whose
 * wait had ended but who had not returned yet), queued messages are
 * dropped, and the Linux side reads end-of-file once the last of them
 * and root context are done with it (its memory goes then).  @p pipe is
 * invalid on return.  Errors: -EINVAL.  Context: any.
 */
nk_export int nk_pipe_delete(struct nk_pipe *pipe);

/**
 * Queue @p size bytes for the Linux side.  Never blocks.  Returns @p size.
 * Errors: -EINVAL (bad pipe, NULL buf with size, unknown flags),
 * -ENOMEM (no room in the pool: the Linux side does not keep up).
 * Context: any.
 */
nk_export ssize_t nk_pipe_send(struct nk_pipe *pipe, const void *buf,
			       size_t size, unsigned int flags);
/**
 * Give @p pipe a new pool of @p poolsize bytes: what was queued either
 * way, not yet flushed or taken, is dropped (the Linux side keeps what
 * it was handed already).  Errors: -EINVAL (bad or deleted pipe,
 * @p poolsize 0 or too small for one message), -ENOMEM, -EBUSY (the
 * root context is handing a message to Linux: try again).  Context:
 * any.
 */
nk_export int nk_pipe_resize(struct nk_pipe *pipe, size_t poolsize);
/**
 * The largest @p size that nk_pipe_send(@p pipe, ..., @p flags) takes
 * now: a new message's room in the pool, or with NK_PIPE_STREAM what
 * the last message queued may grow by, whichever is more.  Errors:
 * -EINVAL (bad pipe, flags as nk_pipe_send()).  Context: any.
 */
nk_export ssize_t nk_pipe_room(struct nk_pipe *pipe, unsigned int flags);
/**
 * Take the next message from the Linux side into @p buf, waiting up to
 * @p timeout.  Returns its size.  Errors: -EINVAL, -ENOBUFS (@p size is
 * smaller than the message, which stays queued), -EWOULDBLOCK (none and
 * relative timeout 0), -ETIMEDOUT, -EIDRM (deleted while the caller
 * waited, or after its wait ended and before it resumed, whatever ended
 * the wait), -EINTR, -EPERM (would block outside a thread or with the
 * scheduler locked).  Context: thread (any when the timeout is relative
 * 0).
 */
nk_export nk_must_check ssize_t nk_pipe_recv(struct nk_pipe *pipe, void *buf,
					     size_t size, nk_time_t timeout,
					     enum nk_tmode mode);
/** The Linux side's fd (owned by the pipe: dup() it to keep it). */
nk_export int nk_pipe_linux_fd(struct nk_pipe *pipe);

struct nk_object_info;
/**
 * For a skin's describe hook: @p pipe's count (messages queued for the
 * Linux side, not yet flushed) and its readers' queue into @p info.
 * Lock held.
 */
nk_export void nk_pipe_describe(const struct nk_pipe *pipe,
				struct nk_object_info *info);

#endif
