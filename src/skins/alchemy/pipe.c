/*
 * Alchemy message pipes over nucleus pipes (fusion/pipe.h), plus the
 * table of minors that stands for Xenomai's /dev/rtpN devices.
 *
 * The nucleus pipe services take the nucleus lock themselves and it is
 * not recursive, so they are called after nk_unlock() with the nucleus
 * pipe read under the lock, as task.c does with nucleus threads; the
 * nucleus pipe wakes its own readers with -EIDRM on deletion, and they
 * return without touching the pipe or the control block again.
 */
#include "internal.h"

/* The Alchemy API is exported from libfusion.so (the tree builds hidden). */
#pragma GCC visibility push(default)
#include <alchemy/pipe.h>
#pragma GCC visibility pop

#include <fusion/pipe.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct alchemy_pipe {
	struct nk_pipe *np; /* NULL while rt_pipe_create() builds it */
	int minor;
	int linux_fd;	      /* owned by @np */
	unsigned long serial; /* tells a re-created pipe on the same minor */
	/* The last send was rt_pipe_stream(): the next may extend its
	 * message (never one of rt_pipe_write(), whose boundaries hold). */
	bool streaming;
};

/*
 * Pipes by minor, including those being created (which hold the minor
 * but are not usable yet).  Lock held.
 */
static struct alchemy_pipe *minors[P_MINOR_COUNT];
static unsigned long pipe_serial;
/* The instance, once a pipe was created: fusion_pipe_open() must not
 * start the runtime from whatever thread calls it first. */
static struct nk_instance *pipe_nk;

/*
 * The nucleus pipe behind @pipe, read under the lock.  It stays valid
 * until someone deletes the pipe: the caller uses it at once.  With
 * @flags, a send is on its way: record whether it streams, and turn a
 * stream that follows a write into a message of its own.
 */
static int pipe_get(RT_PIPE *pipe, struct nk_pipe **np, unsigned int *flags)
{
	struct nk_instance *nk;
	struct alchemy_pipe *p;
	int ret;

	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	nk_lock(nk);
	ret = alchemy_lookup(ALCHEMY_PIPE, pipe->handle, (void **)&p);
	if (ret == 0) {
		*np = p->np;
		if (flags) {
			bool stream = (*flags & NK_PIPE_STREAM) != 0;

			if (stream && !p->streaming)
				*flags &= ~NK_PIPE_STREAM;
			p->streaming = stream;
		}
	}
	nk_unlock(nk);
	return ret;
}

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
	p->serial = ++pipe_serial;
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
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	nk_lock(nk);
	ret = minor_reserve(p, minor);
	nk_unlock(nk);
	if (ret) {
		free(p);
		return ret;
	}
	/* Sockets and memory: outside the lock, the minor being held. */
	ret = nk_pipe_create(nk, name && name[0] ? name : NULL, poolsize, &np);
	if (ret) {
		/* Out of memory, descriptors or virtual IRQs alike. */
		ret = -ENOMEM;
		np = NULL;
	}
	nk_lock(nk);
	if (ret == 0) {
		p->np = np;
		p->linux_fd = nk_pipe_linux_fd(np);
		/* Registration may run a binder at once: the pipe is ready. */
		ret = alchemy_register(ALCHEMY_PIPE, name, p, &pipe->handle);
	}
	if (ret) {
		minors[p->minor] = NULL;
	} else {
		ret = p->minor;
		__atomic_store_n(&pipe_nk, nk, __ATOMIC_RELEASE);
	}
	nk_unlock(nk);
	if (ret < 0) {
		if (np)
			nk_pipe_delete(np);
		free(p);
	}
	return ret;
}

int rt_pipe_delete(RT_PIPE *pipe)
{
	struct nk_instance *nk;
	struct alchemy_pipe *p;
	struct nk_pipe *np = NULL;
	int ret;

	if (pipe == NULL)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	nk_lock(nk);
	ret = alchemy_lookup(ALCHEMY_PIPE, pipe->handle, (void **)&p);
	if (ret == 0) {
		alchemy_unregister(ALCHEMY_PIPE, pipe->handle);
		minors[p->minor] = NULL;
		np = p->np;
		free(p);
	}
	nk_unlock(nk);
	/* Unreachable now: readers wake (-EIDRM), Linux reads end of file. */
	return ret ? ret : nk_pipe_delete(np);
}

static ssize_t pipe_read(RT_PIPE *pipe, void *buf, size_t size,
			 nk_time_t timeout, enum nk_tmode mode)
{
	struct nk_pipe *np;
	int ret;

	if (pipe == NULL || (buf == NULL && size))
		return -EINVAL;
	ret = pipe_get(pipe, &np, NULL);
	if (ret)
		return ret;
	/* Documented: a zero size returns at once, taking nothing. */
	if (size == 0)
		return 0;
	return nk_pipe_recv(np, buf, size, timeout, mode);
}

ssize_t rt_pipe_read_timed(RT_PIPE *pipe, void *buf, size_t size,
			   const struct timespec *abs_timeout)
{
	nk_time_t timeout;
	enum nk_tmode mode;
	int ret;

	ret = alchemy_timespec(abs_timeout, &timeout, &mode);
	return ret ? ret : pipe_read(pipe, buf, size, timeout, mode);
}

ssize_t rt_pipe_read_until(RT_PIPE *pipe, void *buf, size_t size,
			   RTIME abs_timeout)
{
	nk_time_t timeout;
	enum nk_tmode mode;

	alchemy_abs(abs_timeout, &timeout, &mode);
	return pipe_read(pipe, buf, size, timeout, mode);
}

ssize_t rt_pipe_read(RT_PIPE *pipe, void *buf, size_t size, RTIME timeout)
{
	nk_time_t nkto;
	enum nk_tmode mode;

	alchemy_rel(timeout, &nkto, &mode);
	return pipe_read(pipe, buf, size, nkto, mode);
}

static ssize_t pipe_send(RT_PIPE *pipe, const void *buf, size_t size,
			 unsigned int flags)
{
	unsigned int asked = flags, write = 0;
	struct nk_pipe *np;
	ssize_t ret;

	if (pipe == NULL || (buf == NULL && size))
		return -EINVAL;
	ret = pipe_get(pipe, &np, size ? &flags : NULL);
	if (ret)
		return ret;
	/* Documented: nothing to send, no empty message either. */
	if (size == 0)
		return 0;
	ret = nk_pipe_send(np, buf, size, flags);
	/* A stream that failed to start its message left a write's last:
	 * the next stream must not extend it, as after a write. */
	if (ret < 0 && asked != flags)
		pipe_get(pipe, &np, &write);
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
	struct nk_instance *nk;
	nk_time_t nkto;
	enum nk_tmode mode;
	int ret;

	if (pipe == NULL)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	alchemy_rel(timeout, &nkto, &mode);
	nk_lock(nk);
	ret = alchemy_bind(ALCHEMY_PIPE, name, &pipe->handle, nkto, mode);
	nk_unlock(nk);
	return ret;
}

int rt_pipe_unbind(RT_PIPE *pipe)
{
	if (pipe == NULL)
		return -EINVAL;
	pipe->handle = 0;
	return 0;
}

/* The pipe on @minor, if ready, as its Linux fd and serial.  Lock held. */
static bool minor_find(int minor, int *fd, unsigned long *serial)
{
	struct alchemy_pipe *p = minors[minor];

	if (p == NULL || p->np == NULL)
		return false;
	*fd = p->linux_fd;
	*serial = p->serial;
	return true;
}

int fusion_pipe_open(int minor)
{
	struct nk_instance *nk = __atomic_load_n(&pipe_nk, __ATOMIC_ACQUIRE);
	unsigned long serial, now;
	int fd, copy;
	bool found, same;

	if (nk == NULL || minor < 0 || minor >= P_MINOR_COUNT)
		return -ENOENT;
	nk_lock(nk);
	found = minor_find(minor, &fd, &serial);
	nk_unlock(nk);
	if (!found)
		return -ENOENT;
	/* A system call: not under the nucleus lock. */
	copy = dup(fd);
	if (copy < 0)
		return errno == EBADF ? -ENOENT : -errno; /* closed meanwhile */
	/* Deleted meanwhile, @fd may have been closed and even reused:
	 * the copy is good only if the same pipe still holds the minor. */
	nk_lock(nk);
	same = minor_find(minor, &fd, &now) && now == serial;
	nk_unlock(nk);
	if (!same) {
		close(copy);
		return -ENOENT;
	}
	return copy;
}
