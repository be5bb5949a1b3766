/* SPDX-License-Identifier: MIT */
/*
 * VxWorks intLib: interrupt context is the nucleus's (a watchdog
 * routine, a head-domain handler); interrupt lock-out is the stall of
 * the pipeline's head domain on the caller's RT CPU.
 */
#include "internal.h"

BOOL intContext(void)
{
	struct nk_instance *nk = fusion_runtime_peek();

	return nk && nk_in_interrupt(nk);
}

/* The caller's RT CPU (0 outside a nucleus thread). */
static int int_cpu(struct nk_instance *nk)
{
	struct nk_thread *self = nk_thread_self(nk);

	return self ? nk_thread_cpu(self) : 0;
}

int intLock(void)
{
	struct nk_instance *nk;
	int ret;

	if (vx_enter(&nk, NULL))
		return 0;
	ret = ipipe_stall(ipipe_head_domain(nk), int_cpu(nk));
	return ret < 0 ? 0 : ret;
}

void intUnlock(int lockKey)
{
	struct nk_instance *nk;

	if (vx_enter(&nk, NULL) == 0)
		ipipe_restore(ipipe_head_domain(nk), int_cpu(nk), lockKey);
}
