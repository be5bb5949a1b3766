/* SPDX-License-Identifier: MIT */
/* VxWorks kernLib: round robin, the nucleus's RR policy on every task. */
#include "internal.h"

#include <errno.h>

void vx_slice_all(struct vx_state *vs)
{
	struct skin_entry e;
	uint32_t cursor = 0;

	while (skin_list_locked(&vs->skin, VX_TASK, &cursor, &e) == 0)
		vx_apply_slice(
		    vs, ((struct vx_task_anchor *)e.object)->tcb->thread);
}

STATUS kernelTimeSlice(int ticks)
{
	struct nk_instance *nk;
	struct vx_state *vs;
	int ret;

	if (ticks < 0)
		return vx_fail(EINVAL);
	ret = vx_enter(&nk, &vs);
	if (ret)
		return vx_fail(ret);
	nk_lock(nk);
	nk_journal_obj(&vs->slice);
	vs->slice = ticks;
	vx_slice_all(vs);
	nk_unlock(nk);
	return OK;
}
