/* SPDX-License-Identifier: MIT */
/*
 * The memory of objects that live in an instance.  Every control block
 * and buffer a skin or the nucleus keeps for an instance comes from
 * here, so that the instance decides where it lives: malloc for a
 * private instance; a session's shared segment once sessions exist
 * (docs/architecture.md, "Sessions"), where every member must reach it
 * at the same address.
 */
#include "internal.h"

#include <stdlib.h>

void *nk_alloc(struct nk_instance *nk, size_t size)
{
	if (!nk_instance_valid(nk) || size == 0)
		return NULL;
	return calloc(1, size);
}

void nk_free(struct nk_instance *nk, void *mem)
{
	(void)nk;
	free(mem);
}
