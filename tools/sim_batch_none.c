/* SPDX-License-Identifier: MIT */
/* fusion sim's batch mode in a fusion built without jansson (sim.h). */
#include "tool.h"
#include "sim.h"

#include <stdio.h>

bool sim_batch_printable(const char *what)
{
	(void)what;
	return true;
}

int sim_batch(struct sim_runner *r, const struct sim_args *a)
{
	(void)r;
	(void)a;
	fprintf(stderr, "fusion sim: --until, --break and --print need "
			"jansson, which this fusion was built without "
			"(apt-get install libjansson-dev, then build again); "
			"commands on stdin work\n");
	return FUSION_EXIT_USAGE;
}
