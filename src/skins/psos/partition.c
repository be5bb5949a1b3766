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

void psos_partition_reclaim(struct nk_instance *nk, void *object)
{
	struct psos_partition *p = object;

	nk_free(nk, p->out);
	nk_free(nk, p);
}

unsigned long pt_create(const char *name, void *paddr, void *laddr,
			unsigned long length, unsigned long bsize,
			unsigned long flags, unsigned long *ptid,
			unsigned long *nbuf)
{
	struct nk_instance *nk;
	struct psos_partition *p;
	uintptr_t handle;
	unsigned long ret;
	int err = -ENOMEM;

	(void)laddr; /* the address other nodes see: one node here */
	if (nbuf == NULL)
		return ERR_OBJID;
	if (paddr == NULL || (uintptr_t)paddr % sizeof(long))
		return ERR_PTADDR;
	if (bsize < PT_MIN_BUF || (bsize & (bsize - 1)))
		return ERR_BUFSIZE;
	if (length < bsize)
		return ERR_TINYPT;
	ret =
	    psos_alloc(name, sizeof(*p), ptid, ERR_OBJTFULL, &nk, (void **)&p);
	if (ret)
		return ret;
	p->base = paddr;
	p->bsize = bsize;
	p->nbuf = length / bsize;
	p->flags = flags;
	p->out = nk_alloc(nk, p->nbuf);
	if (p->out)
		err = skin_publish(&psos()->skin, PSOS_PARTITION, NULL, p,
				   &handle);
	if (err) {
		psos_partition_reclaim(nk, p);
		return ERR_OBJTFULL;
	}
	*nbuf = p->nbuf;
	*ptid = handle;
	return SUCCESS;
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

unsigned long pt_getbuf(unsigned long ptid, void **bufaddr)
{
	struct nk_instance *nk;
	struct psos_partition *p;
	unsigned long ret;

	ret = psos_get(PSOS_PARTITION, ptid, &nk, (void **)&p);
	if (ret)
		return ret;
	ret = bufaddr ? ERR_NOBUF : ERR_OBJID;
	for (unsigned long i = 0; bufaddr && i < p->nbuf; i++) {
		if (!p->out[i]) {
			p->out[i] = 1;
			p->used++;
			*bufaddr = p->base + i * p->bsize;
			ret = SUCCESS;
			break;
		}
	}
	nk_unlock(nk);
	return ret;
}

unsigned long pt_retbuf(unsigned long ptid, void *bufaddr)
{
	struct nk_instance *nk;
	struct psos_partition *p;
	unsigned long ret, off, i;

	ret = psos_get(PSOS_PARTITION, ptid, &nk, (void **)&p);
	if (ret)
		return ret;
	off = (unsigned long)((uintptr_t)bufaddr - (uintptr_t)p->base);
	i = off / p->bsize;
	if ((uintptr_t)bufaddr < (uintptr_t)p->base || i >= p->nbuf ||
	    off % p->bsize) {
		ret = ERR_BUFADDR;
	} else if (!p->out[i]) {
		ret = ERR_BUFFREE;
	} else {
		p->out[i] = 0;
		p->used--;
	}
	nk_unlock(nk);
	return ret;
}
