/* SPDX-License-Identifier: MIT */
/* The FUSION_TRACE value: see config.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALLOWED                                                                \
	"allowed: off, all, sched, thread, mode, irq, timer, service, mark, "  \
	"alchemy, vxworks, psos, rtai, flight, signal, size=MIB, out=DIR, "    \
	"latency=US, lttng"

static int category_bit(const char *item, size_t n, unsigned int *bits)
{
	if (n == 3 && strncmp(item, "all", 3) == 0) {
		*bits = (1u << NK_TRACE_NR_CATEGORIES) - 1;
		return 0;
	}
	for (int cat = 0; cat < NK_TRACE_NR_CATEGORIES; cat++) {
		const char *name = nk_trace_category_name(cat);

		if (strlen(name) == n && strncmp(item, name, n) == 0) {
			*bits = 1u << cat;
			return 0;
		}
	}
	return -EINVAL;
}

/* A decimal number in [1, max] from @s (@n bytes), or -EINVAL. */
static long number(const char *s, size_t n, long max)
{
	char buf[24];
	char *end;
	long v;

	if (n == 0 || n >= sizeof(buf) || s[0] < '0' || s[0] > '9')
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (*end || errno || v < 1 || v > max)
		return -EINVAL;
	return v;
}

static int setting(const char *item, size_t n, struct trace_config *c,
		   char *why, size_t len)
{
	long v;

	if (n == 6 && strncmp(item, "flight", 6) == 0) {
		c->flight = true;
	} else if (n == 6 && strncmp(item, "signal", 6) == 0) {
		c->signal = true;
	} else if (n == 5 && strncmp(item, "lttng", 5) == 0) {
		c->lttng = true;
	} else if (n > 5 && strncmp(item, "size=", 5) == 0) {
		v = number(item + 5, n - 5, TRACE_SIZE_MAX_MIB);
		if (v < 0) {
			snprintf(why, len, "size: MiB per CPU, 1..%d",
				 TRACE_SIZE_MAX_MIB);
			return -EINVAL;
		}
		c->size_mib = (unsigned int)v;
	} else if (n > 8 && strncmp(item, "latency=", 8) == 0) {
		v = number(item + 8, n - 8, 1000000000L);
		if (v < 0) {
			snprintf(why, len, "latency: microseconds, 1..1e9");
			return -EINVAL;
		}
		c->latency = (nk_time_t)v * 1000;
	} else if (n > 4 && strncmp(item, "out=", 4) == 0) {
		if (n - 4 >= sizeof(c->out)) {
			snprintf(why, len, "out: a name below %zu bytes",
				 sizeof(c->out));
			return -EINVAL;
		}
		memcpy(c->out, item + 4, n - 4);
		c->out[n - 4] = '\0';
	} else {
		snprintf(why, len, "unknown item '%.*s' (%s)", (int)n, item,
			 ALLOWED);
		return -EINVAL;
	}
	return 0;
}

int trace_config_parse(const char *spec, struct trace_config *c, char *why,
		       size_t len)
{
	const char *p = spec;

	memset(c, 0, sizeof(*c));
	if (strcmp(spec, "off") == 0 || strcmp(spec, "0") == 0)
		return 0;
	c->size_mib = TRACE_SIZE_DEFAULT_MIB;
	snprintf(c->out, sizeof(c->out), "fusion-trace");
	while (*p) {
		size_t n = strcspn(p, ",");
		unsigned int bits;

		if (n == 0) {
			snprintf(why, len, "an empty item (%s)", ALLOWED);
			return -EINVAL;
		}
		if (category_bit(p, n, &bits) == 0)
			c->categories |= bits;
		else if (setting(p, n, c, why, len))
			return -EINVAL;
		p += n;
		if (*p == ',' && *++p == '\0') {
			snprintf(why, len, "an empty item (%s)", ALLOWED);
			return -EINVAL;
		}
	}
	if (c->categories == 0)
		c->categories = (1u << NK_TRACE_NR_CATEGORIES) - 1;
	return 0;
}
