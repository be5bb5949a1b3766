/* SPDX-License-Identifier: MIT */
/* xenomai_init(): the runtime started explicitly (xenomai/init.h). */
#include <fusion/runtime.h>
#include <xenomai/init.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The last copy handed out: it lives as long as the program. */
static char **init_argv;

/* The arguments, minus the framework options, in a copy of *@argvp. */
static int consume_options(int *argcp, char *const **argvp)
{
	int argc = *argcp;
	char **argv;
	int ret = 0;

	if (argc < 0 || *argvp == NULL)
		return -EINVAL;
	argv = calloc((size_t)argc + 1, sizeof(*argv));
	if (argv == NULL)
		return -ENOMEM;
	memcpy(argv, *argvp, (size_t)argc * sizeof(*argv));
	/* argv[0] is the program: nothing to consume without it. */
	if (argc > 0)
		ret = fusion_runtime_options(&argc, argv);
	if (ret) {
		free(argv);
		return ret;
	}
	/* Called again on our own copy: it is replaced. */
	if (*argvp == init_argv)
		free(init_argv);
	init_argv = argv;
	*argcp = argc;
	*argvp = argv;
	return 0;
}

nk_export void xenomai_init(int *argcp, char *const **argvp)
{
	struct nk_instance *nk;
	int ret = 0;

	if (argcp && argvp)
		ret = consume_options(argcp, argvp);
	if (ret == 0)
		ret = fusion_runtime(&nk);
	if (ret) {
		fprintf(stderr, "fusion: cannot start: %s\n", strerror(-ret));
		exit(1);
	}
}
