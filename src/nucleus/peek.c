/* SPDX-License-Identifier: MIT */
/*
 * nk_peek_threads(): the shared instance's threads, read from a mapping
 * of the session's segment with no lock taken, as a seqlock's reader:
 * the journal's generation (journal.h), odd while a critical section is
 * open, is read even before the copy and found the same after it.  A
 * torn copy may hold any value, so each pointer is checked against the
 * segment before it is followed, and each walk is bounded.
 */
#include "internal.h"
#include "journal.h"
#include "peek.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

/* 200 tries 100 us apart: a lock held 20 ms in a row is not a reader's
 * to wait out. */
#define PEEK_TRIES 200
/* More threads than a segment of this size could hold: garbage. */
#define PEEK_MAX_STEPS(seg) ((seg)->size / sizeof(struct nk_thread) + 1)

/* Where the members' @addr is in our mapping, if @len bytes fit. */
static const void *at(const struct nk_peek_segment *seg, uintptr_t addr,
		      size_t len)
{
	if (addr % 8 != 0 || addr < seg->base || len > seg->size ||
	    addr - seg->base > seg->size - len)
		return NULL;
	return seg->map + (addr - seg->base);
}

/* A member's address of the bytes at @local of our mapping. */
static uintptr_t member_addr(const struct nk_peek_segment *seg,
			     const void *local)
{
	return (uintptr_t)seg->base +
	       (uintptr_t)((const unsigned char *)local - seg->map);
}

/* One thread's status from its copy @t; false: a pointer of it is bad. */
static bool peek_thread(const struct nk_peek_segment *seg,
			const struct nk_core *core, const struct nk_thread *t,
			uintptr_t addr, struct nk_status_thread *out)
{
	const struct nk_sched *sched =
	    at(seg, (uintptr_t)t->sched, sizeof(*sched));
	char wchan[NK_NAME_MAX] = "";
	struct nk_thread *curr;
	int cpu;

	if (sched == NULL)
		return false;
	memcpy(&curr, &sched->curr, sizeof(curr));
	memcpy(&cpu, &sched->cpu, sizeof(cpu));
	/* A synch out of the segment is its member's own memory (a
	 * process's private object): not ours to read. */
	if (t->state & NK_THREAD_PENDING) {
		const struct nk_synch *synch =
		    at(seg, (uintptr_t)t->wchan, sizeof(*synch));

		if (synch)
			memcpy(wchan, synch->name, sizeof(wchan) - 1);
		else
			strcpy(wchan, "?");
	}
	nk_thread_status_fields(t, core, (uintptr_t)curr == addr, cpu,
				nk_thread_wait_word(t->state, wchan), out);
	return true;
}

/* One try: 0, -EAGAIN (a section was open) or -EPROTO (garbage). */
static int peek_once(const struct nk_peek_segment *seg,
		     const struct nk_arena *arena, const _Atomic uint32_t *gen,
		     struct nk_status_thread *threads, int *members,
		     unsigned int max, unsigned int *total)
{
	uintptr_t head = member_addr(seg, &arena->core.threads);
	uint32_t before = atomic_load_explicit(gen, memory_order_acquire);
	unsigned int n = 0;
	struct nk_core core;
	uintptr_t pos;
	bool whole = true;

	if (before & 1)
		return -EAGAIN;
	memcpy(&core, &arena->core, sizeof(core));
	pos = (uintptr_t)core.threads.next;
	for (uint64_t step = 0; whole && pos != head; step++) {
		const struct nk_thread *t =
		    at(seg, pos - offsetof(struct nk_thread, instance_link),
		       sizeof(*t));
		struct nk_thread copy;

		if (t == NULL || step > PEEK_MAX_STEPS(seg)) {
			whole = false;
			break;
		}
		memcpy(&copy, t, sizeof(copy));
		if (copy.magic != NK_THREAD_MAGIC) {
			whole = false;
			break;
		}
		if (n < max) {
			whole = peek_thread(seg, &core, &copy,
					    member_addr(seg, t), &threads[n]);
			members[n] = copy.member;
		}
		n++;
		pos = (uintptr_t)copy.instance_link.next;
	}
	NK_JOURNAL_FENCE(memory_order_acquire);
	if (atomic_load_explicit(gen, memory_order_relaxed) != before)
		return -EAGAIN;
	if (!whole)
		return -EPROTO;
	*total = n;
	return 0;
}

int nk_peek_threads(const struct nk_peek_segment *seg,
		    struct nk_status_thread *threads, int *members,
		    unsigned int max, unsigned int *total)
{
	struct timespec pause = {0, 100000};
	const struct nk_arena *arena;
	const struct nk_journal *j;
	struct nk_journal *jp;
	uint32_t open;
	int ret = -EAGAIN;

	if (seg == NULL || seg->map == NULL || total == NULL ||
	    ((threads == NULL || members == NULL) && max) ||
	    seg->block_size < sizeof(*arena) || seg->block > seg->size ||
	    seg->block_size > seg->size - seg->block)
		return -EINVAL;
	arena = at(seg, (uintptr_t)(seg->base + seg->block), sizeof(*arena));
	if (arena == NULL)
		return -EPROTO;
	memcpy(&open, (const void *)&arena->open, sizeof(open));
	/* The journal is the maker's, set once before the block opens. */
	memcpy(&jp, &arena->core.journal, sizeof(jp));
	j = at(seg, (uintptr_t)jp, sizeof(*j));
	if (!open || j == NULL)
		return -EPROTO;
	for (int i = 0; i < PEEK_TRIES && ret == -EAGAIN; i++) {
		if (i)
			nanosleep(&pause, NULL);
		ret = peek_once(seg, arena, &j->gen, threads, members, max,
				total);
	}
	return ret;
}
