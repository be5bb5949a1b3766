/* SPDX-License-Identifier: MIT */
/*
 * Interrupt sources and the root context of the live backend.
 *
 * Sources: the fds of the sources attached to an RT CPU are among the
 * CPU's interrupt events (irq.c): the idle waiter or the interrupt
 * thread raises their IRQs in the pipeline.  Fds are watched
 * edge-triggered: an IRQ per arrival, no re-arming system call on the
 * interrupt path, and an fd nobody drains cannot storm; one still
 * readable when the CPU next idles may raise its IRQ once more.  When the
 * pipeline held an IRQ back (no handler yet, or a full buffer),
 * source_end watches the fd again, which reports what arrived meanwhile.
 * A source the pipeline masks for a storm leaves the epoll sets until
 * source_end.
 * A signal becomes an fd through an eventfd its handler writes to.
 *
 * Root context: one ordinary thread ("fusion-root", SCHED_OTHER, any
 * CPU) runs the handlers of the root-side domains.  It starts on first
 * use.
 */
#include "live.h"

#include <fusion/pipeline.h>

#include <fcntl.h>
#include <linux/gpio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct live_source {
	enum ipipe_source_kind kind;
	int fd;		 /* watched */
	bool owned;	 /* opened here: closed at detach */
	bool uio_unmask; /* the UIO driver takes "write 1" to unmask */
	bool unwatched;	 /* masked for a storm: out of the epoll sets */
	int cpu;
	int signo;
	struct sigaction saved;
};

/* Signals are process-wide: the eventfd each attached signal writes. */
static _Atomic int signal_fds[NSIG];

static void signal_to_fd(int sig, siginfo_t *info, void *uc)
{
	char old = live_sud_save_allow();
	int fd = atomic_load(&signal_fds[sig]);

	(void)info;
	(void)uc;
	live_signals++;
	if (fd > 0)
		be_efd_signal(fd);
	live_sud_restore(old);
}

static void *root_main(void *arg)
{
	struct live *live = arg;

	pthread_setname_np(pthread_self(), "fusion-root");
	while (!atomic_load(&live->stopping)) {
		uint32_t seq = atomic_load(&live->root_seq);

		if (atomic_exchange(&live->root_pending, false))
			live->handlers->root_sync(live->nk);
		else
			be_seq_wait(&live->root_seq, seq);
	}
	return NULL;
}

void live_root_post(void *priv)
{
	struct live *live = priv;

	if (!live->root_started) {
		/* Outside the RT world: SCHED_OTHER, on every CPU. */
		if (live_thread_start(&live->root_thread, root_main, live, -1,
				      0, 0)) {
			fprintf(stderr,
				"fusion: cannot start the root thread\n");
			return;
		}
		live->root_started = true;
	}
	atomic_store(&live->root_pending, true);
	be_seq_bump(&live->root_seq);
}

/* Take what the source raised: the number of arrivals to deliver. */
static unsigned long source_collect(struct live_source *src)
{
	uint64_t count = 1;
	uint32_t uio;

	switch (src->kind) {
	case IPIPE_SRC_UIO:
		/* Reading acknowledges: it returns the total count. */
		if (read(src->fd, &uio, sizeof(uio)) != sizeof(uio))
			return 0;
		return 1;
	case IPIPE_SRC_SIGNAL:
		if (read(src->fd, &count, sizeof(count)) != sizeof(count))
			return 0;
		return (unsigned long)count;
	default:
		return 1;
	}
}

nk_hot void live_source_deliver(struct live *live, int cpu, unsigned int irq,
				nk_time_t now)
{
	struct live_source *src = live->sources[irq];
	unsigned long n;

	/* Detached meanwhile (and maybe attached again): the event is stale. */
	if (src == NULL || src->cpu != cpu)
		return;
	n = source_collect(src);
	while (n-- > 0 && live->sources[irq] == src) {
		live->handlers->irq(live->nk, cpu, irq, now);
		if (n > 0) /* the next one's handler starts after this one's */
			now = live_clock();
	}
}

static int open_gpio_line(const struct ipipe_source *s)
{
	struct gpio_v2_line_request req;
	int chip = open(s->path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (chip < 0)
		return -errno;
	memset(&req, 0, sizeof(req));
	req.offsets[0] = s->line;
	req.num_lines = 1;
	snprintf(req.consumer, sizeof(req.consumer), "fusion");
	req.config.flags = GPIO_V2_LINE_FLAG_INPUT;
	if (s->edges & IPIPE_GPIO_RISING)
		req.config.flags |= GPIO_V2_LINE_FLAG_EDGE_RISING;
	if (s->edges & IPIPE_GPIO_FALLING)
		req.config.flags |= GPIO_V2_LINE_FLAG_EDGE_FALLING;
	ret = ioctl(chip, GPIO_V2_GET_LINE_IOCTL, &req) ? -errno : req.fd;
	close(chip);
	return ret;
}

/* The fd behind @s: the caller's, or one opened here (*owned). */
static int source_open(struct live_source *src, const struct ipipe_source *s)
{
	uint32_t one = 1;

	switch (s->kind) {
	case IPIPE_SRC_FD:
		return s->fd;
	case IPIPE_SRC_UIO:
		src->owned = true;
		src->fd = open(s->path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
		if (src->fd < 0)
			return -errno;
		/* Drivers without irqcontrol refuse the write: never unmask. */
		src->uio_unmask =
		    write(src->fd, &one, sizeof(one)) == sizeof(one);
		return src->fd;
	case IPIPE_SRC_GPIO:
		src->owned = true;
		return open_gpio_line(s);
	case IPIPE_SRC_SIGNAL:
		src->owned = true;
		src->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		return src->fd < 0 ? -errno : src->fd;
	default:
		return -ENOTSUP;
	}
}

static void source_close(struct live_source *src)
{
	if (src->kind == IPIPE_SRC_SIGNAL && src->signo > 0) {
		sigaction(src->signo, &src->saved, NULL);
		atomic_store(&signal_fds[src->signo], 0);
	}
	if (src->owned && src->fd >= 0)
		close(src->fd);
	free(src);
}

int live_source_attach(void *priv, int cpu_index, unsigned int irq,
		       const struct ipipe_source *s)
{
	struct live *live = priv;
	struct live_source *src;
	int ret;

	if (s->kind == IPIPE_SRC_SCRIPT)
		return -ENOTSUP;
	if (s->kind == IPIPE_SRC_SIGNAL && atomic_load(&signal_fds[s->signo]))
		return -EEXIST;
	src = calloc(1, sizeof(*src));
	if (src == NULL)
		return -ENOMEM;
	src->kind = s->kind;
	src->cpu = cpu_index;
	src->fd = -1;
	ret = source_open(src, s);
	if (ret < 0) {
		source_close(src);
		return ret;
	}
	src->fd = ret;
	if (s->kind == IPIPE_SRC_SIGNAL) {
		struct sigaction sa = {.sa_sigaction = signal_to_fd,
				       .sa_flags = SA_SIGINFO | SA_RESTART};

		sigemptyset(&sa.sa_mask);
		atomic_store(&signal_fds[s->signo], src->fd);
		if (sigaction(s->signo, &sa, &src->saved)) {
			ret = -errno;
			atomic_store(&signal_fds[s->signo], 0);
			source_close(src);
			return ret;
		}
		src->signo = s->signo;
	}
	ret = live_cpu_watch(&live->cpus[cpu_index], src->fd, irq);
	if (ret) {
		source_close(src);
		return ret;
	}
	live->sources[irq] = src;
	return 0;
}

void live_source_detach(void *priv, unsigned int irq)
{
	struct live *live = priv;
	struct live_source *src = live->sources[irq];

	if (src == NULL)
		return;
	live->sources[irq] = NULL;
	if (!src->unwatched)
		live_cpu_unwatch(&live->cpus[src->cpu], src->fd);
	source_close(src);
}

nk_hot void live_source_end(void *priv, unsigned int irq, bool recheck)
{
	struct live *live = priv;
	struct live_source *src = live->sources[irq];
	uint32_t one = 1;

	if (src == NULL)
		return;
	if (src->uio_unmask && write(src->fd, &one, sizeof(one)) < 0)
		src->uio_unmask = false;
	if (src->unwatched) {
		/* Reports what is there, as a rewatch does. */
		src->unwatched =
		    live_cpu_watch(&live->cpus[src->cpu], src->fd, irq) != 0;
	} else if (recheck) {
		live_cpu_rewatch(&live->cpus[src->cpu], src->fd, irq);
	}
}

/*
 * An edge-triggered fd still reports each new arrival while the pipeline
 * holds its IRQ: a storm's fd leaves the epoll sets, so that the CPU's
 * interrupt thread is not woken for it at all.
 */
void live_source_mask(void *priv, unsigned int irq)
{
	struct live *live = priv;
	struct live_source *src = live->sources[irq];

	if (src == NULL || src->unwatched)
		return;
	live_cpu_unwatch(&live->cpus[src->cpu], src->fd);
	src->unwatched = true;
}

int live_source_fd(void *priv, unsigned int irq)
{
	struct live_source *src = ((struct live *)priv)->sources[irq];

	return src ? src->fd : -EINVAL;
}

/* At fini: every source detached, the root thread stopped. */
void live_sources_stop(struct live *live)
{
	for (unsigned int irq = 0; irq < IPIPE_NR_IRQS; irq++)
		live_source_detach(live, irq);
	if (live->root_started) {
		atomic_store(&live->stopping, true);
		be_seq_bump(&live->root_seq);
		pthread_join(live->root_thread, NULL);
		live->root_started = false;
	}
}
