/* SPDX-License-Identifier: MIT */
/*
 * fusion top PID: a program's status refreshed, with the CPU share of
 * each thread and the load of each RT CPU over the last interval.
 */
#include "tool.h"
#include "runtime/status_page.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void fusion_top_usage(FILE *out)
{
	fprintf(out, "usage: fusion top PID [-d SECONDS] [-n COUNT]\n"
		     "  the status of program PID (see fusion ps PID), "
		     "refreshed every SECONDS\n"
		     "  (default 1), with each thread's CPU share and each RT "
		     "CPU's load over\n"
		     "  the interval; -n: stop after COUNT refreshes (default: "
		     "until interrupted)\n");
}

static int top_args(int argc, char **argv, pid_t *pid, double *delay,
		    long *count)
{
	int opt;
	char *end;

	optind = 1;
	while ((opt = getopt(argc, argv, "d:n:")) != -1) {
		if (opt == 'd') {
			*delay = strtod(optarg, &end);
			if (*end || !(*delay >= 0.01 && *delay <= 3600))
				return -1;
		} else if (opt == 'n') {
			*count = strtol(optarg, &end, 10);
			if (*end || *count < 1)
				return -1;
		} else {
			return -1;
		}
	}
	if (optind != argc - 1)
		return -1;
	*pid = fusion_parse_pid(argv[optind]);
	return *pid ? 0 : -1;
}

int fusion_top(int argc, char **argv)
{
	struct status_page *pages = malloc(2 * sizeof(*pages));
	bool tty = isatty(STDOUT_FILENO);
	double delay = 1.0;
	long count = -1;
	pid_t pid;
	int ret = 0;

	if (pages == NULL)
		return 1;
	if (top_args(argc, argv, &pid, &delay, &count)) {
		free(pages);
		fusion_top_usage(stderr);
		return FUSION_EXIT_USAGE;
	}
	/* The first snapshot is the reference of the first interval. */
	ret = fusion_status_read(pid, &pages[0]);
	for (long i = 0; ret == 0 && (count < 0 || i < count); i++) {
		struct timespec nap = {(time_t)delay,
				       (long)((delay - (time_t)delay) * 1e9)};
		struct status_page *prev = &pages[i % 2],
				   *cur = &pages[(i + 1) % 2];

		nanosleep(&nap, NULL);
		ret = fusion_status_read(pid, cur);
		if (ret)
			break;
		if (tty)
			fputs("\033[H\033[2J", stdout);
		fusion_status_print(stdout, cur, prev);
		fputs("\n", stdout);
		fflush(stdout);
	}
	free(pages);
	return ret ? 1 : 0;
}
