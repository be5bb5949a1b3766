/* SPDX-License-Identifier: MIT */
/*
 * main() wrapper, linked in with -Wl,--wrap=main (fusion-config
 * --ldflags), as Xenomai's automatic initialisation: framework options
 * are consumed and main becomes a nucleus thread before the
 * application's main runs.
 */
#include <fusion/runtime.h>

#include <stdio.h>
#include <string.h>

int __real_main(int argc, char **argv);
nk_export int __wrap_main(int argc, char **argv);

int __wrap_main(int argc, char **argv)
{
	struct nk_instance *nk;
	int ret;

	/* A bad option was named on stderr already. */
	if (fusion_runtime_options(&argc, argv))
		return FUSION_EXIT_USAGE;
	ret = fusion_runtime(&nk);
	if (ret) {
		fprintf(stderr, "fusion: cannot start: %s\n", strerror(-ret));
		return 1;
	}
	return __real_main(argc, argv);
}
