/* SPDX-License-Identifier: MIT */
/* Skin service calls in the trace: see skin_service() in skin.h. */
#include "skin.h"

#include <inttypes.h>
#include <stdio.h>

void skin_service(enum nk_trace_event event, const char *service,
		  uintptr_t object, long result)
{
	char id[24];

	snprintf(id, sizeof(id), "%#" PRIxPTR, object);
	nk_trace_user(fusion_runtime_peek(), event, service, id, result);
}
