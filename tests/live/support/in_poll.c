/* SPDX-License-Identifier: MIT */
#include "in_poll.h"

#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * The calls in which an idle waiter polls: epoll_wait() (glibc issues
 * epoll_pwait on architectures without the older call: aarch64,
 * riscv64), or epoll_pwait2 when a timer deadline bounds the poll; or,
 * on a CPU with no source to watch, a futex wait with an absolute
 * deadline (FUTEX_WAIT_BITSET, which no other wait of the backend uses).
 */
#ifdef SYS_epoll_wait
#define EPOLL_WAIT_NR SYS_epoll_wait
#else
#define EPOLL_WAIT_NR SYS_epoll_pwait
#endif

bool in_poll_wait(pid_t tid, long long safety_ns)
{
	return in_poll_wait_in(getpid(), tid, safety_ns);
}

bool in_poll_wait_in(pid_t pid, pid_t tid, long long safety_ns)
{
	struct timespec pause = {.tv_nsec = 20000};
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", (int)pid,
		 (int)tid);
	for (long long spent = 0; spent < safety_ns; spent += pause.tv_nsec) {
		char line[64] = "", *args;
		FILE *f = fopen(path, "r");
		long nr, op;

		if (f == NULL)
			return false;
		if (fgets(line, sizeof(line), f) == NULL)
			line[0] = '\0';
		fclose(f);
		/* "running" while it runs: the number of no call. */
		nr = strtol(line, &args, 10);
		/* "NR ADDR OP ...": a futex call's operation is its second. */
		strtol(args, &args, 16);
		op = strtol(args, NULL, 16) & FUTEX_CMD_MASK;
		if (line[0] != 'r' &&
		    (nr == EPOLL_WAIT_NR || nr == SYS_epoll_pwait2 ||
		     (nr == SYS_futex && op == FUTEX_WAIT_BITSET)))
			return true;
		nanosleep(&pause, NULL);
	}
	return false;
}
