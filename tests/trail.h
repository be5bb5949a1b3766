/* SPDX-License-Identifier: MIT */
/*
 * The trail of events the skin tests compare: step() appends a name,
 * note() a formatted item dated "@ns" since log_start() on sim (on the
 * nucleus clock of the process runtime), check_log() compares, dropping
 * the dates of the expected string on live.  Also the runtime and the
 * backend the tests run on.  Each test is a binary of its own, so all
 * of it is static.
 */
#ifndef FUSION_TEST_TRAIL_H
#define FUSION_TEST_TRAIL_H

#include "harness.h"

#include <fusion/fusion.h>

#include <stdarg.h>
#include <stdbool.h>

/* The process runtime (the first call makes main a nucleus thread). */
static inline struct nk_instance *test_runtime(void)
{
	struct nk_instance *nk = NULL;

	CHECK_EQ(fusion_runtime(&nk), 0);
	return nk;
}

/*
 * Whether the tests run on sim: virtual time, exact dates.  On live,
 * tests assert only order and error codes.
 */
static inline bool on_sim(void)
{
	return strcmp(nk_instance_backend(test_runtime()), "sim") == 0;
}

static char trail[2048];
static nk_time_t trail_t0;

static inline void step(const char *what)
{
	size_t len = strlen(trail);

	snprintf(trail + len, sizeof(trail) - len, "%s%s", len ? " " : "",
		 what);
}

static inline void log_start(void)
{
	trail[0] = '\0';
	trail_t0 = nk_now(test_runtime());
}

static inline void __attribute__((format(printf, 1, 2)))
note(const char *fmt, ...)
{
	char item[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(item, sizeof(item), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(item) && on_sim())
		snprintf(item + n, sizeof(item) - (size_t)n, "@%lld",
			 (long long)(nk_now(test_runtime()) - trail_t0));
	step(item);
}

static inline void check_log(const char *expected)
{
	bool sim = on_sim();
	char want[sizeof(trail)];
	size_t j = 0;

	for (size_t i = 0; expected[i] && j < sizeof(want) - 1; i++) {
		if (!sim && expected[i] == '@') {
			while (expected[i + 1] >= '0' && expected[i + 1] <= '9')
				i++;
			continue;
		}
		want[j++] = expected[i];
	}
	want[j] = '\0';
	CHECK_STR(trail, want);
}

#endif
