/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: every framework option's parser (options.c), with
 * random values.  The table and its parsers are static, so this file
 * includes options.c itself.  The first byte picks the option, the rest
 * (up to a NUL) is the value, tried three ways: the parser alone (a
 * refusal must say why), from the environment (be_option_get) and, for
 * options that have one, in the command-line form.  Seed corpus:
 * tests/fuzz/corpus/options/.
 */
#include "backend/common/options.c"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct be_options o = {0};
	const struct be_option *opt;
	char why[WHY_MAX] = "";
	char *value, *arg;
	bool matched;
	int id;

	if (size == 0)
		return 0;
	id = data[0] % BE_OPT_NR;
	opt = &options[id];
	value = strndup((const char *)data + 1, size - 1);
	if (value == NULL)
		abort();
	/* A scenario file's own error has printed its FILE:LINE line. */
	if (opt->parse(value, &o, why, sizeof(why)) != 0 && why[0] == '\0' &&
	    id != BE_OPT_SIM_SCENARIO)
		abort();
	memset(&o, 0, sizeof(o));
	setenv(opt->env, value, 1);
	(void)be_option_get((enum be_option_id)id, &o);
	if (opt->arg && asprintf(&arg, "%s%s", opt->arg, value) >= 0) {
		(void)be_option_apply_arg(arg, &matched);
		free(arg);
	}
	unsetenv(opt->env);
	free(value);
	return 0;
}
