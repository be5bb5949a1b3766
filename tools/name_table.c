/* SPDX-License-Identifier: MIT */
/* fusion trace: see name_table.h. */
#include "name_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *name_table_get(struct name_table *t, size_t size, size_t name_size,
		     const char *name, bool *added)
{
	char *e;

	*added = false;
	for (size_t i = 0; i < t->nr; i++) {
		e = (char *)t->v + i * size;
		if (strncmp(e, name, name_size - 1) == 0)
			return e;
	}
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;

		e = realloc(t->v, cap * size);
		if (e == NULL)
			return NULL;
		t->v = e;
		t->cap = cap;
	}
	e = (char *)t->v + t->nr++ * size;
	memset(e, 0, size);
	snprintf(e, name_size, "%s", name);
	*added = true;
	return e;
}

void name_table_free(struct name_table *t)
{
	free(t->v);
	t->v = NULL;
	t->nr = t->cap = 0;
}
