/* SPDX-License-Identifier: MIT */
/* A stable sort of events: see sort.h. */
#include "sort.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef bool before_fn(const void *x, const void *y);

/* Bottom-up merge sort of @n elements of @size bytes: stable. */
static int merge_sort(void *base, size_t n, size_t size, before_fn *before)
{
	unsigned char *src = base, *dst, *tmp, *buf;

	if (n < 2)
		return 0;
	buf = dst = malloc(n * size);
	if (dst == NULL)
		return -ENOMEM;
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi) {
				size_t from =
				    before(src + j * size, src + i * size)
					? j++
					: i++;

				memcpy(dst + k++ * size, src + from * size,
				       size);
			}
			memcpy(dst + k * size, src + i * size,
			       (mid - i) * size);
			k += mid - i;
			memcpy(dst + k * size, src + j * size, (hi - j) * size);
		}
		tmp = src;
		src = dst;
		dst = tmp;
	}
	if (src != (unsigned char *)base)
		memcpy(base, src, n * size);
	free(buf);
	return 0;
}

static bool rec_before(const void *a, const void *b)
{
	const struct trace_rec *x = a, *y = b;

	return x->date < y->date || (x->date == y->date && x->cpu < y->cpu);
}

static bool event_before(const void *a, const void *b)
{
	const struct trace_event *x = a, *y = b;

	return x->date < y->date || (x->date == y->date && x->cpu < y->cpu);
}

int trace_recs_sort(struct trace_rec *recs, size_t n)
{
	return merge_sort(recs, n, sizeof(*recs), rec_before);
}

int trace_events_sort(struct trace_event *events, size_t n)
{
	return merge_sort(events, n, sizeof(*events), event_before);
}
