/* SPDX-License-Identifier: MIT */
/*
 * VxWorks task hooks (taskHookLib) and error status (errnoLib): hooks
 * run for every task, created or ended by any path, in their order;
 * each task keeps its own errno; printErrno names the skin's values.
 */
#include "vxworks_test.h"

#include <unistd.h>

/* Each hook notes who it is and the task's name. */
static void hook_note(const char *hook, const WIND_TCB *tcb)
{
	char item[64];

	snprintf(item, sizeof(item), "%s:%s", hook, tcb->name);
	step(item);
}

static void create_a(WIND_TCB *tcb)
{
	hook_note("createA", tcb);
}

static void create_b(WIND_TCB *tcb)
{
	hook_note("createB", tcb);
}

static void delete_a(WIND_TCB *tcb)
{
	hook_note("deleteA", tcb);
}

static void delete_b(WIND_TCB *tcb)
{
	hook_note("deleteB", tcb);
}

static int run_body(long arg)
{
	step((const char *)arg);
	return 0;
}

static int sleeper_body(long arg)
{
	(void)arg;
	taskDelay(1000);
	return 0;
}

TEST(hooks_order_and_paths)
{
	TASK_ID t;

	trail[0] = '\0';
	CHECK_EQ(taskCreateHookAdd(FN(create_a)), OK);
	CHECK_EQ(taskCreateHookAdd(FN(create_b)), OK);
	CHECK_EQ(taskDeleteHookAdd(FN(delete_a)), OK);
	CHECK_EQ(taskDeleteHookAdd(FN(delete_b)), OK);
	spawn("ret", 10, (FUNCPTR)run_body, (long)"run");
	/* Created in order, deleted in reverse order. */
	CHECK_STR(trail, "createA:ret createB:ret run deleteB:ret deleteA:ret");

	trail[0] = '\0';
	t = spawn("del", 10, (FUNCPTR)sleeper_body, 0);
	CHECK_EQ(taskDelete(t), OK);
	CHECK_STR(trail, "createA:del createB:del deleteB:del deleteA:del");

	trail[0] = '\0';
	CHECK_EQ(taskCreateHookDelete(FN(create_a)), OK);
	CHECK_EQ(taskDeleteHookDelete(FN(delete_b)), OK);
	spawn("less", 10, (FUNCPTR)run_body, (long)"run");
	CHECK_STR(trail, "createB:less run deleteA:less");
	CHECK_EQ(taskCreateHookDelete(FN(create_b)), OK);
	CHECK_EQ(taskDeleteHookDelete(FN(delete_a)), OK);
	trail[0] = '\0';
	spawn("none", 10, (FUNCPTR)run_body, (long)"run");
	CHECK_STR(trail, "run");
}

static void counting_hook(WIND_TCB *tcb)
{
	(void)tcb;
}

TEST(hooks_bad_input)
{
	CHECK_FAIL(taskCreateHookAdd(NULL), S_objLib_OBJ_ID_ERROR);
	CHECK_FAIL(taskDeleteHookAdd(NULL), S_objLib_OBJ_ID_ERROR);
	CHECK_FAIL(taskCreateHookDelete(FN(counting_hook)),
		   S_taskLib_TASK_HOOK_NOT_FOUND);
	CHECK_FAIL(taskDeleteHookDelete(NULL), S_taskLib_TASK_HOOK_NOT_FOUND);
	for (int i = 0; i < VX_MAX_TASK_HOOKS; i++)
		CHECK_EQ(taskCreateHookAdd(FN(counting_hook)), OK);
	CHECK_FAIL(taskCreateHookAdd(FN(counting_hook)),
		   S_taskLib_TASK_HOOK_TABLE_FULL);
	for (int i = 0; i < VX_MAX_TASK_HOOKS; i++)
		CHECK_EQ(taskCreateHookDelete(FN(counting_hook)), OK);
	CHECK_FAIL(taskCreateHookDelete(FN(counting_hook)),
		   S_taskLib_TASK_HOOK_NOT_FOUND);
}

static SEM_ID errno_go;

static int errno_body(long arg)
{
	errnoSet((int)arg);
	/* A failing call sets the caller's status only. */
	semTake(errno_go, WAIT_FOREVER);
	CHECK_EQ(errnoGet(), (int)arg + 1);
	CHECK_EQ(semTake(errno_go, NO_WAIT), ERROR);
	CHECK_EQ(errnoGet(), S_objLib_OBJ_UNAVAILABLE);
	return 0;
}

TEST(errno_per_task)
{
	TASK_ID a, b;

	errno_go = semBCreate(SEM_Q_PRIORITY, SEM_EMPTY);
	a = spawn("ea", 10, (FUNCPTR)errno_body, 0x1000);
	b = spawn("eb", 11, (FUNCPTR)errno_body, 0x2000);
	errnoSet(0x42);
	CHECK_EQ(errnoOfTaskGet(a), 0x1000);
	CHECK_EQ(errnoOfTaskGet(b), 0x2000);
	CHECK_EQ(errnoOfTaskGet(0), 0x42);
	CHECK_EQ(errnoOfTaskGet(taskIdSelf()), 0x42);
	CHECK_EQ(errnoOfTaskSet(a, 0x1001), OK);
	CHECK_EQ(errnoOfTaskSet(b, 0x2001), OK);
	CHECK_EQ(errnoGet(), 0x42);
	CHECK_EQ(errnoOfTaskSet(0, 0x43), OK);
	CHECK_EQ(errnoGet(), 0x43);
	/* errno is the status: what a task writes there, it reads. */
	errno = 0x44;
	CHECK_EQ(errnoGet(), 0x44);
	CHECK_EQ(errnoOfTaskGet(0), 0x44);
	CHECK_EQ(semGive(errno_go), OK);
	CHECK_EQ(semGive(errno_go), OK);
	CHECK_EQ(taskIdVerify(a), ERROR);
	CHECK_EQ(taskIdVerify(b), ERROR);
	CHECK_EQ(semDelete(errno_go), OK);
}

TEST(print_errno)
{
	char out[256] = "";
	int fds[2];
	ssize_t n;
	int saved;

	CHECK_EQ(pipe(fds), 0);
	fflush(stdout);
	saved = dup(1);
	CHECK_EQ(dup2(fds[1], 1), 1);
	printErrno(S_objLib_OBJ_TIMEOUT);
	printErrno(S_semLib_INVALID_OPERATION);
	printErrno(0x123456);
	errnoSet(S_objLib_OBJ_DELETED);
	printErrno(0);
	fflush(stdout);
	CHECK_EQ(dup2(saved, 1), 1);
	close(saved);
	close(fds[1]);
	n = read(fds[0], out, sizeof(out) - 1);
	close(fds[0]);
	CHECK(n > 0);
	out[n] = '\0';
	CHECK_STR(out, "S_objLib_OBJ_TIMEOUT\nS_semLib_INVALID_OPERATION\n"
		       "0x123456\nS_objLib_OBJ_DELETED\n");
}

/* Wind River's values, which programs compare and print. */
TEST(status_values)
{
	CHECK_EQ(S_objLib_OBJ_ID_ERROR, 0x3d0001);
	CHECK_EQ(S_objLib_OBJ_UNAVAILABLE, 0x3d0002);
	CHECK_EQ(S_objLib_OBJ_DELETED, 0x3d0003);
	CHECK_EQ(S_objLib_OBJ_TIMEOUT, 0x3d0004);
	CHECK_EQ(S_taskLib_NAME_NOT_FOUND, 0x30065);
	CHECK_EQ(S_taskLib_ILLEGAL_PRIORITY, 0x3006d);
	CHECK_EQ(S_semLib_INVALID_OPERATION, 0x160068);
	CHECK_EQ(S_msgQLib_INVALID_MSG_LENGTH, 0x410001);
	CHECK_EQ(S_memLib_NOT_ENOUGH_MEMORY, 0x110001);
	CHECK_EQ(S_intLib_NOT_ISR_CALLABLE, 0x430001);
}

TESTS(T(hooks_order_and_paths), T(hooks_bad_input), T(errno_per_task),
      T(print_errno), T(status_values));
