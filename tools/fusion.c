/* `fusion COMMAND [OPTIONS]`: the tools real-time users run first. */
#include "tool.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{"latency", fusion_latency, "wakeup latency of a periodic thread"},
	{"switch", fusion_switch, "context-switch cost between threads"},
	{"info", fusion_info, "can this machine do real time, and why not"},
};

static int usage(FILE *out)
{
	fprintf(out, "usage: fusion COMMAND [OPTIONS]  (fusion COMMAND --help)\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
	return out == stderr ? 2 : 0;
}

struct nk_instance *fusion_tool_instance(const char *backend, int main_prio)
{
	struct nk_instance_attr attr = {
		.backend = backend,
		.main_priority = main_prio,
	};
	struct nk_instance *nk;
	int ret = nk_instance_create(&attr, &nk);

	if (ret) {
		fprintf(stderr, "fusion: cannot start the nucleus on %s: %s\n",
			backend ? backend : "the default backend",
			strerror(-ret));
		return NULL;
	}
	return nk;
}

const char *fusion_take_backend(int *argc, char **argv)
{
	const char *backend = NULL;
	int out = 0;

	for (int i = 0; i < *argc; i++) {
		if (strncmp(argv[i], "--backend=", 10) == 0)
			backend = argv[i] + 10;
		else
			argv[out++] = argv[i];
	}
	*argc = out;
	argv[out] = NULL;
	return backend;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return usage(stdout);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "fusion: unknown command '%s'\n", argv[1]);
	return usage(stderr);
}
