/* SPDX-License-Identifier: MIT */
/*
 * Wait until a thread of this process sleeps in the poll of an idle
 * RT CPU's waiter, read from /proc/self/task/TID/syscall (which shows
 * qemu-user's host calls, not the emulated ones: not for cross runs).
 */
#ifndef FUSION_TEST_IN_POLL_H
#define FUSION_TEST_IN_POLL_H

#include <stdbool.h>
#include <sys/types.h>

/* True once @tid sleeps in the poll; false after @safety_ns. */
bool in_poll_wait(pid_t tid, long long safety_ns);
/* The same, for thread @tid of process @pid. */
bool in_poll_wait_in(pid_t pid, pid_t tid, long long safety_ns);

#endif
