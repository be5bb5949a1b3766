/* SPDX-License-Identifier: MIT */
/* Names kept once per number: see names.h. */
#include "names.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define IDS_MAX TRACE_IDS_MAX
#define TEXTS_MAX TRACE_TEXTS_MAX
#define TEXT_INDEX_BITS 12 /* log2(TEXTS_MAX) */
#define TEXT_GEN_MASK ((TRACE_TEXT_BIT - 1) >> TEXT_INDEX_BITS)
#define TEXT_PROBES 8
#define BUSY UINT32_MAX

_Static_assert(TEXTS_MAX == 1u << TEXT_INDEX_BITS, "text numbers");

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

_Static_assert(NK_NAME_MAX % 8 == 0, "names as words");

/*
 * @s cut and terminated into @dst.  Word by word, each store a release:
 * a reader that sees one of them sees the entry's key claimed (BUSY)
 * before it, and so does not take a half-written name for the old one.
 */
static void copy_name(_Atomic uint64_t *dst, const char *s)
{
	uint64_t words[TRACE_NAME_WORDS] = {0};

	memcpy(words, s, strnlen(s, NK_NAME_MAX - 1));
	for (size_t i = 0; i < TRACE_NAME_WORDS; i++)
		atomic_store_explicit(&dst[i], words[i], memory_order_release);
}

/* The name in @src into @buf of NK_NAME_MAX bytes, each load an
 * acquire: what the caller reads after comes after all of them. */
static void load_name(const _Atomic uint64_t *src, char *buf)
{
	uint64_t words[TRACE_NAME_WORDS];

	for (size_t i = 0; i < TRACE_NAME_WORDS; i++)
		words[i] = atomic_load_explicit(&src[i], memory_order_acquire);
	memcpy(buf, words, NK_NAME_MAX);
	buf[NK_NAME_MAX - 1] = '\0';
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

/* Write @text into @e, claimed (key BUSY), as generation @gen. */
static uint32_t put_text(struct trace_text *e, uint32_t at, uint32_t gen,
			 uint32_t h, const char *text)
{
	uint32_t number = TRACE_TEXT_BIT | gen << TEXT_INDEX_BITS | at;

	e->hash = h;
	copy_name(e->text, text);
	atomic_store_explicit(&e->key, number, memory_order_release);
	return number;
}

static uint32_t note_text(struct trace_names *names, const char *text)
{
	uint32_t h = hash_text(text), home = h % TEXTS_MAX, key, gen;
	struct trace_text *e;

	for (uint32_t i = 0; i < TEXT_PROBES; i++) {
		uint32_t at = (h + i) % TEXTS_MAX;

		e = &names->texts[at];
		key = atomic_load_explicit(&e->key, memory_order_acquire);
		if (key != 0 && key != BUSY && e->hash == h) {
			char kept[NK_NAME_MAX];

			load_name(e->text, kept);
			if (strncmp(kept, text, NK_NAME_MAX - 1) == 0)
				return key;
		}
		if (key == 0 && atomic_compare_exchange_strong_explicit(
				    &e->key, &key, BUSY, memory_order_acquire,
				    memory_order_relaxed))
			return put_text(e, at, 1, h, text);
	}
	/* Neither the text nor room: it takes its home's place, under a
	 * new generation, so the older text's number no longer matches. */
	e = &names->texts[home];
	key = atomic_load_explicit(&e->key, memory_order_relaxed);
	atomic_fetch_add_explicit(&names->lost, 1, memory_order_relaxed);
	if (key == BUSY || !atomic_compare_exchange_strong_explicit(
			       &e->key, &key, BUSY, memory_order_acquire,
			       memory_order_relaxed))
		return TRACE_TEXT_BIT; /* reads "?" */
	gen = ((key >> TEXT_INDEX_BITS) + 1) & TEXT_GEN_MASK;
	return put_text(e, home, gen ? gen : 1, h, text);
}

uint32_t trace_names_add(struct trace_names *names, uint32_t id,
			 const char *name)
{
	return id ? note_id(names, id, name) : note_text(names, name);
}

/* The name @key holds at @e into @buf, unless replaced, even while it
 * is copied (a trace written while recording goes on). */
static bool get_entry(const _Atomic uint32_t *key, const _Atomic uint64_t *name,
		      uint32_t number, char *buf)
{
	if (atomic_load_explicit(key, memory_order_acquire) != number)
		return false;
	load_name(name, buf);
	return atomic_load_explicit(key, memory_order_relaxed) == number;
}

void trace_names_get(const struct trace_names *names, uint32_t number,
		     char *buf)
{
	const struct trace_text *t = &names->texts[number % TEXTS_MAX];
	const struct trace_id_name *e = &names->ids[number & (IDS_MAX - 1)];

	if (number == 0)
		buf[0] = '\0';
	else if (number & TRACE_TEXT_BIT) {
		if (!get_entry(&t->key, t->text, number, buf))
			snprintf(buf, NK_NAME_MAX, "?");
	} else if (!get_entry(&e->key, e->name, number, buf)) {
		snprintf(buf, NK_NAME_MAX, "#%u", number);
	}
}

uint64_t trace_names_lost(const struct trace_names *names)
{
	return atomic_load_explicit(&names->lost, memory_order_relaxed);
}
