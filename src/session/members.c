/* SPDX-License-Identifier: MIT */
/*
 * The member list: one slot per process, published by the store of its
 * pid and freed by the store of 0.  A member is alive while it holds the
 * control file's lock of its slot, which the kernel drops with it.
 */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

bool session_member_alive(int fd, int slot)
{
	return session_ctl_held(fd, SESSION_CTL_SLOT + slot);
}

int session_member_add(struct session_header *hdr, int fd, int *slot)
{
	struct session_member *m;

	/* A newcomer trusts nothing it has not checked. */
	if (session_check(hdr)) {
		atomic_store(&hdr->state, SESSION_BROKEN);
		return -ENOTRECOVERABLE;
	}
	session_reap_dead(hdr, fd, -1);
	for (int i = 0; i < SESSION_MAX_MEMBERS; i++) {
		m = &hdr->members[i];
		if (m->pid ||
		    session_ctl_lock(fd, SESSION_CTL_SLOT + i, F_WRLCK, false))
			continue;
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

int session_reap_dead(struct session_header *hdr, int fd, int self)
{
	int reaped = 0;

	for (int i = 0; i < SESSION_MAX_MEMBERS; i++) {
		if (i != self && hdr->members[i].pid &&
		    !session_member_alive(fd, i)) {
			session_member_remove(hdr, i);
			reaped++;
		}
	}
	return reaped;
}
