/*
 * A Xenomai 3 program that includes <queue.h> alone and relies on what
 * Xenomai's header brings with it: the timer services, pthreads,
 * strings, signals, struct timeval, limits, __STD/__RT; and that calls
 * xenomai_init() itself although the main wrapper ran already.
 */
#include <queue.h>
#include <xenomai/init.h>

#include <stdio.h>

static int failures;

#define EXPECT(cond)                                                           \
	do {                                                                   \
		if (!(cond)) {                                                 \
			__STD(fprintf(stderr, "%s:%d: %s\n", __FILE__,         \
				      __LINE__, #cond));                       \
			failures++;                                            \
		}                                                              \
	} while (0)

int main(int argc, char *const argv[])
{
	char *const extra[] = {argv[0], "--backend=sim", "keep", NULL};
	char *const *args = extra;
	int nargs = 3;
	struct timeval tv = {.tv_sec = 0};
	sigset_t set;
	RT_QUEUE q;
	RTIME t0, t1;
	char buf[8];

	(void)argc;
	/* The runtime started before main: only the option goes. */
	xenomai_init(&nargs, &args);
	EXPECT(nargs == 2);
	EXPECT(strcmp(args[1], "keep") == 0 && args[2] == NULL);
	EXPECT(pthread_self() != 0);
	EXPECT(sigemptyset(&set) == 0);
	EXPECT(tv.tv_sec == 0 && INT_MAX > 0);

	t0 = rt_timer_read();
	EXPECT(rt_queue_create(&q, "q", 64, Q_UNLIMITED, Q_FIFO) == 0);
	EXPECT(rt_queue_write(&q, "hello", 6, Q_NORMAL) == 0);
	EXPECT(__RT(rt_queue_read(&q, buf, sizeof(buf), TM_INFINITE)) == 6);
	EXPECT(strcmp(buf, "hello") == 0);
	EXPECT(rt_queue_delete(&q) == 0);
	t1 = rt_timer_read();
	EXPECT(t1 >= t0);
	if (failures == 0)
		printf("queue_only: ok\n");
	return failures ? 1 : 0;
}
