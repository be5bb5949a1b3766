/* SPDX-License-Identifier: MIT */
/*
 * fusion ps: the sessions of this machine, their member processes and
 * their named shared memory, read without joining them or taking their
 * lock (src/session/observe.c).
 */
#include "tool.h"
#include "session/session.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *state_name(uint32_t state)
{
	static const char *const names[] = {"making", "ready", "BROKEN"};

	return state <= SESSION_BROKEN ? names[state] : "?";
}

static int members_of(const struct session_header *h)
{
	int n = 0;

	for (int i = 0; i < SESSION_MAX_MEMBERS; i++)
		n += h->members[i].pid != 0;
	return n;
}

static unsigned long long used_of(const struct session_header *h)
{
	unsigned long long used = 0;

	for (int i = 0; i < SESSION_MAX_SHM; i++)
		used += h->shm[i].offset ? h->shm[i].size : 0;
	return used;
}

static int show(const char *name, void *arg)
{
	struct session_header h;
	int ret = session_snapshot(name, &h);

	(void)arg;
	if (ret) {
		printf("%-20s (unreadable: %s)\n", name,
		       ret == -EPROTO ? "not a session of this build"
				      : strerror(-ret));
		return 0;
	}
	printf("%-20s %-7s %6llu KiB %6llu KiB %s %7d\n", name,
	       state_name(h.state), (unsigned long long)h.size >> 10,
	       used_of(&h) >> 10, h.persistent ? "persist" : "       ",
	       members_of(&h));
	for (int i = 0; i < SESSION_MAX_MEMBERS; i++) {
		const struct session_member *m = &h.members[i];

		if (m->pid)
			printf("  member %-8d %-5s %-16s uid %u\n", (int)m->pid,
			       session_member_alive(m) ? "alive" : "dead",
			       m->comm, (unsigned int)m->uid);
	}
	for (int i = 0; i < SESSION_MAX_SHM; i++) {
		const struct session_shm *b = &h.shm[i];

		if (b->offset)
			printf("  shm    %-31s %10llu bytes, %d holders\n",
			       b->name, (unsigned long long)b->size,
			       __builtin_popcountll(b->users));
	}
	return 0;
}

void fusion_ps_usage(FILE *out)
{
	fprintf(out, "usage: fusion ps\n"
		     "  list the sessions of this machine: state, size, shared "
		     "memory in use, members\n"
		     "  (pid, alive or dead, program, user) and named shared "
		     "memory\n");
}

int fusion_ps(int argc, char **argv)
{
	int ret;

	(void)argv;
	if (argc > 1) {
		fusion_ps_usage(stderr);
		return FUSION_EXIT_USAGE;
	}
	printf("%-20s %-7s %10s %10s %7s %7s\n", "SESSION", "STATE", "SIZE",
	       "USED", "", "MEMBERS");
	ret = session_each(show, NULL);
	if (ret < 0) {
		fprintf(stderr, "fusion ps: /dev/shm: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}
