/* SPDX-License-Identifier: MIT */
/* Durations as people write them: see duration.h. */
#include "duration.h"

#include <errno.h>
#include <string.h>

static const struct {
	const char *suffix;
	nk_time_t ns;
} units[] = {
    {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}, {"", 1},
};

int be_parse_duration(const char *text, nk_time_t *ns)
{
	nk_time_t whole = 0, frac = 0, scale = 1, part;
	const char *p = text;

	if (text == NULL || ns == NULL || *p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (NK_INFINITE - (*p - '0')) / 10)
			return -EINVAL;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return -EINVAL;
		/* Digits past a nanosecond of the largest unit are dropped. */
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale < 1000000000) {
				frac = frac * 10 + (*p - '0');
				scale *= 10;
			}
		}
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(p, units[i].suffix) != 0)
			continue;
		if (units[i].suffix[0] == '\0' && scale > 1)
			return -EINVAL; /* a fraction of a nanosecond */
		/* frac < scale <= 10^9: the product fits. */
		part = frac * units[i].ns / scale;
		if (whole > (NK_INFINITE - part) / units[i].ns)
			return -EINVAL;
		*ns = whole * units[i].ns + part;
		return 0;
	}
	return -EINVAL;
}
