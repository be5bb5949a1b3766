/* SPDX-License-Identifier: MIT */
/*
 * Message pipes to the Linux side (see fusion/pipe.h).
 *
 * Outgoing messages wait in the pipe's pool until the root-domain
 * handler of its virtual IRQ hands them to the channel, from root
 * context, without the nucleus lock while it makes the system call.
 * Incoming messages are pulled from the channel into the pool by the
 * head-domain handler of the channel's fd source (live) or by the
 * reader itself (sim, or whenever it asks).
 *
 * Deletion.  The pipeline reads a handler's cookie under the lock and
 * runs a root-domain handler without it, so a deletion can come in
 * between: the flush's cookie is the instance, and the flush finds its
 * pipe by IRQ among the instance's pipes, under the lock, or finds it
 * gone.  A deleted pipe stays allocated while root context sends one of
 * its messages, or while readers that waited on it (woken by the
 * deletion, or woken before and not run yet) have not left
 * nk_pipe_recv(): the last of the deleter, the flusher and those readers
 * frees it, so exactly one does.  Until then it stays on the instance's
 * list, whose end frees what is left: readers ended where they waited
 * never leave.
 */
#include "internal.h"

#include <fusion/heap.h>
#include <fusion/pipe.h>
#include <fusion/pipeline.h>

#include <limits.h>
#include <string.h>

struct pipe_msg {
	struct nk_list link;
	size_t size;
	unsigned char data[];
};

struct nk_pipe {
	unsigned int magic;
	struct nk_instance *nk;
	struct nk_pipe *next; /* in nk->pipes */
	struct nk_heap heap;
	void *pool;
	struct nk_list out; /* to Linux, oldest first */
	struct nk_list in;  /* from Linux, oldest first */
	struct nk_synch readers;
	int fd_nucleus, fd_linux;
	unsigned int virq;
	unsigned int src_irq;
	bool has_source;
	bool src_masked; /* the pool was full: the source waits for room */
	bool flushing;	 /* root context is sending a message */
	bool dead;	 /* deleted: its last user frees it (pipe_unused) */
	unsigned int nr_readers; /* waiting in nk_pipe_recv(), or woken */
	/* Linux's socket was full: flush again later, backing off. */
	struct nk_timer retry;
	nk_time_t retry_delay;
};

#define PIPE_RETRY_MIN 1000000LL  /* 1 ms */
#define PIPE_RETRY_MAX 64000000LL /* 64 ms */

/* A pipe's own fields, about to change under the lock (its heap notes
 * its own changes). */
static void pipe_note(struct nk_pipe *pipe)
{
	nk_journal_save(pipe, offsetof(struct nk_pipe, heap));
	nk_journal_save(&pipe->pool,
			sizeof(*pipe) - offsetof(struct nk_pipe, pool));
}

static bool pipe_valid(const struct nk_pipe *pipe)
{
	return pipe && pipe->magic == NK_PIPE_MAGIC;
}

static struct pipe_msg *msg_alloc(struct nk_pipe *pipe, size_t size)
{
	void *block;

	if (nk_heap_alloc(&pipe->heap, sizeof(struct pipe_msg) + size, &block))
		return NULL;
	return block;
}

static void msg_free(struct nk_pipe *pipe, struct pipe_msg *msg)
{
	nk_heap_free(&pipe->heap, msg);
}

static void pipe_free(struct nk_pipe *pipe)
{
	struct nk_instance *nk = pipe->nk;

	pipe->magic = 0;
	if (pipe->fd_nucleus >= 0)
		nk->be->chan_close(nk->be_priv, pipe->fd_nucleus);
	if (pipe->fd_linux >= 0)
		nk->be->chan_close(nk->be_priv, pipe->fd_linux);
	nk_free_local(nk, pipe->pool);
	nk_free_local(nk, pipe);
}

/* The pipe that @virq flushes; NULL once deleted.  Lock held. */
static struct nk_pipe *pipe_find(struct nk_instance *nk, unsigned int virq)
{
	struct nk_pipe *pipe = nk->pipes;

	while (pipe && (pipe->dead || pipe->virq != virq))
		pipe = pipe->next;
	return pipe;
}

/*
 * Deleted and left by everyone: unlisted, the caller frees it.  Lock
 * held.
 */
static bool pipe_unused(struct nk_pipe *pipe)
{
	struct nk_pipe **link = &pipe->nk->pipes;

	if (!pipe->dead || pipe->flushing || pipe->nr_readers)
		return false;
	while (*link != pipe)
		link = &(*link)->next;
	nk_journal_obj(link);
	*link = pipe->next;
	return true;
}

/* Root context: hand queued messages to Linux, one system call each. */
static void pipe_flush(unsigned int irq, void *cookie)
{
	struct nk_instance *nk = cookie;
	struct nk_pipe *pipe;
	bool unused;

	nk_lock_acquire(nk);
	pipe = pipe_find(nk, irq);
	if (pipe == NULL) {
		nk_lock_release(nk); /* deleted since the flush was asked */
		return;
	}
	pipe_note(pipe);
	while (!pipe->dead && !nk_list_empty(&pipe->out)) {
		struct pipe_msg *msg =
		    nk_list_first_entry(&pipe->out, struct pipe_msg, link);
		ssize_t n;

		nk_list_del(&msg->link);
		pipe->flushing = true;
		nk_lock_release(nk);
		n = nk->be->chan_send(nk->be_priv, pipe->fd_nucleus, msg->data,
				      msg->size);
		nk_lock_acquire(nk);
		pipe_note(pipe);
		pipe->flushing = false;
		if (n == -EAGAIN && !pipe->dead) {
			/* Linux does not keep up: keep it and come back. */
			nk_list_add_after(&msg->link, &pipe->out);
			if (!pipe->retry.armed) {
				nk_timer_start_locked(&pipe->retry,
						      pipe->retry_delay, 0,
						      NK_RELATIVE);
				if (pipe->retry_delay < PIPE_RETRY_MAX)
					pipe->retry_delay *= 2;
			}
			break;
		}
		pipe->retry_delay = PIPE_RETRY_MIN;
		msg_free(pipe, msg);
	}
	unused = pipe_unused(pipe);
	nk_lock_release(nk);
	if (unused)
		pipe_free(pipe);
}

/* Interrupt context: hand the flush back to root context. */
static void pipe_retry(struct nk_timer *timer)
{
	struct nk_pipe *pipe = timer->cookie;

	ipipe_trigger_irq(pipe->nk, pipe->virq, 0);
}

/*
 * Move what Linux wrote into the pool, waking a reader per message.
 * Returns false when the pool is full.  Lock held.
 */
static bool pipe_pull(struct nk_pipe *pipe)
{
	struct nk_instance *nk = pipe->nk;

	for (;;) {
		struct pipe_msg *msg;
		ssize_t n = nk->be->chan_recv(nk->be_priv, pipe->fd_nucleus,
					      NULL, 0, true);

		if (n < 0)
			return true; /* -EAGAIN: nothing more */
		msg = msg_alloc(pipe, (size_t)n);
		if (msg == NULL)
			return false;
		msg->size = (size_t)nk->be->chan_recv(
		    nk->be_priv, pipe->fd_nucleus, msg->data, (size_t)n, false);
		nk_list_add_before(&msg->link, &pipe->in);
		nk_synch_wakeup_one(&pipe->readers);
		if (n == 0)
			return true; /* Linux closed its end: an empty message
				      */
	}
}

/*
 * Head domain, live: the channel became readable.  Head handlers run
 * with the lock held from the read of their cookie on, and the deletion
 * removes this one under the lock: the pipe is alive.
 */
static void pipe_readable(unsigned int irq, void *cookie)
{
	struct nk_pipe *pipe = cookie;

	pipe_note(pipe);
	if (!pipe_pull(pipe) && !pipe->src_masked &&
	    ipipe_lock_irq(pipe->nk, irq) == 0)
		pipe->src_masked = true;
	nk_sched_run(pipe->nk);
}

static int pipe_wire(struct nk_pipe *pipe)
{
	struct nk_instance *nk = pipe->nk;
	struct ipipe_source src = {.kind = IPIPE_SRC_FD,
				   .fd = pipe->fd_nucleus};
	int ret;

	ret = ipipe_alloc_virq(nk, &pipe->virq);
	if (ret)
		return ret;
	ret = ipipe_virtualize_irq(ipipe_root_domain(nk), pipe->virq,
				   pipe_flush, nk, IPIPE_HANDLE);
	if (ret)
		return ret;
	/* Without fd sources (sim) readers pull for themselves. */
	if (ipipe_attach_source(nk, &src, 0, &pipe->src_irq) != 0)
		return 0;
	pipe->has_source = true;
	return ipipe_virtualize_irq(ipipe_head_domain(nk), pipe->src_irq,
				    pipe_readable, pipe, IPIPE_HANDLE);
}

static void pipe_unwire(struct nk_pipe *pipe)
{
	struct nk_instance *nk = pipe->nk;

	if (pipe->has_source) {
		ipipe_virtualize_irq(ipipe_head_domain(nk), pipe->src_irq, NULL,
				     NULL, IPIPE_PASS);
		ipipe_detach_source(nk, pipe->src_irq);
	}
	if (pipe->virq) {
		ipipe_virtualize_irq(ipipe_root_domain(nk), pipe->virq, NULL,
				     NULL, IPIPE_PASS);
		ipipe_free_virq(nk, pipe->virq);
	}
}

int nk_pipe_create(struct nk_instance *nk, const char *name, size_t poolsize,
		   struct nk_pipe **out)
{
	struct nk_pipe *pipe;
	int fds[2], ret;

	if (!nk_instance_valid(nk) || out == NULL ||
	    (name && strlen(name) >= NK_NAME_MAX))
		return -EINVAL;
	if (poolsize == 0)
		poolsize = 16384;
	pipe = nk_alloc_local(nk, sizeof(*pipe));
	if (pipe == NULL)
		return -ENOMEM;
	pipe->nk = nk;
	pipe->fd_nucleus = pipe->fd_linux = -1;
	nk_list_init(&pipe->out);
	nk_list_init(&pipe->in);
	pipe->pool = nk_alloc_local(nk, poolsize);
	ret = pipe->pool ? nk_heap_init(&pipe->heap, pipe->pool, poolsize)
			 : -ENOMEM;
	if (ret == 0)
		ret = nk_synch_init(nk, &pipe->readers, name, NK_SYNCH_PRIO, 0);
	if (ret == 0)
		ret =
		    nk_timer_init(nk, &pipe->retry, name, 0, pipe_retry, pipe);
	pipe->retry_delay = PIPE_RETRY_MIN;
	if (ret == 0)
		ret = nk->be->chan_open(nk->be_priv, fds);
	if (ret == 0) {
		pipe->fd_nucleus = fds[0];
		pipe->fd_linux = fds[1];
		pipe->magic = NK_PIPE_MAGIC;
		ret = pipe_wire(pipe);
	}
	if (ret) {
		pipe_unwire(pipe);
		pipe_free(pipe);
		return ret == -EINVAL ? -ENOMEM : ret;
	}
	nk_lock_acquire(nk);
	pipe_note(pipe);
	pipe->next = nk->pipes;
	nk->pipes = pipe;
	nk_lock_release(nk);
	*out = pipe;
	return 0;
}

int nk_pipe_delete(struct nk_pipe *pipe)
{
	struct nk_instance *nk;
	bool unused;

	if (!pipe_valid(pipe))
		return -EINVAL;
	nk = pipe->nk;
	nk_lock_acquire(nk);
	pipe_note(pipe);
	pipe->magic = 0;
	pipe->dead = true;
	/* Dead first: a flusher back from Linux no longer arms it. */
	nk_timer_destroy(&pipe->retry);
	pipe_unwire(pipe);
	nk_synch_destroy_locked(&pipe->readers);
	/* Decided now: readers run in nk_sched_run and may free it. */
	unused = pipe_unused(pipe);
	nk_sched_run(nk);
	nk_lock_release(nk);
	if (unused)
		pipe_free(pipe);
	return 0;
}

static bool flags_valid(unsigned int flags)
{
	return !(flags & ~(NK_PIPE_URGENT | NK_PIPE_STREAM)) &&
	       flags != (NK_PIPE_URGENT | NK_PIPE_STREAM);
}

/* The last message queued for Linux, or NULL.  Lock held. */
static struct pipe_msg *out_last(struct nk_pipe *pipe)
{
	return nk_list_empty(&pipe->out)
		   ? NULL
		   : nk_container_of(pipe->out.prev, struct pipe_msg, link);
}

/* How many bytes @last, queued, can grow by in its block.  Lock held. */
static size_t msg_room(struct nk_pipe *pipe, struct pipe_msg *last)
{
	size_t room;

	nk_heap_size(&pipe->heap, last, &room);
	return room - sizeof(*last) - last->size;
}

ssize_t nk_pipe_room(struct nk_pipe *pipe, unsigned int flags)
{
	struct nk_heap_stats st;
	struct pipe_msg *last;
	size_t room = 0;

	if (!pipe_valid(pipe) || !flags_valid(flags))
		return -EINVAL;
	nk_lock_acquire(pipe->nk);
	pipe_note(pipe);
	/* nk_heap_alloc() takes exactly what fits the largest free block. */
	nk_heap_stats(&pipe->heap, &st);
	if (st.largest_free > sizeof(struct pipe_msg))
		room = st.largest_free - sizeof(struct pipe_msg);
	last = out_last(pipe);
	if ((flags & NK_PIPE_STREAM) && last && msg_room(pipe, last) > room)
		room = msg_room(pipe, last);
	nk_lock_release(pipe->nk);
	return room > SSIZE_MAX ? SSIZE_MAX : (ssize_t)room;
}

ssize_t nk_pipe_send(struct nk_pipe *pipe, const void *buf, size_t size,
		     unsigned int flags)
{
	struct nk_instance *nk;
	struct pipe_msg *msg, *last;
	ssize_t ret = (ssize_t)size;
	unsigned int virq;

	if (!pipe_valid(pipe) || (buf == NULL && size) || !flags_valid(flags) ||
	    size > SSIZE_MAX)
		return -EINVAL;
	nk = pipe->nk;
	nk_lock_acquire(nk);
	pipe_note(pipe);
	last = out_last(pipe);
	if ((flags & NK_PIPE_STREAM) && last) {
		/* Grow the queued message in place when its block allows. */
		if (msg_room(pipe, last) >= size) {
			nk_journal_obj(last);
			nk_journal_save(last->data + last->size, size);
			memcpy(last->data + last->size, buf, size);
			last->size += size;
			nk_lock_release(nk);
			return ret;
		}
	}
	msg = msg_alloc(pipe, size);
	if (msg == NULL) {
		ret = -ENOMEM;
	} else {
		msg->size = size;
		if (size)
			memcpy(msg->data, buf, size);
		if (flags & NK_PIPE_URGENT)
			nk_list_add_after(&msg->link, &pipe->out);
		else
			nk_list_add_before(&msg->link, &pipe->out);
	}
	/* Read under the lock: the pipe may go as soon as it is released. */
	virq = pipe->virq;
	nk_lock_release(nk);
	if (msg)
		ipipe_trigger_irq(nk, virq, 0);
	return ret;
}

int nk_pipe_resize(struct nk_pipe *pipe, size_t poolsize)
{
	struct nk_heap probe;
	struct nk_instance *nk;
	void *pool = NULL, *old = NULL;
	int ret = 0;

	if (!pipe_valid(pipe) || poolsize == 0)
		return -EINVAL;
	nk = pipe->nk;
	/* The new pool is taken in the section that installs it: undone
	 * together, in a session. */
	nk_lock_acquire(nk);
	pipe_note(pipe);
	/* The root context sends a message from the pool: not now. */
	if (pipe->flushing || pipe->dead)
		ret = pipe->dead ? -EINVAL : -EBUSY;
	else if ((pool = nk_alloc_local(nk, poolsize)) == NULL)
		ret = -ENOMEM;
	/* A heap's blocks are tagged with its address: made in place
	 * below, once this one says the pool can hold one. */
	else if (nk_heap_init(&probe, pool, poolsize))
		ret = -EINVAL;
	if (ret) {
		old = pool;
	} else {
		old = pipe->pool;
		nk_journal_obj(&pipe->heap);
		nk_heap_destroy(&pipe->heap);
		nk_list_init(&pipe->out);
		nk_list_init(&pipe->in);
		pipe->pool = pool;
		(void)nk_heap_init(&pipe->heap, pool, poolsize);
		if (pipe->src_masked) {
			pipe->src_masked = false;
			ipipe_unlock_irq(nk, pipe->src_irq);
		}
	}
	nk_lock_release(nk);
	nk_free_local(nk, old);
	return ret;
}

/* Take the first incoming message if it fits.  Lock held. */
static ssize_t pipe_take(struct nk_pipe *pipe, void *buf, size_t size)
{
	struct pipe_msg *msg;
	ssize_t n;

	if (nk_list_empty(&pipe->in))
		return -EWOULDBLOCK;
	msg = nk_list_first_entry(&pipe->in, struct pipe_msg, link);
	if (msg->size > size)
		return -ENOBUFS;
	n = (ssize_t)msg->size;
	memcpy(buf, msg->data, msg->size);
	nk_list_del(&msg->link);
	msg_free(pipe, msg);
	if (pipe->src_masked) {
		pipe->src_masked = false;
		ipipe_unlock_irq(pipe->nk, pipe->src_irq);
	}
	return n;
}

ssize_t nk_pipe_recv(struct nk_pipe *pipe, void *buf, size_t size,
		     nk_time_t timeout, enum nk_tmode mode)
{
	struct nk_instance *nk;
	bool unused = false;
	ssize_t ret;

	if (!pipe_valid(pipe) || (buf == NULL && size) ||
	    (mode != NK_RELATIVE && mode != NK_ABSOLUTE))
		return -EINVAL;
	nk = pipe->nk;
	nk_lock_acquire(nk);
	pipe_note(pipe);
	/* One deadline across the wake-ups that find nothing to take. */
	if (mode == NK_RELATIVE && timeout > 0) {
		timeout = nk_abs_timeout(nk, timeout, mode);
		mode = NK_ABSOLUTE;
	}
	for (;;) {
		int wake;

		if (!pipe->has_source)
			pipe_pull(pipe);
		ret = pipe_take(pipe, buf, size);
		if (ret != -EWOULDBLOCK ||
		    (mode == NK_RELATIVE && timeout <= 0))
			break;
		/* Counted: deleted meanwhile, the pipe waits for us. */
		pipe->nr_readers++;
		wake = nk_synch_sleep(&pipe->readers, timeout, mode);
		pipe->nr_readers--;
		if (pipe->dead) {
			/* Whatever woke us, messages and channel are gone. */
			ret = NK_WAKE_DELETED;
			unused = pipe_unused(pipe);
			break;
		}
		if (wake == NK_WAKE_TIMEOUT && !pipe->has_source) {
			/* sim: a last look at what Linux wrote meanwhile. */
			pipe_pull(pipe);
			ret = pipe_take(pipe, buf, size);
			if (ret == -EWOULDBLOCK)
				ret = wake;
			break;
		}
		if (wake) {
			ret = wake;
			break;
		}
	}
	nk_lock_release(nk);
	if (unused)
		pipe_free(pipe);
	return ret;
}

void nk_pipe_fini_all(struct nk_instance *nk)
{
	struct nk_pipe *pipe, *next;

	for (pipe = nk->pipes; pipe; pipe = next) {
		next = pipe->next;
		pipe_note(pipe);
		if (!pipe->dead) {
			pipe->magic = 0;
			pipe->dead = true;
			nk_timer_destroy(&pipe->retry);
			pipe_unwire(pipe);
		}
		/* Its readers never come back to leave it. */
		pipe->nr_readers = 0;
		if (pipe_unused(pipe))
			pipe_free(pipe);
	}
}

int nk_pipe_linux_fd(struct nk_pipe *pipe)
{
	return pipe_valid(pipe) ? pipe->fd_linux : -EINVAL;
}

void nk_pipe_describe(const struct nk_pipe *pipe, struct nk_object_info *info)
{
	const struct nk_list *pos;
	long n = 0;

	for (pos = pipe->out.next; pos != &pipe->out; pos = pos->next)
		n++;
	info->count = n;
	info->waiters = &pipe->readers;
}
