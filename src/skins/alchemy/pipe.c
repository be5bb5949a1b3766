/* SPDX-License-Identifier: MIT */
/*
 * Alchemy message pipes over nucleus pipes (fusion/pipe.h), plus the
 * table of minors that stands for Xenomai's /dev/rtpN devices.  A pipe
 * is its process's (its Linux side is a descriptor there, a local
 * class), and so is its minor: the table is the process's own.
 *
 * The nucleus pipe services are called with the nucleus lock held (it
 * is recursive), so that the pipe cannot be deleted between its lookup
 * and its use; a reader blocked in nk_pipe_recv() releases the lock
 * while it waits, and the nucleus pipe wakes it with -EIDRM on
 * deletion: it returns without touching the pipe or the control block
 * again.
 */
#include "internal.h"

#include <alchemy/pipe.h>

#include <fusion/pipe.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct alchemy_pipe {
	struct nk_pipe *np; /* NULL while rt_pipe_create() builds it */
	int minor;
	int linux_fd; /* owned by @np */
	/* The last send was rt_pipe_stream(): the next may extend its
	 * message (never one of rt_pipe_write(), whose boundaries hold). */
	bool streaming;
};

/* Messages queued for Linux and readers, once rt_pipe_create() built it. */
void alchemy_pipe_describe(const void *object, struct nk_object_info *info)
{
	const struct alchemy_pipe *p = object;

	if (p->np)
		nk_pipe_describe(p->np, info);
}

/* This process's pipes by minor, including those being created (which
 * hold the minor but are not usable yet).  Lock held. */
static struct alchemy_pipe *minors[P_MINOR_COUNT];

/* Reserve @minor (P_MINOR_AUTO: the first free one) for @p.  Lock held. */
static int minor_reserve(struct alchemy_pipe *p, int minor)
{
	if (minor == P_MINOR_AUTO) {
		for (minor = 0; minor < P_MINOR_COUNT; minor++)
			if (minors[minor] == NULL)
				break;
		if (minor == P_MINOR_COUNT)
			return -EBUSY;
	} else if (minors[minor]) {
		return -EBUSY;
	}
	minors[minor] = p;
	p->minor = minor;
	return 0;
}

int rt_pipe_create(RT_PIPE *pipe, const char *name, int minor, size_t poolsize)
{
	struct nk_instance *nk;
	struct alchemy_pipe *p;
	struct nk_pipe *np;
	int ret;

	if (pipe == NULL || (name && strlen(name) >= XNOBJECT_NAME_LEN))
		return -EINVAL;
	if (minor < P_MINOR_AUTO || minor >= P_MINOR_COUNT)
		return -ENODEV;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	p = nk_alloc_local(nk, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	nk_lock(nk);
	nk_journal_obj(p);
	ret = minor_reserve(p, minor);
	nk_unlock(nk);
	if (ret) {
		nk_free_local(nk, p);
		return ret;
	}
	/* Sockets and memory: outside the lock, the minor being held. */
	ret = nk_pipe_create(nk, name && name[0] ? name : NULL, poolsize, &np);
	if (ret) {
		/* Out of memory, descriptors or virtual IRQs alike. */
		ret = -ENOMEM;
		np = NULL;
	}
	minor = p->minor;
	nk_lock(nk);
	nk_journal_obj(p);
	if (ret == 0) {
		p->np = np;
		p->linux_fd = nk_pipe_linux_fd(np);
		/* Registration may run a binder at once, which may delete the
		 * pipe: @p is not ours to read after it succeeds. */
		ret = alchemy_register(ALCHEMY_PIPE, name, p, &pipe->handle);
	}
	if (ret)
		minors[minor] = NULL;
	else
		ret = minor;
	nk_unlock(nk);
	if (ret < 0) {
		if (np)
			nk_pipe_delete(np);
		nk_free_local(nk, p);
	}
	return ret;
}

/*
 * Free @p, unregistered, and its minor; its nucleus pipe, returned, is
 * the caller's to delete.  Lock held.
 */
static struct nk_pipe *pipe_release(struct nk_instance *nk,
				    struct alchemy_pipe *p)
{
	struct nk_pipe *np = p->np;

	minors[p->minor] = NULL;
	nk_free_local(nk, p);
	return np;
}

void alchemy_pipe_reclaim(struct nk_instance *nk, void *object)
{
	nk_pipe_delete(pipe_release(nk, object));
}

int rt_pipe_delete(RT_PIPE *pipe)
{
	struct nk_instance *nk;
	struct alchemy_pipe *p;
	struct nk_pipe *np;
	int ret;

	ret = alchemy_get(ALCHEMY_PIPE, alchemy_handle(pipe), &nk, (void **)&p);
	if (ret)
		return ret;
	alchemy_unregister(pipe->handle);
	np = pipe_release(nk, p);
	nk_unlock(nk);
	/* Unreachable now: readers wake (-EIDRM), Linux reads end of file. */
	return nk_pipe_delete(np);
}

static ssize_t pipe_read(RT_PIPE *pipe, void *buf, size_t size,
			 struct skin_timeout to)
{
	struct nk_instance *nk;
	struct alchemy_pipe *p;
	ssize_t ret;

	if (to.error)
		return to.error;
	if (buf == NULL && size)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_PIPE, alchemy_handle(pipe), &nk, (void **)&p);
	if (ret)
		return ret;
	/* Documented: a zero size returns at once, taking nothing. */
	if (size)
		ret = nk_pipe_recv(p->np, buf, size, to.value, to.mode);
	nk_unlock(nk);
	return ret;
}

ssize_t rt_pipe_read_timed(RT_PIPE *pipe, void *buf, size_t size,
			   const struct timespec *abs_timeout)
{
	return pipe_read(pipe, buf, size, skin_timespec(abs_timeout));
}

ssize_t rt_pipe_read_until(RT_PIPE *pipe, void *buf, size_t size,
			   RTIME abs_timeout)
{
	return pipe_read(pipe, buf, size, alchemy_abs(abs_timeout));
}

ssize_t rt_pipe_read(RT_PIPE *pipe, void *buf, size_t size, RTIME timeout)
{
	return pipe_read(pipe, buf, size, alchemy_rel(timeout));
}

static ssize_t pipe_send(RT_PIPE *pipe, const void *buf, size_t size,
			 unsigned int flags)
{
	bool stream = (flags & NK_PIPE_STREAM) != 0;
	struct nk_instance *nk;
	struct alchemy_pipe *p;
	ssize_t ret;

	if (buf == NULL && size)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_PIPE, alchemy_handle(pipe), &nk, (void **)&p);
	if (ret)
		return ret;
	/* Documented: nothing to send, no empty message either. */
	if (size == 0)
		goto out;
	/* A stream extends only a stream, never a write's message. */
	if (stream && !p->streaming)
		flags &= ~NK_PIPE_STREAM;
	ret = nk_pipe_send(p->np, buf, size, flags);
	/* A stream that failed to start its message left a write's last:
	 * the next stream must not extend it, as after a write. */
	p->streaming = stream && (ret >= 0 || p->streaming);
out:
	nk_unlock(nk);
	return ret;
}

ssize_t rt_pipe_write(RT_PIPE *pipe, const void *buf, size_t size, int mode)
{
	if (mode & ~P_URGENT)
		return -EINVAL;
	return pipe_send(pipe, buf, size,
			 (mode & P_URGENT) ? NK_PIPE_URGENT : 0);
}

ssize_t rt_pipe_stream(RT_PIPE *pipe, const void *buf, size_t size)
{
	return pipe_send(pipe, buf, size, NK_PIPE_STREAM);
}

int rt_pipe_bind(RT_PIPE *pipe, const char *name, RTIME timeout)
{
	return alchemy_bind(ALCHEMY_PIPE, alchemy_handle(pipe), name, timeout);
}

int rt_pipe_unbind(RT_PIPE *pipe)
{
	return skin_unbind(alchemy_handle(pipe));
}

/* Not a service of the API (no link name): exported here, untraced. */
nk_export int fusion_pipe_open(int minor)
{
	struct alchemy_state *st = alchemy_state();
	struct alchemy_pipe *p;
	struct nk_instance *nk;
	int ret = -ENOENT;

	/* Not alchemy_enter(): a Linux thread asking must not start the
	 * runtime; without the skin there is no pipe. */
	if (st == NULL || minor < 0 || minor >= P_MINOR_COUNT)
		return -ENOENT;
	nk = st->skin.nk;
	/* The copy is made under the lock, which rt_pipe_delete() takes
	 * to free the minor before the descriptor is closed: it is this
	 * pipe's, never a number closed and given to another file. */
	nk_lock(nk);
	p = minors[minor];
	if (p && p->np) {
		ret = dup(p->linux_fd);
		if (ret < 0)
			ret = -errno;
	}
	nk_unlock(nk);
	return ret;
}
