/* SPDX-License-Identifier: MIT */
/* Skin service calls in the trace: see skin_trace() in skin.h. */
#include "skin.h"

#include <inttypes.h>
#include <stdio.h>

int skin_trace(const char *service, const uintptr_t *handle, int result)
{
	struct nk_instance *nk = fusion_runtime_peek();
	char id[24];

	if (!nk_trace_active(nk))
		return result;
	/* The handle, not the name: naming would take the registry's
	 * lock on the caller's path, and a handle is what the call got. */
	snprintf(id, sizeof(id), "%#" PRIxPTR, handle ? *handle : 0);
	nk_trace_user(nk, NK_TRACE_SERVICE, service, id, result);
	return result;
}
