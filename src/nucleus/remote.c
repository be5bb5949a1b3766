/* SPDX-License-Identifier: MIT */
/*
 * The memory of a thread's process.  In a session a waker serves a
 * waiter of another process: what it hands over (a message) goes to the
 * waiter's buffer, in that process's private memory, which no pointer
 * of the waker's reaches.  The kernel copies between the two address
 * spaces (process_vm_writev/readv), as it would between a process and
 * itself; a thread of the caller's own process is a plain copy.
 */
#include "internal.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>

/* Copy @len bytes at @local, ours, to (@to) or from @remote, in
 * @thread's process.  Both iovecs say the same length: a short copy is
 * a fault. */
static int thread_copy(struct nk_thread *thread, void *remote, void *local,
		       size_t len, bool to)
{
	struct iovec mine = {.iov_base = local, .iov_len = len};
	struct iovec theirs = {.iov_base = remote, .iov_len = len};
	ssize_t n;

	if (!nk_thread_valid(thread) ||
	    (len && (remote == NULL || local == NULL)))
		return -EINVAL;
	if (len == 0)
		return 0;
	if (thread->member == thread->nk->member) {
		memcpy(to ? remote : local, to ? local : remote, len);
		return 0;
	}
	n = to ? process_vm_writev(thread->pid, &mine, 1, &theirs, 1, 0)
	       : process_vm_readv(thread->pid, &mine, 1, &theirs, 1, 0);
	if (n < 0)
		return errno == ESRCH	? -ESRCH
		       : errno == EPERM ? -EPERM
					: -EFAULT;
	return (size_t)n == len ? 0 : -EFAULT;
}

int nk_thread_copy_to(struct nk_thread *thread, void *dst, const void *src,
		      size_t len)
{
	return thread_copy(thread, dst, (void *)src, len, true);
}

int nk_thread_copy_from(struct nk_thread *thread, void *dst, const void *src,
			size_t len)
{
	return thread_copy(thread, (void *)src, dst, len, false);
}
