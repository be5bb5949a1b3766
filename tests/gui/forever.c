/* SPDX-License-Identifier: MIT */
/*
 * A program that never ends: main wakes every millisecond of virtual
 * time for ever, so that a `run` of fusion sim stops only when paused
 * (tests/gui/server.c).
 */
#include <alchemy/task.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
	int ret = rt_task_set_periodic(NULL, TM_NOW, 1000000);

	while (ret == 0)
		ret = rt_task_wait_period(NULL);
	fprintf(stderr, "forever: %s\n", strerror(-ret));
	return 1;
}
