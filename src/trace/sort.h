/* SPDX-License-Identifier: MIT */
/* Ordering events for output: recorded ones, and ones read back. */
#ifndef FUSION_TRACE_SORT_H
#define FUSION_TRACE_SORT_H

#include "ctf.h"

/*
 * Sort @n events by date, then CPU, keeping the order of equal keys (a
 * CPU's events stay in the order they were recorded).  Returns 0, or
 * -ENOMEM with the events as they were.
 */
int trace_recs_sort(struct trace_rec *recs, size_t n);
int trace_events_sort(struct trace_event *events, size_t n);

#endif
