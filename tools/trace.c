/* SPDX-License-Identifier: MIT */
/*
 * fusion trace: read a trace the built-in recorder wrote (FUSION_TRACE,
 * --trace) and print its report, or export it for the Perfetto UI.
 */
#include "tool.h"
#include "trace_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void fusion_trace_usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: fusion trace report [DIR]\n"
	    "       fusion trace export --perfetto [-o FILE] [DIR]\n"
	    "  DIR   a trace recorded with FUSION_TRACE=... or --trace=... "
	    "(default fusion-trace)\n"
	    "  report  per-thread CPU time, switches, wake-up latencies, "
	    "longest waits\n"
	    "          per object, priority inversions, mode switches\n"
	    "  export  Chrome trace-event JSON for ui.perfetto.dev (default "
	    "FILE: stdout)\n");
}

static int load(const char *dir, struct trace_log *log)
{
	int ret = trace_ctf_read(dir, log);

	if (ret)
		fprintf(stderr, "fusion trace: %s: %s\n", dir,
			ret == -EPROTO ? "not a trace of the fusion recorder"
				       : strerror(-ret));
	return ret;
}

static int export(int argc, char **argv)
{
	const char *dir = "fusion-trace", *path = NULL;
	bool perfetto = false;
	struct trace_log log;
	FILE *out = stdout;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--perfetto") == 0)
			perfetto = true;
		else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			path = argv[++i];
		else if (argv[i][0] != '-')
			dir = argv[i];
		else
			return fusion_trace_usage(stderr), FUSION_EXIT_USAGE;
	}
	if (!perfetto) {
		fprintf(stderr, "fusion trace export: which format? "
				"(--perfetto)\n");
		return FUSION_EXIT_USAGE;
	}
	if (load(dir, &log))
		return 1;
	if (path && (out = fopen(path, "w")) == NULL) {
		fprintf(stderr, "fusion trace: %s: %s\n", path,
			strerror(errno));
		trace_log_free(&log);
		return 1;
	}
	ret = fusion_trace_perfetto(&log, out);
	if (path && fclose(out) && ret == 0)
		ret = -1;
	trace_log_free(&log);
	if (ret)
		fprintf(stderr, "fusion trace: cannot write %s\n",
			path ? path : "the output");
	return ret ? 1 : 0;
}

static int report(int argc, char **argv)
{
	struct trace_log log;
	int ret;

	if (argc > 2 || (argc == 2 && argv[1][0] == '-'))
		return fusion_trace_usage(stderr), FUSION_EXIT_USAGE;
	if (load(argc == 2 ? argv[1] : "fusion-trace", &log))
		return 1;
	ret = fusion_trace_report(&log);
	trace_log_free(&log);
	return ret ? 1 : 0;
}

int fusion_trace(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "report") == 0)
		return report(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "export") == 0)
		return export(argc - 1, argv + 1);
	fusion_trace_usage(stderr);
	return FUSION_EXIT_USAGE;
}
