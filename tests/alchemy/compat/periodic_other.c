/* SPDX-License-Identifier: MIT */
/*
 * A Xenomai 3 program whose main task makes a worker periodic between
 * creating and starting it, then changes its period while it runs.
 * <task.h> and <timer.h>, through -I<include>/alchemy.
 */
#include <task.h>
#include <timer.h>

#include <stdio.h>

#define PERIOD 1000000ULL
#define CYCLES 6

static RTIME released[CYCLES];
static int ret[CYCLES];

static void worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < CYCLES; i++) {
		ret[i] = rt_task_wait_period(NULL);
		released[i] = rt_timer_read();
	}
}

int main(void)
{
	RTIME start;
	RT_TASK task;
	int failures = 0;

	if (rt_task_create(&task, "worker", 0, 60, T_JOINABLE))
		return 2;
	start = rt_timer_read() + 5 * PERIOD;
	if (rt_task_set_periodic(&task, start, PERIOD) ||
	    rt_task_start(&task, worker, NULL)) {
		fprintf(stderr, "cannot make another task periodic\n");
		return 1;
	}
	rt_task_sleep_until(start + 2 * PERIOD + PERIOD / 2);
	/*
	 * Twice the period from now on, the first release one new period
	 * away; the release the worker waits for meanwhile still comes.
	 */
	if (rt_task_set_periodic(&task, TM_NOW, 2 * PERIOD)) {
		fprintf(stderr, "cannot change the period of a running task\n");
		return 1;
	}
	rt_task_join(&task);
	for (int i = 0; i < CYCLES; i++) {
		/* A release never comes early (late is allowed on live). */
		RTIME due = i < 4 ? start + (RTIME)i * PERIOD
				  : start + 2 * PERIOD + PERIOD / 2 +
					(RTIME)(i - 3) * 2 * PERIOD;

		if (released[i] < due) {
			fprintf(stderr, "release %d at %llu, before %llu\n", i,
				released[i] - start, due - start);
			failures++;
		}
	}
	for (int i = 0; i < CYCLES; i++)
		if (ret[i] != 0 && ret[i] != -ETIMEDOUT) {
			fprintf(stderr, "release %d: %d\n", i, ret[i]);
			failures++;
		}
	if (failures == 0)
		printf("periodic_other: ok\n");
	return failures ? 1 : 0;
}
