/* SPDX-License-Identifier: MIT */
/*
 * The names a recording refers to, each kept once: a record in the
 * rings holds numbers, not names.  A thread, synch or timer is known by
 * the number the nucleus gave it (nk_trace_record.thread_id and
 * object_id), its name copied here the first time it is seen; a text
 * with no number (a mark's, a service's name, a constant such as
 * "delay") is kept once per distinct text, under a number of its own
 * (TRACE_TEXT_BIT set).  The trace is written with the names put back
 * (trace_names_get), as LTTng's statedump lets its readers do.
 *
 * Noting a name takes no lock and calls nothing of Linux: numbers are
 * kept direct-mapped (a later number may take an earlier one's place:
 * the earlier one then reads as "#N"), texts in an open-addressed table
 * looked up in a few probes; when they find neither the text nor room,
 * the new text takes the place of an older one, whose mentions then
 * read "?" (counted), never another text: a flight recording keeps the
 * texts of its last events.
 */
#ifndef FUSION_TRACE_NAMES_H
#define FUSION_TRACE_NAMES_H

#include <fusion/types.h>

#include <stdatomic.h>
#include <stdint.h>

#define TRACE_TEXT_BIT 0x80000000u
#define TRACE_TEXTS_MAX 4096 /* a power of two: texts kept at once */
#define TRACE_IDS_MAX 16384  /* a power of two: numbers are direct-mapped */

/* key: the number whose name @name holds; 0 free, UINT32_MAX busy. */
/* A name as words: read while a writer may replace it (names.c). */
#define TRACE_NAME_WORDS (NK_NAME_MAX / 8)

struct trace_id_name {
	_Atomic uint32_t key;
	_Atomic uint64_t name[TRACE_NAME_WORDS];
};

/* key: the text's number (TRACE_TEXT_BIT, a generation, the index);
 * 0 free, UINT32_MAX busy. */
struct trace_text {
	_Atomic uint32_t key;
	uint32_t hash;
	_Atomic uint64_t text[TRACE_NAME_WORDS];
};

struct trace_names {
	struct trace_id_name ids[TRACE_IDS_MAX];
	struct trace_text texts[TRACE_TEXTS_MAX];
	_Atomic uint64_t lost;
};

/* An empty set; NULL when out of memory. */
struct trace_names *trace_names_create(void);
/* Unmap @names (NULL: nothing). */
void trace_names_destroy(struct trace_names *names);

/* trace_names_note() when the name is not kept yet, or is a text. */
uint32_t trace_names_add(struct trace_names *names, uint32_t id,
			 const char *name);

/*
 * The number a record keeps for a field named @name (NULL: the field
 * is empty, 0) with number @id (0: @name is a text).  Any context, any
 * number of callers at once.  Inline: a record notes up to three.
 */
static inline uint32_t trace_names_note(struct trace_names *names, uint32_t id,
					const char *name)
{
	if (name == NULL)
		return 0;
	if (id != 0 &&
	    atomic_load_explicit(&names->ids[id & (TRACE_IDS_MAX - 1)].key,
				 memory_order_relaxed) == id)
		return id;
	return trace_names_add(names, id, name);
}

/*
 * The name of @number into @buf (NK_NAME_MAX bytes): "" for 0, "#N"
 * for a number whose name was replaced, "?" for a text not kept.
 */
void trace_names_get(const struct trace_names *names, uint32_t number,
		     char *buf);

/* Texts that took an older one's place. */
uint64_t trace_names_lost(const struct trace_names *names);

#endif
