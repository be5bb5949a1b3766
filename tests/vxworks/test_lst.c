/* SPDX-License-Identifier: MIT */
/* VxWorks lstLib: building, walking, cutting and joining lists. */
#include "vxworks_test.h"

#include <vxworks/lstLib.h>

#include <stdlib.h>

struct item {
	NODE node; /* first: a NODE * is the item's address */
	char name;
};

/* The list's items' names, forwards, checked against the backward walk. */
static void check_names(LIST *l, const char *expect)
{
	char fwd[32] = "", back[32] = "";
	size_t n = 0;

	for (NODE *p = lstFirst(l); p; p = lstNext(p))
		fwd[n++] = ((struct item *)p)->name;
	for (NODE *p = lstLast(l); p; p = lstPrevious(p))
		back[--n] = ((struct item *)p)->name;
	CHECK_EQ(n, 0);
	CHECK_STR(fwd, expect);
	CHECK_STR(back, expect);
	CHECK_EQ(lstCount(l), (int)strlen(expect));
}

TEST(build_walk_cut_join)
{
	struct item it[6];
	LIST a, b;

	for (int i = 0; i < 6; i++)
		it[i].name = (char)('a' + i);
	lstInit(&a);
	lstInit(&b);
	check_names(&a, "");
	CHECK(lstGet(&a) == NULL);
	for (int i = 0; i < 4; i++)
		lstAdd(&a, &it[i].node);
	check_names(&a, "abcd");
	lstInsert(&a, NULL, &it[4].node);
	lstInsert(&a, &it[1].node, &it[5].node);
	check_names(&a, "eabfcd");
	CHECK_EQ(lstFind(&a, &it[5].node), 4);
	CHECK(lstNth(&a, 1) == &it[4].node);
	CHECK(lstNth(&a, 6) == &it[3].node);
	CHECK(lstNth(&a, 7) == NULL);
	CHECK(lstNth(&a, 0) == NULL);
	CHECK(lstNStep(&it[4].node, 3) == &it[5].node);
	CHECK(lstNStep(&it[5].node, -2) == &it[0].node);
	CHECK(lstNStep(&it[5].node, 9) == NULL);
	lstDelete(&a, &it[0].node);
	check_names(&a, "ebfcd");
	CHECK_EQ(lstFind(&a, &it[0].node), ERROR);
	lstExtract(&a, &it[1].node, &it[2].node, &b);
	check_names(&a, "ed");
	check_names(&b, "bfc");
	lstConcat(&a, &b);
	check_names(&a, "edbfc");
	check_names(&b, "");
	CHECK(lstGet(&a) == &it[4].node);
	check_names(&a, "dbfc");
}

TEST(free_and_bad_input)
{
	LIST l;

	lstInit(&l);
	for (int i = 0; i < 3; i++)
		lstAdd(&l, calloc(1, sizeof(struct item)));
	CHECK_EQ(lstCount(&l), 3);
	lstFree(&l);
	CHECK_EQ(lstCount(&l), 0);
	lstInit(NULL);
	lstAdd(NULL, NULL);
	lstAdd(&l, NULL);
	lstDelete(NULL, NULL);
	lstInsert(&l, NULL, NULL);
	lstConcat(NULL, &l);
	lstExtract(NULL, NULL, NULL, NULL);
	lstFree(NULL);
	CHECK_EQ(lstCount(&l), 0);
	CHECK_EQ(lstCount(NULL), ERROR);
	CHECK_EQ(lstFind(NULL, NULL), ERROR);
	CHECK(lstFirst(NULL) == NULL && lstLast(NULL) == NULL);
	CHECK(lstGet(NULL) == NULL && lstNth(NULL, 1) == NULL);
	CHECK(lstNext(NULL) == NULL && lstPrevious(NULL) == NULL);
	CHECK(lstNStep(NULL, 1) == NULL);
}

TESTS(T(build_walk_cut_join), T(free_and_bad_input));
