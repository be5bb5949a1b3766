/* SPDX-License-Identifier: MIT */
/* fusion trace: a growing array of elements found by their name. */
#ifndef FUSION_TOOL_NAME_TABLE_H
#define FUSION_TOOL_NAME_TABLE_H

#include <stdbool.h>
#include <stddef.h>

struct name_table {
	void *v; /* elements of one size, each starting with char name[] */
	size_t nr, cap;
};

/*
 * The element named @name of @t (elements of @size bytes, each starting
 * with its name, a char array of @name_size bytes), added zeroed and
 * named at the end if missing (*@added says so; earlier pointers into
 * @t may then be stale).  NULL: out of memory.
 */
void *name_table_get(struct name_table *t, size_t size, size_t name_size,
		     const char *name, bool *added);

/* Free @t's elements. */
void name_table_free(struct name_table *t);

#endif
