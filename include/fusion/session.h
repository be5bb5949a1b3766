/* SPDX-License-Identifier: MIT */
/** @file
 * Sessions: a real-time system shared by several processes.
 *
 * A process joins the session NAME with fusion_session_join(), or with
 * `--session=NAME` / `FUSION_SESSION=NAME` when the runtime starts.  The
 * first member creates it: a shared memory segment, `/dev/shm/fusion.NAME`,
 * and its control file `/dev/shm/fusion.NAME.ctl`, readable and writable
 * by the creating user only (`FUSION_SESSION_GROUP` grants a group).  The
 * last member leaving removes both unless `FUSION_SESSION_PERSIST=1`.  A
 * member that dies, SIGKILL included, is found and removed by the others.
 *
 * Named shared memory: fusion_session_shm() gives every member that asks
 * for the same name the same block, at the same address in each.
 *
 * What members share today: the member list and named shared memory;
 * one member's nucleus instance may live in the segment
 * (nk_instance_attr.session, which the runtime sets in a session).
 * Threads, scheduler and objects shared across processes are the next
 * step: see docs/architecture.md, "Sessions".  A process without a
 * session has a private instance, as before.
 *
 * Sessions need the live backend: the sim backend refuses them.
 */
#ifndef FUSION_SESSION_H
#define FUSION_SESSION_H

#include <fusion/types.h>

#include <stddef.h>

#define FUSION_SESSION_NAME_MAX 64     /**< a name's bytes, NUL included */
#define FUSION_SESSION_SHM_NAME_MAX 32 /**< a block's name, NUL included */

/**
 * Join the session @p name, creating it when it does not exist, with
 * the FUSION_SESSION_* options (size, base address, group, persistence)
 * of this process when it creates it.  A name is 1 to 63 characters of
 * [A-Za-z0-9_.-], not starting with '.'.  A segment that is not a
 * session of this build (foreign, truncated, corrupted, of another
 * layout, owned by another user) is refused with one line on stderr
 * saying which check failed.
 * Errors: -EINVAL (bad name), -EBUSY (already in a session), -ENOTSUP
 * (the sim backend is selected), -ENOSYS (the kernel does not release
 * the locks of a process that dies holding them: no robust futex list,
 * as under qemu-user), -EACCES (not allowed to open it),
 * -EPROTO (refused segment), -EADDRINUSE (its address range is taken in
 * this process: set FUSION_SESSION_BASE when creating it), -ENOSPC (the
 * member list is full), -ENOTRECOVERABLE (a dead member left it broken),
 * -ENOMEM, other -errno of the system calls.  Context: a plain thread.
 */
nk_export int fusion_session_join(const char *name);

/**
 * Leave the session: this process's named blocks are let go (unmapped
 * with the segment) and, if it was the last member, the session is
 * removed unless persistent.  Errors: -ENOENT (in no session),
 * -EBUSY (this process's nucleus instance is in it: destroy it first).
 * Context: a plain thread; nothing of the session may be used after.
 */
nk_export int fusion_session_leave(void);

/** The session's name, or NULL in a private session.  Context: any. */
nk_export const char *fusion_session_name(void);

/**
 * The block of shared memory named @p name into *@p addr: created
 * zeroed with @p size bytes when no member has it, else the existing
 * one (@p size 0 finds only).  Each member that asks holds the block;
 * it is freed when no member holds it any more (fusion_session_shm_free,
 * leaving, or dying).
 * Names starting with '.' are the library's own.
 * Errors: -EINVAL (NULL or bad name, NULL addr), -ENOENT (in no
 * session; or @p size 0 and no such block), -EEXIST (the block exists
 * with fewer than @p size bytes), -ENOSPC (no name or memory left in
 * the segment), -ENOTRECOVERABLE.  Context: any plain or nucleus thread.
 */
nk_export int fusion_session_shm(const char *name, size_t size, void **addr);

/**
 * Let go of the block at @p addr (from fusion_session_shm).
 * Errors: -ENOENT (in no session), -EINVAL (not a block this process
 * holds), -ENOTRECOVERABLE.
 */
nk_export int fusion_session_shm_free(void *addr);

#endif
