/* SPDX-License-Identifier: MIT */
/*
 * Alchemy IPC buffers: a ring of bytes with two waiting sides, readers
 * (waiting for data) and writers (waiting for room).
 *
 * Each side is a nucleus wait queue in service order (arrival, or
 * priority then arrival with B_PRIO), and each waiter sleeps with a
 * wait context (skin.h) saying how many bytes it needs.  When data or
 * room arrives and satisfies the first waiter of a side, the whole side
 * is woken and every waiter tries again in scheduling order: that is
 * the Xenomai rule.
 */
#include "internal.h"

#include <alchemy/buffer.h>

#include <stdlib.h>
#include <string.h>

struct buffer_wait {
	size_t size; /* bytes it needs (data or room) */
};

struct alchemy_buffer {
	struct nk_synch readers; /* with a struct buffer_wait */
	struct nk_synch writers;
	unsigned char *data;
	size_t bufsz;
	size_t rdoff; /* next byte to read */
	size_t wroff; /* next byte to write */
	size_t fillsz;
	int mode;
};

void alchemy_buffer_describe(const void *object, struct nk_object_info *info)
{
	const struct alchemy_buffer *b = object;

	info->count = (long)b->fillsz;
	info->capacity = (long)b->bufsz;
	info->waiters = &b->readers;
	info->senders = &b->writers;
}

/* Also what a failed creation releases.  Lock held or not. */
void alchemy_buffer_reclaim(struct nk_instance *nk, void *object)
{
	struct alchemy_buffer *b = object;

	skin_wait_destroy(nk, &b->readers);
	skin_wait_destroy(nk, &b->writers);
	nk_free(nk, b->data);
	nk_free(nk, b);
}

/* The two sides and the ring. */
static int buffer_prepare(struct nk_instance *nk, void *object,
			  const char *wname)
{
	struct alchemy_buffer *b = object;
	int ret = skin_wait_init(nk, &b->readers, wname, b->mode & B_PRIO);

	if (ret == 0)
		ret = skin_wait_init(nk, &b->writers, wname, b->mode & B_PRIO);
	if (ret)
		return ret;
	b->data = nk_alloc(nk, b->bufsz);
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
	b->bufsz = bufsz;
	b->mode = mode;
	return skin_create(alchemy(), ALCHEMY_BUFFER, name, b, buffer_prepare,
			   alchemy_buffer_reclaim, &bf->handle);
}

int rt_buffer_delete(RT_BUFFER *bf)
{
	return alchemy_delete(ALCHEMY_BUFFER, alchemy_handle(bf), NULL);
}

/* The request of the first waiter of a side, or NULL. */
static struct buffer_wait *side_head(struct nk_synch *side)
{
	struct nk_thread *t = nk_synch_next_waiter(side, NULL);

	return t ? nk_synch_waiter_ctx(t) : NULL;
}

/* Wake every waiter of a side, to try again. */
static void side_wake(struct nk_synch *side)
{
	nk_synch_flush(side, NK_WAKE_OK);
}

static void ring_put(struct alchemy_buffer *b, const unsigned char *src,
		     size_t len)
{
	size_t first = b->bufsz - b->wroff;

	if (first > len)
		first = len;
	nk_journal_save(b->data + b->wroff, first);
	nk_journal_save(b->data, len - first);
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
			 size_t len, struct skin_timeout to)
{
	struct buffer_wait w;
	struct alchemy_buffer *b;
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
	to = skin_deadline(nk, to);
	for (;;) {
		ret = wptr ? try_write(b, wptr, len) : try_read(b, rptr, len);
		if (ret != -EWOULDBLOCK || skin_nonblocking(to))
			break;
		if (b->fillsz > 0 && !wptr && side_head(&b->writers)) {
			/* Writers wait for room we would wait to fill. */
			len = b->fillsz;
			continue;
		}
		/* The converse: readers wait, let them take what is there. */
		if (b->fillsz > 0 && wptr && side_head(&b->readers))
			side_wake(&b->readers);
		w.size = len;
		ret = skin_wait_sleep_locked(
		    alchemy(), ALCHEMY_BUFFER, bf->handle, b,
		    wptr ? &b->writers : &b->readers, &w, sizeof(w), to);
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
	return buffer_io(bf, NULL, ptr, size, skin_timespec(abs_timeout));
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
	return buffer_io(bf, ptr, NULL, size, skin_timespec(abs_timeout));
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
	info->iwaiters = (int)nk_synch_nr_waiters(&b->readers);
	info->owaiters = (int)nk_synch_nr_waiters(&b->writers);
	info->totalmem = b->bufsz;
	info->availmem = b->bufsz - b->fillsz;
	alchemy_name(bf->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_buffer_bind(RT_BUFFER *bf, const char *name, RTIME timeout)
{
	return alchemy_bind(ALCHEMY_BUFFER, alchemy_handle(bf), name, timeout);
}

int rt_buffer_unbind(RT_BUFFER *bf)
{
	return skin_unbind(alchemy_handle(bf));
}
