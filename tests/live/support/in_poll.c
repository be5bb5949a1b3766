/* SPDX-License-Identifier: MIT */
#include "in_poll.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>

/*
 * The calls in which an idle waiter polls: epoll_wait() (glibc issues
 * epoll_pwait on architectures without the older call: aarch64,
 * riscv64), or epoll_pwait2 when a timer deadline bounds the poll.
 */
#ifdef SYS_epoll_wait
#define EPOLL_WAIT_NR SYS_epoll_wait
#else
#define EPOLL_WAIT_NR SYS_epoll_pwait
#endif

bool in_poll_wait(pid_t tid, long long safety_ns)
{
	struct timespec pause = {.tv_nsec = 20000};
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	for (long long spent = 0; spent < safety_ns; spent += pause.tv_nsec) {
		char line[32] = "";
		FILE *f = fopen(path, "r");
		long nr;

		if (f == NULL)
			return false;
		if (fgets(line, sizeof(line), f) == NULL)
			line[0] = '\0';
		fclose(f);
		/* "running" while it runs: the number of no call. */
		nr = strtol(line, NULL, 10);
		if ((nr == EPOLL_WAIT_NR || nr == SYS_epoll_pwait2) &&
		    line[0] != 'r')
			return true;
		nanosleep(&pause, NULL);
	}
	return false;
}
