/* SPDX-License-Identifier: MIT */
/*
 * The member list: one slot per process, published by the store of its
 * pid and freed by the store of 0.  A member is alive while a process of
 * its pid exists with the start time it recorded: a pid reused by
 * another process reads as dead.
 */
#include "session.h"
#include "../backend/common/host.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

uint64_t session_pid_start(pid_t pid)
{
	char path[32], buf[1024];
	unsigned long long start = 0;
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (be_host_read(path, buf, sizeof(buf)) < 0)
		return 0;
	/* The name may hold anything, ')' included: fields follow the last. */
	p = strrchr(buf, ')');
	/* starttime is field 22: past the 20 spaces from ")" on. */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p + 1, "%llu", &start) != 1)
		return 0;
	/* A zombie is gone for the session: it runs no code any more. */
	return strstr(buf, ") Z ") ? 0 : (uint64_t)start;
}

bool session_member_alive(const struct session_member *m)
{
	return m->pid > 0 && session_pid_start(m->pid) == m->start;
}

int session_member_add(struct session_header *hdr, int *slot)
{
	struct session_member *m;

	/* A newcomer trusts nothing it has not checked. */
	if (session_check(hdr)) {
		atomic_store(&hdr->state, SESSION_BROKEN);
		return -ENOTRECOVERABLE;
	}
	session_reap_dead(hdr);
	for (int i = 0; i < SESSION_MAX_MEMBERS; i++) {
		m = &hdr->members[i];
		if (m->pid)
			continue;
		m->start = session_pid_start(getpid());
		m->uid = geteuid();
		memset(m->comm, 0, sizeof(m->comm));
		prctl(PR_GET_NAME, m->comm);
		m->comm[sizeof(m->comm) - 1] = '\0';
		__atomic_store_n(&m->pid, getpid(), __ATOMIC_RELEASE);
		*slot = i;
		return 0;
	}
	return -ENOSPC;
}

void session_member_remove(struct session_header *hdr, int slot)
{
	session_shm_drop_member(hdr, slot);
	hdr->members[slot].pid = 0;
}

int session_reap_dead(struct session_header *hdr)
{
	int reaped = 0;

	for (int i = 0; i < SESSION_MAX_MEMBERS; i++) {
		if (hdr->members[i].pid &&
		    !session_member_alive(&hdr->members[i])) {
			session_member_remove(hdr, i);
			reaped++;
		}
	}
	return reaped;
}
