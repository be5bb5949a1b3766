/* SPDX-License-Identifier: MIT */
/*
 * pSOS partitions: creation checks, buffers lowest first, returns
 * checked exactly, deletion with buffers out (PT_DEL or ERR_BUFINUSE),
 * bad IDs.
 */
#include "psos_test.h"

/* The partition starts 128 bytes in: addresses before it exist. */
static long pool[256];
#define mem ((long *)((char *)pool + 128))

TEST(create_checks)
{
	unsigned long pt, n;

	CHECK_EQ(pt_create("P", NULL, NULL, 1024, 64, 0, &pt, &n), ERR_PTADDR);
	CHECK_EQ(pt_create("P", (char *)mem + 2, NULL, 1024, 64, 0, &pt, &n),
		 ERR_PTADDR);
	CHECK_EQ(pt_create("P", mem, NULL, 1024, 0, 0, &pt, &n), ERR_BUFSIZE);
	CHECK_EQ(pt_create("P", mem, NULL, 1024, 2, 0, &pt, &n), ERR_BUFSIZE);
	CHECK_EQ(pt_create("P", mem, NULL, 1024, 96, 0, &pt, &n), ERR_BUFSIZE);
	CHECK_EQ(pt_create("P", mem, NULL, 32, 64, 0, &pt, &n), ERR_TINYPT);
	CHECK_EQ(pt_create("P", mem, NULL, 1024, 64, 0, NULL, &n), ERR_OBJID);
	CHECK_EQ(pt_create("P", mem, NULL, 1024, 64, 0, &pt, NULL), ERR_OBJID);
	CHECK_EQ(pt_create("PART", mem, NULL, 1000, 64, 0, &pt, &n), 0);
	CHECK_EQ(n, 15);
	{
		unsigned long found;

		CHECK_EQ(pt_ident("PART", 0, &found), 0);
		CHECK_EQ(found, pt);
		CHECK_EQ(pt_ident("PART", 1, &found), ERR_NODENO);
		CHECK_EQ(pt_ident("PRT", 0, &found), ERR_OBJNF);
	}
	CHECK_EQ(pt_delete(pt), 0);
}

TEST(buffers)
{
	unsigned long pt, n;
	void *a, *b, *c;

	CHECK_EQ(pt_create("P", mem, NULL, 192, 64, PT_NODEL, &pt, &n), 0);
	CHECK_EQ(n, 3);
	CHECK_EQ(pt_getbuf(pt, NULL), ERR_OBJID);
	CHECK_EQ(pt_getbuf(pt, &a), 0);
	CHECK_EQ(pt_getbuf(pt, &b), 0);
	CHECK_EQ(pt_getbuf(pt, &c), 0);
	CHECK(a == (void *)mem);
	CHECK((char *)b == (char *)mem + 64);
	CHECK((char *)c == (char *)mem + 128);
	CHECK_EQ(pt_getbuf(pt, &c), ERR_NOBUF);
	CHECK_EQ(pt_retbuf(pt, (char *)b + 4), ERR_BUFADDR);
	CHECK_EQ(pt_retbuf(pt, (char *)mem + 192), ERR_BUFADDR);
	CHECK_EQ(pt_retbuf(pt, (char *)mem - 64), ERR_BUFADDR);
	CHECK_EQ(pt_retbuf(pt, b), 0);
	CHECK_EQ(pt_retbuf(pt, b), ERR_BUFFREE);
	CHECK_EQ(pt_getbuf(pt, &b), 0);
	CHECK((char *)b == (char *)mem + 64);
	CHECK_EQ(pt_delete(pt), ERR_BUFINUSE);
	CHECK_EQ(pt_retbuf(pt, a), 0);
	CHECK_EQ(pt_retbuf(pt, b), 0);
	CHECK_EQ(pt_retbuf(pt, c), 0);
	CHECK_EQ(pt_delete(pt), 0);
	/* PT_DEL: deleted with buffers out. */
	CHECK_EQ(pt_create("P", mem, NULL, 192, 64, PT_DEL, &pt, &n), 0);
	CHECK_EQ(pt_getbuf(pt, &a), 0);
	CHECK_EQ(pt_delete(pt), 0);
	CHECK_EQ(pt_retbuf(pt, a), ERR_OBJID);
}

TEST(bad_partition_ids)
{
	void *buf;
	unsigned long smid;

	for (size_t i = 0; i < NR_BAD_IDS; i++) {
		CHECK_EQ(pt_getbuf(bad_ids[i], &buf), ERR_OBJID);
		CHECK_EQ(pt_retbuf(bad_ids[i], mem), ERR_OBJID);
		CHECK_EQ(pt_delete(bad_ids[i]), ERR_OBJID);
	}
	CHECK_EQ(sm_create("S", 0, 0, &smid), 0);
	CHECK_EQ(pt_getbuf(smid, &buf), ERR_OBJTYPE);
	CHECK_EQ(sm_delete(smid), 0);
}

TESTS(T(create_checks), T(buffers), T(bad_partition_ids));
