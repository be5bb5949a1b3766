/* SPDX-License-Identifier: MIT */
/* The exit hook of adopted OS threads (exit.h). */
#include "exit.h"

#include <pthread.h>
#include <setjmp.h>
#include <stddef.h>

struct exit_hook {
	const struct nk_backend_handlers *handlers; /* NULL: disarmed */
	struct nk_instance *nk;
	jmp_buf *back; /* while the hook runs: where be_thread_end returns */
};

static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;
static int exit_key_error;
/* Key destructors run before the thread's TLS goes: the hook lives here. */
static __thread struct exit_hook exit_hook;

static void exit_hook_run(void *arg)
{
	struct exit_hook *hook = arg;
	jmp_buf back;

	if (setjmp(back) == 0) {
		hook->back = &back;
		hook->handlers->thread_gone(hook->nk);
	}
	hook->back = NULL;
}

static void exit_key_create(void)
{
	exit_key_error = -pthread_key_create(&exit_key, exit_hook_run);
}

int be_exit_hook_arm(const struct nk_backend_handlers *handlers,
		     struct nk_instance *nk)
{
	int ret;

	pthread_once(&exit_key_once, exit_key_create);
	if (exit_key_error)
		return exit_key_error;
	exit_hook.handlers = handlers;
	exit_hook.nk = nk;
	exit_hook.back = NULL;
	ret = -pthread_setspecific(exit_key, &exit_hook);
	if (ret)
		exit_hook.handlers = NULL;
	return ret;
}

void be_exit_hook_disarm(void)
{
	if (exit_hook.handlers == NULL)
		return;
	exit_hook.handlers = NULL;
	pthread_setspecific(exit_key, NULL);
}

void be_thread_end(void)
{
	jmp_buf *back = exit_hook.back;

	be_exit_hook_disarm();
	/* The nucleus frames left behind hold nothing: the switch that
	 * ended the thread released or handed on the lock. */
	if (back)
		longjmp(*back, 1);
	pthread_exit(NULL);
}
