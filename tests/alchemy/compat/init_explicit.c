/* SPDX-License-Identifier: MIT */
/*
 * A Xenomai 3 program that calls xenomai_init() itself, although the
 * main wrapper started the runtime already: harmless, and the framework
 * options it is given are consumed.
 */
#include <task.h>
#include <xenomai/init.h>

#include <stdio.h>

int main(int argc, char *const argv[])
{
	char *const extra[] = {argv[0], "--backend=sim", "keep", NULL};
	char *const *args = extra;
	int nargs = 3;

	(void)argc;
	xenomai_init(&nargs, &args);
	if (nargs != 2 || strcmp(args[1], "keep") != 0 || args[2] != NULL) {
		fprintf(stderr, "options not consumed: %d arguments\n", nargs);
		return 1;
	}
	/* A second call on what the first returned. */
	xenomai_init(&nargs, &args);
	if (nargs != 2 || rt_task_self() == NULL || rt_task_sleep(1000) != 0) {
		fprintf(stderr, "the runtime did not survive xenomai_init\n");
		return 1;
	}
	printf("init_explicit: ok\n");
	return 0;
}
