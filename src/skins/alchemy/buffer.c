/*
 * Alchemy IPC buffers: a ring of bytes with two waiting sides, readers
 * (waiting for data) and writers (waiting for room).
 *
 * Each waiter sleeps alone on the private synch of a record that says
 * how many bytes it needs; the records of a side are kept in service
 * order (arrival, or priority then arrival with B_PRIO).  When data or
 * room arrives and satisfies the first waiter of a side, the whole
 * side is woken and every waiter tries again in scheduling order: that
 * is the Xenomai rule, and the reason a record rather than the nucleus
 * wait queue holds the order (the nucleus has no "peek").
 *
 * Records belong to the buffer, never to a waiter's stack: a task
 * deleted while it waits leaves its record behind with no sleeper, and
 * wakers skip it; the buffer frees every record when it is deleted.
 * They are made with the buffer and recycled through a spare list.
 */
#include <alchemy/buffer.h>

#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct buffer_wait {
	struct nk_list link;   /* a side's waiters, or the spare list */
	struct nk_synch synch; /* the waiter sleeps here, alone */
	int prio;	       /* its priority when it started waiting */
	size_t size;	       /* bytes it needs (data or room) */
};

struct alchemy_buffer {
	struct nk_list readers; /* struct buffer_wait, service order */
	struct nk_list writers;
	struct nk_list spare;
	unsigned char *data;
	size_t bufsz;
	size_t rdoff; /* next byte to read */
	size_t wroff; /* next byte to write */
	size_t fillsz;
	int mode;
	char name[XNOBJECT_NAME_LEN];
};

/* Wait records made with the buffer, enough for most uses. */
#define BUFFER_SPARE_RECORDS 4

/*
 * A record for one more waiter.  Made with the buffer (a mode switch
 * does no harm there), or, past those, by a waiter itself: malloc may
 * enter Linux and relax it.
 */
static struct buffer_wait *buffer_record(struct nk_instance *nk,
					 const char *name)
{
	struct buffer_wait *w = malloc(sizeof(*w));

	if (w && nk_synch_init(nk, &w->synch, name, NK_SYNCH_FIFO, 0)) {
		free(w);
		w = NULL;
	}
	return w;
}

/* Free a list of records; sleepers wake with -EIDRM.  Lock held. */
static void drop_records(struct nk_list *list)
{
	struct nk_list *pos, *tmp;

	nk_list_for_each_safe(pos, tmp, list)
	{
		struct buffer_wait *w =
		    nk_list_entry(pos, struct buffer_wait, link);

		nk_synch_destroy_locked(&w->synch);
		free(w);
	}
	nk_list_init(list);
}

int rt_buffer_create(RT_BUFFER *bf, const char *name, size_t bufsz, int mode)
{
	struct alchemy_buffer *b;
	struct nk_instance *nk;
	int ret;

	if (bf == NULL || bufsz == 0 || (mode & ~B_PRIO) != 0)
		return -EINVAL;
	if (name && strlen(name) >= XNOBJECT_NAME_LEN)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	/* As Xenomai: objects are made by tasks, not foreign threads. */
	if (nk_thread_self(nk) == NULL)
		return -EPERM;
	b = calloc(1, sizeof(*b));
	if (b == NULL)
		return -ENOMEM;
	b->data = malloc(bufsz);
	if (b->data == NULL) {
		free(b);
		return -ENOMEM;
	}
	nk_list_init(&b->readers);
	nk_list_init(&b->writers);
	nk_list_init(&b->spare);
	b->bufsz = bufsz;
	b->mode = mode;
	strcpy(b->name, name && name[0] ? name : "buffer");
	for (int i = 0; i < BUFFER_SPARE_RECORDS && ret == 0; i++) {
		struct buffer_wait *w = buffer_record(nk, b->name);

		if (w)
			nk_list_add_before(&w->link, &b->spare);
		else
			ret = -ENOMEM;
	}

	nk_lock(nk);
	if (ret == 0)
		ret = alchemy_register(ALCHEMY_BUFFER, name, b, &bf->handle);
	if (ret)
		drop_records(&b->spare);
	nk_unlock(nk);
	if (ret) {
		free(b->data);
		free(b);
	}
	return ret;
}

/* Enter the skin, lock, and find the buffer; on error, unlocked. */
static int buffer_get(RT_BUFFER *bf, struct nk_instance **nk,
		      struct alchemy_buffer **b)
{
	int ret;

	if (bf == NULL)
		return -EINVAL;
	ret = alchemy_enter(nk);
	if (ret)
		return ret;
	nk_lock(*nk);
	ret = alchemy_lookup(ALCHEMY_BUFFER, bf->handle, (void **)b);
	if (ret)
		nk_unlock(*nk);
	return ret;
}

int rt_buffer_delete(RT_BUFFER *bf)
{
	struct alchemy_buffer *b;
	struct nk_instance *nk;
	int ret;

	ret = buffer_get(bf, &nk, &b);
	if (ret)
		return ret;
	alchemy_unregister(ALCHEMY_BUFFER, bf->handle);
	drop_records(&b->readers);
	drop_records(&b->writers);
	drop_records(&b->spare);
	free(b->data);
	free(b);
	nk_sched_run(nk);
	nk_unlock(nk);
	return 0;
}

/* First waiter of a side still asleep, or NULL. */
static struct buffer_wait *side_head(struct nk_list *side)
{
	struct nk_list *pos;

	nk_list_for_each(pos, side)
	{
		struct buffer_wait *w =
		    nk_list_entry(pos, struct buffer_wait, link);

		if (nk_synch_nr_waiters(&w->synch))
			return w;
	}
	return NULL;
}

static int side_count(struct nk_list *side)
{
	struct nk_list *pos;
	int n = 0;

	nk_list_for_each(pos, side)
	{
		n += (int)nk_synch_nr_waiters(
		    &nk_list_entry(pos, struct buffer_wait, link)->synch);
	}
	return n;
}

/* Wake every sleeper of a side; each takes its record back when it runs. */
static void side_wake(struct nk_list *side)
{
	struct nk_list *pos, *tmp;

	nk_list_for_each_safe(pos, tmp, side)
	{
		struct buffer_wait *w =
		    nk_list_entry(pos, struct buffer_wait, link);

		if (nk_synch_wakeup_one(&w->synch))
			nk_list_del(&w->link);
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

static void side_enqueue(struct alchemy_buffer *b, struct nk_list *side,
			 struct buffer_wait *w)
{
	struct nk_list *pos = side;

	if (b->mode & B_PRIO) {
		for (pos = side->next; pos != side; pos = pos->next) {
			if (nk_list_entry(pos, struct buffer_wait, link)->prio <
			    w->prio)
				break;
		}
	}
	nk_list_add_before(&w->link, pos);
}

/*
 * Sleep on a spare record until woken, in the queue of @side, for
 * @len bytes.  Lock held, on return too.  Non-zero: stop (and if the
 * buffer is gone, touch nothing of it).
 */
static int buffer_block(struct nk_instance *nk, uintptr_t handle,
			struct alchemy_buffer *b, struct nk_list *side,
			size_t len, nk_time_t timeout, enum nk_tmode tmode)
{
	struct buffer_wait *w =
	    nk_list_first_entry(&b->spare, struct buffer_wait, link);
	void *again;
	int ret;

	nk_list_del(&w->link);
	w->size = len;
	w->prio = nk_thread_effective_priority(nk_thread_self(nk));
	side_enqueue(b, side, w);
	ret = nk_synch_sleep(&w->synch, timeout, tmode);
	if (alchemy_lookup(ALCHEMY_BUFFER, handle, &again) || again != b) {
		/* Deleted: it freed the record, unless a waker unlinked it. */
		if (ret == 0) {
			nk_synch_destroy_locked(&w->synch);
			free(w);
		}
		return ret ? ret : -EIDRM;
	}
	if (ret)
		nk_list_del(&w->link);
	nk_list_add_before(&w->link, &b->spare);
	return ret;
}

/* Give the buffer a spare record, allocated unlocked; re-locks. */
static int buffer_restock(RT_BUFFER *bf, struct nk_instance **nk,
			  struct alchemy_buffer **b)
{
	char name[XNOBJECT_NAME_LEN];
	struct buffer_wait *w;
	int ret;

	strcpy(name, (*b)->name);
	nk_unlock(*nk);
	w = buffer_record(*nk, name);
	if (w == NULL)
		return -ENOMEM;
	ret = buffer_get(bf, nk, b);
	if (ret) {
		nk_synch_destroy(&w->synch);
		free(w);
		return ret;
	}
	nk_list_add_before(&w->link, &(*b)->spare);
	return 0;
}

/* The common body of every read and write form: @wptr set for writes. */
static ssize_t buffer_io(RT_BUFFER *bf, void *rptr, const void *wptr,
			 size_t len, nk_time_t timeout, enum nk_tmode tmode)
{
	struct alchemy_buffer *b;
	struct nk_instance *nk;
	nk_time_t now;
	ssize_t ret;

	if (len > 0 && rptr == NULL && wptr == NULL)
		return -EINVAL;
	ret = buffer_get(bf, &nk, &b);
	if (ret)
		return ret;
	/* Only whole messages move: one larger than the ring never could. */
	if (len == 0 || len > b->bufsz) {
		nk_unlock(nk);
		return len ? -EINVAL : 0;
	}
	/* One deadline across the retries after each wake-up. */
	if (tmode == NK_RELATIVE && timeout != NK_INFINITE && timeout > 0) {
		now = nk_now(nk);
		timeout =
		    timeout > NK_INFINITE - now ? NK_INFINITE : timeout + now;
		tmode = NK_ABSOLUTE;
	}
	for (;;) {
		ret = wptr ? try_write(b, wptr, len) : try_read(b, rptr, len);
		if (ret != -EWOULDBLOCK || alchemy_nonblock(timeout, tmode))
			break;
		if (b->fillsz > 0 && !wptr && side_head(&b->writers)) {
			/* Writers wait for room we would wait to fill. */
			len = b->fillsz;
			continue;
		}
		/* The converse: readers wait, let them take what is there. */
		if (b->fillsz > 0 && wptr && side_head(&b->readers))
			side_wake(&b->readers);
		if (nk_list_empty(&b->spare)) {
			ret = buffer_restock(bf, &nk, &b);
			if (ret)
				return ret;
			continue;
		}
		ret = buffer_block(nk, bf->handle, b,
				   wptr ? &b->writers : &b->readers, len,
				   timeout, tmode);
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
	enum nk_tmode tmode;
	nk_time_t timeout;
	int ret;

	ret = alchemy_timespec(abs_timeout, &timeout, &tmode);
	if (ret)
		return ret;
	return buffer_io(bf, NULL, ptr, size, timeout, tmode);
}

ssize_t rt_buffer_write_until(RT_BUFFER *bf, const void *ptr, size_t size,
			      RTIME timeout)
{
	enum nk_tmode tmode;
	nk_time_t nkto;

	alchemy_abs(timeout, &nkto, &tmode);
	return buffer_io(bf, NULL, ptr, size, nkto, tmode);
}

ssize_t rt_buffer_write(RT_BUFFER *bf, const void *ptr, size_t size,
			RTIME timeout)
{
	enum nk_tmode tmode;
	nk_time_t nkto;

	alchemy_rel(timeout, &nkto, &tmode);
	return buffer_io(bf, NULL, ptr, size, nkto, tmode);
}

ssize_t rt_buffer_read_timed(RT_BUFFER *bf, void *ptr, size_t size,
			     const struct timespec *abs_timeout)
{
	enum nk_tmode tmode;
	nk_time_t timeout;
	int ret;

	ret = alchemy_timespec(abs_timeout, &timeout, &tmode);
	if (ret)
		return ret;
	return buffer_io(bf, ptr, NULL, size, timeout, tmode);
}

ssize_t rt_buffer_read_until(RT_BUFFER *bf, void *ptr, size_t size,
			     RTIME timeout)
{
	enum nk_tmode tmode;
	nk_time_t nkto;

	alchemy_abs(timeout, &nkto, &tmode);
	return buffer_io(bf, ptr, NULL, size, nkto, tmode);
}

ssize_t rt_buffer_read(RT_BUFFER *bf, void *ptr, size_t size, RTIME timeout)
{
	enum nk_tmode tmode;
	nk_time_t nkto;

	alchemy_rel(timeout, &nkto, &tmode);
	return buffer_io(bf, ptr, NULL, size, nkto, tmode);
}

int rt_buffer_clear(RT_BUFFER *bf)
{
	struct alchemy_buffer *b;
	struct nk_instance *nk;
	int ret;

	ret = buffer_get(bf, &nk, &b);
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
	ret = buffer_get(bf, &nk, &b);
	if (ret)
		return ret;
	info->iwaiters = side_count(&b->readers);
	info->owaiters = side_count(&b->writers);
	info->totalmem = b->bufsz;
	info->availmem = b->bufsz - b->fillsz;
	alchemy_name(ALCHEMY_BUFFER, bf->handle, info->name);
	nk_unlock(nk);
	return 0;
}

int rt_buffer_bind(RT_BUFFER *bf, const char *name, RTIME timeout)
{
	struct nk_instance *nk;
	enum nk_tmode tmode;
	nk_time_t nkto;
	int ret;

	if (bf == NULL)
		return -EINVAL;
	ret = alchemy_enter(&nk);
	if (ret)
		return ret;
	alchemy_rel(timeout, &nkto, &tmode);
	nk_lock(nk);
	ret = alchemy_bind(ALCHEMY_BUFFER, name, &bf->handle, nkto, tmode);
	nk_unlock(nk);
	return ret;
}

int rt_buffer_unbind(RT_BUFFER *bf)
{
	if (bf == NULL)
		return -EINVAL;
	bf->handle = 0;
	return 0;
}
