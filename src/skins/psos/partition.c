/* SPDX-License-Identifier: MIT */
/*
 * pSOS memory partitions: buffers of one power-of-2 size cut from
 * memory the program gives, the lowest free first; never waited for.
 * Which buffers are out is kept in the instance's memory, so that a
 * wrong or twice-returned address is told apart (ERR_BUFADDR,
 * ERR_BUFFREE) and every byte of the partition is a buffer.
 */
#include "internal.h"

#define PT_MIN_BUF 4

struct psos_partition {
	struct psos_object obj;
	/* The program's memory, used in the process that gave it. */
	unsigned char *base;
	unsigned long bsize;
	unsigned long nbuf;
	unsigned long used;
	unsigned long flags;
	unsigned char *out; /* per buffer: allocated */
};

void psos_partition_describe(const void *object, struct nk_object_info *info)
{
	const struct psos_partition *p = object;

	info->name = p->obj.name;
	info->count = (long)p->used;
	info->capacity = (long)p->nbuf;
}

void psos_partition_reclaim(struct nk_instance *nk, void *object)
{
	struct psos_partition *p = object;

	nk_free(nk, p->out);
	nk_free(nk, p);
}

/* Its map of buffers out.  No wait queue: nobody waits for a buffer. */
static int partition_setup(struct nk_instance *nk, void *object,
			   const char *wname)
{
	struct psos_partition *p = object;

	(void)wname;
	p->out = nk_alloc(nk, p->nbuf);
	return p->out ? 0 : -ENOMEM;
}

unsigned long pt_create(const char *name, void *paddr, void *laddr,
			unsigned long length, unsigned long bsize,
			unsigned long flags, unsigned long *ptid,
			unsigned long *nbuf)
{
	const struct psos_partition init = {.base = paddr,
					    .bsize = bsize,
					    .nbuf = bsize ? length / bsize : 0,
					    .flags = flags};
	unsigned long ret;

	(void)laddr; /* the address other nodes see: one node here */
	if (nbuf == NULL)
		return ERR_OBJID;
	ret =
	    psos_check_pool(paddr, bsize, PT_MIN_BUF, ERR_PTADDR, ERR_BUFSIZE);
	if (ret)
		return ret;
	if (length < bsize)
		return ERR_TINYPT;
	ret = psos_create(PSOS_PARTITION, name, &init, sizeof(init),
			  partition_setup, ERR_OBJTFULL, ptid);
	if (ret == 0)
		*nbuf = init.nbuf;
	return ret;
}

static unsigned long partition_check(void *object, bool *keep)
{
	struct psos_partition *p = object;

	*keep = p->used && !(p->flags & PT_DEL);
	return *keep ? ERR_BUFINUSE : SUCCESS;
}

unsigned long pt_delete(unsigned long ptid)
{
	return psos_delete(PSOS_PARTITION, ptid, partition_check);
}

unsigned long pt_ident(const char *name, unsigned long node,
		       unsigned long *ptid)
{
	return psos_ident(PSOS_PARTITION, 0, name, node, ptid);
}

static unsigned long partition_get(struct nk_instance *nk, void *object,
				   unsigned long bufaddr)
{
	struct psos_partition *p = object;
	void **out = (void **)bufaddr;

	(void)nk;
	if (out == NULL)
		return ERR_OBJID;
	for (unsigned long i = 0; i < p->nbuf; i++) {
		if (!p->out[i]) {
			nk_journal_obj(&p->out[i]);
			p->out[i] = 1;
			p->used++;
			*out = p->base + i * p->bsize;
			return SUCCESS;
		}
	}
	return ERR_NOBUF;
}

unsigned long pt_getbuf(unsigned long ptid, void **bufaddr)
{
	return psos_call(PSOS_PARTITION, ptid, partition_get,
			 (unsigned long)bufaddr);
}

static unsigned long partition_put(struct nk_instance *nk, void *object,
				   unsigned long bufaddr)
{
	struct psos_partition *p = object;
	unsigned long off = bufaddr - (unsigned long)p->base;
	unsigned long i = off / p->bsize;

	(void)nk;
	if (bufaddr < (unsigned long)p->base || i >= p->nbuf || off % p->bsize)
		return ERR_BUFADDR;
	if (!p->out[i])
		return ERR_BUFFREE;
	nk_journal_obj(&p->out[i]);
	p->out[i] = 0;
	p->used--;
	return SUCCESS;
}

unsigned long pt_retbuf(unsigned long ptid, void *bufaddr)
{
	return psos_call(PSOS_PARTITION, ptid, partition_put,
			 (unsigned long)bufaddr);
}
