/* SPDX-License-Identifier: MIT */
/*
 * A Xenomai 3 translation unit that includes <alchemy/queue.h> and
 * nothing else, relying on what Xenomai's header brings with it: the
 * timer services, pthreads, strings, signals, struct timeval, limits
 * and __STD/__RT.  Exit status: 0, or the line of the failed check.
 */
#include <alchemy/queue.h>

#define EXPECT(cond)                                                           \
	do {                                                                   \
		if (!(cond))                                                   \
			return __LINE__ % 250 + 1;                             \
	} while (0)

int main(void)
{
	struct timeval tv = {.tv_sec = 0};
	sigset_t set;
	RT_QUEUE q;
	RTIME t0, t1;
	char buf[8];

	EXPECT(pthread_self() != 0);
	EXPECT(sigemptyset(&set) == 0);
	EXPECT(tv.tv_sec == 0 && INT_MAX > 0);
	t0 = rt_timer_read();
	EXPECT(rt_queue_create(&q, "q", 64, Q_UNLIMITED, Q_FIFO) == 0);
	EXPECT(rt_queue_write(&q, "hello", 6, Q_NORMAL) == 0);
	EXPECT(__RT(rt_queue_read(&q, buf, sizeof(buf), TM_INFINITE)) == 6);
	EXPECT(__STD(strcmp(buf, "hello")) == 0);
	EXPECT(rt_queue_delete(&q) == 0);
	t1 = rt_timer_read();
	EXPECT(t1 >= t0);
	return 0;
}
