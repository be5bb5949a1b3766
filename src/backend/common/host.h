/* SPDX-License-Identifier: MIT */
/*
 * What every backend reports of the OS threads under its shadows (see
 * thread_host, thread_entries and host_faults in fusion/backend.h).
 */
#ifndef FUSION_BACKEND_HOST_H
#define FUSION_BACKEND_HOST_H

#include <sys/types.h>

/* host_faults: minor and major page faults of thread @tid, 0 if gone. */
unsigned long be_host_faults(void *priv, pid_t tid);

/*
 * Read the small file @path (a /proc one) into @buf, NUL-terminated,
 * with one read(2), which such files answer whole: its length, or -1.
 * Async-signal-safe.
 */
ssize_t be_host_read(const char *path, char *buf, size_t size);

/*
 * The state letter of thread @tid of process @pid in /proc (R, S, D, T,
 * t, Z...), '\0' if it is gone or either number is not positive.
 * Async-signal-safe.
 */
char be_host_state(pid_t pid, pid_t tid);

#endif
