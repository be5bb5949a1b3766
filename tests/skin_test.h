/* SPDX-License-Identifier: MIT */
/*
 * What the tests of every skin share: the process runtime the skins
 * run on, and whether it runs on sim (exact dates) or live (order and
 * error codes only).
 */
#ifndef FUSION_SKIN_TEST_H
#define FUSION_SKIN_TEST_H

#include "harness.h"

#include <fusion/fusion.h>

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

/* The process runtime (the first call makes main a nucleus thread). */
static inline struct nk_instance *test_runtime(void)
{
	struct nk_instance *nk = NULL;

	CHECK_EQ(fusion_runtime(&nk), 0);
	return nk;
}

/*
 * Whether the tests run on sim: virtual time, exact dates.  On live,
 * tests assert only order and error codes.
 */
static inline bool on_sim(void)
{
	return strcmp(nk_instance_backend(test_runtime()), "sim") == 0;
}

/* Run @body(@arg) in a plain pthread (not a task) and wait for it. */
static inline void run_plain_thread(void *(*body)(void *arg), void *arg)
{
	pthread_t th;

	CHECK_EQ(pthread_create(&th, NULL, body, arg), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
}

#endif
