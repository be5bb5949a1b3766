/* SPDX-License-Identifier: MIT */
/*
 * Sessions: one shared memory segment that several processes map at the
 * same address (docs/architecture.md, "Sessions").  This layer makes,
 * checks, joins and removes the segment, keeps its member list, finds
 * dead members, and manages named shared memory in it.  The segment
 * starts with struct session_header; the rest holds the named blocks.
 *
 * Locking: the header's lock is a robust process-shared mutex.  A member
 * killed while holding it leaves it EOWNERDEAD: the next locker checks
 * the segment (session_check) and marks it broken when the dead member's
 * change was cut in half.  The generation counter, odd while the lock is
 * held, lets a reader (`fusion ps`) copy the header without the lock.
 */
#ifndef FUSION_SESSION_INTERNAL_H
#define FUSION_SESSION_INTERNAL_H

#include <fusion/session.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#pragma GCC visibility push(hidden)

#define SESSION_MAGIC "FUSIONS\n"
#define SESSION_LAYOUT 1u
#define SESSION_MAX_MEMBERS 64
#define SESSION_MAX_SHM 64

enum session_state {
	SESSION_INIT,	/* being made: a joiner refuses it */
	SESSION_READY,	/* usable */
	SESSION_BROKEN, /* a dead member left it inconsistent */
};

struct session_member {
	pid_t pid; /* 0: a free slot */
	uid_t uid;
	char comm[16]; /* its program's name */
};

/* A named block of shared memory: @users has one bit per member. */
struct session_shm {
	char name[FUSION_SESSION_SHM_NAME_MAX];
	uint64_t offset; /* from the segment's base; 0: a free slot */
	uint64_t size;
	uint64_t users;
};

struct session_header {
	char magic[8];
	uint32_t layout;
	uint32_t header_size;
	uint64_t fingerprint; /* of the structures' layout (same build) */
	uint64_t size;	      /* of the whole segment */
	uint64_t base;	      /* where every member maps it */
	uint32_t uid;	      /* its creator */
	uint32_t gid;	      /* group granted access, or (uint32_t)-1 */
	uint32_t persistent;
	_Atomic uint32_t state;
	_Atomic uint32_t generation; /* odd while the lock is held */
	char name[FUSION_SESSION_NAME_MAX];
	pthread_mutex_t lock;
	struct session_member members[SESSION_MAX_MEMBERS];
	struct session_shm shm[SESSION_MAX_SHM];
	uint64_t data; /* offset of the blocks' area, to the end */
};

/* Blocks start on a cache line: members on other CPUs share none. */
#define SESSION_SHM_ALIGN 64

/* This process's session. */
struct session {
	struct session_header *hdr;
	int ctl_fd; /* the control file, whose locks say it is a member */
	int slot;   /* our entry in hdr->members */
	bool placed; /* an instance of ours is in it (nucleus.c) */
	char name[FUSION_SESSION_NAME_MAX];
};

/* How a session is made: the options (FUSION_SESSION_*) as parsed. */
struct session_params {
	uint64_t size;
	uint64_t base;
	gid_t gid; /* (gid_t)-1: none */
	bool persistent;
};

/* segment.c */
uint64_t session_fingerprint(void);
bool session_name_valid(const char *name);
/* Paths of the control file and of the shm object of @name. */
void session_ctl_path(const char *name, char *buf, size_t len);
void session_shm_path(const char *name, char *buf, size_t len);
/*
 * Check @hdr, read from a segment of @size bytes owned by @owner: 0 or
 * -EPROTO with *@why set to what is wrong.
 */
int session_header_check(const struct session_header *hdr, uint64_t size,
			 uid_t owner, const char **why);
/*
 * Create or map the segment of @name (the caller holds the control file
 * exclusively): *@hdr at its base.  Errors: -EACCES, -EPROTO (refused,
 * one line printed), -EADDRINUSE, -ENOMEM, -errno.
 */
int session_segment_open(const char *name, const struct session_params *p,
			 struct session_header **hdr);
void session_segment_close(struct session_header *hdr);
/* mmap @size bytes of @fd (-1: anonymous) at @base, nowhere else, with
 * @flags (MAP_SHARED ...): 0, -EADDRINUSE or -errno. */
int session_map_fixed(int fd, int flags, uint64_t base, uint64_t size,
		      void **out);

/*
 * ctl.c: the control file's locks, on one byte each: SESSION_CTL_GUARD,
 * held exclusively, serialises making, joining and removing;
 * SESSION_CTL_MEMBERS is held shared by every member; SESSION_CTL_SLOT +
 * slot exclusively by the member in that slot, for its life.  Lock
 * (F_RDLCK, F_WRLCK, F_UNLCK), waiting or not: 0 or -errno.  Held: does
 * another description hold byte @byte?
 */
enum { SESSION_CTL_GUARD, SESSION_CTL_MEMBERS, SESSION_CTL_SLOT = 64 };
int session_ctl_lock(int fd, off_t byte, short type, bool wait);
bool session_ctl_held(int fd, off_t byte);

/* lock.c: the header's robust lock.  -ENOTRECOVERABLE: broken. */
int session_lock(struct session_header *hdr);
void session_unlock(struct session_header *hdr);
/* Invariants of the header: 0 or -EUCLEAN.  Lock held. */
int session_check(struct session_header *hdr);

/*
 * members.c.  Lock held.  @fd: the control file.  Add the caller in a
 * free slot (its slot's byte locked for its life); remove @slot; remove
 * every member but @self that is gone (how many).
 */
int session_member_add(struct session_header *hdr, int fd, int *slot);
void session_member_remove(struct session_header *hdr, int slot);
int session_reap_dead(struct session_header *hdr, int fd, int self);
/* Is the member in @slot alive?  Never asked of one's own slot. */
bool session_member_alive(int fd, int slot);

/*
 * shm.c.  Lock held.  Names starting with '.' are the library's own
 * (SESSION_NUCLEUS_BLOCK): fusion_session_shm refuses them.  Find the
 * block @name; create it held by @user, zeroed if @zero (0, -ENOSPC).
 */
#define SESSION_NUCLEUS_BLOCK ".nucleus"
struct session_shm *session_shm_find(struct session_header *hdr,
				     const char *name);
int session_shm_create(struct session_header *hdr, const char *name,
		       size_t size, uint64_t user, bool zero,
		       struct session_shm **out);
void session_shm_drop_member(struct session_header *hdr, int slot);
/* Do the blocks lie in the blocks' area, none over another? */
bool session_shm_valid(const struct session_header *hdr);

/*
 * observe.c.  A consistent copy of the header of session @name, read
 * without its lock: 0, -EAGAIN (its lock stayed held), -EPROTO (not a
 * session of this build), -errno of open.  Call @fn for each session in
 * /dev/shm until it returns non-zero (returned), or -errno.
 */
int session_snapshot(const char *name, struct session_header *copy);
/* session_snapshot(), and *@map the segment mapped read only (anywhere:
 * its pointers are at copy->base), copy->size bytes; -ENOMEM. */
int session_view(const char *name, struct session_header *copy,
		 const void **map);
int session_each(int (*fn)(const char *name, void *arg), void *arg);

/* session.c: this process's session, NULL in a private one. */
struct session *session_current(void);

#pragma GCC visibility pop

#endif
