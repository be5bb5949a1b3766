/* SPDX-License-Identifier: MIT */
/*
 * The Linux-side channel of nucleus pipes, shared by every backend: a
 * connected pair of AF_UNIX SOCK_SEQPACKET sockets (message boundaries
 * kept).  See the chan_* operations in fusion/backend.h.
 */
#ifndef FUSION_BACKEND_CHAN_H
#define FUSION_BACKEND_CHAN_H

#include <stdbool.h>
#include <sys/types.h>

int be_chan_open(void *priv, int fds[2]);
void be_chan_close(void *priv, int fd);
ssize_t be_chan_send(void *priv, int fd, const void *buf, size_t len);
ssize_t be_chan_recv(void *priv, int fd, void *buf, size_t len, bool peek);

#endif
