/* SPDX-License-Identifier: MIT */
/*
 * `fusion sim [OPTIONS] -- PROGRAM [ARGS...]`: run a program on the sim
 * backend under the debugger (docs/sim-debugger.md).  Batch mode adds
 * breakpoints, runs, prints what was asked at the stop and exits;
 * otherwise commands come on stdin and their JSON replies go to stdout.
 */
#include "tool.h"
#include "sim.h"
#include "sim_gui.h"
#include "backend/common/duration.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fusion_sim_usage(FILE *out)
{
	fprintf(out,
		"usage: fusion sim [OPTIONS] -- PROGRAM [ARGS...]\n"
		"run PROGRAM on the sim backend under the debugger\n"
		"  --until DATE     run until the virtual date DATE "
		"(10ms, 1500us, 2s)\n"
		"  --break SPEC     stop there (repeatable): switch:THREAD, "
		"block:THREAD,\n"
		"                   wake:THREAD, prio:THREAD, "
		"signal:OBJECT, irq:N, mark:TEXT,\n"
		"                   date:DATE, full:OBJECT, empty:OBJECT, "
		"overrun:THREAD\n"
		"  --print WHAT     at the stop print threads, objects, "
		"timers, pipeline or\n"
		"                   events (repeatable)\n"
		"  --json           print the replies as JSON, one per line\n"
		"  --cost DURATION  virtual CPU time of each service call "
		"(FUSION_SIM_COST;\n"
		"                   measured: the host's, not deterministic)\n"
		"  --gui            serve the debugger's page on 127.0.0.1, "
		"print its URL\n"
		"without --until, --break or --print: commands on stdin, "
		"one JSON reply per line\n"
		"on stdout (docs/sim-debugger.md)\n");
}

static int interactive(struct sim_runner *r)
{
	char *line = NULL, *reply = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, stdin)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (sim_runner_command(r, line, &reply)) {
			fprintf(stderr, "fusion sim: out of memory\n");
			break;
		}
		printf("%s\n", reply);
		fflush(stdout);
		free(reply);
	}
	free(line);
	return 0;
}

int fusion_sim(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"until", required_argument, NULL, 'u'},
	    {"break", required_argument, NULL, 'b'},
	    {"print", required_argument, NULL, 'p'},
	    {"json", no_argument, NULL, 'j'},
	    {"cost", required_argument, NULL, 'c'},
	    {"gui", no_argument, NULL, 'g'},
	    {NULL, 0, NULL, 0},
	};
	struct sim_runner_options opts = {0};
	struct sim_args a = {0};
	struct sim_runner *r;
	nk_time_t ns;
	int c, ret;

	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (c) {
		case 'u':
			if (be_parse_duration(optarg, &ns)) {
				fprintf(stderr,
					"fusion sim: --until %s: not a date "
					"(an integer and ns, us, ms or s)\n",
					optarg);
				return FUSION_EXIT_USAGE;
			}
			a.until = optarg;
			break;
		case 'b':
		case 'p':
			if ((c == 'b' ? a.nr_breaks : a.nr_prints) ==
			    SIM_MAX_ARGS) {
				fprintf(stderr, "fusion sim: too many --%s\n",
					c == 'b' ? "break" : "print");
				return FUSION_EXIT_USAGE;
			}
			if (c == 'p' && !sim_batch_printable(optarg)) {
				fprintf(stderr,
					"fusion sim: --print %s: threads, "
					"objects, timers, pipeline or events\n",
					optarg);
				return FUSION_EXIT_USAGE;
			}
			if (c == 'b')
				a.breaks[a.nr_breaks++] = optarg;
			else
				a.prints[a.nr_prints++] = optarg;
			break;
		case 'j':
			a.json = true;
			break;
		case 'g':
			a.gui = true;
			break;
		case 'c':
			if (strcmp(optarg, "measured") != 0 &&
			    be_parse_duration(optarg, &ns)) {
				fprintf(stderr,
					"fusion sim: --cost %s: not a duration "
					"(e.g. 2us, 500ns) nor measured\n",
					optarg);
				return FUSION_EXIT_USAGE;
			}
			a.cost = optarg;
			break;
		default:
			fusion_sim_usage(stderr);
			return FUSION_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fusion_sim_usage(stderr);
		return FUSION_EXIT_USAGE;
	}
	opts.cost = a.cost;
	ret = sim_runner_start(argv + optind, &opts, &r);
	if (ret) {
		fprintf(stderr, "fusion sim: cannot start %s: %s\n",
			argv[optind], strerror(-ret));
		return 1;
	}
	if (a.gui)
		ret = fusion_sim_gui(r, stdout) ? 1 : 0;
	else if (a.until || a.nr_breaks || a.nr_prints)
		ret = sim_batch(r, &a);
	else
		ret = interactive(r);
	fflush(stdout);
	sim_runner_stop(r);
	return ret;
}
