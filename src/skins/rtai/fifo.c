/* SPDX-License-Identifier: MIT */
/*
 * RTAI FIFOs over nucleus pipes (fusion/pipe.h), numbered as RTAI's
 * /dev/rtfN in a table of the process's own: a FIFO's Linux side is a
 * descriptor of the process that made it, so in a session each process
 * has its FIFOs.
 *
 * A nucleus pipe carries messages; a FIFO carries bytes.  Puts are
 * sent as a stream (each appended to the message the Linux side has
 * not read yet); what the Linux side writes is moved into a ring of
 * the FIFO's size, from which rtf_get() takes any amount.  The nucleus
 * pipe services are called with the nucleus lock held (it is
 * recursive): a FIFO cannot go between its lookup and its use.
 */
#include "internal.h"

#include <rtai/rtai_fifos.h>

#include <fusion/pipe.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* What the Linux side needs at least, whatever the FIFO's size. */
#define FIFO_MIN_POOL 4096

_Static_assert(RTF_NO == RTAI_FIFOS, "one slot per FIFO number");

struct rtai_fifo {
	struct nk_pipe *np;
	int linux_fd;	      /* owned by @np */
	unsigned long serial; /* tells a re-created FIFO on the same number */
	int opens;
	/* The bytes from the Linux side, at ring[head] on: as large as
	 * the pipe's pool, so that any of its messages fits once the
	 * bytes before it are taken. */
	int cap;
	int head, avbs;
	char ring[];
};

/* This process's FIFOs by number.  Lock held. */
static struct rtai_fifo *fifos[RTF_NO];
static unsigned long fifo_serial;

/* The FIFO @fifo: -ENODEV (no such number), -EINVAL (not created).
 * Lock held. */
static int fifo_find(unsigned int fifo, struct rtai_fifo **f)
{
	if (fifo >= RTF_NO)
		return -ENODEV;
	*f = fifos[fifo];
	return *f ? 0 : -EINVAL;
}

/* Enter, lock, find @fifo: lock held on success only. */
static int fifo_get(unsigned int fifo, struct nk_instance **nk,
		    struct rtai_fifo **f)
{
	int ret;

	if (fifo >= RTF_NO)
		return -ENODEV;
	ret = rtai_enter(nk);
	if (ret)
		return ret;
	nk_lock(*nk);
	ret = fifo_find(fifo, f);
	if (ret)
		nk_unlock(*nk);
	return ret;
}

/*
 * A FIFO's control block for @size bytes each way (at least the least),
 * not yet the FIFO @fifo's, into *@f, its capacity set.  Errors:
 * -ENODEV, -EINVAL (@size <= 0), -ENOMEM, those of entering.
 */
static int fifo_alloc(unsigned int fifo, int size, struct nk_instance **nk,
		      struct rtai_fifo **f)
{
	int ret, cap;

	if (fifo >= RTF_NO)
		return -ENODEV;
	if (size <= 0)
		return -EINVAL;
	ret = rtai_enter(nk);
	if (ret)
		return ret;
	cap = size < FIFO_MIN_POOL ? FIFO_MIN_POOL : size;
	*f = nk_alloc(*nk, sizeof(**f) + (size_t)cap);
	if (*f == NULL)
		return -ENOMEM;
	(*f)->cap = cap;
	return 0;
}

int rtf_create(unsigned int fifo, int size)
{
	struct nk_instance *nk;
	struct nk_pipe *np = NULL;
	struct rtai_fifo *f;
	int ret;

	ret = fifo_alloc(fifo, size, &nk, &f);
	if (ret)
		return ret;
	/* Sockets and memory: outside the lock. */
	ret = nk_pipe_create(nk, NULL, (size_t)f->cap, &np);
	nk_lock(nk);
	if (fifos[fifo]) {
		/* Created already (maybe meanwhile): one open more. */
		fifos[fifo]->opens++;
		ret = -EEXIST;
	} else if (ret == 0) {
		f->np = np;
		f->linux_fd = nk_pipe_linux_fd(np);
		f->serial = ++fifo_serial;
		f->opens = 1;
		fifos[fifo] = f;
	}
	nk_unlock(nk);
	if (ret == 0)
		return 0;
	if (ret == -EEXIST && np)
		nk_pipe_delete(np);
	nk_free(nk, f);
	return ret == -EEXIST ? 0 : ret;
}

int rtf_resize(unsigned int fifo, int size)
{
	struct rtai_fifo *f, *nf;
	struct nk_instance *nk;
	int ret, cap;

	ret = fifo_alloc(fifo, size, &nk, &nf);
	if (ret)
		return ret;
	cap = nf->cap;
	nk_lock(nk);
	ret = fifo_find(fifo, &f);
	if (ret == 0)
		ret = nk_pipe_resize(f->np, (size_t)cap);
	if (ret == 0) {
		/* As rtf_reset(): what was not taken either way goes. */
		*nf = *f;
		nf->cap = cap;
		nf->head = nf->avbs = 0;
		fifos[fifo] = nf;
		nf = f;
	}
	nk_unlock(nk);
	nk_free(nk, nf);
	return ret ? ret : size;
}

void rtai_fifo_reclaim(struct nk_instance *nk)
{
	for (unsigned int i = 0; i < RTF_NO; i++)
		if (fifos[i]) {
			nk_pipe_delete(fifos[i]->np);
			nk_free(nk, fifos[i]);
			fifos[i] = NULL;
		}
}

/* Move what the Linux side wrote after the bytes not taken yet, whole
 * messages as long as they fit.  Lock held. */
static void fifo_pull(struct rtai_fifo *f)
{
	ssize_t n;

	memmove(f->ring, f->ring + f->head, (size_t)f->avbs);
	f->head = 0;
	do {
		n = nk_pipe_recv(f->np, f->ring + f->avbs,
				 (size_t)(f->cap - f->avbs), 0, NK_RELATIVE);
		if (n > 0)
			f->avbs += (int)n;
	} while (n > 0 && f->avbs < f->cap);
}

/* What is done to a FIFO found. */
enum fifo_op {
	FIFO_DESTROY,
	FIFO_PUT,
	FIFO_GET,
	FIFO_RESET,
	FIFO_AVBS,
	FIFO_FRBS
};

/* @op on FIFO @fifo (@buf, @count for puts and gets): its result.
 * Lock held. */
static int fifo_op_locked(struct nk_instance *nk, unsigned int fifo,
			  struct rtai_fifo *f, enum fifo_op op, void *buf,
			  int count)
{
	int ret = 0;

	switch (op) {
	case FIFO_DESTROY:
		ret = --f->opens;
		if (ret == 0) {
			fifos[fifo] = NULL;
			nk_pipe_delete(f->np);
			nk_free(nk, f);
		}
		break;
	case FIFO_PUT:
		/* All or nothing: the Linux side does not keep up. */
		if (count &&
		    nk_pipe_send(f->np, buf, (size_t)count, NK_PIPE_STREAM) < 0)
			count = 0;
		ret = count;
		break;
	case FIFO_GET:
		fifo_pull(f);
		ret = count < f->avbs ? count : f->avbs;
		if (ret)
			memcpy(buf, f->ring + f->head, (size_t)ret);
		f->head += ret;
		f->avbs -= ret;
		break;
	case FIFO_RESET:
		do {
			f->head = 0;
			f->avbs = 0;
			fifo_pull(f);
		} while (f->avbs > 0);
		break;
	case FIFO_AVBS:
		fifo_pull(f);
		ret = f->avbs;
		break;
	case FIFO_FRBS:
		/* What one put takes now (the pool holds both ways). */
		ret = (int)nk_pipe_room(f->np, NK_PIPE_STREAM);
		break;
	}
	return ret;
}

/* Find FIFO @fifo, check @buf and @count, apply @op. */
static int fifo_control(unsigned int fifo, enum fifo_op op, void *buf,
			int count)
{
	struct nk_instance *nk;
	struct rtai_fifo *f;
	int ret;

	ret = fifo_get(fifo, &nk, &f);
	if (ret)
		return ret;
	if (count < 0 || (buf == NULL && count > 0))
		ret = -EINVAL;
	else
		ret = fifo_op_locked(nk, fifo, f, op, buf, count);
	nk_unlock(nk);
	return ret;
}

int rtf_destroy(unsigned int fifo)
{
	return fifo_control(fifo, FIFO_DESTROY, NULL, 0);
}

int rtf_put(unsigned int fifo, const void *buf, int count)
{
	return fifo_control(fifo, FIFO_PUT, (void *)buf, count);
}

int rtf_get(unsigned int fifo, void *buf, int count)
{
	return fifo_control(fifo, FIFO_GET, buf, count);
}

int rtf_reset(unsigned int fifo)
{
	return fifo_control(fifo, FIFO_RESET, NULL, 0);
}

int rtf_get_avbs(unsigned int fifo)
{
	return fifo_control(fifo, FIFO_AVBS, NULL, 0);
}

int rtf_get_frbs(unsigned int fifo)
{
	return fifo_control(fifo, FIFO_FRBS, NULL, 0);
}

/* The FIFO @fifo's Linux fd and serial, if it exists.  Lock held. */
static bool fifo_fd(unsigned int fifo, int *fd, unsigned long *serial)
{
	struct rtai_fifo *f;

	if (fifo_find(fifo, &f))
		return false;
	*fd = f->linux_fd;
	*serial = f->serial;
	return true;
}

/* Not a service of the API (no link name): exported here, untraced. */
nk_export int fusion_rtf_open(unsigned int fifo)
{
	struct rtai_state *st = rtai_state();
	unsigned long serial, now;
	struct nk_instance *nk;
	int fd, copy;
	bool found, same;

	/* Not rtai_enter(): a Linux thread asking must not start the
	 * runtime; without the skin there is no FIFO. */
	if (st == NULL || fifo >= RTF_NO)
		return -ENOENT;
	nk = st->skin.nk;
	nk_lock(nk);
	found = fifo_fd(fifo, &fd, &serial);
	nk_unlock(nk);
	if (!found)
		return -ENOENT;
	/* A system call: not under the nucleus lock. */
	copy = dup(fd);
	if (copy < 0)
		return errno == EBADF ? -ENOENT : -errno;
	/* Destroyed meanwhile, @fd may have been closed and reused: the
	 * copy is good only if the same FIFO still holds the number. */
	nk_lock(nk);
	same = fifo_fd(fifo, &fd, &now) && now == serial;
	nk_unlock(nk);
	if (!same) {
		close(copy);
		return -ENOENT;
	}
	return copy;
}
