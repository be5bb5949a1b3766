/* SPDX-License-Identifier: MIT */
/*
 * fusion ps: the Fusion programs of this machine (their status pages)
 * and its sessions, their member processes with each one's threads and
 * skin objects, and their named shared memory, read without joining
 * them or taking their lock (src/session/observe.c); fusion ps PID: one
 * program's threads, objects and IRQs.  A member that does not answer
 * through its status page (stopped, stuck, dead) has its threads read
 * from the session's instance itself (src/nucleus/peek.c).
 */
#include "tool.h"
#include "nucleus/peek.h"
#include "runtime/status_page.h"
#include "session/session.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>

#include <errno.h>
#include <sys/mman.h>
#include <stdio.h>
#include <string.h>

static const char *state_name(uint32_t state)
{
	static const char *const names[] = {"making", "ready", "BROKEN"};

	return state <= SESSION_BROKEN ? names[state] : "?";
}

static int members_of(const struct session_header *h)
{
	int n = 0;

	for (int i = 0; i < SESSION_MAX_MEMBERS; i++)
		n += h->members[i].pid != 0;
	return n;
}

static unsigned long long used_of(const struct session_header *h)
{
	unsigned long long used = 0;

	for (int i = 0; i < SESSION_MAX_SHM; i++)
		used += h->shm[i].offset ? h->shm[i].size : 0;
	return used;
}

/* What ps reads of a session: a member's page, the instance's threads. */
struct ps_buffers {
	struct status_page page;
	struct nk_status_thread threads[STATUS_THREADS];
	int members[STATUS_THREADS];
	unsigned int total;
	int error; /* of the instance's read: 0 or -errno */
};

/* The threads of the instance in session @name, into @b. */
static void read_instance(const char *name, struct ps_buffers *b)
{
	struct session_header h;
	struct nk_peek_segment seg = {0};
	const void *map;

	b->total = 0;
	b->error = session_view(name, &h, &map);
	if (b->error)
		return;
	for (int i = 0; i < SESSION_MAX_SHM; i++)
		if (h.shm[i].offset && h.shm[i].users &&
		    strcmp(h.shm[i].name, SESSION_NUCLEUS_BLOCK) == 0)
			seg = (struct nk_peek_segment){map, h.base, h.size,
						       h.shm[i].offset,
						       h.shm[i].size};
	b->error = seg.map ? nk_peek_threads(&seg, b->threads, b->members,
					     STATUS_THREADS, &b->total)
			   : -ENOENT;
	munmap((void *)map, h.size);
}

/*
 * A member's threads and objects, from its status page; unless it does
 * not answer at once (ps never waits on a busy real-time program): then
 * its threads as the instance holds them, without their Linux ids.
 */
static void show_member(int slot, pid_t pid, bool alive, struct ps_buffers *b)
{
	struct status_page *page = &b->page;
	unsigned int n = 0;

	if (alive && status_read(pid, page, 500) == 0) {
		fusion_status_print_contents(stdout, page);
		return;
	}
	for (unsigned int i = 0; i < b->total && i < STATUS_THREADS; i++)
		if (b->members[i] == slot)
			page->threads[n++] = b->threads[i];
	if (b->error == 0 && n == 0)
		return;
	printf("    %s; %s:\n", alive ? "no answer" : "gone",
	       b->error ? "the session's instance is unreadable"
			: "its threads in the session's instance");
	if (b->error) {
		printf("    %s\n", b->error == -EAGAIN
				       ? "its nucleus lock stayed held "
					 "(a member stuck or dead in it)"
				   : b->error == -EPROTO
				       ? "no whole instance of this build there"
				       : strerror(-b->error));
		return;
	}
	page->st.nr_threads = n;
	page->nr_objects = 0;
	fusion_status_print_contents(stdout, page);
}

static int show(const char *name, void *arg)
{
	char ctl[FUSION_SESSION_NAME_MAX + 32];
	struct ps_buffers *bufs = arg;
	struct session_header h;
	int ret = session_snapshot(name, &h);
	int fd;

	if (ret) {
		printf("%-20s (unreadable: %s)\n", name,
		       ret == -EPROTO ? "not a session of this build"
				      : strerror(-ret));
		return 0;
	}
	printf("%-20s %-7s %6llu KiB %6llu KiB %s %7d\n", name,
	       state_name(h.state), (unsigned long long)h.size >> 10,
	       used_of(&h) >> 10, h.persistent ? "persist" : "       ",
	       members_of(&h));
	/* A member holds its slot's lock of the control file while alive. */
	session_ctl_path(name, ctl, sizeof(ctl));
	fd = open(ctl, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	read_instance(name, bufs);
	for (int i = 0; i < SESSION_MAX_MEMBERS; i++) {
		const struct session_member *m = &h.members[i];
		bool alive = fd >= 0 && session_member_alive(fd, i);

		if (m->pid == 0)
			continue;
		printf("  member %-8d %-5s %-16s uid %u\n", (int)m->pid,
		       fd < 0  ? "?"
		       : alive ? "alive"
			       : "dead",
		       m->comm, (unsigned int)m->uid);
		show_member(i, m->pid, alive, bufs);
	}
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < SESSION_MAX_SHM; i++) {
		const struct session_shm *b = &h.shm[i];

		if (b->offset == 0)
			continue;
		/* The block of the instance in the session, one member's. */
		if (strcmp(b->name, SESSION_NUCLEUS_BLOCK) == 0 && b->users)
			printf("  nucleus of member %-8d %10llu bytes\n",
			       (int)h
				   .members[__builtin_ctzll(b->users) %
					    SESSION_MAX_MEMBERS]
				   .pid,
			       (unsigned long long)b->size);
		else
			printf("  shm    %-31s %10llu bytes, %d holders\n",
			       b->name, (unsigned long long)b->size,
			       __builtin_popcountll(b->users));
	}
	return 0;
}

/* One line per program with a status page; pages of the dead go. */
static void show_programs(void)
{
	static const char prefix[] = "fusion-status.";
	struct status_page *page = malloc(sizeof(*page));
	DIR *dir = opendir("/dev/shm");
	struct dirent *d;

	if (page == NULL || dir == NULL) {
		free(page);
		if (dir)
			closedir(dir);
		return;
	}
	printf("%-8s %-16s %-7s %7s\n", "PID", "PROGRAM", "BACKEND", "THREADS");
	while ((d = readdir(dir)) != NULL) {
		pid_t pid;
		int ret;

		if (strncmp(d->d_name, prefix, sizeof(prefix) - 1) != 0)
			continue;
		pid = fusion_parse_pid(d->d_name + sizeof(prefix) - 1);
		ret = pid ? status_read(pid, page, 500) : -EINVAL;
		if (ret == 0 || ret == -ESRCH)
			printf("%-8d %-16s %-7s %7u\n", (int)pid, page->comm,
			       page->backend, ret ? 0 : page->st.nr_threads);
		else if (ret == -ENOENT)
			shm_unlink(d->d_name); /* its program is gone */
		else
			printf("%-8s (%s: %s)\n",
			       d->d_name + sizeof(prefix) - 1, d->d_name,
			       strerror(-ret));
	}
	closedir(dir);
	free(page);
}

void fusion_ps_usage(FILE *out)
{
	fprintf(out, "usage: fusion ps [PID]\n"
		     "  the Fusion programs of this machine and its sessions "
		     "(state, size, shared\n"
		     "  memory in use, members: pid, alive or dead, program, "
		     "user, threads and\n"
		     "  skin objects; named shared memory); with PID, that "
		     "program's RT CPUs,\n"
		     "  threads (skins, priorities, state, what each waits "
		     "for, CPU time, switches,\n"
		     "  mode switches), skin objects (count, owner, waiters) "
		     "and IRQs\n");
}

int fusion_ps(int argc, char **argv)
{
	struct ps_buffers *buffers;
	struct status_page *page;
	pid_t pid;
	int ret;

	if (argc > 2 || (argc == 2 && (pid = fusion_parse_pid(argv[1])) == 0)) {
		fusion_ps_usage(stderr);
		return FUSION_EXIT_USAGE;
	}
	if (argc == 2) {
		page = malloc(sizeof(*page));
		if (page == NULL)
			return 1;
		ret = fusion_status_read(pid, page);
		if (ret == 0)
			fusion_status_print(stdout, page, NULL);
		free(page);
		return ret ? 1 : 0;
	}
	show_programs();
	buffers = malloc(sizeof(*buffers));
	if (buffers == NULL)
		return 1;
	printf("\n%-20s %-7s %10s %10s %7s %7s\n", "SESSION", "STATE", "SIZE",
	       "USED", "", "MEMBERS");
	ret = session_each(show, buffers);
	free(buffers);
	if (ret < 0) {
		fprintf(stderr, "fusion ps: /dev/shm: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}
