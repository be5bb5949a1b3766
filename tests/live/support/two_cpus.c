/* SPDX-License-Identifier: MIT */
#include "two_cpus.h"
#include "harness.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define SKIPPED 77

void two_cpus_select(int linux_cpu[2])
{
	static int chosen[2];
	static int found;
	cpu_set_t set;
	char spec[32];

	/* Once: a failed test may leave main pinned. */
	if (found < 2) {
		CHECK_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
		for (int cpu = 0; cpu < CPU_SETSIZE && found < 2; cpu++)
			if (CPU_ISSET(cpu, &set))
				chosen[found++] = cpu;
		if (found < 2) {
			printf("skipped: fewer than 2 usable CPUs\n");
			exit(SKIPPED);
		}
		snprintf(spec, sizeof(spec), "%d,%d", chosen[0], chosen[1]);
		CHECK_EQ(setenv("FUSION_CPUS", spec, 1), 0);
	}
	linux_cpu[0] = chosen[0];
	linux_cpu[1] = chosen[1];
}
