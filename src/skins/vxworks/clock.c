/* SPDX-License-Identifier: MIT */
/*
 * The VxWorks system clock (tickLib, sysLib): the skin's nucleus time
 * base, whose ticks are computed from the nucleus clock.
 */
#include "internal.h"

#include <errno.h>

ULONG tickGet(void)
{
	struct vx_state *vs;

	if (vx_enter(NULL, &vs))
		return 0;
	return (ULONG)nk_tbase_ticks(&vs->skin.tbase);
}

void tickSet(ULONG ticks)
{
	struct vx_state *vs;

	if (vx_enter(NULL, &vs) == 0)
		nk_tbase_set_ticks(&vs->skin.tbase, ticks);
}

int sysClkRateGet(void)
{
	struct nk_instance *nk;
	struct vx_state *vs;
	int rate;

	if (vx_enter(&nk, &vs))
		return VX_DEFAULT_CLK_RATE;
	nk_lock(nk);
	rate = vs->clk_rate;
	nk_unlock(nk);
	return rate;
}

STATUS sysClkRateSet(int ticksPerSecond)
{
	struct nk_instance *nk;
	struct vx_state *vs;
	int ret;

	if (ticksPerSecond < VX_CLK_RATE_MIN ||
	    ticksPerSecond > VX_CLK_RATE_MAX)
		return vx_fail(EINVAL);
	ret = vx_enter(&nk, &vs);
	if (ret)
		return vx_fail(ret);
	nk_lock(nk);
	nk_tbase_set_period(&vs->skin.tbase, 1000000000 / ticksPerSecond);
	nk_journal_obj(&vs->clk_rate);
	vs->clk_rate = ticksPerSecond;
	/* A time slice counts ticks: its length follows the rate. */
	if (vs->slice)
		vx_slice_all(vs);
	nk_unlock(nk);
	return OK;
}
