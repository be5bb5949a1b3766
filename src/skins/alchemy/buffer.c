/*
 * Alchemy IPC buffers: a ring of bytes with two waiting sides, readers
 * (waiting for data) and writers (waiting for room).
 *
 * Each waiter has a record (wait.h) saying how many bytes it needs; the
 * records of a side are kept in service order (arrival, or priority
 * then arrival with B_PRIO).  When data or room arrives and satisfies
 * the first waiter of a side, the whole side is woken and every waiter
 * tries again in scheduling order: that is the Xenomai rule, and the
 * reason a record rather than the nucleus wait queue holds the order
 * (the nucleus has no "peek").
 */
#include "wait.h"

#include <alchemy/buffer.h>

#include <stdlib.h>
#include <string.h>

struct buffer_wait {
	struct alchemy_wait wait;
	size_t size; /* bytes it needs (data or room) */
};

struct alchemy_buffer {
	struct alchemy_waitable wa; /* first: see wait.h */
	struct nk_list readers;	    /* struct buffer_wait, service order */
	struct nk_list writers;
	unsigned char *data;
	size_t bufsz;
	size_t rdoff; /* next byte to read */
	size_t wroff; /* next byte to write */
	size_t fillsz;
	int mode;
};

static int buffer_destroy(struct nk_instance *nk, void *object)
{
	struct alchemy_buffer *b = object;

	alchemy_wait_drop(nk, &b->readers);
	alchemy_wait_drop(nk, &b->writers);
	alchemy_wait_drop(nk, &b->wa.spare);
	free(b->data);
	free(b);
	return 0;
}

static void buffer_release(struct nk_instance *nk, void *object)
{
	buffer_destroy(nk, object);
}

static int buffer_alloc_data(void *object)
{
	struct alchemy_buffer *b = object;

	b->data = malloc(b->bufsz);
	return b->data ? 0 : -ENOMEM;
}

int rt_buffer_create(RT_BUFFER *bf, const char *name, size_t bufsz, int mode)
{
	struct alchemy_buffer *b;
	struct nk_instance *nk;
	int ret;

	if (bf == NULL || bufsz == 0 || (mode & ~B_PRIO) != 0)
		return -EINVAL;
	ret = alchemy_waitable_alloc(name, sizeof(*b), &nk, (void **)&b);
	if (ret)
		return ret;
	nk_list_init(&b->readers);
	nk_list_init(&b->writers);
	b->bufsz = bufsz;
	b->mode = mode;
	return alchemy_waitable_create(
	    nk, ALCHEMY_BUFFER, name, sizeof(struct buffer_wait), b,
	    buffer_alloc_data, buffer_release, &bf->handle);
}

int rt_buffer_delete(RT_BUFFER *bf)
{
	return alchemy_delete(ALCHEMY_BUFFER, alchemy_handle(bf),
			      buffer_destroy);
}

/* First waiter of a side still asleep, or NULL. */
static struct buffer_wait *side_head(struct nk_list *side)
{
	struct nk_list *pos;

	nk_list_for_each(pos, side)
	{
		struct buffer_wait *w =
		    nk_list_entry(pos, struct buffer_wait, wait.link);

		if (alchemy_wait_asleep(&w->wait))
			return w;
	}
	return NULL;
}

/* Wake every sleeper of a side; each takes its record back when it runs. */
static void side_wake(struct nk_list *side)
{
	struct nk_list *pos;

	nk_list_for_each(pos, side)
	{
		nk_synch_wakeup_one(
		    &nk_list_entry(pos, struct alchemy_wait, link)->synch);
	}
}

static void ring_put(struct alchemy_buffer *b, const unsigned char *src,
		     size_t len)
{
	size_t first = b->bufsz - b->wroff;

	if (first > len)
		first = len;
	memcpy(b->data + b->wroff, src, first);
	memcpy(b->data, src + first, len - first);
	b->wroff = (b->wroff + len) % b->bufsz;
	b->fillsz += len;
}

static void ring_get(struct alchemy_buffer *b, unsigned char *dst, size_t len)
{
	size_t first = b->bufsz - b->rdoff;

	if (first > len)
		first = len;
	memcpy(dst, b->data + b->rdoff, first);
	memcpy(dst + first, b->data, len - first);
	b->rdoff = (b->rdoff + len) % b->bufsz;
	b->fillsz -= len;
}

/* Move @len bytes now if possible; -EWOULDBLOCK otherwise. */
static ssize_t try_write(struct alchemy_buffer *b, const void *ptr, size_t len)
{
	struct buffer_wait *head;

	if (b->fillsz + len > b->bufsz)
		return -EWOULDBLOCK;
	ring_put(b, ptr, len);
	head = side_head(&b->readers);
	if (head && head->size <= b->fillsz)
		side_wake(&b->readers);
	return (ssize_t)len;
}

static ssize_t try_read(struct alchemy_buffer *b, void *ptr, size_t len)
{
	struct buffer_wait *head;

	if (b->fillsz < len)
		return -EWOULDBLOCK;
	ring_get(b, ptr, len);
	head = side_head(&b->writers);
	if (head && head->size + b->fillsz <= b->bufsz)
		side_wake(&b->writers);
	return (ssize_t)len;
}

/* The common body of every read and write form: @wptr set for writes. */
static ssize_t buffer_io(RT_BUFFER *bf, void *rptr, const void *wptr,
			 size_t len, struct alchemy_timeout to)
{
	struct alchemy_buffer *b;
	struct alchemy_wait *aw;
	struct nk_instance *nk;
	ssize_t ret;

	if (to.error)
		return to.error;
	if (len > 0 && rptr == NULL && wptr == NULL)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_BUFFER, alchemy_handle(bf), &nk, (void **)&b);
	if (ret)
		return ret;
	/* Only whole messages move: one larger than the ring never could. */
	if (len == 0 || len > b->bufsz) {
		nk_unlock(nk);
		return len ? -EINVAL : 0;
	}
	/* One deadline across the retries after each wake-up. */
	to = alchemy_deadline(nk, to);
	for (;;) {
		ret = wptr ? try_write(b, wptr, len) : try_read(b, rptr, len);
		if (ret != -EWOULDBLOCK || alchemy_nonblock(to))
			break;
		if (b->fillsz > 0 && !wptr && side_head(&b->writers)) {
			/* Writers wait for room we would wait to fill. */
			len = b->fillsz;
			continue;
		}
		/* The converse: readers wait, let them take what is there. */
		if (b->fillsz > 0 && wptr && side_head(&b->readers))
			side_wake(&b->readers);
		aw = alchemy_wait_queue(nk, &b->wa,
					wptr ? &b->writers : &b->readers,
					b->mode & B_PRIO);
		if (aw == NULL) {
			ret = alchemy_wait_restock(ALCHEMY_BUFFER, &bf->handle,
						   &nk, (void **)&b);
			if (ret)
				return ret;
			continue;
		}
		nk_container_of(aw, struct buffer_wait, wait)->size = len;
		ret = alchemy_wait_sleep(ALCHEMY_BUFFER, bf->handle, b, aw, to);
		if (ret)
			break;
	}
	nk_sched_run(nk);
	nk_unlock(nk);
	return ret;
}

ssize_t rt_buffer_write_timed(RT_BUFFER *bf, const void *ptr, size_t size,
			      const struct timespec *abs_timeout)
{
	return buffer_io(bf, NULL, ptr, size, alchemy_timespec(abs_timeout));
}

ssize_t rt_buffer_write_until(RT_BUFFER *bf, const void *ptr, size_t size,
			      RTIME timeout)
{
	return buffer_io(bf, NULL, ptr, size, alchemy_abs(timeout));
}

ssize_t rt_buffer_write(RT_BUFFER *bf, const void *ptr, size_t size,
			RTIME timeout)
{
	return buffer_io(bf, NULL, ptr, size, alchemy_rel(timeout));
}

ssize_t rt_buffer_read_timed(RT_BUFFER *bf, void *ptr, size_t size,
			     const struct timespec *abs_timeout)
{
	return buffer_io(bf, ptr, NULL, size, alchemy_timespec(abs_timeout));
}

ssize_t rt_buffer_read_until(RT_BUFFER *bf, void *ptr, size_t size,
			     RTIME timeout)
{
	return buffer_io(bf, ptr, NULL, size, alchemy_abs(timeout));
}

ssize_t rt_buffer_read(RT_BUFFER *bf, void *ptr, size_t size, RTIME timeout)
{
	return buffer_io(bf, ptr, NULL, size, alchemy_rel(timeout));
}

int rt_buffer_clear(RT_BUFFER *bf)
{
	struct alchemy_buffer *b;
	struct nk_instance *nk;
	int ret;

	ret = alchemy_get(ALCHEMY_BUFFER, alchemy_handle(bf), &nk, (void **)&b);
	if (ret)
		return ret;
	b->rdoff = b->wroff = b->fillsz = 0;
	/* All the room is back: every writer may try again. */
	side_wake(&b->writers);
	nk_sched_run(nk);
	nk_unlock(nk);
	return 0;
}

int rt_buffer_inquire(RT_BUFFER *bf, RT_BUFFER_INFO *info)
{
	struct alchemy_buffer *b;
	struct nk_instance *nk;
	int ret;

	if (info == NULL)
		return -EINVAL;
	ret = alchemy_get(ALCHEMY_BUFFER, alchemy_handle(bf), &nk, (void **)&b);
	if (ret)
		return ret;
	info->iwaiters = alchemy_wait_count(&b->readers);
	info->owaiters = alchemy_wait_count(&b->writers);
	info->totalmem = b->bufsz;
	info->availmem = b->bufsz - b->fillsz;
	alchemy_name(ALCHEMY_BUFFER, bf->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_buffer_bind(RT_BUFFER *bf, const char *name, RTIME timeout)
{
	return alchemy_bind(ALCHEMY_BUFFER, alchemy_handle(bf), name, timeout);
}

int rt_buffer_unbind(RT_BUFFER *bf)
{
	return alchemy_unbind(alchemy_handle(bf));
}
