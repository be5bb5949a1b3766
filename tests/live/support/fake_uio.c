/* SPDX-License-Identifier: MIT */
/*
 * The fake UIO device: a minimal FUSE server speaking the kernel protocol
 * (linux/fuse.h) on /dev/fuse.  Requests are served one at a time by a
 * child process: a test process that ends abnormally closes its files
 * with requests (flush) that a thread of its own could no longer answer,
 * and would hang.  The child holds the only /dev/fuse descriptor, and
 * unmounts and ends with its parent, which aborts the file system.  State and
 * log live in shared memory; raising an interrupt is a byte on a pipe to the
 * server.  Poll readiness changes reach the kernel as FUSE_NOTIFY_POLL.
 * The file is opened for direct I/O, so every read and write reaches the
 * device.
 */
#include "fake_uio.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROOT_NODE FUSE_ROOT_ID
#define FILE_NODE 2
#define FILE_NAME "uio0"

/* In memory shared with the server process. */
struct fake_uio {
	int fuse_fd;  /* the server's */
	int raise_fd; /* the test's end of the pipe */
	pid_t server;
	char dir[64];
	char path[80];
	pthread_mutex_t lock; /* process-shared */
	bool irqcontrol;
	bool masked;
	bool latched;
	uint32_t total;	   /* interrupts raised */
	uint32_t reported; /* the count the last read returned */
	uint64_t kh;	   /* the kernel's poll handle, once it asked */
	bool kh_set;
	char log[2048];
	size_t log_len;
};

static void log_add(struct fake_uio *dev, const char *fmt, ...)
{
	size_t room = sizeof(dev->log) - dev->log_len;
	va_list ap;
	int n;

	if (dev->log_len && room > 1) {
		dev->log[dev->log_len++] = ' ';
		room--;
	}
	va_start(ap, fmt);
	n = vsnprintf(dev->log + dev->log_len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		dev->log_len += (size_t)n < room ? (size_t)n : room - 1;
}

static void reply(struct fake_uio *dev, uint64_t unique, int error,
		  const void *body, size_t size)
{
	struct fuse_out_header out = {
	    .len = (uint32_t)(sizeof(out) + (error ? 0 : size)),
	    .error = error,
	    .unique = unique};
	struct iovec iov[2] = {{&out, sizeof(out)},
			       {(void *)body, error ? 0 : size}};

	if (writev(dev->fuse_fd, iov, 2) < 0)
		return; /* the request was interrupted meanwhile */
}

/* Lock held: the count moved; tell the kernel if it polls. */
static void fire(struct fake_uio *dev)
{
	struct fuse_out_header out = {
	    .len = sizeof(out) + sizeof(struct fuse_notify_poll_wakeup_out),
	    .error = FUSE_NOTIFY_POLL};
	struct fuse_notify_poll_wakeup_out wake = {.kh = dev->kh};
	struct iovec iov[2] = {{&out, sizeof(out)}, {&wake, sizeof(wake)}};

	dev->total++;
	if (dev->irqcontrol)
		dev->masked = true;
	if (dev->kh_set && writev(dev->fuse_fd, iov, 2) < 0)
		return;
}

static void fill_attr(uint64_t node, struct fuse_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->ino = node;
	attr->nlink = 1;
	attr->blksize = 4096;
	attr->mode = node == ROOT_NODE ? S_IFDIR | 0755 : S_IFREG | 0666;
}

static void do_init(struct fake_uio *dev, const struct fuse_in_header *in,
		    const void *arg)
{
	const struct fuse_init_in *init = arg;
	struct fuse_init_out out = {.major = FUSE_KERNEL_VERSION,
				    .minor = FUSE_KERNEL_MINOR_VERSION,
				    .max_readahead = init->max_readahead,
				    .max_write = 4096,
				    .time_gran = 1};

	reply(dev, in->unique, 0, &out, sizeof(out));
}

static void do_lookup(struct fake_uio *dev, const struct fuse_in_header *in,
		      const char *name)
{
	struct fuse_entry_out out = {.nodeid = FILE_NODE};

	if (in->nodeid != ROOT_NODE || strcmp(name, FILE_NAME) != 0) {
		reply(dev, in->unique, -ENOENT, NULL, 0);
		return;
	}
	fill_attr(FILE_NODE, &out.attr);
	reply(dev, in->unique, 0, &out, sizeof(out));
}

static void do_getattr(struct fake_uio *dev, const struct fuse_in_header *in)
{
	struct fuse_attr_out out = {0};

	fill_attr(in->nodeid, &out.attr);
	reply(dev, in->unique, 0, &out, sizeof(out));
}

static void do_read(struct fake_uio *dev, const struct fuse_in_header *in,
		    const struct fuse_read_in *arg)
{
	uint32_t count;
	bool fresh;

	pthread_mutex_lock(&dev->lock);
	count = dev->total;
	fresh = arg->size >= sizeof(count) && count != dev->reported;
	if (fresh) {
		dev->reported = count;
		log_add(dev, "read %u", count);
	}
	pthread_mutex_unlock(&dev->lock);
	if (fresh)
		reply(dev, in->unique, 0, &count, sizeof(count));
	else
		reply(dev, in->unique,
		      arg->size < sizeof(count) ? -EINVAL : -EAGAIN, NULL, 0);
}

static void do_write(struct fake_uio *dev, const struct fuse_in_header *in,
		     const struct fuse_write_in *arg)
{
	struct fuse_write_out out = {.size = arg->size};
	uint32_t value;
	int error = 0;

	if (arg->size != sizeof(value)) {
		reply(dev, in->unique, -EINVAL, NULL, 0);
		return;
	}
	memcpy(&value, arg + 1, sizeof(value));
	pthread_mutex_lock(&dev->lock);
	if (!dev->irqcontrol) {
		log_add(dev, "refused");
		error = -ENOSYS;
	} else if (value == 0) {
		log_add(dev, "mask");
		dev->masked = true;
	} else {
		log_add(dev, "unmask");
		dev->masked = false;
		if (dev->latched) {
			dev->latched = false;
			fire(dev);
		}
	}
	pthread_mutex_unlock(&dev->lock);
	reply(dev, in->unique, error, &out, sizeof(out));
}

static void do_poll(struct fake_uio *dev, const struct fuse_in_header *in,
		    const struct fuse_poll_in *arg)
{
	struct fuse_poll_out out = {0};

	pthread_mutex_lock(&dev->lock);
	if (arg->flags & FUSE_POLL_SCHEDULE_NOTIFY) {
		dev->kh = arg->kh;
		dev->kh_set = true;
	}
	if (dev->total != dev->reported)
		out.revents = POLLIN | POLLRDNORM;
	pthread_mutex_unlock(&dev->lock);
	reply(dev, in->unique, 0, &out, sizeof(out));
}

static void dispatch(struct fake_uio *dev, const struct fuse_in_header *in)
{
	const void *arg = in + 1;
	struct fuse_open_out open_out = {
	    .fh = 1, .open_flags = FOPEN_DIRECT_IO | FOPEN_NONSEEKABLE};

	switch (in->opcode) {
	case FUSE_INIT:
		do_init(dev, in, arg);
		break;
	case FUSE_LOOKUP:
		do_lookup(dev, in, arg);
		break;
	case FUSE_GETATTR:
		do_getattr(dev, in);
		break;
	case FUSE_OPEN:
		reply(dev, in->unique, 0, &open_out, sizeof(open_out));
		break;
	case FUSE_READ:
		do_read(dev, in, arg);
		break;
	case FUSE_WRITE:
		do_write(dev, in, arg);
		break;
	case FUSE_POLL:
		do_poll(dev, in, arg);
		break;
	case FUSE_FLUSH:
	case FUSE_RELEASE:
	case FUSE_DESTROY:
		reply(dev, in->unique, 0, NULL, 0);
		break;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		break; /* no reply expected */
	default:
		reply(dev, in->unique, -ENOSYS, NULL, 0);
		break;
	}
}

static void raise_irq(struct fake_uio *dev)
{
	pthread_mutex_lock(&dev->lock);
	if (dev->masked)
		dev->latched = true;
	else
		fire(dev);
	pthread_mutex_unlock(&dev->lock);
}

static volatile sig_atomic_t parent_gone;

static void on_parent_death(int sig)
{
	(void)sig;
	parent_gone = 1;
}

/* The server process: requests, and raises from the pipe until EOF. */
static void __attribute__((noreturn)) serve(struct fake_uio *dev, int pipe_fd)
{
	static char buf[FUSE_MIN_READ_BUFFER + 4096];

	for (;;) {
		struct pollfd fds[2] = {{.fd = dev->fuse_fd, .events = POLLIN},
					{.fd = pipe_fd, .events = POLLIN}};
		ssize_t n;
		char byte;

		/* The test ended without stopping us: leave no mount. */
		if (parent_gone) {
			umount2(dev->dir, MNT_DETACH);
			rmdir(dev->dir);
			_exit(0);
		}
		if (poll(fds, 2, -1) < 0)
			continue;
		if (fds[1].revents) {
			if (read(pipe_fd, &byte, 1) != 1)
				_exit(0); /* the test is done */
			raise_irq(dev);
		}
		if (!fds[0].revents)
			continue;
		n = read(dev->fuse_fd, buf, sizeof(buf));
		if (n < 0 &&
		    (errno == EINTR || errno == ENOENT || errno == EAGAIN))
			continue;
		if (n < (ssize_t)sizeof(struct fuse_in_header))
			_exit(0); /* ENODEV: unmounted */
		dispatch(dev, (const struct fuse_in_header *)buf);
	}
}

/* Fork the server; returns its pid, or -errno. */
static pid_t server_start(struct fake_uio *dev)
{
	pid_t parent = getpid(), pid;
	int pipe_fds[2];

	if (pipe2(pipe_fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid == 0) {
		close(pipe_fds[1]);
		signal(SIGTERM, on_parent_death);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			on_parent_death(SIGTERM);
		serve(dev, pipe_fds[0]);
	}
	close(pipe_fds[0]);
	if (pid < 0) {
		close(pipe_fds[1]);
		return -errno;
	}
	dev->raise_fd = pipe_fds[1];
	return pid;
}

int fake_uio_start(struct fake_uio **out, bool irqcontrol)
{
	struct fake_uio *dev = mmap(NULL, sizeof(*dev), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_mutexattr_t attr;
	char opts[128];
	int ret;

	if (dev == MAP_FAILED)
		return -ENOMEM;
	memset(dev, 0, sizeof(*dev));
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&dev->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	dev->irqcontrol = irqcontrol;
	snprintf(dev->dir, sizeof(dev->dir), "/tmp/fusion-uio-XXXXXX");
	dev->fuse_fd = open("/dev/fuse", O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (dev->fuse_fd < 0 || mkdtemp(dev->dir) == NULL) {
		ret = -errno;
		goto fail;
	}
	snprintf(dev->path, sizeof(dev->path), "%s/%s", dev->dir, FILE_NAME);
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=%d,group_id=%d", dev->fuse_fd,
		 (int)getuid(), (int)getgid());
	if (mount("fusion-uio", dev->dir, "fuse.fusion-uio",
		  MS_NOSUID | MS_NODEV, opts)) {
		ret = -errno;
		rmdir(dev->dir);
		goto fail;
	}
	dev->server = server_start(dev);
	if (dev->server > 0) {
		/* The server's is the only one left: its end aborts the
		 * file system. */
		close(dev->fuse_fd);
		*out = dev;
		return 0;
	}
	ret = dev->server;
	umount2(dev->dir, MNT_DETACH);
	rmdir(dev->dir);
fail:
	if (dev->fuse_fd >= 0)
		close(dev->fuse_fd);
	pthread_mutex_destroy(&dev->lock);
	munmap(dev, sizeof(*dev));
	return ret;
}

void fake_uio_stop(struct fake_uio *dev)
{
	umount2(dev->dir, MNT_DETACH);
	close(dev->raise_fd);
	waitpid(dev->server, NULL, 0);
	rmdir(dev->dir);
	pthread_mutex_destroy(&dev->lock);
	munmap(dev, sizeof(*dev));
}

const char *fake_uio_path(const struct fake_uio *dev)
{
	return dev->path;
}

void fake_uio_raise(struct fake_uio *dev)
{
	char byte = 1;

	if (write(dev->raise_fd, &byte, 1) != 1)
		return; /* the server is gone: the test's checks will say */
}

void fake_uio_note(struct fake_uio *dev, const char *what)
{
	pthread_mutex_lock(&dev->lock);
	log_add(dev, "%s", what);
	pthread_mutex_unlock(&dev->lock);
}

bool fake_uio_wait_log(struct fake_uio *dev, const char *expected, char *buf,
		       size_t size)
{
	struct timespec pause = {.tv_nsec = 100000};
	bool same = false;

	for (int i = 0; i < 100000 && !same; i++) {
		if (i)
			nanosleep(&pause, NULL);
		pthread_mutex_lock(&dev->lock);
		same = strcmp(dev->log, expected) == 0;
		snprintf(buf, size, "%s", dev->log);
		pthread_mutex_unlock(&dev->lock);
	}
	return same;
}
