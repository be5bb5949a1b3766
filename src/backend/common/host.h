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

#endif
