/* SPDX-License-Identifier: MIT */
/*
 * fusion sim's command line (sim.c), and its batch mode (sim_batch.c,
 * which reads the agent's JSON replies with jansson; sim_batch_none.c
 * in a fusion built without it).
 */
#ifndef FUSION_TOOLS_SIM_H
#define FUSION_TOOLS_SIM_H

#include "sim_runner.h"

#include <stdbool.h>

#define SIM_MAX_ARGS 64

struct sim_args {
	const char *until;
	const char *breaks[SIM_MAX_ARGS];
	int nr_breaks;
	const char *prints[SIM_MAX_ARGS];
	int nr_prints;
	bool json;
	bool gui;
	const char *cost;
};

/* Whether --print may name @what. */
bool sim_batch_printable(const char *what);
/* Breakpoints, the run, then the prints at the stop: the exit status. */
int sim_batch(struct sim_runner *r, const struct sim_args *a);

#endif
