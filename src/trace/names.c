/* SPDX-License-Identifier: MIT */
/* Names kept once per number: see names.h. */
#include "names.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define IDS_MAX TRACE_IDS_MAX
#define TEXTS_MAX TRACE_TEXTS_MAX
#define TEXT_LOST TEXTS_MAX
#define BUSY UINT32_MAX

enum { TEXT_FREE, TEXT_BUSY, TEXT_READY };

struct trace_names *trace_names_create(void)
{
	/* Populated now: noting a name never takes a page fault. */
	struct trace_names *n =
	    mmap(NULL, sizeof(*n), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return n == MAP_FAILED ? NULL : n;
}

void trace_names_destroy(struct trace_names *names)
{
	if (names)
		munmap(names, sizeof(*names));
}

/* @s cut and terminated into @dst of NK_NAME_MAX bytes. */
static void copy_name(char *dst, const char *s)
{
	size_t n = strnlen(s, NK_NAME_MAX - 1);

	memcpy(dst, s, n);
	dst[n] = '\0';
}

static uint32_t note_id(struct trace_names *names, uint32_t id,
			const char *name)
{
	struct trace_id_name *e = &names->ids[id & (IDS_MAX - 1)];
	uint32_t key = atomic_load_explicit(&e->key, memory_order_relaxed);

	/* Another writer at work (on this number or one sharing its
	 * entry): a later record notes the name. */
	if (key == BUSY || !atomic_compare_exchange_strong_explicit(
			       &e->key, &key, BUSY, memory_order_acquire,
			       memory_order_relaxed))
		return id;
	copy_name(e->name, name);
	atomic_store_explicit(&e->key, id, memory_order_release);
	return id;
}

/* FNV-1a of the name as kept (cut to NK_NAME_MAX - 1 bytes). */
static uint32_t hash_text(const char *s)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < NK_NAME_MAX - 1 && s[i]; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static uint32_t note_text(struct trace_names *names, const char *text)
{
	uint32_t h = hash_text(text);

	for (uint32_t i = 0; i < TEXTS_MAX; i++) {
		uint32_t at = (h + i) % TEXTS_MAX;
		struct trace_text *e = &names->texts[at];
		uint32_t state =
		    atomic_load_explicit(&e->state, memory_order_acquire);

		if (state == TEXT_READY && e->hash == h &&
		    strncmp(e->text, text, NK_NAME_MAX - 1) == 0)
			return TRACE_TEXT_BIT | at;
		/* One being written is passed over: the same text may end
		 * up kept twice, which costs an entry, not a wrong name. */
		if (state != TEXT_FREE ||
		    !atomic_compare_exchange_strong_explicit(
			&e->state, &state, TEXT_BUSY, memory_order_acquire,
			memory_order_relaxed))
			continue;
		e->hash = h;
		copy_name(e->text, text);
		atomic_store_explicit(&e->state, TEXT_READY,
				      memory_order_release);
		return TRACE_TEXT_BIT | at;
	}
	atomic_fetch_add_explicit(&names->lost, 1, memory_order_relaxed);
	return TRACE_TEXT_BIT | TEXT_LOST;
}

uint32_t trace_names_add(struct trace_names *names, uint32_t id,
			 const char *name)
{
	return id ? note_id(names, id, name) : note_text(names, name);
}

/* The name of @id into @buf, unless replaced, even while it is copied
 * (a trace written while recording goes on). */
static bool get_id(const struct trace_names *names, uint32_t id, char *buf)
{
	const struct trace_id_name *e = &names->ids[id & (IDS_MAX - 1)];

	if (atomic_load_explicit(&e->key, memory_order_acquire) != id)
		return false;
	memcpy(buf, e->name, NK_NAME_MAX);
	buf[NK_NAME_MAX - 1] = '\0';
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&e->key, memory_order_relaxed) == id;
}

void trace_names_get(const struct trace_names *names, uint32_t number,
		     char *buf)
{
	if (number == 0) {
		buf[0] = '\0';
	} else if (number & TRACE_TEXT_BIT) {
		uint32_t at = number & ~TRACE_TEXT_BIT;

		if (at < TEXTS_MAX &&
		    atomic_load_explicit(&names->texts[at].state,
					 memory_order_acquire) == TEXT_READY)
			memcpy(buf, names->texts[at].text, NK_NAME_MAX);
		else
			snprintf(buf, NK_NAME_MAX, "?");
	} else if (!get_id(names, number, buf)) {
		snprintf(buf, NK_NAME_MAX, "#%u", number);
	}
}

uint64_t trace_names_lost(const struct trace_names *names)
{
	return atomic_load_explicit(&names->lost, memory_order_relaxed);
}
