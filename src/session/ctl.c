/* SPDX-License-Identifier: MIT */
/*
 * The control file's locks: open file description locks, one byte each,
 * which the kernel drops when their process dies, so that no pid, reused
 * or not, is ever trusted for who is alive.
 */
#include "session.h"

#include <errno.h>
#include <fcntl.h>

int session_ctl_lock(int fd, off_t byte, short type, bool wait)
{
	struct flock fl = {
	    .l_type = type, .l_whence = SEEK_SET, .l_start = byte, .l_len = 1};

	return fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &fl) ? -errno : 0;
}

bool session_ctl_held(int fd, off_t byte)
{
	struct flock fl = {.l_type = F_WRLCK,
			   .l_whence = SEEK_SET,
			   .l_start = byte,
			   .l_len = 1};

	/* A lock this description holds conflicts with nothing: callers
	 * never ask of their own. */
	return fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
}
