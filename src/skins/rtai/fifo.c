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
#include <poll.h>
#include <sys/socket.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* What the Linux side needs at least, whatever the FIFO's size. */
#define FIFO_MIN_POOL 4096

_Static_assert(RTF_NO == RTAI_FIFOS, "one slot per FIFO number");

struct rtai_fifo {
	struct nk_pipe *np;
	int linux_fd; /* owned by @np */
	int opens;
	/*
	 * Its semaphore (rtf_sem_init(), NULL pipe: none): binary, taken
	 * by either side; a post the Linux side may wait for also sends a
	 * token through @sem_np, whose flush by the root domain wakes a
	 * Linux thread polling its descriptor (a real-time post makes no
	 * system call).
	 */
	struct nk_pipe *sem_np;
	int sem_fd;	 /* owned by @sem_np */
	int sem_waiters; /* Linux threads waiting: tokens are sent */
	bool sem;
	/* The bytes from the Linux side, at ring[head] on: as large as
	 * the pipe's pool, so that any of its messages fits once the
	 * bytes before it are taken. */
	int cap;
	int head, avbs;
	char ring[];
};

/* Its semaphore's token pipe goes (a Linux waiter reads end-of-file).
 * Lock held. */
static void sem_drop(struct rtai_fifo *f)
{
	if (f->sem_np)
		nk_pipe_delete(f->sem_np);
	f->sem_np = NULL;
	f->sem_waiters = 0;
}

/* This process's FIFOs by number.  Lock held. */
static struct rtai_fifo *fifos[RTF_NO];

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
	*f = nk_alloc_local(*nk, sizeof(**f) + (size_t)cap);
	if (*f == NULL)
		return -ENOMEM;
	/* Only this process's threads use it, and an undo is only ever of
	 * a dead process's section, whose FIFOs go with it: nothing of it
	 * needs noting. */
	nk_journal_data(*f, sizeof(**f) + (size_t)cap, true);
	(*f)->cap = cap;
	return 0;
}

static void fifo_free(struct nk_instance *nk, struct rtai_fifo *f)
{
	nk_journal_data(f, 0, false);
	nk_free_local(nk, f);
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
		f->opens = 1;
		fifos[fifo] = f;
	}
	nk_unlock(nk);
	if (ret == 0)
		return 0;
	if (ret == -EEXIST && np)
		nk_pipe_delete(np);
	fifo_free(nk, f);
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
	fifo_free(nk, nf);
	return ret ? ret : size;
}

void rtai_fifo_reclaim(struct nk_instance *nk)
{
	for (unsigned int i = 0; i < RTF_NO; i++)
		if (fifos[i]) {
			sem_drop(fifos[i]);
			nk_pipe_delete(fifos[i]->np);
			fifo_free(nk, fifos[i]);
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
			sem_drop(f);
			nk_pipe_delete(f->np);
			fifo_free(nk, f);
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

/*
 * A descriptor of our own on FIFO @fifo's Linux side (its semaphore's
 * with @sem): -ENOENT when there is none, -errno of dup().  From any
 * Linux thread; never starts the runtime.
 */
static int fifo_dup(unsigned int fifo, bool sem)
{
	struct rtai_state *st = rtai_state();
	struct nk_instance *nk;
	struct rtai_fifo *f;
	int ret = -ENOENT;

	/* Not rtai_enter(): a Linux thread asking must not start the
	 * runtime; without the skin there is no FIFO. */
	if (st == NULL || fifo >= RTF_NO)
		return -ENOENT;
	nk = st->skin.nk;
	/* The copy is made under the lock, under which the FIFO or its
	 * semaphore goes and closes the descriptor: it is theirs, never a
	 * number closed and given to another file. */
	nk_lock(nk);
	if (fifo_find(fifo, &f) == 0 && (!sem || f->sem_np)) {
		ret = dup(sem ? f->sem_fd : f->linux_fd);
		if (ret < 0)
			ret = -errno;
	}
	nk_unlock(nk);
	return ret;
}

/* Not a service of the API (no link name): exported here, untraced. */
nk_export int fusion_rtf_open(unsigned int fifo)
{
	return fifo_dup(fifo, false);
}

/* FIFO @fifo with a semaphore, lock held on success: -ENODEV, -EINVAL
 * (no FIFO, no semaphore). */
static int sem_get(unsigned int fifo, struct nk_instance **nk,
		   struct rtai_fifo **f)
{
	int ret = fifo_get(fifo, nk, f);

	if (ret == 0 && (*f)->sem_np == NULL) {
		nk_unlock(*nk);
		ret = -EINVAL;
	}
	return ret;
}

int rtf_sem_init(unsigned int fifo, int value)
{
	struct nk_pipe *np = NULL;
	struct nk_instance *nk;
	struct rtai_fifo *f;
	int ret;

	if (value < 0)
		return fifo >= RTF_NO ? -ENODEV : -EINVAL;
	ret = fifo_get(fifo, &nk, &f);
	if (ret)
		return ret;
	if (f->sem_np == NULL) {
		/* Sockets: outside the lock. */
		nk_unlock(nk);
		if (nk_pipe_create(nk, NULL, 0, &np))
			return -ENOMEM;
		ret = fifo_get(fifo, &nk, &f);
		if (ret) {
			nk_pipe_delete(np);
			return ret;
		}
	}
	if (np && f->sem_np == NULL) {
		f->sem_np = np;
		f->sem_fd = nk_pipe_linux_fd(np);
		np = NULL;
	}
	f->sem = value > 0;
	nk_unlock(nk);
	/* Made meanwhile by another thread: ours goes. */
	if (np)
		nk_pipe_delete(np);
	return 0;
}

/* What is done to a FIFO's semaphore. */
enum sem_op { SEM_POST, SEM_TAKE, SEM_LEAVE, SEM_DESTROY };

/*
 * @op on FIFO @fifo's semaphore.  SEM_TAKE takes it if it is up (1),
 * else not (0), a Linux waiter counting itself in (@waiter +1: it was
 * not) or out (-1: it was) as it goes on waiting or takes it; SEM_LEAVE
 * counts a waiter that gives up out.  0 otherwise, -EINVAL, -ENODEV.
 */
static int sem_control(unsigned int fifo, enum sem_op op, int waiter)
{
	struct nk_instance *nk;
	struct rtai_fifo *f;
	int ret = sem_get(fifo, &nk, &f);

	if (ret)
		return ret;
	switch (op) {
	case SEM_POST:
		/* A token for the Linux waiters, as the value rises: a
		 * full pool holds tokens enough to wake them. */
		if (!f->sem && f->sem_waiters)
			(void)nk_pipe_send(f->sem_np, "", 1, 0);
		f->sem = true;
		break;
	case SEM_TAKE:
		ret = f->sem;
		f->sem = false;
		if ((ret == 0 && waiter > 0) || (ret && waiter < 0))
			f->sem_waiters += waiter;
		break;
	case SEM_LEAVE:
		if (f->sem_waiters > 0)
			f->sem_waiters--;
		break;
	case SEM_DESTROY:
		sem_drop(f);
		break;
	}
	nk_unlock(nk);
	return ret;
}

int rtf_sem_post(unsigned int fifo)
{
	return sem_control(fifo, SEM_POST, 0);
}

int rtf_sem_trywait(unsigned int fifo)
{
	return sem_control(fifo, SEM_TAKE, 0);
}

int rtf_sem_destroy(unsigned int fifo)
{
	return sem_control(fifo, SEM_DESTROY, 0);
}

/* CLOCK_MONOTONIC in milliseconds: the Linux side's time. */
static long long mono_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec * 1000LL + now.tv_nsec / 1000000;
}

/* Read the tokens @fd holds: false at end-of-file (the semaphore or its
 * FIFO went). */
static bool tokens_drain(int fd)
{
	char token[16];
	ssize_t n;

	while ((n = recv(fd, token, sizeof(token), MSG_DONTWAIT)) > 0)
		;
	return n != 0;
}

/*
 * Take FIFO @fifo's semaphore, waiting (a Linux thread, on its token
 * pipe's descriptor) @ms milliseconds at most (-1: for ever).  0,
 * -ETIMEDOUT, -EINVAL (no semaphore, or destroyed meanwhile), -ENODEV,
 * -errno of poll().
 */
static int sem_wait(unsigned int fifo, int ms)
{
	long long end = mono_ms() + ms;
	int fd, ret;

	fd = fifo_dup(fifo, true);
	if (fd < 0)
		return fifo >= RTF_NO ? -ENODEV : -EINVAL;
	/* Taken, or counted as a waiter in one go: no post is missed.
	 * Each token says the value rose: look again. */
	ret = sem_control(fifo, SEM_TAKE, 1);
	while (ret == 0) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		long long left = end - mono_ms();
		int n = poll(&pfd, 1, ms < 0 ? -1 : left > 0 ? (int)left : 0);

		if (n == 0)
			ret = -ETIMEDOUT;
		else if (n < 0 && errno != EINTR)
			ret = -errno;
		else if (n > 0 && !tokens_drain(fd))
			ret = -EINVAL;
		else
			ret = sem_control(fifo, SEM_TAKE, -1);
	}
	/* Counted still, unless it took it or the semaphore went. */
	if (ret < 0 && ret != -EINVAL)
		(void)sem_control(fifo, SEM_LEAVE, 0);
	close(fd);
	return ret > 0 ? 0 : ret;
}

int rtf_sem_wait(unsigned int fifo)
{
	return sem_wait(fifo, -1);
}

int rtf_sem_timed_wait(unsigned int fifo, int ms_delay)
{
	return ms_delay < 0 ? (fifo >= RTF_NO ? -ENODEV : -EINVAL)
			    : sem_wait(fifo, ms_delay);
}
