/* SPDX-License-Identifier: MIT */
/*
 * TLSF heap: argument checking, alignment, splitting and coalescing, exact
 * statistics, and a long random run against a reference model.
 */
#include "harness.h"

#include <fusion/heap.h>

#include <stdint.h>
#include <stdlib.h>

#define ARENA_SIZE (1u << 20)

static _Alignas(64) unsigned char arena[ARENA_SIZE];

static int aligned(const void *p)
{
	return ((uintptr_t)p & (NK_HEAP_ALIGN - 1)) == 0;
}

static struct nk_heap_stats stats_of(struct nk_heap *heap)
{
	struct nk_heap_stats s;

	memset(&s, 0xa5, sizeof(s));
	CHECK_EQ(nk_heap_stats(heap, &s), 0);
	return s;
}

static int stats_equal(const struct nk_heap_stats *a,
		       const struct nk_heap_stats *b)
{
	return a->size == b->size && a->used == b->used && a->free == b->free &&
	       a->largest_free == b->largest_free && a->nr_used == b->nr_used &&
	       a->nr_free == b->nr_free;
}

/* Header overhead per block, as seen from outside: a fresh heap's loss. */
static size_t header_size(struct nk_heap *heap)
{
	struct nk_heap_stats s = stats_of(heap);

	return s.size - s.free;
}

static void *must_alloc(struct nk_heap *heap, size_t size)
{
	void *p = NULL;

	CHECK_EQ(nk_heap_alloc(heap, size, &p), 0);
	CHECK(p != NULL);
	CHECK(aligned(p));
	return p;
}

TEST(init_errors)
{
	struct nk_heap heap;
	struct nk_heap_stats s;
	void *p = &heap;

	CHECK_EQ(nk_heap_init(NULL, arena, 4096), -EINVAL);
	CHECK_EQ(nk_heap_init(&heap, NULL, 4096), -EINVAL);
	CHECK_EQ(nk_heap_init(&heap, arena, 0), -EINVAL);
	CHECK_EQ(nk_heap_init(&heap, arena, 1), -EINVAL);
	CHECK_EQ(nk_heap_init(&heap, arena, 16), -EINVAL);
	CHECK_EQ(nk_heap_init(&heap, arena, 40), -EINVAL);
	/* After alignment, 47 bytes from arena + 1 are only 32. */
	CHECK_EQ(nk_heap_init(&heap, arena + 1, 47), -EINVAL);

	/* A zeroed (never initialised) heap is refused everywhere. */
	memset(&heap, 0, sizeof(heap));
	CHECK_EQ(nk_heap_alloc(&heap, 16, &p), -EINVAL);
	CHECK(p == NULL);
	CHECK_EQ(nk_heap_free(&heap, arena + 64), -EINVAL);
	CHECK_EQ(nk_heap_stats(&heap, &s), -EINVAL);
	CHECK_EQ(nk_heap_check(&heap), -EINVAL);
	CHECK_EQ(nk_heap_destroy(&heap), -EINVAL);
	CHECK_EQ(nk_heap_destroy(NULL), -EINVAL);

	/* The smallest heap holds exactly one small block. */
	CHECK_EQ(nk_heap_init(&heap, arena, 64), 0);
	s = stats_of(&heap);
	CHECK_EQ(s.size, 64);
	CHECK_EQ(s.nr_free, 1);
	CHECK(s.largest_free >= 16);
	CHECK_EQ(nk_heap_check(&heap), 0);
	p = must_alloc(&heap, s.largest_free);
	CHECK_EQ(nk_heap_alloc(&heap, 1, &p), -ENOMEM);
	CHECK(p == NULL);
	CHECK_EQ(nk_heap_destroy(&heap), 0);

	/* Misaligned memory is trimmed, not refused. */
	CHECK_EQ(nk_heap_init(&heap, arena + 3, 4096), 0);
	s = stats_of(&heap);
	CHECK(s.size <= 4096 - 3 && s.size >= 4096 - 32);
	CHECK_EQ(s.size % NK_HEAP_ALIGN, 0);
	p = must_alloc(&heap, 1);
	CHECK((unsigned char *)p > arena + 3);
	CHECK_EQ(nk_heap_check(&heap), 0);
	CHECK_EQ(nk_heap_destroy(&heap), 0);
}

TEST(alignment_and_size)
{
	struct nk_heap heap;
	void *ptrs[600];
	int n = 0;

	CHECK_EQ(nk_heap_init(&heap, arena + 8, 512 * 1024), 0);
	for (size_t size = 1; size <= 600; size++) {
		size_t usable = 0;
		void *p = must_alloc(&heap, size);

		CHECK_EQ(nk_heap_size(&heap, p, &usable), 0);
		CHECK(usable >= size);
		CHECK_EQ(usable % NK_HEAP_ALIGN, 0);
		memset(p, 0xcc, usable);
		ptrs[n++] = p;
	}
	CHECK_EQ(nk_heap_check(&heap), 0);
	/* Odd large sizes too. */
	for (size_t size = 1000; size < 40000; size = size * 3 + 7) {
		void *p = must_alloc(&heap, size);
		size_t usable;

		CHECK_EQ(nk_heap_size(&heap, p, &usable), 0);
		CHECK(usable >= size);
		memset(p, 0x33, usable);
		CHECK_EQ(nk_heap_free(&heap, p), 0);
	}
	for (int i = 0; i < n; i += 2)
		CHECK_EQ(nk_heap_free(&heap, ptrs[i]), 0);
	CHECK_EQ(nk_heap_check(&heap), 0);
	for (int i = 1; i < n; i += 2)
		CHECK_EQ(nk_heap_free(&heap, ptrs[i]), 0);
	CHECK_EQ(stats_of(&heap).nr_free, 1);
	CHECK_EQ(nk_heap_check(&heap), 0);
	CHECK_EQ(nk_heap_destroy(&heap), 0);
}

TEST(coalesce_free_b_then_a)
{
	struct nk_heap heap;
	struct nk_heap_stats s;
	size_t hdr, usable;
	void *a, *b, *c, *d, *p;

	CHECK_EQ(nk_heap_init(&heap, arena, 8192), 0);
	hdr = header_size(&heap);
	a = must_alloc(&heap, 100);
	b = must_alloc(&heap, 200);
	c = must_alloc(&heap, 300);
	/* Blocks are carved in address order from the one initial block. */
	CHECK((char *)b == (char *)a + 112 + hdr);
	CHECK((char *)c == (char *)b + 208 + hdr);
	/* Take the tail too, so that only A and B can become free. */
	d = must_alloc(&heap, stats_of(&heap).largest_free);
	s = stats_of(&heap);
	CHECK_EQ(s.nr_free, 0);
	CHECK_EQ(s.free, 0);
	CHECK_EQ(s.largest_free, 0);
	CHECK_EQ(s.used, s.size);

	CHECK_EQ(nk_heap_free(&heap, b), 0);
	s = stats_of(&heap);
	CHECK_EQ(s.nr_free, 1);
	CHECK_EQ(s.largest_free, 208);
	CHECK_EQ(nk_heap_free(&heap, a), 0);
	s = stats_of(&heap);
	CHECK_EQ(s.nr_free, 1);
	CHECK_EQ(s.nr_used, 2);
	CHECK_EQ(s.free, 112 + hdr + 208);
	CHECK_EQ(s.largest_free, 112 + hdr + 208);
	CHECK_EQ(nk_heap_check(&heap), 0);

	/* The merged block comes back whole, at A. */
	p = must_alloc(&heap, 112 + hdr + 208);
	CHECK(p == a);
	CHECK_EQ(nk_heap_size(&heap, p, &usable), 0);
	CHECK_EQ(usable, 112 + hdr + 208);
	CHECK_EQ(stats_of(&heap).nr_free, 0);
	CHECK_EQ(nk_heap_free(&heap, p), 0);
	CHECK_EQ(nk_heap_free(&heap, c), 0);
	CHECK_EQ(nk_heap_free(&heap, d), 0);
	s = stats_of(&heap);
	CHECK_EQ(s.nr_free, 1);
	CHECK_EQ(s.used, 0);
	CHECK_EQ(s.largest_free, 8192 - hdr);
	CHECK_EQ(nk_heap_check(&heap), 0);
	CHECK_EQ(nk_heap_destroy(&heap), 0);
}

TEST(coalesce_all_orders)
{
	static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
					 {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	struct nk_heap heap;
	struct nk_heap_stats init, s;

	CHECK_EQ(nk_heap_init(&heap, arena, 16384), 0);
	init = stats_of(&heap);
	for (int o = 0; o < 6; o++) {
		void *blk[3];

		blk[0] = must_alloc(&heap, 48);
		blk[1] = must_alloc(&heap, 1000);
		blk[2] = must_alloc(&heap, 17);
		CHECK_EQ(stats_of(&heap).nr_used, 3);
		for (int i = 0; i < 3; i++) {
			CHECK_EQ(nk_heap_free(&heap, blk[orders[o][i]]), 0);
			CHECK_EQ(nk_heap_check(&heap), 0);
		}
		s = stats_of(&heap);
		CHECK_EQ(s.nr_free, 1);
		CHECK_EQ(s.nr_used, 0);
		CHECK_EQ(s.used, 0);
		CHECK_EQ(s.largest_free, init.largest_free);
		CHECK(stats_equal(&s, &init));
	}
	CHECK_EQ(nk_heap_destroy(&heap), 0);
}

TEST(exhaustion)
{
	static void *ptrs[4096];
	struct nk_heap heap;
	struct nk_heap_stats init, s;
	size_t hdr, used;
	void *p;
	int n = 0, rc;

	CHECK_EQ(nk_heap_init(&heap, arena, 65536), 0);
	init = stats_of(&heap);
	hdr = header_size(&heap);
	for (;;) {
		p = (void *)0x1;
		rc = nk_heap_alloc(&heap, 100, &p);
		if (rc)
			break;
		CHECK(n < 4096);
		ptrs[n++] = p;
	}
	CHECK_EQ(rc, -ENOMEM);
	CHECK(p == NULL);
	CHECK_EQ(nk_heap_check(&heap), 0);
	s = stats_of(&heap);
	CHECK_EQ(s.nr_used, n);
	used = 0;
	for (int i = 0; i < n; i++) {
		size_t usable;

		CHECK_EQ(nk_heap_size(&heap, ptrs[i], &usable), 0);
		CHECK(usable >= 112 && usable < 112 + hdr + 48);
		used += hdr + usable;
	}
	CHECK_EQ(s.used, used);
	CHECK(s.largest_free < 100);
	/* Whatever is left over, largest_free still fits exactly. */
	if (s.largest_free) {
		p = must_alloc(&heap, s.largest_free);
		ptrs[n++] = p;
	}
	p = (void *)0x1;
	CHECK_EQ(nk_heap_alloc(&heap, 1, &p), -ENOMEM);
	CHECK(p == NULL);
	CHECK_EQ(stats_of(&heap).used, 65536);

	/* Free every third, then the rest. */
	for (int i = 0; i < n; i += 3)
		CHECK_EQ(nk_heap_free(&heap, ptrs[i]), 0);
	CHECK_EQ(nk_heap_check(&heap), 0);
	for (int i = 0; i < n; i++)
		if (i % 3)
			CHECK_EQ(nk_heap_free(&heap, ptrs[i]), 0);
	s = stats_of(&heap);
	CHECK(stats_equal(&s, &init));
	CHECK_EQ(s.largest_free, init.largest_free);
	CHECK_EQ(nk_heap_check(&heap), 0);

	/* A request beyond the heap or beyond any size fails cleanly. */
	p = (void *)0x1;
	CHECK_EQ(nk_heap_alloc(&heap, init.largest_free + 1, &p), -ENOMEM);
	CHECK(p == NULL);
	CHECK_EQ(nk_heap_alloc(&heap, SIZE_MAX, &p), -ENOMEM);
	CHECK_EQ(nk_heap_alloc(&heap, SIZE_MAX - 8, &p), -ENOMEM);
	CHECK_EQ(nk_heap_alloc(&heap, SIZE_MAX / 2 + 1, &p), -ENOMEM);
	CHECK(p == NULL);
	p = must_alloc(&heap, init.largest_free);
	CHECK_EQ(nk_heap_free(&heap, p), 0);
	CHECK_EQ(nk_heap_check(&heap), 0);
	CHECK_EQ(nk_heap_destroy(&heap), 0);
}

TEST(stats_exact)
{
	struct nk_heap heap;
	struct nk_heap_stats s;
	size_t hdr, usable;
	void *a, *b;

	CHECK_EQ(nk_heap_init(&heap, arena, 4096), 0);
	s = stats_of(&heap);
	hdr = s.size - s.free;
	CHECK(hdr > 0 && hdr <= 64 && hdr % NK_HEAP_ALIGN == 0);
	CHECK_EQ(s.size, 4096);
	CHECK_EQ(s.used, 0);
	CHECK_EQ(s.free, 4096 - hdr);
	CHECK_EQ(s.largest_free, 4096 - hdr);
	CHECK_EQ(s.nr_used, 0);
	CHECK_EQ(s.nr_free, 1);

	a = must_alloc(&heap, 100);
	CHECK_EQ(nk_heap_size(&heap, a, &usable), 0);
	CHECK_EQ(usable, 112);
	s = stats_of(&heap);
	CHECK_EQ(s.size, 4096);
	CHECK_EQ(s.used, hdr + 112);
	CHECK_EQ(s.free, 4096 - 2 * hdr - 112);
	CHECK_EQ(s.largest_free, 4096 - 2 * hdr - 112);
	CHECK_EQ(s.nr_used, 1);
	CHECK_EQ(s.nr_free, 1);

	b = must_alloc(&heap, 1);
	CHECK_EQ(nk_heap_size(&heap, b, &usable), 0);
	CHECK_EQ(usable, 16);
	s = stats_of(&heap);
	CHECK_EQ(s.used, 2 * hdr + 128);
	CHECK_EQ(s.free, 4096 - 3 * hdr - 128);
	CHECK_EQ(s.nr_used, 2);
	CHECK_EQ(s.nr_free, 1);

	/* A hole in front: two fragments, largest is still the tail. */
	CHECK_EQ(nk_heap_free(&heap, a), 0);
	s = stats_of(&heap);
	CHECK_EQ(s.used, hdr + 16);
	CHECK_EQ(s.nr_used, 1);
	CHECK_EQ(s.nr_free, 2);
	CHECK_EQ(s.free, 4096 - 3 * hdr - 16);
	CHECK_EQ(s.largest_free, 4096 - 3 * hdr - 128);
	CHECK_EQ(s.size, s.used + s.free + s.nr_free * hdr);

	/* A request that cannot be split exactly takes the whole hole. */
	a = must_alloc(&heap, 112 - hdr + 1);
	CHECK_EQ(nk_heap_size(&heap, a, &usable), 0);
	CHECK_EQ(usable, 112);
	CHECK_EQ(stats_of(&heap).nr_free, 1);
	CHECK_EQ(nk_heap_check(&heap), 0);

	CHECK_EQ(nk_heap_free(&heap, a), 0);
	CHECK_EQ(nk_heap_free(&heap, b), 0);
	CHECK_EQ(stats_of(&heap).largest_free, 4096 - hdr);

	/* The smallest remainder that still makes a block is split off... */
	a = must_alloc(&heap, 4096 - 2 * hdr - 16);
	s = stats_of(&heap);
	CHECK_EQ(s.nr_free, 1);
	CHECK_EQ(s.largest_free, 16);
	b = must_alloc(&heap, 16);
	CHECK_EQ(stats_of(&heap).used, 4096);
	CHECK_EQ(nk_heap_free(&heap, a), 0);
	CHECK_EQ(nk_heap_free(&heap, b), 0);
	/* ...one byte less is not: the block is handed out whole. */
	a = must_alloc(&heap, 4096 - 2 * hdr - 15);
	CHECK_EQ(nk_heap_size(&heap, a, &usable), 0);
	CHECK_EQ(usable, 4096 - hdr);
	s = stats_of(&heap);
	CHECK_EQ(s.nr_free, 0);
	CHECK_EQ(s.largest_free, 0);
	CHECK_EQ(nk_heap_free(&heap, a), 0);
	CHECK_EQ(nk_heap_check(&heap), 0);

	CHECK_EQ(nk_heap_stats(&heap, NULL), -EINVAL);
	CHECK_EQ(nk_heap_stats(NULL, &s), -EINVAL);
	CHECK_EQ(nk_heap_destroy(&heap), 0);
}

TEST(bad_input)
{
	struct nk_heap heap;
	struct nk_heap_stats before;
	size_t hdr, usable;
	void *a, *b, *c, *big, *p;
	int local;

	CHECK_EQ(nk_heap_init(&heap, arena + 4096, 8192), 0);
	hdr = header_size(&heap);
	a = must_alloc(&heap, 64);
	b = must_alloc(&heap, 64);
	c = must_alloc(&heap, 64);
	big = must_alloc(&heap, 1024);
	CHECK_EQ(nk_heap_free(&heap, b), 0);
	before = stats_of(&heap);

#define CHECK_REFUSED(expr)                                                    \
	do {                                                                   \
		struct nk_heap_stats after_;                                   \
		CHECK_EQ((expr), -EINVAL);                                     \
		CHECK_EQ(nk_heap_check(&heap), 0);                             \
		after_ = stats_of(&heap);                                      \
		CHECK(stats_equal(&before, &after_));                          \
	} while (0)

	CHECK_REFUSED(nk_heap_free(&heap, NULL));
	CHECK_REFUSED(nk_heap_free(NULL, a));
	/* Outside the heap, on both sides and far away. */
	CHECK_REFUSED(nk_heap_free(&heap, &local));
	CHECK_REFUSED(nk_heap_free(&heap, arena));
	CHECK_REFUSED(nk_heap_free(&heap, arena + 4096 - 16));
	CHECK_REFUSED(nk_heap_free(&heap, arena + 4096));
	CHECK_REFUSED(nk_heap_free(&heap, arena + 4096 + 8192));
	CHECK_REFUSED(nk_heap_free(&heap, arena + 4096 + 8192 + 64));
	/* Interior and misaligned pointers. */
	CHECK_REFUSED(nk_heap_free(&heap, (char *)a + 16));
	CHECK_REFUSED(nk_heap_free(&heap, (char *)a + 1));
	CHECK_REFUSED(nk_heap_free(&heap, (char *)a - 16));
	CHECK_REFUSED(nk_heap_free(&heap, (char *)big + 512));
	/* Double free of a block that stayed on its own. */
	CHECK_REFUSED(nk_heap_free(&heap, b));
	CHECK_REFUSED(nk_heap_size(&heap, b, &usable));
	/* Usable size: bad pointer, NULL result. */
	CHECK_REFUSED(nk_heap_size(&heap, (char *)a + 16, &usable));
	CHECK_REFUSED(nk_heap_size(&heap, a, NULL));
	CHECK_REFUSED(nk_heap_size(&heap, NULL, &usable));
	/* Bad allocation arguments. */
	CHECK_REFUSED(nk_heap_alloc(&heap, 0, &p));
	CHECK(p == NULL);
	CHECK_REFUSED(nk_heap_alloc(&heap, 16, NULL));
	CHECK_REFUSED(nk_heap_alloc(NULL, 16, &p));

	/*
	 * A forged block: a copy of a's header placed in big's payload.  The
	 * tag depends on the header's address, so the copy does not pass.
	 */
	memcpy((char *)big + 256, (char *)a - hdr, hdr);
	CHECK_REFUSED(nk_heap_free(&heap, (char *)big + 256 + hdr));
	/* Same for a byte-for-byte copy of big's own header. */
	memcpy((char *)big + 512, (char *)big - hdr, hdr);
	CHECK_REFUSED(nk_heap_free(&heap, (char *)big + 512 + hdr));

	/* Double free of a block merged into its predecessor. */
	CHECK_EQ(nk_heap_free(&heap, a), 0);
	CHECK_EQ(nk_heap_check(&heap), 0);
	before = stats_of(&heap);
	CHECK_REFUSED(nk_heap_free(&heap, a));
	CHECK_REFUSED(nk_heap_free(&heap, b));
	/* And of one merged into its successor. */
	CHECK_EQ(nk_heap_free(&heap, c), 0);
	before = stats_of(&heap);
	CHECK_EQ(before.nr_free, 1 + 1);
	CHECK_REFUSED(nk_heap_free(&heap, c));
	CHECK_REFUSED(nk_heap_free(&heap, b));
#undef CHECK_REFUSED

	/* A destroyed heap refuses everything. */
	CHECK_EQ(nk_heap_destroy(&heap), 0);
	CHECK_EQ(nk_heap_destroy(&heap), -EINVAL);
	p = (void *)0x1;
	CHECK_EQ(nk_heap_alloc(&heap, 16, &p), -EINVAL);
	CHECK(p == NULL);
	CHECK_EQ(nk_heap_free(&heap, big), -EINVAL);
	CHECK_EQ(nk_heap_size(&heap, big, &usable), -EINVAL);
	CHECK_EQ(nk_heap_stats(&heap, &before), -EINVAL);
	CHECK_EQ(nk_heap_check(&heap), -EINVAL);

	/* Rebuilt over the same memory, the old pointers mean nothing. */
	CHECK_EQ(nk_heap_init(&heap, arena + 4096, 8192), 0);
	before = stats_of(&heap);
	CHECK_EQ(nk_heap_free(&heap, big), -EINVAL);
	CHECK_EQ(nk_heap_free(&heap, a), -EINVAL);
	CHECK_EQ(nk_heap_check(&heap), 0);
	CHECK_EQ(stats_of(&heap).nr_free, 1);
	CHECK_EQ(nk_heap_destroy(&heap), 0);
}

/* Reference model for the random run. */
#define MAX_LIVE 512

struct live {
	unsigned char *p;
	size_t size;   /* requested */
	size_t usable; /* nk_heap_size() */
	uint64_t seed; /* pattern */
};

static uint64_t xorshift64(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

static void fill(const struct live *l)
{
	uint64_t *w = (uint64_t *)(void *)l->p;

	for (size_t i = 0; i < l->usable / 8; i++)
		w[i] = l->seed ^ (i * 0x9e3779b97f4a7c15ull);
}

static int intact(const struct live *l)
{
	const uint64_t *w = (const uint64_t *)(const void *)l->p;

	for (size_t i = 0; i < l->usable / 8; i++)
		if (w[i] != (l->seed ^ (i * 0x9e3779b97f4a7c15ull)))
			return 0;
	return 1;
}

TEST(random_against_model)
{
	static struct live live[MAX_LIVE];
	struct nk_heap heap;
	struct nk_heap_stats init, s;
	uint64_t rng = 0x243f6a8885a308d3ull;
	size_t hdr, used = 0;
	int nr = 0, nr_enomem = 0, nr_alloc = 0;

	CHECK_EQ(nk_heap_init(&heap, arena, ARENA_SIZE), 0);
	init = stats_of(&heap);
	hdr = header_size(&heap);

	for (int op = 1; op <= 100000; op++) {
		uint64_t r = xorshift64(&rng);

		if (nr < MAX_LIVE && (nr == 0 || r % 100 < 55)) {
			struct live *l = &live[nr];
			size_t size;
			void *p = (void *)0x1;
			int rc;

			r = xorshift64(&rng);
			if (r % 64 == 0)
				size = 16384 + (size_t)(r >> 8) % (128 * 1024);
			else
				size = 1 + (size_t)(r >> 8) % 4096;
			/* largest_free predicts the outcome exactly. */
			s = stats_of(&heap);
			rc = nk_heap_alloc(&heap, size, &p);
			if (size > s.largest_free) {
				CHECK_EQ(rc, -ENOMEM);
				CHECK(p == NULL);
				nr_enomem++;
				continue;
			}
			CHECK_EQ(rc, 0);
			CHECK(aligned(p));
			CHECK((unsigned char *)p >= arena + hdr);
			l->p = p;
			l->size = size;
			CHECK_EQ(nk_heap_size(&heap, p, &l->usable), 0);
			CHECK(l->usable >= size);
			CHECK(l->p + l->usable <= arena + ARENA_SIZE);
			for (int i = 0; i < nr; i++)
				CHECK(l->p + l->usable + hdr <= live[i].p ||
				      live[i].p + live[i].usable + hdr <= l->p);
			l->seed = xorshift64(&rng);
			fill(l);
			used += hdr + l->usable;
			nr++;
			nr_alloc++;
		} else {
			int i = (int)((r >> 16) % (uint64_t)nr);
			struct live *l = &live[i];

			CHECK(intact(l));
			CHECK_EQ(nk_heap_free(&heap, l->p), 0);
			/* Now and then, free it again: refused. */
			if ((r & 15) == 0)
				CHECK_EQ(nk_heap_free(&heap, l->p), -EINVAL);
			used -= hdr + l->usable;
			*l = live[--nr];
		}
		s = stats_of(&heap);
		CHECK_EQ(s.used, used);
		CHECK_EQ(s.nr_used, nr);
		CHECK_EQ(s.size, s.used + s.free + s.nr_free * hdr);
		if (op % 1000 == 0)
			CHECK_EQ(nk_heap_check(&heap), 0);
	}
	/* Both outcomes were exercised. */
	CHECK(nr_enomem > 0);
	CHECK(nr_alloc > 10000);

	while (nr > 0) {
		CHECK(intact(&live[nr - 1]));
		CHECK_EQ(nk_heap_free(&heap, live[--nr].p), 0);
	}
	s = stats_of(&heap);
	CHECK(stats_equal(&s, &init));
	CHECK_EQ(nk_heap_check(&heap), 0);
	CHECK_EQ(nk_heap_destroy(&heap), 0);
}

TESTS(T(init_errors), T(alignment_and_size), T(coalesce_free_b_then_a),
      T(coalesce_all_orders), T(exhaustion), T(stats_exact), T(bad_input),
      T(random_against_model));
