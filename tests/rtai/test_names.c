/* SPDX-License-Identifier: MIT */
/*
 * RTAI names: nam2num/num2nam (RTAI's own encoding, so that numbers in
 * programs keep their meaning), rt_get_adr/rt_get_name on tasks and
 * semaphores in one name space, bad input.
 */
#include "rtai_test.h"

#include <rtai/rtai_sem.h>

TEST(encoding)
{
	char name[8];

	/* One character: its digit + 2. */
	CHECK_EQ(nam2num("0"), 3);
	CHECK_EQ(nam2num("9"), 12);
	CHECK_EQ(nam2num("A"), 13);
	CHECK_EQ(nam2num("a"), 13);
	CHECK_EQ(nam2num("Z"), 38);
	CHECK_EQ(nam2num("_"), 39);
	CHECK_EQ(nam2num("-"), 40);
	/* Base 39, most significant first. */
	CHECK_EQ(nam2num("AB"), 11 * 39 + 12 + 2);
	CHECK_EQ(nam2num("ab"), nam2num("AB"));
	/* Six characters at most. */
	CHECK_EQ(nam2num("ABCDEFGH"), nam2num("ABCDEF"));
	CHECK_EQ(nam2num(""), 0xFFFFFFFFUL);
	CHECK_EQ(nam2num(NULL), 0xFFFFFFFFUL);

	num2nam(nam2num("mytask"), name);
	CHECK_STR(name, "MYTASK");
	num2nam(nam2num("a_9"), name);
	CHECK_STR(name, "A_9");
	num2nam(nam2num("a.b"), name);
	CHECK_STR(name, "A$B");
	num2nam(0, name);
	CHECK_STR(name, "");
	num2nam(1, name);
	CHECK_STR(name, "");
	num2nam(0xFFFFFFFFUL, name);
	CHECK_STR(name, "");
	num2nam(nam2num("x"), NULL);
}

TEST(get_adr_finds_every_kind)
{
	RT_TASK *self = main_task();
	SEM *sem;

	CHECK(rt_get_adr(nam2num("MAIN")) == self);
	CHECK_EQ(rt_get_name(self), nam2num("MAIN"));
	sem = rt_sem_init(nam2num("SEM1"), 0);
	CHECK(sem != NULL);
	CHECK(rt_get_adr(nam2num("sem1")) == sem);
	CHECK_EQ(rt_get_name(sem), nam2num("SEM1"));
	/* One name space: a semaphore cannot take a task's name. */
	CHECK(rt_sem_init(nam2num("MAIN"), 0) == NULL);
	CHECK_EQ(rt_sem_delete(sem), 0);
	CHECK(rt_get_adr(nam2num("SEM1")) == NULL);
	CHECK_EQ(rt_get_name(sem), 0);
}

TEST(bad_input)
{
	SEM *anon;

	main_task();
	CHECK(rt_get_adr(0) == NULL);
	CHECK(rt_get_adr(0xFFFFFFFFUL) == NULL);
	CHECK(rt_get_adr(nam2num("NOBODY")) == NULL);
	CHECK_EQ(rt_get_name(NULL), 0);
	CHECK_EQ(rt_get_name((void *)0xdeadbeef), 0);
	CHECK_EQ(rt_get_name((void *)UINTPTR_MAX), 0);
	/* Anonymous objects have no name. */
	anon = rt_sem_init(0, 0);
	CHECK(anon != NULL);
	CHECK_EQ(rt_get_name(anon), 0);
	CHECK_EQ(rt_sem_delete(anon), 0);
}

TESTS(T(encoding), T(get_adr_finds_every_kind), T(bad_input));
