/* SPDX-License-Identifier: MIT */
/*
 * Live tests on two RT CPUs: the first two Linux CPUs this process may
 * use become RT CPUs 0 and 1 (FUSION_CPUS), or the test is skipped
 * (exit 77) when there are fewer.
 */
#ifndef FUSION_TEST_TWO_CPUS_H
#define FUSION_TEST_TWO_CPUS_H

/* Set FUSION_CPUS once and write the Linux CPUs of RT CPUs 0 and 1. */
void two_cpus_select(int linux_cpu[2]);

#endif
