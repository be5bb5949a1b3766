/* SPDX-License-Identifier: MIT */
/*
 * The end of an OS thread bound to a nucleus thread.
 *
 * A shadow's OS thread ends in be_thread_end() when the nucleus ends its
 * thread (NK_SWITCH_EXIT) or kills it.  An adopted OS thread may also end
 * on its own, still bound: it returns from its start routine or calls
 * pthread_exit().  The exit hook armed at adoption (a pthread key
 * destructor) catches that and calls handlers->thread_gone, which ends
 * the nucleus thread by the normal path: every personality sees it end,
 * its CPU goes to the next thread, its reaper is released.  That path
 * comes to be_thread_end() as always, which then returns to the hook
 * (the OS thread is ending already: pthread_exit() from a key destructor
 * is undefined) and the thread ends.
 */
#ifndef FUSION_BACKEND_EXIT_H
#define FUSION_BACKEND_EXIT_H

#include <fusion/backend.h>

/*
 * Arm the exit hook of the calling OS thread, just bound to a thread of
 * @nk.  Returns 0, -EAGAIN or -ENOMEM.
 */
int be_exit_hook_arm(const struct nk_backend_handlers *handlers,
		     struct nk_instance *nk);
/* The calling OS thread is unbound: its end concerns the nucleus no more. */
void be_exit_hook_disarm(void);
/*
 * End the calling OS thread, bound until now: pthread_exit(), or, inside
 * its exit hook, back to the hook, which lets the thread end.
 */
void be_thread_end(void) __attribute__((noreturn));

#endif
