/* SPDX-License-Identifier: MIT */
/*
 * Pipe channels to the Linux side: plain socket calls.  The nucleus end
 * never blocks (MSG_DONTWAIT); the Linux end is left blocking for its
 * readers.
 */
#include <stdbool.h>

#include "chan.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

int be_chan_open(void *priv, int fds[2])
{
	(void)priv;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds))
		return -errno;
	return 0;
}

void be_chan_close(void *priv, int fd)
{
	(void)priv;
	close(fd);
}

ssize_t be_chan_send(void *priv, int fd, const void *buf, size_t len)
{
	ssize_t n;

	(void)priv;
	n = send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	return n < 0 ? -errno : n;
}

ssize_t be_chan_recv(void *priv, int fd, void *buf, size_t len, bool peek)
{
	ssize_t n;

	(void)priv;
	/* MSG_TRUNC: the message's real size, whatever @len is. */
	n = recv(fd, buf, len,
		 MSG_DONTWAIT | MSG_TRUNC | (peek ? MSG_PEEK : 0));
	return n < 0 ? -errno : n;
}
