/* SPDX-License-Identifier: MIT */
/*
 * RTAI event bits: a mask and one wait queue in priority order, each
 * waiter's test and exit change in its request (the object layer's
 * waiting with a request).  A change of the mask serves the waiters in
 * order, each exit change applied before the next test, all under the
 * nucleus lock.
 */
#include "internal.h"

#include <rtai/rtai_bits.h>

struct rtai_bits {
	struct nk_synch waiters; /* first: a struct rtai_waitable */
	unsigned long mask;
};

void rtai_bits_describe(const void *object, struct nk_object_info *info)
{
	const struct rtai_bits *b = object;

	info->count = (long)b->mask;
	info->waiters = &b->waiters;
}

/* A waiter's request. */
struct bits_req {
	int testfun;
	unsigned long testmasks;
	int exitfun;
	unsigned long exitmasks;
	unsigned long result; /* the mask that satisfied the test */
};

static bool bits_test(unsigned long mask, int fun, unsigned long masks)
{
	switch (fun) {
	case ALL_SET:
		return (mask & masks) == masks;
	case ANY_SET:
		return mask & masks;
	case ALL_CLR:
		return (mask & masks) == 0;
	default: /* ANY_CLR */
		return (mask & masks) != masks;
	}
}

static unsigned long bits_change(unsigned long mask, int fun,
				 unsigned long masks)
{
	if (fun == SET_BITS)
		return mask | masks;
	return fun == CLR_BITS ? mask & ~masks : mask;
}

static bool bits_funs_ok(int testfun, int exitfun)
{
	return testfun >= ALL_SET && testfun <= ANY_CLR &&
	       (exitfun == SET_BITS || exitfun == CLR_BITS ||
		exitfun == NOP_BITS);
}

BITS *rt_bits_init(unsigned long name, unsigned long mask)
{
	struct rtai_bits *b = rtai_waitable_alloc(sizeof(*b));

	if (b == NULL)
		return NULL;
	b->mask = mask;
	return rtai_waitable_publish(RTAI_BITS, name, b);
}

int rt_bits_delete(BITS *bits)
{
	return rtai_object_delete(RTAI_BITS, bits);
}

/* Find @bits: lock held on success only. */
static int bits_get(BITS *bits, struct nk_instance **nk, struct rtai_bits **b)
{
	uintptr_t handle = rtai_handle(bits);

	return skin_get(&rtai_skin, RTAI_BITS, &handle, nk, (void **)b);
}

/* skin_wait_serve_locked(): a waiter whose test holds now leaves. */
static bool bits_serve(struct nk_thread *waiter, void *ctx, void *arg)
{
	struct bits_req *r = ctx;
	struct rtai_bits *b = arg;

	(void)waiter;
	if (!bits_test(b->mask, r->testfun, r->testmasks))
		return false;
	r->result = b->mask;
	b->mask = bits_change(b->mask, r->exitfun, r->exitmasks);
	return true;
}

/* Set the mask to @mask and serve the waiters: the mask after.  Lock
 * held. */
static unsigned long bits_update(struct nk_instance *nk, struct rtai_bits *b,
				 unsigned long mask)
{
	b->mask = mask;
	if (skin_wait_serve_locked(&b->waiters, bits_serve, b, true))
		nk_sched_run(nk);
	return b->mask;
}

unsigned long rt_get_bits(BITS *bits)
{
	struct nk_instance *nk;
	struct rtai_bits *b;
	unsigned long mask;

	if (bits_get(bits, &nk, &b))
		return 0;
	mask = b->mask;
	nk_unlock(nk);
	return mask;
}

unsigned long rt_bits_reset(BITS *bits, unsigned long mask)
{
	struct nk_instance *nk;
	struct rtai_bits *b;
	unsigned long old;

	if (bits_get(bits, &nk, &b))
		return 0;
	old = b->mask;
	bits_update(nk, b, mask);
	nk_unlock(nk);
	return old;
}

unsigned long rt_bits_signal(BITS *bits, int setfun, unsigned long masks)
{
	struct nk_instance *nk;
	struct rtai_bits *b;
	unsigned long mask;

	if (!bits_funs_ok(ALL_SET, setfun) || bits_get(bits, &nk, &b))
		return 0;
	mask = bits_update(nk, b, bits_change(b->mask, setfun, masks));
	nk_unlock(nk);
	return mask;
}

/* Wait per @to (@if_ready: never): 0, 1 (if_ready and held), codes. */
static int bits_wait(BITS *bits, struct bits_req *r, struct skin_timeout to,
		     bool if_ready, unsigned long *resulting_mask)
{
	struct nk_instance *nk;
	struct rtai_bits *b;
	int ret;

	if (!bits_funs_ok(r->testfun, r->exitfun))
		return RTE_OBJINV;
	ret = bits_get(bits, &nk, &b);
	if (ret)
		return ret;
	if (bits_serve(NULL, r, b)) {
		/* The exit change may satisfy others. */
		bits_update(nk, b, b->mask);
		ret = if_ready ? 1 : 0;
	} else if (if_ready) {
		r->result = b->mask;
		ret = 0;
	} else {
		ret =
		    skin_wait_sleep_locked(rtai(), RTAI_BITS, rtai_handle(bits),
					   b, &b->waiters, r, sizeof(*r), to);
		if (ret == -EWOULDBLOCK)
			ret = -ETIMEDOUT;
		ret = skin_error(&rtai_skin, ret);
	}
	nk_unlock(nk);
	if (resulting_mask && (ret == 0 || if_ready))
		*resulting_mask = r->result;
	return ret;
}

int rt_bits_wait(BITS *bits, int testfun, unsigned long testmasks, int exitfun,
		 unsigned long exitmasks, unsigned long *resulting_mask)
{
	struct bits_req r = {testfun, testmasks, exitfun, exitmasks, 0};

	return bits_wait(bits, &r, skin_infinite(), false, resulting_mask);
}

int rt_bits_wait_if(BITS *bits, int testfun, unsigned long testmasks,
		    int exitfun, unsigned long exitmasks,
		    unsigned long *resulting_mask)
{
	struct bits_req r = {testfun, testmasks, exitfun, exitmasks, 0};

	return bits_wait(bits, &r, skin_nonblock(), true, resulting_mask);
}

int rt_bits_wait_until(BITS *bits, int testfun, unsigned long testmasks,
		       int exitfun, unsigned long exitmasks, RTIME time,
		       unsigned long *resulting_mask)
{
	struct bits_req r = {testfun, testmasks, exitfun, exitmasks, 0};
	return bits_wait(bits, &r, rtai_timeout(time, true), false,
			 resulting_mask);
}

int rt_bits_wait_timed(BITS *bits, int testfun, unsigned long testmasks,
		       int exitfun, unsigned long exitmasks, RTIME delay,
		       unsigned long *resulting_mask)
{
	struct bits_req r = {testfun, testmasks, exitfun, exitmasks, 0};
	return bits_wait(bits, &r, rtai_timeout(delay, false), false,
			 resulting_mask);
}
