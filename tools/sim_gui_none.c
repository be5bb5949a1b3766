/* SPDX-License-Identifier: MIT */
/* fusion sim --gui in a fusion built without libmicrohttpd (sim_gui.h). */
#include "sim_gui.h"

#include <errno.h>

int fusion_sim_gui(struct sim_runner *r, FILE *out)
{
	(void)r;
	(void)out;
	fprintf(stderr, "fusion sim: --gui: this fusion was built without "
			"libmicrohttpd (apt-get install libmicrohttpd-dev, "
			"then build again)\n");
	return -ENOTSUP;
}
