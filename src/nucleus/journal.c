/* SPDX-License-Identifier: MIT */
/*
 * The undo journal of a shared instance's nucleus lock (journal.h,
 * docs/architecture.md, "A member dying").  An entry is published by one
 * store of the entry count, after its copy: a holder killed while it
 * notes has not made the change the note was for.
 */
#include "internal.h"
#include "journal.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__thread struct nk_journal *nk_journal_active;

/*
 * The objects this thread noted in its section, noted again as it goes on
 * with it after a switch (nk_journal_resume): a section that waits is two
 * sections to the journal, and what a caller changes after its wait is
 * most often what it changed before.  Queue links and heap headers, the
 * small notes, are left out: their changes note them each time.
 */
#define RESUME_NOTES 16
#define RESUME_MIN 64
static __thread struct {
	uintptr_t addr;
	uint32_t len;
} resume_notes[RESUME_NOTES];
static __thread unsigned int nr_resume_notes;

/* Bytes an entry takes in the log: its header, then its copy. */
static size_t entry_size(const struct nk_journal_entry *e)
{
	size_t len = e->fresh ? 0 : e->len;

	return sizeof(*e) + ((len + 7) & ~(size_t)7);
}

static size_t log_end(const struct nk_journal *j, uint32_t entries)
{
	const struct nk_journal_entry *last;

	if (entries == 0)
		return 0;
	last = (const void *)(j->log + j->at[entries - 1]);
	return j->at[entries - 1] + entry_size(last);
}

static bool in_segment(const struct nk_journal *j, uintptr_t addr, size_t len)
{
	return addr >= j->lo && len <= j->hi - j->lo &&
	       addr - j->lo <= j->hi - j->lo - len;
}

/* The slot of @addr in the section's hash of what it noted. */
static unsigned int seen_slot(uintptr_t addr)
{
	return (unsigned int)(((addr >> 3) * 0x9e3779b97f4a7c15ull) >> 55) &
	       (NK_JOURNAL_SEEN - 1);
}

/*
 * Copy @len bytes at @src.  A noted object may hold fields other threads
 * change without the lock (a flag beside the fields noted); those read
 * as they are.  memcpy() copies a switch's notes in a tenth of the
 * instructions of a loop of atomic loads; under ThreadSanitizer, relaxed
 * atomic loads word by word, so that it sees no race in the copy.
 */
static void copy_noted(unsigned char *dst, uintptr_t src, size_t len)
{
#ifndef __SANITIZE_THREAD__
	memcpy(dst, (const void *)src, len);
#else
	size_t i = 0;

	for (; i < len && (src + i) % 8; i++)
		dst[i] = __atomic_load_n((const unsigned char *)(src + i),
					 __ATOMIC_RELAXED);
	for (; i + 8 <= len; i += 8) {
		uint64_t w = __atomic_load_n((const uint64_t *)(src + i),
					     __ATOMIC_RELAXED);

		memcpy(dst + i, &w, 8);
	}
	for (; i < len; i++)
		dst[i] = __atomic_load_n((const unsigned char *)(src + i),
					 __ATOMIC_RELAXED);
#endif
}

static uint32_t section_gen(const struct nk_journal *j)
{
	return atomic_load_explicit(&j->gen, memory_order_relaxed);
}

/* A section opens: odd, before any change of it (a seqlock's writer). */
static void section_open(struct nk_journal *j)
{
	atomic_store_explicit(&j->gen, (section_gen(j) + 1) | 1,
			      memory_order_relaxed);
	NK_JOURNAL_FENCE(memory_order_release);
}

/* Closed: even, after every change of it. */
static void section_close(struct nk_journal *j)
{
	atomic_store_explicit(&j->gen, (section_gen(j) + 1) & ~1u,
			      memory_order_release);
}

static void append(struct nk_journal *j, uintptr_t addr, size_t len, bool fresh)
{
	uint32_t entries =
	    atomic_load_explicit(&j->entries, memory_order_relaxed);
	struct nk_journal_entry hdr = {
	    .addr = addr, .len = (uint32_t)len, .fresh = fresh};
	size_t at = j->end, size = entry_size(&hdr);
	unsigned int slot = 0;

	if (j->overflow || !in_segment(j, addr, len))
		return;
	/* Objects are noted again and again; a link costs less to copy
	 * twice than to look up. */
	if (!fresh && len >= RESUME_MIN) {
		slot = seen_slot(addr);
		if (j->seen[slot].gen == section_gen(j) &&
		    j->seen[slot].addr == addr && j->seen[slot].len >= len)
			return;
	}
	if (entries == NK_JOURNAL_ENTRIES || len > UINT32_MAX ||
	    size > sizeof(j->log) - at) {
		j->overflow = true;
		return;
	}
	memcpy(j->log + at, &hdr, sizeof(hdr));
	if (!fresh)
		copy_noted(j->log + at + sizeof(hdr), addr, len);
	j->at[entries] = (uint32_t)at;
	j->end = (uint32_t)(at + size);
	if (!fresh && len >= RESUME_MIN) {
		resume_notes[nr_resume_notes % RESUME_NOTES].addr = addr;
		resume_notes[nr_resume_notes++ % RESUME_NOTES].len =
		    (uint32_t)len;
		j->seen[slot].addr = addr;
		j->seen[slot].len = (uint32_t)len;
		j->seen[slot].gen = section_gen(j);
	}
	atomic_store_explicit(&j->entries, entries + 1, memory_order_release);
	/* The change noted comes after the note, in program order: a
	 * holder killed between the two left the bytes as copied. */
	atomic_signal_fence(memory_order_seq_cst);
}

void nk_journal_save_in(struct nk_journal *j, const void *addr, size_t len)
{
	append(j, (uintptr_t)addr, len, false);
}

void nk_journal_fresh(const void *addr, size_t len)
{
	struct nk_journal *j = nk_journal_active;

	if (j && nk_journal_audit_on())
		append(j, (uintptr_t)addr, len, true);
}

void nk_journal_block_in(struct nk_journal *j, const void *mem)
{
	const struct nk_local *b;
	size_t size;

	if (mem == NULL)
		return;
	if (nk_heap_size(j->heap, (void *)mem, &size) == 0) {
		append(j, (uintptr_t)mem, size, false);
		return;
	}
	/* A block of nk_alloc_local(): its caller's part follows the
	 * header. */
	b = (const void *)((const char *)mem - offsetof(struct nk_local, data));
	if (nk_heap_size(j->heap, (void *)b, &size) == 0 &&
	    b->magic == NK_LOCAL_MAGIC)
		append(j, (uintptr_t)b, size, false);
}

void nk_journal_init(struct nk_journal *j, const void *segment, size_t size,
		     struct nk_heap *heap)
{
	memset(j, 0, sizeof(*j));
	j->lo = (uintptr_t)segment;
	j->hi = (uintptr_t)segment + size;
	j->heap = heap;
}

void nk_journal_begin(struct nk_journal *j, bool call)
{
	if (call)
		nr_resume_notes = 0;
	j->end = 0;
	section_open(j);
	nk_journal_active = j;
	nk_journal_audit_begin(j, call);
}

void nk_journal_resume(struct nk_journal *j)
{
	unsigned int n =
	    nr_resume_notes < RESUME_NOTES ? nr_resume_notes : RESUME_NOTES;

	j->end = 0;
	section_open(j);
	nk_journal_active = j;
	nk_journal_audit_begin(j, false);
	for (unsigned int i = 0; i < n; i++)
		append(j, resume_notes[i].addr, resume_notes[i].len, false);
}

void nk_journal_commit(struct nk_journal *j)
{
	nk_journal_audit_end(j);
	j->overflow = false;
	atomic_store_explicit(&j->entries, 0, memory_order_release);
	section_close(j);
	nk_journal_active = NULL;
}

bool nk_journal_undo(struct nk_journal *j)
{
	uint32_t entries = atomic_load(&j->entries);

	if (j->overflow) {
		atomic_fetch_add(&j->lost, 1);
		return false;
	}
	for (uint32_t i = 0; i < entries; i++) {
		const struct nk_journal_entry *e;

		if (j->at[i] >= sizeof(j->log) ||
		    (i > 0 && j->at[i] != log_end(j, i))) {
			atomic_fetch_add(&j->lost, 1);
			return false;
		}
		e = (const void *)(j->log + j->at[i]);
		if (!in_segment(j, e->addr, e->len)) {
			atomic_fetch_add(&j->lost, 1);
			return false;
		}
	}
	for (uint32_t i = entries; i > 0; i--) {
		const struct nk_journal_entry *e =
		    (const void *)(j->log + j->at[i - 1]);

		if (!e->fresh)
			memcpy((void *)e->addr, e + 1, e->len);
	}
	atomic_store(&j->entries, 0);
	atomic_fetch_add(&j->undone, 1);
	return true;
}

bool nk_journal_noted(const struct nk_journal *j, uintptr_t addr)
{
	uint32_t entries = atomic_load(&j->entries);

	for (uint32_t i = 0; i < entries; i++) {
		const struct nk_journal_entry *e =
		    (const void *)(j->log + j->at[i]);

		if (addr >= e->addr && addr - e->addr < e->len)
			return true;
	}
	return false;
}
