/* SPDX-License-Identifier: MIT */
/* A stable sort of events: see sort.h. */
#include "sort.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool before(const struct trace_event *x, const struct trace_event *y)
{
	return x->date < y->date || (x->date == y->date && x->cpu < y->cpu);
}

/* Bottom-up merge sort: stable, and linear on runs already in order. */
int trace_events_sort(struct trace_event *events, size_t n)
{
	struct trace_event *src = events, *dst, *tmp, *buf;

	if (n < 2)
		return 0;
	buf = dst = malloc(n * sizeof(*dst));
	if (dst == NULL)
		return -ENOMEM;
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				dst[k++] = before(&src[j], &src[i]) ? src[j++]
								    : src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		tmp = src;
		src = dst;
		dst = tmp;
	}
	if (src != events)
		memcpy(events, src, n * sizeof(*events));
	free(buf);
	return 0;
}
