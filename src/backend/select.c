/* SPDX-License-Identifier: MIT */
/* Backend lookup by name, $FUSION_BACKEND, or the default. */
#include <fusion/backend.h>

#include "common/options.h"

#include <stdlib.h>
#include <string.h>

/* The first entry is the default. */
static const struct nk_backend_ops *const backends[] = {
    &nk_backend_live,
    &nk_backend_sim,
};

const struct nk_backend_ops *nk_backend_lookup(const char *name)
{
	struct be_options opts = {0};

	if (name == NULL || name[0] == '\0') {
		/* A bad $FUSION_BACKEND is named on stderr. */
		if (be_option_get(BE_OPT_BACKEND, &opts))
			return NULL;
		name = opts.backend;
	}
	if (name == NULL)
		return backends[0];
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

bool nk_backend_thread_bound(void)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (backends[i]->self(NULL))
			return true;
	return false;
}
