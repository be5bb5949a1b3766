/* SPDX-License-Identifier: MIT */
/* CLOCK_MONOTONIC in ns, for the benchmarks that date samples with it. */
#ifndef FUSION_BENCH_CLOCK_H
#define FUSION_BENCH_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t bench_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#endif
