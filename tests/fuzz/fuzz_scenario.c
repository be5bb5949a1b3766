/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the sim backend's scenario files (scenario.c).  The
 * input is a file's bytes, loaded through the loader itself (from a
 * memfd); a scenario that loads is attached and played for a few
 * hundred occurrences, the date arithmetic included.  Seed corpus:
 * tests/fuzz/corpus/scenario/.
 */
#include "backend/sim/sim.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Occurrences played per input. */
#define FUZZ_FIRES 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fired(struct nk_instance *nk, int cpu, unsigned int irq,
		  nk_time_t now)
{
	(void)nk;
	(void)cpu;
	(void)irq;
	(void)now;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct nk_backend_handlers handlers = {.irq = fired};
	struct sim sim = {.handlers = &handlers};
	int fd = memfd_create("scenario", 0);
	char path[64];

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (sim_scenario_load(&sim, path) == 0) {
		for (int i = 0; i < sim.nr_scripts; i++)
			sim_scenario_attach(&sim, 0, 64 + (unsigned int)i,
					    sim.scripts[i].name);
		for (int n = 0; n < FUZZ_FIRES; n++) {
			int which = -1;
			nk_time_t next = sim_scenario_next(&sim, &which);

			if (next == NK_INFINITE)
				break;
			/* Time never goes back. */
			if (next < sim.now)
				abort();
			sim.now = next;
			sim_scenario_fire(&sim, which);
		}
	}
	sim_scenario_free(&sim);
	close(fd);
	return 0;
}
