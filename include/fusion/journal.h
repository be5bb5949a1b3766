/* SPDX-License-Identifier: MIT */
/** @file
 * The undo journal of a shared instance's nucleus lock
 * (docs/architecture.md, "A member dying").
 *
 * A process of a session may die, SIGKILL included, while it holds the
 * nucleus lock, half-way through changing queues, trees and objects that
 * every member shares.  So each change of shared state under the lock is
 * preceded by a copy of the bytes it changes, in the journal that goes
 * with the lock; releasing the lock empties it.  The next holder, told
 * by the lock that its previous holder died, copies the bytes back in
 * reverse order: the dead holder's last critical section is then undone
 * as a whole.  A private instance has no journal, and each note costs
 * one thread-local load and branch.
 */
#ifndef FUSION_JOURNAL_H
#define FUSION_JOURNAL_H

#include <fusion/types.h>

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nk_journal;

/** The journal of the shared lock this thread holds; NULL otherwise. */
extern nk_export __thread struct nk_journal *nk_journal_active
    __attribute__((tls_model("initial-exec")));

/** Out of line: records @p len bytes at @p addr in @p j. */
nk_export void nk_journal_save_in(struct nk_journal *j, const void *addr,
				  size_t len);

/**
 * Note that the @p len bytes at @p addr are about to change under the
 * nucleus lock.  Call it before the first change of each critical
 * section (a second note of the same bytes is harmless); bytes outside
 * the session's segment are the process's own and are not noted.
 */
static inline void nk_journal_save(const void *addr, size_t len)
{
	struct nk_journal *j = nk_journal_active;

	if (__builtin_expect(j != NULL, 0))
		nk_journal_save_in(j, addr, len);
}

/** Out of line: records the block of the instance's heap at @p mem. */
nk_export void nk_journal_block_in(struct nk_journal *j, const void *mem);

/**
 * nk_journal_save() of the whole block that nk_alloc() or
 * nk_alloc_local() returned as @p mem (nothing for other memory): an object whose fields a service
 * changes here and there, noted once as it is found.
 */
static inline void nk_journal_block(const void *mem)
{
	struct nk_journal *j = nk_journal_active;

	if (__builtin_expect(j != NULL, 0))
		nk_journal_block_in(j, mem);
}

/**
 * The @p len bytes at @p mem hold the application's data, which it
 * changes without the lock (a heap's blocks, a queue's messages): the
 * journal's audit (tests) leaves them out while @p data, from their
 * allocation to their free.  A service that changes them under the
 * lock notes them all the same.
 */
nk_export void nk_journal_data(const void *mem, size_t len, bool data);

/** nk_journal_save() of the object @p p points to. */
#define nk_journal_obj(p) nk_journal_save((p), sizeof(*(p)))

#ifdef __cplusplus
}
#endif

#endif
