/* SPDX-License-Identifier: MIT */
/*
 * Two processes, one session: run it twice at once,
 *
 *     session_tally 100000 & session_tally 100000; wait
 *
 * Each joins the session "tally" (or FUSION_SESSION), finds the shared
 * block "count" (the first one in makes it), adds its share one by one
 * and reports the total once both are done: 200000, whatever the
 * interleaving.  `fusion ps` lists the session and both members while
 * they run; the last one out removes the session.
 */
#include <fusion/fusion.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct tally {
	_Atomic long count;
	_Atomic int done;
};

int main(int argc, char **argv)
{
	const char *name = getenv("FUSION_SESSION");
	long n = argc > 1 ? atol(argv[1]) : 100000;
	struct timespec nap = {0, 1000000};
	struct tally *t;
	int ret;

	ret = fusion_session_join(name && name[0] ? name : "tally");
	if (ret == 0)
		ret = fusion_session_shm("count", sizeof(*t), (void **)&t);
	if (ret) {
		fprintf(stderr, "session_tally: %s\n", strerror(-ret));
		return 1;
	}
	for (long i = 0; i < n; i++)
		atomic_fetch_add(&t->count, 1);
	atomic_fetch_add(&t->done, 1);
	/* Until the other one is done too (or alone after 2 s). */
	for (int i = 0; i < 2000 && atomic_load(&t->done) < 2; i++)
		nanosleep(&nap, NULL);
	printf("total %ld from %d processes\n", atomic_load(&t->count),
	       atomic_load(&t->done));
	return fusion_session_leave() ? 1 : 0;
}
