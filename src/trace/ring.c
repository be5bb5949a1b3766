/* SPDX-License-Identifier: MIT */
/* Lock-free trace rings: see ring.h. */
#include "ring.h"

#include <string.h>
#include <sys/mman.h>

/* An event as words: read while the writer may replace it. */
#define REC_WORDS (sizeof(struct trace_rec) / 8)
_Static_assert(sizeof(struct trace_rec) % 8 == 0, "events as words");

struct trace_slot {
	/* Index + 1 of the event it holds; 0 while being written. */
	_Atomic uint64_t seq;
	_Atomic uint64_t ev[REC_WORDS];
};

struct trace_ring {
	_Atomic uint64_t head; /* events ever claimed */
	size_t next;	       /* the writer's: head % nr_slots, without a
				* division on the way */
	size_t nr_slots;
	bool overwrite;
	struct trace_slot slots[];
};

struct trace_ring *trace_ring_create(size_t bytes, bool overwrite)
{
	size_t n = bytes / sizeof(struct trace_slot);
	size_t size;
	struct trace_ring *ring;

	if (n == 0)
		n = 1;
	size = sizeof(*ring) + n * sizeof(struct trace_slot);
	/* Populated now: recording never takes a page fault. */
	ring = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (ring == MAP_FAILED)
		return NULL;
	ring->nr_slots = n;
	ring->overwrite = overwrite;
	return ring;
}

void trace_ring_destroy(struct trace_ring *ring)
{
	if (ring)
		munmap(ring, sizeof(*ring) +
				 ring->nr_slots * sizeof(struct trace_slot));
}

size_t trace_ring_capacity(const struct trace_ring *ring)
{
	return ring->nr_slots;
}

void trace_ring_put(struct trace_ring *ring, const struct trace_rec *rec)
{
	uint64_t idx = atomic_load_explicit(&ring->head, memory_order_relaxed);
	struct trace_slot *slot;

	/* Counted before the slot is written: a reader may then see it
	 * busy, never an old event as the new one. */
	atomic_store_explicit(&ring->head, idx + 1, memory_order_relaxed);
	if (!ring->overwrite && idx >= ring->nr_slots)
		return;
	slot = &ring->slots[ring->next];
	ring->next = ring->next + 1 == ring->nr_slots ? 0 : ring->next + 1;
	uint64_t words[REC_WORDS];

	atomic_store_explicit(&slot->seq, 0, memory_order_relaxed);
	/* Releases: a reader that sees a new word sees the slot busy. */
	memcpy(words, rec, sizeof(words));
	for (size_t i = 0; i < REC_WORDS; i++)
		atomic_store_explicit(&slot->ev[i], words[i],
				      memory_order_release);
	atomic_store_explicit(&slot->seq, idx + 1, memory_order_release);
}

size_t trace_ring_copy(struct trace_ring *ring, struct trace_rec *out,
		       uint64_t *lost)
{
	uint64_t head = atomic_load_explicit(&ring->head, memory_order_acquire);
	uint64_t first = head > ring->nr_slots ? head - ring->nr_slots : 0;
	uint64_t end = head;
	size_t n = 0;

	/* Without overwriting, the first events are the ones kept. */
	if (!ring->overwrite && head > ring->nr_slots) {
		first = 0;
		end = ring->nr_slots;
	}
	*lost = head - (end - first);
	for (uint64_t i = first; i < end; i++) {
		struct trace_slot *slot = &ring->slots[i % ring->nr_slots];
		uint64_t seq =
		    atomic_load_explicit(&slot->seq, memory_order_acquire);

		if (seq != i + 1) {
			++*lost;
			continue;
		}
		uint64_t words[REC_WORDS];

		/* Acquires: the check below comes after every word. */
		for (size_t w = 0; w < REC_WORDS; w++)
			words[w] = atomic_load_explicit(&slot->ev[w],
							memory_order_acquire);
		memcpy(&out[n], words, sizeof(words));
		if (atomic_load_explicit(&slot->seq, memory_order_relaxed) !=
		    seq) {
			++*lost;
			continue;
		}
		n++;
	}
	return n;
}
