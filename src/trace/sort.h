/* SPDX-License-Identifier: MIT */
/* Ordering recorded events for output. */
#ifndef FUSION_TRACE_SORT_H
#define FUSION_TRACE_SORT_H

#include "ring.h"

/*
 * Sort @n events by date, then CPU, keeping the order of equal keys (a
 * CPU's events stay in the order they were recorded).  Returns 0, or
 * -ENOMEM with @events as they were.
 */
int trace_events_sort(struct trace_event *events, size_t n);

#endif
