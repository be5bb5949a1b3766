/* SPDX-License-Identifier: MIT */
/*
 * Registry tests: handles, names, stale and forged handles, capacity
 * limits, generation wrap and unlinked names.
 */
#include "harness.h"
#include "nucleus/internal.h" /* nk_registry_check */

#include <fusion/registry.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TYPE_A 1u
#define TYPE_B 2u

/* xorshift32: a fixed seed makes the forged-handle runs reproducible. */
static uint32_t prng_next(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

TEST(happy_path)
{
	struct nk_registry reg;
	int a, b;
	void *obj;
	nk_handle_t ha, hb, h;
	char buf[NK_NAME_MAX];

	CHECK_EQ(nk_registry_init(&reg, 8), 0);
	CHECK_EQ(
	    nk_registry_enter(&reg, NK_NS_DEFAULT, "alpha", TYPE_A, &a, &ha),
	    0);
	CHECK_EQ(
	    nk_registry_enter(&reg, NK_NS_DEFAULT, "beta", TYPE_B, &b, &hb), 0);
	CHECK(ha != NK_HANDLE_INVALID);
	CHECK(hb != NK_HANDLE_INVALID);
	CHECK(ha != hb);

	CHECK_EQ(nk_registry_lookup(&reg, ha, TYPE_A, &obj), 0);
	CHECK(obj == &a);
	CHECK_EQ(nk_registry_lookup(&reg, hb, TYPE_B, &obj), 0);
	CHECK(obj == &b);
	/* Type 0 accepts any type. */
	CHECK_EQ(nk_registry_lookup(&reg, hb, 0, &obj), 0);
	CHECK(obj == &b);

	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "alpha", &h), 0);
	CHECK_EQ(h, ha);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "beta", &h), 0);
	CHECK_EQ(h, hb);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "gamma", &h), -ESRCH);

	CHECK_EQ(nk_registry_name(&reg, ha, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "alpha");
	CHECK_EQ(nk_registry_name(&reg, hb, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "beta");
	/* A short buffer truncates but stays terminated. */
	CHECK_EQ(nk_registry_name(&reg, ha, buf, 3), 0);
	CHECK_STR(buf, "al");
	CHECK_EQ(nk_registry_name(&reg, ha, buf, 0), -EINVAL);
	CHECK_EQ(nk_registry_name(&reg, ha, NULL, 8), -EINVAL);

	CHECK_EQ(nk_registry_remove(&reg, ha), 0);
	CHECK_EQ(nk_registry_lookup(&reg, hb, TYPE_B, &obj), 0);
	CHECK(obj == &b);
	CHECK_EQ(nk_registry_remove(&reg, hb), 0);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(argument_errors)
{
	struct nk_registry reg;
	int a;
	void *obj;
	nk_handle_t h;

	CHECK_EQ(nk_registry_init(&reg, 4), 0);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "x", TYPE_A, NULL, &h),
		 -EINVAL);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "x", TYPE_A, &a, NULL),
		 -EINVAL);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "x", 0, &a, &h),
		 -EINVAL);
	CHECK_EQ(nk_registry_enter(NULL, NK_NS_DEFAULT, "x", TYPE_A, &a, &h),
		 -EINVAL);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "x", TYPE_A, &a, &h),
		 0);
	CHECK_EQ(nk_registry_lookup(&reg, h, TYPE_A, NULL), -EINVAL);
	CHECK_EQ(nk_registry_lookup(NULL, h, TYPE_A, &obj), -EINVAL);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, NULL, &h), -EINVAL);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "x", NULL), -EINVAL);
	CHECK_EQ(nk_registry_find(NULL, NK_NS_DEFAULT, "x", &h), -EINVAL);
	CHECK_EQ(nk_registry_remove(NULL, h), -EINVAL);
	CHECK_EQ(nk_registry_destroy(NULL), -EINVAL);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(duplicate_name)
{
	struct nk_registry reg;
	int a, b;
	void *obj;
	nk_handle_t ha, hb = 12345, h;

	CHECK_EQ(nk_registry_init(&reg, 8), 0);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "dup", TYPE_A, &a, &ha),
		 0);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "dup", TYPE_B, &b, &hb),
		 -EEXIST);
	/* The refused call changed nothing. */
	CHECK_EQ(hb, 12345);
	CHECK_EQ(reg.nr_used, 1);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "dup", &h), 0);
	CHECK_EQ(h, ha);
	CHECK_EQ(nk_registry_lookup(&reg, ha, TYPE_A, &obj), 0);
	CHECK(obj == &a);
	/* Names are case-sensitive and compared whole. */
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "Dup", TYPE_A, &b, &hb),
		 0);
	CHECK_EQ(
	    nk_registry_enter(&reg, NK_NS_DEFAULT, "dup2", TYPE_A, &b, &hb), 0);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(anonymous_entries)
{
	struct nk_registry reg;
	int a, b, c;
	void *obj;
	nk_handle_t ha, hb, hc, h;
	char buf[NK_NAME_MAX];

	CHECK_EQ(nk_registry_init(&reg, 8), 0);
	/* Several anonymous entries coexist: no -EEXIST between them. */
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, NULL, TYPE_A, &a, &ha),
		 0);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, NULL, TYPE_A, &b, &hb),
		 0);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "", TYPE_A, &c, &hc),
		 0);
	CHECK(ha != hb && hb != hc && ha != hc);

	CHECK_EQ(nk_registry_lookup(&reg, hb, TYPE_A, &obj), 0);
	CHECK(obj == &b);
	CHECK_EQ(nk_registry_lookup(&reg, hc, TYPE_A, &obj), 0);
	CHECK(obj == &c);

	memset(buf, 'z', sizeof(buf));
	CHECK_EQ(nk_registry_name(&reg, ha, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
	CHECK_EQ(nk_registry_name(&reg, hc, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
	/* Anonymous entries cannot be found, not even as "". */
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "", &h), -ESRCH);

	CHECK_EQ(nk_registry_remove(&reg, ha), 0);
	CHECK_EQ(nk_registry_remove(&reg, hb), 0);
	CHECK_EQ(nk_registry_remove(&reg, hc), 0);
	CHECK_EQ(reg.nr_used, 0);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(type_mismatch)
{
	struct nk_registry reg;
	int a;
	void *obj = NULL;
	nk_handle_t ha;

	CHECK_EQ(nk_registry_init(&reg, 4), 0);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "a", TYPE_A, &a, &ha),
		 0);
	CHECK_EQ(nk_registry_lookup(&reg, ha, TYPE_B, &obj), -ESRCH);
	CHECK(obj == NULL);
	CHECK_EQ(nk_registry_lookup(&reg, ha, 0xdeadu, &obj), -ESRCH);
	CHECK_EQ(nk_registry_lookup(&reg, ha, TYPE_A, &obj), 0);
	CHECK(obj == &a);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(stale_handle)
{
	struct nk_registry reg;
	int a, b;
	void *obj;
	nk_handle_t ha, hb, h;
	char buf[NK_NAME_MAX];
	uint32_t mask;

	/* Capacity 2: with FIFO reuse the slot comes back quickly. */
	CHECK_EQ(nk_registry_init(&reg, 2), 0);
	mask = reg.capacity - 1;
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "old", TYPE_A, &a, &ha),
		 0);
	CHECK_EQ(nk_registry_remove(&reg, ha), 0);

	CHECK_EQ(nk_registry_lookup(&reg, ha, TYPE_A, &obj), -ESRCH);
	CHECK_EQ(nk_registry_lookup(&reg, ha, 0, &obj), -ESRCH);
	CHECK_EQ(nk_registry_remove(&reg, ha), -ESRCH);
	CHECK_EQ(nk_registry_name(&reg, ha, buf, sizeof(buf)), -ESRCH);

	/* Enter until the old slot is reused by a new entry. */
	do {
		CHECK(reg.nr_used < reg.capacity);
		CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, NULL, TYPE_A,
					   &b, &hb),
			 0);
	} while ((hb & mask) != (ha & mask));
	CHECK(hb != ha);

	CHECK_EQ(nk_registry_lookup(&reg, ha, TYPE_A, &obj), -ESRCH);
	CHECK_EQ(nk_registry_lookup(&reg, ha, 0, &obj), -ESRCH);
	CHECK_EQ(nk_registry_name(&reg, ha, buf, sizeof(buf)), -ESRCH);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "old", &h), -ESRCH);
	CHECK_EQ(nk_registry_remove(&reg, ha), -ESRCH);
	/* The stale remove left the new entry alone. */
	CHECK_EQ(nk_registry_lookup(&reg, hb, TYPE_A, &obj), 0);
	CHECK(obj == &b);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(fifo_reuse)
{
	struct nk_registry reg;
	int a;
	nk_handle_t h, first;
	uint32_t mask;

	/* A freed slot waits behind every other free slot. */
	CHECK_EQ(nk_registry_init(&reg, 8), 0);
	mask = reg.capacity - 1;
	CHECK_EQ(
	    nk_registry_enter(&reg, NK_NS_DEFAULT, NULL, TYPE_A, &a, &first),
	    0);
	CHECK_EQ(nk_registry_remove(&reg, first), 0);
	for (uint32_t i = 1; i < reg.capacity; i++) {
		CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, NULL, TYPE_A,
					   &a, &h),
			 0);
		CHECK(((h ^ first) & mask) != 0);
		CHECK_EQ(nk_registry_remove(&reg, h), 0);
	}
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, NULL, TYPE_A, &a, &h),
		 0);
	CHECK_EQ(h & mask, first & mask);
	CHECK(h != first);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

#define FORGE_CAP 64
#define FORGE_LIVE 40

static void check_forged(struct nk_registry *reg, const nk_handle_t *live,
			 void *const *objs, int nr_live, nk_handle_t h)
{
	void *obj = NULL;
	char buf[NK_NAME_MAX];
	int ret, i;

	ret = nk_registry_lookup(reg, h, 0, &obj);
	for (i = 0; i < nr_live; i++)
		if (live[i] == h)
			break;
	if (i == nr_live) {
		CHECK_EQ(ret, -ESRCH);
		CHECK_EQ(nk_registry_name(reg, h, buf, sizeof(buf)), -ESRCH);
		CHECK_EQ(nk_registry_remove(reg, h), -ESRCH);
	} else {
		CHECK_EQ(ret, 0);
		CHECK(obj == objs[i]);
	}
}

TEST(forged_handles)
{
	struct nk_registry reg;
	static int objects[FORGE_LIVE];
	nk_handle_t live[FORGE_LIVE], churn[FORGE_LIVE];
	void *objs[FORGE_LIVE];
	uint32_t seed = 0x12345678u, mask;
	int i, hits = 0, nr_churn = 0;

	CHECK_EQ(nk_registry_init(&reg, FORGE_CAP), 0);
	mask = reg.capacity - 1;
	CHECK_EQ(reg.index_bits, 6);

	/* Churn first so the slots carry assorted generations. */
	for (i = 0; i < 1000; i++) {
		CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, NULL, TYPE_A,
					   &objects[0], &churn[nr_churn]),
			 0);
		nr_churn++;
		if (nr_churn > FORGE_LIVE / 2) {
			int k = prng_next(&seed) % nr_churn;

			CHECK_EQ(nk_registry_remove(&reg, churn[k]), 0);
			churn[k] = churn[--nr_churn];
		}
	}
	while (nr_churn)
		CHECK_EQ(nk_registry_remove(&reg, churn[--nr_churn]), 0);
	CHECK_EQ(reg.nr_used, 0);
	/* Then keep exactly FORGE_LIVE named entries. */
	for (i = 0; i < FORGE_LIVE; i++) {
		char name[16];

		snprintf(name, sizeof(name), "obj%d", i);
		objs[i] = &objects[i];
		CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, name, TYPE_A,
					   objs[i], &live[i]),
			 0);
	}

	check_forged(&reg, live, objs, FORGE_LIVE, 0);
	check_forged(&reg, live, objs, FORGE_LIVE, 0xffffffffu);
	check_forged(&reg, live, objs, FORGE_LIVE, mask);
	check_forged(&reg, live, objs, FORGE_LIVE, ~mask);

	/* Every index pattern, with random generations. */
	for (uint32_t idx = 0; idx <= mask; idx++) {
		check_forged(&reg, live, objs, FORGE_LIVE, idx);
		for (int k = 0; k < 100; k++)
			check_forged(&reg, live, objs, FORGE_LIVE,
				     (prng_next(&seed) & ~mask) | idx);
	}

	/* Fully random 32-bit values, with some live ones mixed in. */
	for (i = 0; i < 100000; i++) {
		nk_handle_t h = prng_next(&seed);

		if (i % 1000 == 0)
			h = live[(i / 1000) % FORGE_LIVE];
		for (int j = 0; j < FORGE_LIVE; j++)
			hits += live[j] == h;
		check_forged(&reg, live, objs, FORGE_LIVE, h);
	}
	CHECK(hits >= 100);

	/* Nothing was removed by the forged handles. */
	CHECK_EQ(reg.nr_used, FORGE_LIVE);
	for (i = 0; i < FORGE_LIVE; i++) {
		void *obj;
		nk_handle_t h;
		char name[16];

		snprintf(name, sizeof(name), "obj%d", i);
		CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, name, &h), 0);
		CHECK_EQ(h, live[i]);
		CHECK_EQ(nk_registry_lookup(&reg, live[i], TYPE_A, &obj), 0);
		CHECK(obj == objs[i]);
	}
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(forged_handles_max_index_bits)
{
	struct nk_registry reg;
	int a;
	void *obj;
	nk_handle_t h, live;
	uint32_t seed = 0xcafef00du;

	/* Capacity 2^20 - 1 rounds up to 2^20: only 12 generation bits. */
	CHECK_EQ(nk_registry_init(&reg, (1u << 20) - 1), 0);
	CHECK_EQ(reg.capacity, 1u << 20);
	CHECK_EQ(reg.index_bits, 20);
	CHECK_EQ(
	    nk_registry_enter(&reg, NK_NS_DEFAULT, "only", TYPE_A, &a, &live),
	    0);
	for (int i = 0; i < 100000; i++) {
		h = prng_next(&seed);
		if (h == live)
			continue;
		CHECK_EQ(nk_registry_lookup(&reg, h, 0, &obj), -ESRCH);
	}
	CHECK_EQ(nk_registry_lookup(&reg, 0xffffffffu, 0, &obj), -ESRCH);
	CHECK_EQ(nk_registry_lookup(&reg, 0, 0, &obj), -ESRCH);
	CHECK_EQ(nk_registry_lookup(&reg, live, TYPE_A, &obj), 0);
	CHECK(obj == &a);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(full_registry)
{
	struct nk_registry reg;
	int objs[8], extra;
	nk_handle_t h[8], hx, hf;
	void *obj;

	/* 5 rounds up to 8. */
	CHECK_EQ(nk_registry_init(&reg, 5), 0);
	CHECK_EQ(reg.capacity, 8);
	for (int i = 0; i < 8; i++) {
		char name[16];

		snprintf(name, sizeof(name), "e%d", i);
		CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, name, TYPE_A,
					   &objs[i], &h[i]),
			 0);
	}
	CHECK_EQ(
	    nk_registry_enter(&reg, NK_NS_DEFAULT, "more", TYPE_A, &extra, &hx),
	    -ENOSPC);
	CHECK_EQ(
	    nk_registry_enter(&reg, NK_NS_DEFAULT, NULL, TYPE_A, &extra, &hx),
	    -ENOSPC);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "more", &hf), -ESRCH);
	/* A duplicate name is still reported as such when full. */
	CHECK_EQ(
	    nk_registry_enter(&reg, NK_NS_DEFAULT, "e3", TYPE_A, &extra, &hx),
	    -EEXIST);

	CHECK_EQ(nk_registry_remove(&reg, h[5]), 0);
	CHECK_EQ(
	    nk_registry_enter(&reg, NK_NS_DEFAULT, "more", TYPE_A, &extra, &hx),
	    0);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "more", &hf), 0);
	CHECK_EQ(hf, hx);
	CHECK_EQ(nk_registry_lookup(&reg, hx, TYPE_A, &obj), 0);
	CHECK(obj == &extra);
	CHECK_EQ(nk_registry_lookup(&reg, h[5], TYPE_A, &obj), -ESRCH);
	CHECK_EQ(
	    nk_registry_enter(&reg, NK_NS_DEFAULT, NULL, TYPE_A, &extra, &hx),
	    -ENOSPC);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(generation_wrap)
{
	struct nk_registry reg;
	const uint32_t cap = 1u << 16, nr_gens = (1u << 16) - 1;
	int a;
	void *obj;
	nk_handle_t h, prev, first = 0;
	uint32_t index = 0;

	CHECK_EQ(nk_registry_init(&reg, cap), 0);
	CHECK_EQ(reg.index_bits, 16);
	/* Fill all slots but one so every enter below reuses the same one. */
	for (uint32_t i = 0; i < cap - 1; i++)
		CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, NULL, TYPE_A,
					   &a, &h),
			 0);

	prev = NK_HANDLE_INVALID;
	/* Two full generation cycles and a bit more. */
	for (uint32_t i = 0; i < 2 * nr_gens + 10; i++) {
		CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "wrap", TYPE_A,
					   &a, &h),
			 0);
		CHECK(h != NK_HANDLE_INVALID);
		if (i == 0) {
			first = h;
			index = h & (cap - 1);
			CHECK_EQ(h >> 16, 1);
		}
		CHECK_EQ(h & (cap - 1), index);
		/* Generations run 1 .. 65535 then skip 0 back to 1. */
		CHECK_EQ(h >> 16, i % nr_gens + 1);
		if (i % nr_gens == 0)
			CHECK_EQ(h, first);
		CHECK(h != prev);
		if (prev != NK_HANDLE_INVALID) {
			CHECK_EQ(nk_registry_lookup(&reg, prev, 0, &obj),
				 -ESRCH);
			CHECK_EQ(nk_registry_remove(&reg, prev), -ESRCH);
		}
		CHECK_EQ(nk_registry_lookup(&reg, h, TYPE_A, &obj), 0);
		CHECK_EQ(nk_registry_remove(&reg, h), 0);
		CHECK_EQ(nk_registry_lookup(&reg, h, 0, &obj), -ESRCH);
		CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "wrap", &prev),
			 -ESRCH);
		prev = h;
	}
	CHECK_EQ(reg.nr_used, cap - 1);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(init_errors)
{
	struct nk_registry reg;
	void *obj;
	int a;
	nk_handle_t h;

	memset(&reg, 0, sizeof(reg));
	CHECK_EQ(nk_registry_init(NULL, 8), -EINVAL);
	CHECK_EQ(nk_registry_init(&reg, 0), -EINVAL);
	CHECK_EQ(nk_registry_init(&reg, 1), -EINVAL);
	CHECK_EQ(nk_registry_init(&reg, 1u << 25), -EINVAL);
	CHECK_EQ(nk_registry_init(&reg, (1u << 20) + 1), -EINVAL);
	CHECK_EQ(nk_registry_init(&reg, UINT32_MAX), -EINVAL);
	/* A registry whose init failed is refused. */
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "x", TYPE_A, &a, &h),
		 -EINVAL);
	CHECK_EQ(nk_registry_lookup(&reg, 1, 0, &obj), -EINVAL);
	CHECK_EQ(nk_registry_destroy(&reg), -EINVAL);

	CHECK_EQ(nk_registry_init(&reg, 2), 0);
	CHECK_EQ(reg.capacity, 2);
	CHECK_EQ(reg.index_bits, 1);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
	CHECK_EQ(nk_registry_init(&reg, 3), 0);
	CHECK_EQ(reg.capacity, 4);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(destroyed_registry)
{
	struct nk_registry reg;
	int a;
	void *obj;
	nk_handle_t h, hx;
	char buf[NK_NAME_MAX];

	CHECK_EQ(nk_registry_init(&reg, 4), 0);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "a", TYPE_A, &a, &h),
		 0);
	CHECK_EQ(nk_registry_destroy(&reg), 0);

	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "b", TYPE_A, &a, &hx),
		 -EINVAL);
	CHECK_EQ(nk_registry_lookup(&reg, h, TYPE_A, &obj), -EINVAL);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "a", &hx), -EINVAL);
	CHECK_EQ(nk_registry_name(&reg, h, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ(nk_registry_remove(&reg, h), -EINVAL);
	CHECK_EQ(nk_registry_destroy(&reg), -EINVAL);

	/* The storage can be initialised again. */
	CHECK_EQ(nk_registry_init(&reg, 4), 0);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "a", &hx), -ESRCH);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(name_too_long)
{
	struct nk_registry reg;
	char name[NK_NAME_MAX + 8], buf[NK_NAME_MAX];
	int a;
	nk_handle_t h = 0, hf;

	CHECK_EQ(nk_registry_init(&reg, 4), 0);
	memset(name, 'n', sizeof(name));
	name[NK_NAME_MAX] = '\0'; /* NK_NAME_MAX characters: one too many */
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, name, TYPE_A, &a, &h),
		 -EINVAL);
	CHECK_EQ(h, 0);
	CHECK_EQ(reg.nr_used, 0);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, name, &hf), -EINVAL);
	name[NK_NAME_MAX + 7] = '\0';
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, name, TYPE_A, &a, &h),
		 -EINVAL);

	/* NK_NAME_MAX - 1 characters is the longest accepted. */
	name[NK_NAME_MAX - 1] = '\0';
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, name, TYPE_A, &a, &h),
		 0);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, name, &hf), 0);
	CHECK_EQ(hf, h);
	CHECK_EQ(nk_registry_name(&reg, h, buf, sizeof(buf)), 0);
	CHECK_STR(buf, name);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(find_after_remove)
{
	struct nk_registry reg;
	int a, b;
	void *obj;
	nk_handle_t ha, hb, h;

	CHECK_EQ(nk_registry_init(&reg, 4), 0);
	CHECK_EQ(
	    nk_registry_enter(&reg, NK_NS_DEFAULT, "reuse", TYPE_A, &a, &ha),
	    0);
	CHECK_EQ(nk_registry_remove(&reg, ha), 0);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "reuse", &h), -ESRCH);

	/* The name is free again, for a new object and type. */
	CHECK_EQ(
	    nk_registry_enter(&reg, NK_NS_DEFAULT, "reuse", TYPE_B, &b, &hb),
	    0);
	CHECK(hb != ha);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "reuse", &h), 0);
	CHECK_EQ(h, hb);
	CHECK_EQ(nk_registry_lookup(&reg, h, TYPE_B, &obj), 0);
	CHECK(obj == &b);
	CHECK_EQ(nk_registry_lookup(&reg, ha, 0, &obj), -ESRCH);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

/* Many names in few buckets: chains must link and unlink correctly. */
TEST(hash_chains)
{
	struct nk_registry reg;
	static int objs[256];
	nk_handle_t h[256], hf;
	char name[16];
	void *obj;
	uint32_t seed = 42;
	int i;

	CHECK_EQ(nk_registry_init(&reg, 256), 0);
	for (i = 0; i < 256; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, name, TYPE_A,
					   &objs[i], &h[i]),
			 0);
	}
	/* Remove a random half, in random order, then check everything. */
	for (i = 0; i < 1000; i++) {
		int k = prng_next(&seed) % 256;

		if (h[k] != NK_HANDLE_INVALID && (prng_next(&seed) & 1)) {
			CHECK_EQ(nk_registry_remove(&reg, h[k]), 0);
			h[k] = NK_HANDLE_INVALID;
		}
	}
	for (i = 0; i < 256; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		if (h[i] == NK_HANDLE_INVALID) {
			CHECK_EQ(
			    nk_registry_find(&reg, NK_NS_DEFAULT, name, &hf),
			    -ESRCH);
			continue;
		}
		CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, name, &hf), 0);
		CHECK_EQ(hf, h[i]);
		CHECK_EQ(nk_registry_lookup(&reg, hf, TYPE_A, &obj), 0);
		CHECK(obj == &objs[i]);
	}
	/* Refill the removed names. */
	for (i = 0; i < 256; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		if (h[i] == NK_HANDLE_INVALID)
			CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, name,
						   TYPE_A, &objs[i], &h[i]),
				 0);
		else
			CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, name,
						   TYPE_A, &objs[i], &hf),
				 -EEXIST);
	}
	CHECK_EQ(reg.nr_used, 256);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

/* Unlinking frees the name and keeps the entry, under its handle. */
TEST(unlink_keeps_handle)
{
	char buf[NK_NAME_MAX];
	nk_handle_t ha, hb, h;
	struct nk_registry reg;
	void *obj;
	int a, b;

	CHECK_EQ(nk_registry_init(&reg, 4), 0);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "x", TYPE_A, &a, &ha),
		 0);
	CHECK_EQ(nk_registry_unlink(&reg, ha), 0);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "x", &h), -ESRCH);
	CHECK_EQ(nk_registry_lookup(&reg, ha, TYPE_A, &obj), 0);
	CHECK(obj == &a);
	CHECK_EQ(nk_registry_name(&reg, ha, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
	/* Anonymous already: nothing changes. */
	CHECK_EQ(nk_registry_unlink(&reg, ha), 0);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "x", TYPE_B, &b, &hb),
		 0);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "x", &h), 0);
	CHECK_EQ(h, hb);
	/* Removing the unlinked entry leaves the new owner of the name. */
	CHECK_EQ(nk_registry_remove(&reg, ha), 0);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "x", &h), 0);
	CHECK_EQ(h, hb);
	CHECK_EQ(nk_registry_unlink(&reg, ha), -ESRCH);
	CHECK_EQ(nk_registry_unlink(NULL, hb), -EINVAL);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
	CHECK_EQ(nk_registry_unlink(&reg, hb), -EINVAL);
}

/* One name in two namespaces: two entries, each found in its own. */
TEST(namespaces)
{
	struct nk_registry reg;
	uint32_t sem, task, again;
	nk_handle_t hs, ht, hd, h;
	int a, b, c;

	CHECK_EQ(nk_registry_init(&reg, 8), 0);
	CHECK_EQ(nk_registry_namespace(&reg, "skin.sem", &sem), 0);
	CHECK_EQ(nk_registry_namespace(&reg, "skin.task", &task), 0);
	CHECK_EQ(sem, 1);
	CHECK_EQ(task, 2);
	/* Interning is idempotent. */
	CHECK_EQ(nk_registry_namespace(&reg, "skin.sem", &again), 0);
	CHECK_EQ(again, sem);

	CHECK_EQ(nk_registry_enter(&reg, sem, "x", TYPE_A, &a, &hs), 0);
	CHECK_EQ(nk_registry_enter(&reg, task, "x", TYPE_B, &b, &ht), 0);
	CHECK_EQ(nk_registry_enter(&reg, NK_NS_DEFAULT, "x", TYPE_A, &c, &hd),
		 0);
	CHECK_EQ(nk_registry_enter(&reg, sem, "x", TYPE_A, &c, &h), -EEXIST);
	CHECK_EQ(nk_registry_find(&reg, sem, "x", &h), 0);
	CHECK_EQ(h, hs);
	CHECK_EQ(nk_registry_find(&reg, task, "x", &h), 0);
	CHECK_EQ(h, ht);
	CHECK_EQ(nk_registry_find(&reg, NK_NS_DEFAULT, "x", &h), 0);
	CHECK_EQ(h, hd);
	/* Removing one leaves the others findable. */
	CHECK_EQ(nk_registry_remove(&reg, hs), 0);
	CHECK_EQ(nk_registry_find(&reg, sem, "x", &h), -ESRCH);
	CHECK_EQ(nk_registry_find(&reg, task, "x", &h), 0);
	CHECK_EQ(h, ht);
	/* Namespaces not interned are refused. */
	CHECK_EQ(nk_registry_enter(&reg, task + 1, "y", TYPE_A, &a, &h),
		 -EINVAL);
	CHECK_EQ(nk_registry_find(&reg, task + 1, "x", &h), -EINVAL);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TEST(namespace_limits)
{
	struct nk_registry reg;
	char name[NK_NAME_MAX + 1];
	uint32_t ns;

	CHECK_EQ(nk_registry_init(&reg, 2), 0);
	CHECK_EQ(nk_registry_namespace(&reg, "", &ns), -EINVAL);
	CHECK_EQ(nk_registry_namespace(&reg, NULL, &ns), -EINVAL);
	memset(name, 'n', NK_NAME_MAX);
	name[NK_NAME_MAX] = '\0';
	CHECK_EQ(nk_registry_namespace(&reg, name, &ns), -EINVAL);
	for (int i = 1; i <= NK_REGISTRY_MAX_NS; i++) {
		snprintf(name, sizeof(name), "ns%d", i);
		CHECK_EQ(nk_registry_namespace(&reg, name, &ns), 0);
		CHECK_EQ(ns, (uint32_t)i);
	}
	CHECK_EQ(nk_registry_namespace(&reg, "one-more", &ns), -ENOSPC);
	/* A known one is still found when the table is full. */
	CHECK_EQ(nk_registry_namespace(&reg, "ns7", &ns), 0);
	CHECK_EQ(ns, 7);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

/* Listing a namespace: its entries (named and anonymous) and no other. */
TEST(listing)
{
	struct nk_registry reg;
	struct nk_registry_entry e;
	nk_handle_t h[4], hx;
	uint32_t ns, other, cursor = 0;
	int objs[4], x;

	CHECK_EQ(nk_registry_init(&reg, 16), 0);
	CHECK_EQ(nk_registry_namespace(&reg, "list", &ns), 0);
	CHECK_EQ(nk_registry_namespace(&reg, "other", &other), 0);
	CHECK_EQ(nk_registry_enter(&reg, ns, "a", TYPE_A, &objs[0], &h[0]), 0);
	CHECK_EQ(nk_registry_enter(&reg, other, "a", TYPE_A, &x, &hx), 0);
	CHECK_EQ(nk_registry_enter(&reg, ns, NULL, TYPE_B, &objs[1], &h[1]), 0);
	CHECK_EQ(nk_registry_enter(&reg, ns, "c", TYPE_A, &objs[2], &h[2]), 0);
	CHECK_EQ(nk_registry_enter(&reg, ns, "d", TYPE_A, &objs[3], &h[3]), 0);
	CHECK_EQ(nk_registry_remove(&reg, h[2]), 0);

	/* Slots are handed out in order on a fresh registry. */
	CHECK_EQ(nk_registry_next(&reg, ns, &cursor, &e), 0);
	CHECK_EQ(e.handle, h[0]);
	CHECK_EQ(e.type, TYPE_A);
	CHECK(e.object == &objs[0]);
	CHECK_STR(e.name, "a");
	CHECK_EQ(nk_registry_next(&reg, ns, &cursor, &e), 0);
	CHECK_EQ(e.handle, h[1]);
	CHECK_EQ(e.type, TYPE_B);
	CHECK_STR(e.name, "");
	CHECK_EQ(nk_registry_next(&reg, ns, &cursor, &e), 0);
	CHECK_EQ(e.handle, h[3]);
	CHECK_STR(e.name, "d");
	CHECK_EQ(nk_registry_next(&reg, ns, &cursor, &e), -ENOENT);
	CHECK_EQ(nk_registry_next(&reg, ns, &cursor, &e), -ENOENT);

	cursor = 0;
	CHECK_EQ(nk_registry_next(&reg, other, &cursor, &e), 0);
	CHECK_EQ(e.handle, hx);
	CHECK_EQ(nk_registry_next(&reg, other, &cursor, &e), -ENOENT);
	cursor = 0;
	CHECK_EQ(nk_registry_next(&reg, NK_NS_DEFAULT, &cursor, &e), -ENOENT);
	CHECK_EQ(nk_registry_next(&reg, other + 1, &cursor, &e), -EINVAL);
	CHECK_EQ(nk_registry_next(&reg, ns, NULL, &e), -EINVAL);
	CHECK_EQ(nk_registry_next(&reg, ns, &cursor, NULL), -EINVAL);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

/*
 * A listing in bounded steps: -EAGAIN past @max slots without an entry,
 * the cursor where to go on; an empty namespace ends at once; the count
 * of changes moves with every entry, removal and unnaming; the
 * per-namespace counts are checked.
 */
TEST(listing_in_steps)
{
	struct nk_registry reg;
	struct nk_registry_entry e;
	uint32_t ns, empty, cursor = 0, changes;
	nk_handle_t h[8];
	int objs[8];

	CHECK_EQ(nk_registry_init(&reg, 16), 0);
	CHECK_EQ(nk_registry_namespace(&reg, "steps", &ns), 0);
	CHECK_EQ(nk_registry_namespace(&reg, "empty", &empty), 0);
	CHECK_EQ(reg.changes, 0);
	/* Slots 0..7, then 0..5 removed: the entries left are 6 and 7. */
	for (int i = 0; i < 8; i++)
		CHECK_EQ(nk_registry_enter(&reg, ns, NULL, TYPE_A, &objs[i],
					   &h[i]),
			 0);
	for (int i = 0; i < 6; i++)
		CHECK_EQ(nk_registry_remove(&reg, h[i]), 0);
	CHECK_EQ(reg.changes, 14);
	CHECK_EQ(reg.ns_used[ns], 2);
	CHECK_EQ(nk_registry_next_within(&reg, ns, &cursor, 4, &e), -EAGAIN);
	CHECK_EQ(cursor, 4);
	CHECK_EQ(nk_registry_next_within(&reg, ns, &cursor, 0, &e), -EAGAIN);
	CHECK_EQ(cursor, 4);
	CHECK_EQ(nk_registry_next_within(&reg, ns, &cursor, 3, &e), 0);
	CHECK_EQ(e.handle, h[6]);
	CHECK_EQ(cursor, 7);
	CHECK_EQ(nk_registry_next_within(&reg, ns, &cursor, 1, &e), 0);
	CHECK_EQ(e.handle, h[7]);
	/* The end within the window: -ENOENT, not -EAGAIN. */
	CHECK_EQ(nk_registry_next_within(&reg, ns, &cursor, 100, &e),
		 -ENOENT);
	CHECK_EQ(cursor, 16);
	cursor = 0;
	CHECK_EQ(nk_registry_next_within(&reg, empty, &cursor, 1, &e), -ENOENT);
	CHECK_EQ(cursor, 16);
	cursor = 20; /* past the end */
	CHECK_EQ(nk_registry_next_within(&reg, ns, &cursor, 1, &e), -ENOENT);
	CHECK_EQ(nk_registry_next_within(&reg, empty + 1, &cursor, 1, &e),
		 -EINVAL);
	CHECK_EQ(nk_registry_next_within(&reg, ns, NULL, 1, &e), -EINVAL);
	CHECK_EQ(nk_registry_next_within(&reg, ns, &cursor, 1, NULL), -EINVAL);
	changes = reg.changes;
	CHECK_EQ(nk_registry_enter(&reg, ns, "n", TYPE_A, &objs[0], &h[0]),
		 0);
	CHECK_EQ(nk_registry_unlink(&reg, h[0]), 0);
	CHECK_EQ(reg.changes, changes + 2);
	CHECK_EQ(nk_registry_check(&reg), 0);
	/* A count that disagrees with the slots is found. */
	reg.ns_used[ns]++;
	CHECK_EQ(nk_registry_check(&reg), -EUCLEAN);
	reg.ns_used[ns]--;
	CHECK_EQ(nk_registry_check(&reg), 0);
	CHECK_EQ(nk_registry_destroy(&reg), 0);
}

TESTS(T(happy_path), T(argument_errors), T(duplicate_name),
      T(anonymous_entries), T(type_mismatch), T(stale_handle), T(fifo_reuse),
      T(forged_handles), T(forged_handles_max_index_bits), T(full_registry),
      T(namespaces), T(namespace_limits), T(listing), T(listing_in_steps),
      T(generation_wrap),
      T(init_errors), T(destroyed_registry), T(name_too_long),
      T(find_after_remove), T(hash_chains), T(unlink_keeps_handle));
