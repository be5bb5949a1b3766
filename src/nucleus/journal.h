/* SPDX-License-Identifier: MIT */
/*
 * The undo journal's own side (include/fusion/journal.h has the notes):
 * made by the backend next to the nucleus lock it goes with, begun as
 * the lock is taken, emptied as it is released, undone by the next
 * holder of a lock whose holder died.  Its audit (journal_audit.c)
 * checks that every byte a critical section changed was noted.
 */
#ifndef FUSION_NUCLEUS_JOURNAL_H
#define FUSION_NUCLEUS_JOURNAL_H

#include <fusion/backend.h>
#include <fusion/heap.h>
#include <fusion/journal.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* The most a critical section notes: the deletion of an object with
 * hundreds of waiters stays well inside. */
#define NK_JOURNAL_ENTRIES 8192
#define NK_JOURNAL_BYTES (1024 * 1024)
#define NK_JOURNAL_SEEN 512 /* a power of two */

struct nk_journal_entry {
	uintptr_t addr;
	uint32_t len;
	uint32_t fresh; /* allocated under the lock: no copy, audited only */
};

struct nk_journal {
	_Atomic uint32_t entries; /* published: each entry's copy is whole */
	uint32_t end;		  /* of the log, past the last entry */
	/* An entry did not fit: this critical section cannot be undone. */
	bool overflow;
	/* Sections of dead holders undone, and those that could not be. */
	_Atomic unsigned long undone, lost;
	uintptr_t lo, hi;     /* the session's segment */
	struct nk_heap *heap; /* the instance's (nk_journal_block) */
	/* Bytes noted in this section, hashed by address: a second note
	 * of the same is skipped.  A section is one generation, odd while
	 * it is open: a reader of the instance that takes no lock (`fusion
	 * ps`, peek.c) keeps a copy made between two equal even values. */
	_Atomic uint32_t gen;
	struct {
		uintptr_t addr;
		uint32_t len, gen;
	} seen[NK_JOURNAL_SEEN];
	uint32_t at[NK_JOURNAL_ENTRIES];
	_Alignas(8) unsigned char log[NK_JOURNAL_BYTES];
};

/*
 * The fences of the generation's seqlock (journal.c's writer, peek.c's
 * reader).  ThreadSanitizer supports none: its builds keep the
 * compiler's order only, which is the machine's on x86, where they run.
 */
#ifdef __SANITIZE_THREAD__
#define NK_JOURNAL_FENCE(order) atomic_signal_fence(memory_order_seq_cst)
#else
#define NK_JOURNAL_FENCE(order) atomic_thread_fence(order)
#endif

void nk_journal_init(struct nk_journal *j, const void *segment, size_t size,
		     struct nk_heap *heap);
/* Bytes allocated under the lock, whose old contents do not matter. */
void nk_journal_fresh(const void *addr, size_t len);
/* Is the byte at @addr covered by a note of the current section? */
bool nk_journal_noted(const struct nk_journal *j, uintptr_t addr);

/*
 * The audit (FUSION_JOURNAL_AUDIT=1, tests only): each critical section
 * compares the nucleus block's bytes at its end with those at its start
 * and aborts, naming the address, at a change nobody noted.  Records
 * that other threads change without the lock (a backend's gates and
 * flags) are left out of it with nk_journal_audit_skip(); their fields
 * changed under the lock are noted by hand.
 */
bool nk_journal_audit_on(void);
void nk_journal_audit_range(const void *addr, size_t len, struct nk_heap *heap);
void nk_journal_audit_skip(const void *addr, size_t len, bool skip);
/* A block nk_alloc() just gave this thread, which it may fill before
 * its next call takes the lock: not another section's change. */
void nk_journal_audit_young(const void *mem, size_t len);
void nk_journal_audit_begin(const struct nk_journal *j, bool call);
void nk_journal_audit_end(const struct nk_journal *j);

/* heap.c, for the audit's reports: the block of @heap that holds
 * @addr (false: a free one, or none). */
bool nk_heap_block_at(struct nk_heap *heap, const void *addr, void **payload,
		      size_t *size);

#pragma GCC visibility pop

#endif
