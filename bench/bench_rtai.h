/* SPDX-License-Identifier: MIT */
/* What the two translation units of bench_rtai share: plain C only, as
 * RTAI's and Alchemy's headers cannot meet in one unit. */
#ifndef BENCH_RTAI_H
#define BENCH_RTAI_H

/* CLOCK_MONOTONIC in ns. */
double bench_wall_ns(void);
/* The Alchemy rt_sem_v/rt_sem_p ping-pong between the caller and a
 * more urgent task: ns per round trip (two switches). */
double bench_alchemy_sem_round_trips(long rounds);

#endif
