/* SPDX-License-Identifier: MIT */
/*
 * VxWorks errnoLib.  A task's error status is the C errno of its thread
 * (one thread per task: per task, as VxWorks keeps it), mirrored by the
 * skin into the thread's nucleus error slot, where another task reads
 * it.  A value the task wrote into errno directly is seen by the task
 * itself, not by errnoOfTaskGet() from another task; a value another
 * task set with errnoOfTaskSet() reaches the task's errno at its next
 * errnoGet().
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>

int errnoGet(void)
{
	struct nk_instance *nk = fusion_runtime_peek();
	struct nk_thread *self;
	struct vx_task *t;

	if (nk == NULL || nk_in_interrupt(nk) ||
	    (self = nk_thread_self(nk)) == NULL ||
	    (t = nk_thread_personality(self, &vxworks_skin.pers)) == NULL)
		return errno;
	nk_lock(nk);
	if (t->errno_set) {
		errno = *nk_thread_errno(self);
		t->errno_set = false;
	}
	nk_unlock(nk);
	return errno;
}

STATUS errnoSet(int errorValue)
{
	vx_fail(errorValue);
	return OK;
}

/*
 * Find task @tid (0: the caller) and whether it is the caller, whose
 * status is errno.  Returns with the lock held on success only.
 */
static int task_errno(TASK_ID tid, struct nk_instance **nk, struct vx_task **t,
		      bool *self)
{
	int ret = vx_task_get(tid, nk, t);

	if (ret == 0)
		*self = (*t)->thread == nk_thread_self(*nk);
	return ret;
}

int errnoOfTaskGet(TASK_ID tid)
{
	struct nk_instance *nk;
	struct vx_task *t;
	bool self;
	int value;
	int ret = task_errno(tid, &nk, &t, &self);

	if (ret)
		return vx_fail(ret);
	value = *nk_thread_errno(t->thread);
	nk_unlock(nk);
	return self ? errnoGet() : value;
}

STATUS errnoOfTaskSet(TASK_ID tid, int errorValue)
{
	struct nk_instance *nk;
	struct vx_task *t;
	bool self;
	int ret = task_errno(tid, &nk, &t, &self);

	if (ret)
		return vx_fail(ret);
	*nk_thread_errno(t->thread) = errorValue;
	if (self)
		errno = errorValue;
	else
		t->errno_set = true;
	nk_unlock(nk);
	return OK;
}

/* The skin's statuses by name, for printErrno(). */
static const struct {
	int value;
	const char *name;
} errno_names[] = {
#define N(code)                                                                \
	{                                                                      \
		code, #code                                                    \
	}
    N(S_objLib_OBJ_ID_ERROR),
    N(S_objLib_OBJ_UNAVAILABLE),
    N(S_objLib_OBJ_DELETED),
    N(S_objLib_OBJ_TIMEOUT),
    N(S_objLib_OBJ_NO_METHOD),
    N(S_taskLib_NAME_NOT_FOUND),
    N(S_taskLib_TASK_HOOK_TABLE_FULL),
    N(S_taskLib_TASK_HOOK_NOT_FOUND),
    N(S_taskLib_ILLEGAL_PRIORITY),
    N(S_taskLib_ILLEGAL_OPTIONS),
    N(S_taskLib_ILLEGAL_OPERATION),
    N(S_taskLib_ILLEGAL_STACK_INFO),
    N(S_semLib_INVALID_STATE),
    N(S_semLib_INVALID_OPTION),
    N(S_semLib_INVALID_QUEUE_TYPE),
    N(S_semLib_INVALID_OPERATION),
    N(S_msgQLib_INVALID_MSG_LENGTH),
    N(S_msgQLib_NON_ZERO_TIMEOUT_AT_INT_LEVEL),
    N(S_msgQLib_INVALID_QUEUE_TYPE),
    N(S_memLib_NOT_ENOUGH_MEMORY),
    N(S_memLib_INVALID_NBYTES),
    N(S_memLib_BLOCK_ERROR),
    N(S_memLib_NO_PARTITION_DESTROY),
    N(S_memLib_PAGE_SIZE_UNAVAILABLE),
    N(S_intLib_NOT_ISR_CALLABLE),
#undef N
};

void printErrno(int errNo)
{
	if (errNo == 0)
		errNo = errno;
	for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]);
	     i++) {
		if (errno_names[i].value == errNo) {
			printf("%s\n", errno_names[i].name);
			return;
		}
	}
	printf("0x%x\n", (unsigned int)errNo);
}
