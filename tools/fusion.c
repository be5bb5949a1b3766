/* SPDX-License-Identifier: MIT */
/* `fusion COMMAND [OPTIONS]`: the tools real-time users run first. */
#include "tool.h"
#include "runtime/runtime.h"
#include "runtime/status_page.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *out);
	const char *help;
} commands[] = {
    {"latency", fusion_latency, fusion_latency_usage,
     "wakeup latency of a periodic thread"},
    {"switch", fusion_switch, fusion_switch_usage,
     "context-switch cost between threads"},
    {"info", fusion_info, fusion_info_usage,
     "can this machine do real time, and why not"},
    {"ps", fusion_ps, fusion_ps_usage,
     "Fusion programs and sessions; with PID, a program's threads"},
    {"top", fusion_top, fusion_top_usage,
     "a program's threads and CPUs, refreshed"},
    {"trace", fusion_trace, fusion_trace_usage, "report or export a trace"},
    {"sim", fusion_sim, fusion_sim_usage,
     "run a program on sim under the debugger"},
};

static int usage(FILE *out)
{
	fprintf(out,
		"usage: fusion COMMAND [OPTIONS]  (fusion COMMAND --help)\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "framework options (any command), or their variables:\n");
	fusion_runtime_usage(out);
	return out == stderr ? FUSION_EXIT_USAGE : 0;
}

struct nk_instance *fusion_tool_instance(int main_prio)
{
	struct nk_instance_attr attr = {.main_priority = main_prio};
	struct nk_instance *nk;
	/* `fusion top PID` watches a tool as it does any program.  The page
	 * first, while the caller is no shadow yet: its thread is placed
	 * off the RT CPUs, which the caller is pinned to once a shadow. */
	bool published = status_publish() == 0;
	int ret = runtime_instance_create(&attr, false, &nk);

	if (ret) {
		fprintf(stderr, "fusion: cannot start the nucleus: %s\n",
			strerror(-ret));
		return NULL;
	}
	/* A tool destroys its instance only as it exits. */
	if (published)
		status_instance(nk);
	return nk;
}

void fusion_tool_instance_destroy(struct nk_instance *nk)
{
	status_instance(NULL);
	nk_instance_destroy(nk);
}

/* "--help" before any "--": what every command answers the same way. */
static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0)
			return true;
	return false;
}

int main(int argc, char **argv)
{
	/* Framework options anywhere on the line; each is checked. */
	if (fusion_runtime_options(&argc, argv) || fusion_runtime_check())
		return FUSION_EXIT_USAGE;
	if (argc < 2)
		return usage(stderr);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return usage(stdout);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name) != 0)
			continue;
		if (wants_help(argc - 1, argv + 1)) {
			commands[i].usage(stdout);
			return 0;
		}
		return commands[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "fusion: unknown command '%s'\n", argv[1]);
	return usage(stderr);
}
