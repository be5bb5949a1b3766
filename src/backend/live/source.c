/*
 * Interrupt sources and the root context of the live backend.
 *
 * Sources: while an RT CPU runs a thread, one thread per RT CPU
 * ("fusion-src/N", pinned there, at the interrupt priority) waits in
 * epoll on the fds of the sources attached to that CPU and raises their
 * IRQs in the pipeline.  While the CPU idles, its idle waiter watches
 * the same fds and raises their IRQs itself, as it runs the timer: the
 * thread a device wakes is then the only one to wake up, as with a raw
 * epoll thread (see struct live_cpu).  It does so at its own priority,
 * which is enough as long as nothing outside Fusion competes for the RT
 * CPU in real time (what its timing needs anyway).  Fds are watched edge-triggered:
 * an IRQ per arrival, no re-arming system call on the interrupt path,
 * and an fd nobody drains cannot storm; one still readable when the CPU
 * next idles may raise its IRQ once more.  When the pipeline held an IRQ
 * back (no handler yet, or a full buffer), source_end re-arms the fd,
 * which reports what arrived meanwhile.  A signal becomes an fd through
 * an eventfd its handler writes to.
 *
 * Root context: one ordinary thread ("fusion-root", SCHED_OTHER, any
 * CPU) runs the handlers of the root-side domains.  Both threads start
 * on first use.
 */
#include "live.h"

#include <fusion/pipeline.h>

#include <fcntl.h>
#include <linux/gpio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/eventfd.h>
#include <unistd.h>

/* Mark the stop eventfd in a source thread's epoll set, and the
 * doorbell in the idle waiter's. */
#define SOURCE_STOP IPIPE_NR_IRQS
#define IDLE_DOORBELL IPIPE_NR_IRQS
/* How every source fd is watched, in both sets. */
#define SOURCE_EVENTS (EPOLLIN | EPOLLET | EPOLLEXCLUSIVE)

struct live_source {
	enum ipipe_source_kind kind;
	int fd;		 /* watched */
	bool owned;	 /* opened here: closed at detach */
	bool uio_unmask; /* the UIO driver takes "write 1" to unmask */
	int cpu;
	int signo;
	struct sigaction saved;
};

/* Signals are process-wide: the eventfd each attached signal writes. */
static _Atomic int signal_fds[NSIG];

static void signal_to_fd(int sig, siginfo_t *info, void *uc)
{
	uint64_t one = 1;
	char old = live_sud_save_allow();
	int fd = atomic_load(&signal_fds[sig]);
	ssize_t n;

	(void)info;
	(void)uc;
	if (fd > 0)
		n = write(fd, &one, sizeof(one));
	(void)n;
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
			be_seq_wait(&live->root_seq, seq, INT64_MAX);
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

static void *source_main(void *arg)
{
	struct live_cpu *cpu = arg;
	struct live *live = cpu->live;
	char name[16];

	snprintf(name, sizeof(name), "fusion-src/%d", cpu->index);
	pthread_setname_np(pthread_self(), name);
	for (;;) {
		struct epoll_event ev;
		unsigned int irq;

		if (epoll_wait(cpu->src_epfd, &ev, 1, -1) != 1)
			continue;
		irq = ev.data.u32;
		if (irq == SOURCE_STOP)
			return NULL;
		live_nucleus_lock(live);
		live_source_deliver(live, cpu->index, irq);
		live_nucleus_unlock(live);
	}
}

void live_source_deliver(struct live *live, int cpu, unsigned int irq)
{
	struct live_source *src = live->sources[irq];
	unsigned long n;

	/* Detached meanwhile (and maybe attached again): the event is stale. */
	if (src == NULL || src->cpu != cpu)
		return;
	n = source_collect(src);
	while (n-- > 0 && live->sources[irq] == src)
		live->handlers->irq(live->nk, cpu, irq);
}

static struct timespec *idle_timeout(struct live_cpu *c, struct timespec *ts)
{
	nk_time_t until = atomic_load(&c->deadline), left;

	if (until == NK_INFINITE)
		return NULL;
	left = until - live_clock();
	if (left < 0)
		left = 0;
	ts->tv_sec = left / 1000000000;
	ts->tv_nsec = left % 1000000000;
	return ts;
}

int live_idle_poll(struct live_cpu *c, struct live_shadow *s,
		   unsigned int irqs[LIVE_IDLE_EVENTS], bool *more)
{
	struct epoll_event evs[LIVE_IDLE_EVENTS];
	struct timespec ts = {0}, *timeout = &ts;
	uint64_t count;
	int n, nr = 0;

	*more = false;
	if (s) {
		if (be_gate_poll_begin(&s->gate, c->idle_efd))
			return -1;
		/* Replaced as the waiter before it announced the poll: the
		 * one who did it saw no poll to hand over through. */
		if (atomic_load(&c->idle_waiter) != s) {
			be_gate_poll_end(&s->gate);
			return 0;
		}
		/* Read after the announcement: a re-time after it rings. */
		timeout = idle_timeout(c, &ts);
	}
	n = epoll_pwait2(c->idle_epfd, evs, LIVE_IDLE_EVENTS, timeout, NULL);
	if (s)
		be_gate_poll_end(&s->gate);
	*more = n == LIVE_IDLE_EVENTS;
	for (int i = 0; i < n; i++) {
		if (evs[i].data.u32 != IDLE_DOORBELL)
			irqs[nr++] = evs[i].data.u32;
		else if (read(c->idle_efd, &count, sizeof(count)) < 0)
			continue; /* drained already */
	}
	return nr;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void source_fds_close(struct live_cpu *cpu)
{
	close_fd(&cpu->src_epfd);
	close_fd(&cpu->src_stopfd);
	close_fd(&cpu->idle_epfd);
	close_fd(&cpu->idle_efd);
}

/* An epoll set holding the eventfd @efd, reported as @mark. */
static int epoll_with(int efd, unsigned int mark)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = mark};
	int epfd = efd < 0 ? -1 : epoll_create1(EPOLL_CLOEXEC);

	if (epfd >= 0 && epoll_ctl(epfd, EPOLL_CTL_ADD, efd, &ev)) {
		close(epfd);
		epfd = -1;
	}
	return epfd;
}

static int source_thread_start(struct live *live, struct live_cpu *cpu)
{
	struct timespec zero = {0};
	struct epoll_event ev;
	int ret;

	cpu->src_stopfd = eventfd(0, EFD_CLOEXEC);
	cpu->src_epfd = epoll_with(cpu->src_stopfd, SOURCE_STOP);
	cpu->idle_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	cpu->idle_epfd = epoll_with(cpu->idle_efd, IDLE_DOORBELL);
	if (cpu->src_epfd < 0 || cpu->idle_epfd < 0) {
		ret = -errno;
		source_fds_close(cpu);
		return ret;
	}
	ret =
	    live_thread_start(&cpu->src_thread, source_main, cpu,
			      cpu->linux_cpu, live->rt ? LIVE_FIFO_IRQ : 0, 0);
	if (ret) {
		source_fds_close(cpu);
		return ret;
	}
	cpu->src_started = true;
	/* Kernels before 5.11 lack epoll_pwait2: the source thread alone
	 * then watches the sources. */
	atomic_store(&cpu->src_poll,
		     epoll_pwait2(cpu->idle_epfd, &ev, 1, &zero, NULL) >= 0);
	return 0;
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
	struct live_cpu *cpu = &live->cpus[cpu_index];
	struct epoll_event ev = {.events = SOURCE_EVENTS, .data.u32 = irq};
	struct live_source *src;
	int ret;

	if (s->kind == IPIPE_SRC_SCRIPT)
		return -ENOTSUP;
	if (s->kind == IPIPE_SRC_SIGNAL && atomic_load(&signal_fds[s->signo]))
		return -EEXIST;
	if (!cpu->src_started) {
		ret = source_thread_start(live, cpu);
		if (ret)
			return ret;
	}
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
	/* The idle waiter's set first: an arrival goes to it if it waits. */
	if (epoll_ctl(cpu->idle_epfd, EPOLL_CTL_ADD, src->fd, &ev)) {
		ret = -errno;
		source_close(src);
		return ret;
	}
	if (epoll_ctl(cpu->src_epfd, EPOLL_CTL_ADD, src->fd, &ev)) {
		ret = -errno;
		epoll_ctl(cpu->idle_epfd, EPOLL_CTL_DEL, src->fd, NULL);
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
	epoll_ctl(live->cpus[src->cpu].src_epfd, EPOLL_CTL_DEL, src->fd, NULL);
	epoll_ctl(live->cpus[src->cpu].idle_epfd, EPOLL_CTL_DEL, src->fd, NULL);
	source_close(src);
}

void live_source_end(void *priv, unsigned int irq, bool recheck)
{
	struct live *live = priv;
	struct live_source *src = live->sources[irq];
	struct epoll_event ev = {.events = SOURCE_EVENTS, .data.u32 = irq};
	uint32_t one = 1;
	int epfd;

	if (src == NULL)
		return;
	if (src->uio_unmask && write(src->fd, &one, sizeof(one)) < 0)
		src->uio_unmask = false;
	/*
	 * Adding an fd reports what is already there (an exclusive watch
	 * cannot be modified).  The source thread's watch stays behind the
	 * idle waiter's: the source thread raises it.
	 */
	if (recheck) {
		epfd = live->cpus[src->cpu].src_epfd;
		epoll_ctl(epfd, EPOLL_CTL_DEL, src->fd, NULL);
		epoll_ctl(epfd, EPOLL_CTL_ADD, src->fd, &ev);
	}
}

int live_source_fd(void *priv, unsigned int irq)
{
	struct live_source *src = ((struct live *)priv)->sources[irq];

	return src ? src->fd : -EINVAL;
}

/* At fini: every source detached, the threads stopped. */
void live_sources_stop(struct live *live)
{
	uint64_t one = 1;

	for (unsigned int irq = 0; irq < IPIPE_NR_IRQS; irq++)
		live_source_detach(live, irq);
	for (int i = 0; i < live->nr_cpus; i++) {
		struct live_cpu *cpu = &live->cpus[i];

		if (!cpu->src_started)
			continue;
		atomic_store(&cpu->src_poll, false);
		if (write(cpu->src_stopfd, &one, sizeof(one)) == sizeof(one))
			pthread_join(cpu->src_thread, NULL);
		source_fds_close(cpu);
		cpu->src_started = false;
	}
	if (live->root_started) {
		atomic_store(&live->stopping, true);
		be_seq_bump(&live->root_seq);
		pthread_join(live->root_thread, NULL);
		live->root_started = false;
	}
}
