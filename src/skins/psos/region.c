/* SPDX-License-Identifier: MIT */
/*
 * pSOS memory regions: segments of whole units, first fit from the
 * lowest address, over memory the program gives.  A region's map (one
 * entry per unit, at most 32767) lives in the instance's memory, not
 * in the region: a segment's start is known exactly (ERR_SEGADDR,
 * ERR_SEGFREE) and every byte of the region is allocatable.
 *
 * A waiter asks for a number of units in its wait context; a returned
 * segment re-examines the waiters in queue order (FIFO or priority)
 * and serves each one that now fits, as pSOS documents.
 */
#include "internal.h"

#define RN_MAX_UNITS 32767
#define RN_MIN_UNIT 16

struct psos_region {
	struct psos_object obj;
	/* The program's memory: a region is used in the process whose
	 * addresses these are (sessions would give it shared memory). */
	unsigned char *base;
	unsigned long unit;
	unsigned long nunits;
	unsigned long used; /* units allocated */
	unsigned long flags;
	/* Per unit: n > 0 starts a segment of n units, -1 lies inside
	 * one, 0 is free. */
	short *map;
	struct nk_synch waiters;
};

void psos_region_describe(const void *object, struct nk_object_info *info)
{
	const struct psos_region *r = object;

	info->name = r->obj.name;
	info->count = (long)r->used;
	info->capacity = (long)r->nunits;
	info->waiters = &r->waiters;
}

struct rn_wait {
	unsigned long units;
	void *seg;
};

void psos_region_reclaim(struct nk_instance *nk, void *object)
{
	struct psos_region *r = object;

	nk_synch_destroy_locked(&r->waiters);
	nk_free(nk, r->map);
	nk_free(nk, r);
}

/* Its map of units, its waiters' queue. */
static int region_setup(struct nk_instance *nk, void *object, const char *wname)
{
	struct psos_region *r = object;

	r->map = nk_alloc(nk, r->nunits * sizeof(*r->map));
	if (r->map == NULL)
		return -ENOMEM;
	return skin_wait_init(nk, &r->waiters, wname, r->flags & RN_PRIOR);
}

unsigned long rn_create(const char *name, void *saddr, unsigned long length,
			unsigned long unit_size, unsigned long flags,
			unsigned long *rnid, unsigned long *asiz)
{
	const struct psos_region init = {.base = saddr,
					 .unit = unit_size,
					 .nunits =
					     unit_size ? length / unit_size : 0,
					 .flags = flags};
	unsigned long ret;

	if (asiz == NULL)
		return ERR_OBJID;
	ret = psos_check_pool(saddr, unit_size, RN_MIN_UNIT, ERR_RNADDR,
			      ERR_UNITSIZE);
	if (ret)
		return ret;
	if (length / unit_size > RN_MAX_UNITS)
		return ERR_TINYUNIT;
	if (length < unit_size)
		return ERR_TINYRN;
	ret = psos_create(PSOS_REGION, name, &init, sizeof(init), region_setup,
			  ERR_OBJTFULL, rnid);
	if (ret == 0)
		*asiz = init.nunits * unit_size;
	return ret;
}

static unsigned long region_check(void *object, bool *keep)
{
	struct psos_region *r = object;

	if (r->used && !(r->flags & RN_DEL)) {
		*keep = true;
		return ERR_SEGINUSE;
	}
	return nk_synch_nr_waiters(&r->waiters) ? ERR_TATRNDEL : SUCCESS;
}

unsigned long rn_delete(unsigned long rnid)
{
	return psos_delete(PSOS_REGION, rnid, region_check);
}

unsigned long rn_ident(const char *name, unsigned long *rnid)
{
	return psos_ident(PSOS_REGION, 0, name, 0, rnid);
}

/* The lowest run of @n free units, taken; NULL if none.  Lock held. */
static void *region_take(struct psos_region *r, unsigned long n)
{
	unsigned long u = 0, run = 0;

	while (u < r->nunits) {
		if (r->map[u] > 0) {
			u += (unsigned long)r->map[u];
			run = 0;
			continue;
		}
		if (++run == n) {
			unsigned long start = u + 1 - n;

			nk_journal_save(&r->map[start], n * sizeof(r->map[0]));
			r->map[start] = (short)n;
			for (unsigned long i = start + 1; i <= u; i++)
				r->map[i] = -1;
			r->used += n;
			return r->base + start * r->unit;
		}
		u++;
	}
	return NULL;
}

static bool region_serve(struct nk_thread *waiter, void *ctx, void *arg)
{
	struct rn_wait *w = ctx;

	(void)waiter;
	w->seg = region_take(arg, w->units);
	return w->seg != NULL;
}

unsigned long rn_getseg(unsigned long rnid, unsigned long size,
			unsigned long flags, unsigned long timeout,
			void **seg_addr)
{
	struct rn_wait w = {0};
	struct skin_timeout to = skin_infinite();
	struct nk_instance *nk;
	struct psos_task *self = NULL;
	struct psos_region *r;
	unsigned long ret;

	for (;;) {
		ret = psos_get(PSOS_REGION, rnid, &nk, (void **)&r);
		if (ret)
			break;
		w.units = (size + r->unit - 1) / r->unit;
		if (seg_addr == NULL)
			ret = ERR_OBJID;
		else if (size == 0)
			ret = ERR_ZERO;
		else if (size > r->nunits * r->unit)
			ret = ERR_TOOBIG;
		else if ((w.seg = region_take(r, w.units)) != NULL)
			ret = SUCCESS;
		else if (flags & RN_NOWAIT)
			ret = ERR_NOSEG;
		else {
			if (psos_wait_prepare(nk, &self, &to, timeout)) {
				nk_unlock(nk);
				continue;
			}
			ret = psos_wait_error(
			    skin_wait_sleep_locked(&psos()->skin, PSOS_REGION,
						   rnid, r, &r->waiters, &w,
						   sizeof(w), to),
			    ERR_RNKILLD);
		}
		nk_unlock(nk);
		break;
	}
	psos_wait_end(nk, self);
	if (ret == 0)
		*seg_addr = w.seg;
	return ret;
}

static unsigned long region_put(struct nk_instance *nk, void *object,
				unsigned long seg)
{
	struct psos_region *r = object;
	unsigned long off = seg - (unsigned long)r->base;
	unsigned long u = off / r->unit, n;

	if (seg < (unsigned long)r->base || u >= r->nunits)
		return ERR_NOTINRN;
	if (off % r->unit || r->map[u] < 0)
		return ERR_SEGADDR;
	if (r->map[u] == 0)
		return ERR_SEGFREE;
	n = (unsigned long)r->map[u];
	nk_journal_save(&r->map[u], n * sizeof(r->map[0]));
	for (unsigned long i = u; i < u + n; i++)
		r->map[i] = 0;
	r->used -= n;
	if (skin_wait_serve_locked(&r->waiters, region_serve, r, true))
		nk_sched_run(nk);
	return SUCCESS;
}

unsigned long rn_retseg(unsigned long rnid, void *seg_addr)
{
	return psos_call(PSOS_REGION, rnid, region_put,
			 (unsigned long)seg_addr);
}
