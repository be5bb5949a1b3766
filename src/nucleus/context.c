/* SPDX-License-Identifier: MIT */
/*
 * Calling contexts: where the caller runs (thread, interrupt, plain OS
 * thread), and the debug checks of what each entry point requires.
 */
#include "internal.h"
#include "../pipeline/pipeline.h"

#include <stdlib.h>

#ifdef NK_DEBUG
void nk_check_fail(const char *fn, const char *what)
{
	fprintf(stderr, "fusion: %s: %s\n", fn, what);
	abort();
}
#endif

/*
 * Head-side handlers (the timer's included) run with the lock held and
 * never release it before they end, so whoever holds it while a head
 * sync runs is that sync: no per-IRQ bookkeeping is needed for this.
 */
bool nk_in_interrupt(struct nk_instance *nk)
{
	return nk_instance_valid(nk) && nk->be->lock_held(nk->be_priv) &&
	       ipipe_head_syncing(nk->pipeline);
}
