/* SPDX-License-Identifier: MIT */
/*
 * This process's session: joining, leaving, and removing the session
 * with its last member, who alone can take the control file's members
 * byte exclusively (ctl.c says what each byte is for).
 */
#include "session.h"
#include "../backend/common/options.h"

#include <fusion/instance.h>
#include <fusion/runtime.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <linux/futex.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t session_guard = PTHREAD_MUTEX_INITIALIZER;
static struct session session_self;
static struct session *_Atomic session_cur;
static bool session_atexit;

struct session *session_current(void)
{
	return atomic_load_explicit(&session_cur, memory_order_acquire);
}

const char *fusion_session_name(void)
{
	struct session *s = session_current();

	return s ? s->name : NULL;
}

/* The FUSION_SESSION_* options, which the runtime has checked. */
static int session_params(struct session_params *p)
{
	struct be_options o = {0};

	for (int id = BE_OPT_SESSION_SIZE; id <= BE_OPT_SESSION_PERSIST; id++)
		if (be_option_get(id, &o))
			return -EINVAL;
	p->size = o.session_size ? o.session_size
				 : (uint64_t)BE_SESSION_SIZE_MIB << 20;
	p->base = o.session_base ? o.session_base : BE_SESSION_BASE;
	p->gid = o.session_group ? o.session_gid : (gid_t)-1;
	p->persistent = o.session_persist;
	return 0;
}

static bool on_sim(void)
{
	struct nk_instance *nk = fusion_runtime_peek();
	struct be_options o = {0};

	if (nk)
		return strcmp(nk_instance_backend(nk), "sim") == 0;
	return be_option_get(BE_OPT_BACKEND, &o) == 0 && o.backend &&
	       strcmp(o.backend, "sim") == 0;
}

/*
 * Open the control file of @name, locked exclusively: a file still
 * linked (a last member may have removed the one we opened), a regular
 * file no other user may touch.
 */
static int ctl_open(const char *name, const struct session_params *p)
{
	char path[FUSION_SESSION_NAME_MAX + 32];
	struct stat st;
	int fd;

	session_ctl_path(name, path, sizeof(path));
	for (;;) {
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			  p->gid != (gid_t)-1 ? 0660 : 0600);
		if (fd < 0)
			return -errno;
		if (session_ctl_lock(fd, SESSION_CTL_GUARD, F_WRLCK, true) ||
		    fstat(fd, &st)) {
			close(fd);
			return -errno;
		}
		if (st.st_nlink > 0)
			break;
		close(fd);
	}
	if (!S_ISREG(st.st_mode) || (st.st_mode & (S_IROTH | S_IWOTH))) {
		close(fd);
		return -EACCES;
	}
	if (st.st_uid == geteuid() && st.st_size == 0 &&
	    ((p->gid != (gid_t)-1 && fchown(fd, (uid_t)-1, p->gid)) ||
	     fchmod(fd, p->gid != (gid_t)-1 ? 0660 : 0600))) {
		close(fd);
		return -errno;
	}
	return fd;
}

static bool session_exists(const char *name)
{
	char path[FUSION_SESSION_NAME_MAX + 32];
	struct stat st;

	snprintf(path, sizeof(path), "/dev/shm/fusion.%s", name);
	return lstat(path, &st) == 0;
}

static void ctl_unlink(const char *name)
{
	char path[FUSION_SESSION_NAME_MAX + 32];

	session_ctl_path(name, path, sizeof(path));
	unlink(path);
}

static void session_remove(const char *name)
{
	char path[FUSION_SESSION_NAME_MAX + 32];

	session_shm_path(name, path, sizeof(path));
	shm_unlink(path);
	ctl_unlink(name);
}

static int session_leave(bool exiting);

static void session_exit(void)
{
	session_leave(true);
}

/* A child of a member is no member: it lets go of the mapping and of
 * the control file (whose lock stays its parent's). */
static void session_forked(void)
{
	struct session *s = session_current();

	if (s == NULL)
		return;
	atomic_store_explicit(&session_cur, NULL, memory_order_relaxed);
	session_segment_close(s->hdr);
	close(s->ctl_fd);
}

static int join_locked(const char *name, int fd)
{
	struct session_params p;
	struct session_header *hdr;
	int ret, slot;

	ret = session_params(&p);
	if (ret == 0)
		ret = session_segment_open(name, &p, &hdr);
	if (ret)
		return ret;
	ret = session_lock(hdr);
	if (ret == 0) {
		ret = session_member_add(hdr, fd, &slot);
		session_unlock(hdr);
	}
	if (ret) {
		session_segment_close(hdr);
		return ret;
	}
	session_self.hdr = hdr;
	session_self.ctl_fd = fd;
	session_self.slot = slot;
	snprintf(session_self.name, sizeof(session_self.name), "%s", name);
	return 0;
}

/* Does the kernel release the locks of a process that dies holding them
 * (its robust futex list)?  qemu-user does not: a killed member holding
 * the session's lock would hang every other. */
static bool robust_futexes(void)
{
	struct robust_list_head *head;
	size_t len;

	return syscall(SYS_get_robust_list, 0, &head, &len) == 0;
}

int fusion_session_join(const char *name)
{
	struct session_params p;
	int fd, ret;

	if (!session_name_valid(name))
		return -EINVAL;
	if (on_sim())
		return -ENOTSUP;
	if (!robust_futexes())
		return -ENOSYS;
	pthread_mutex_lock(&session_guard);
	ret = session_current() ? -EBUSY : session_params(&p);
	fd = ret ? ret : ctl_open(name, &p);
	if (fd < 0) {
		pthread_mutex_unlock(&session_guard);
		return fd;
	}
	ret = session_ctl_lock(fd, SESSION_CTL_MEMBERS, F_RDLCK, false);
	if (ret == 0)
		ret = join_locked(name, fd);
	if (ret && !session_exists(name))
		ctl_unlink(name); /* ours, made for nothing */
	session_ctl_lock(fd, SESSION_CTL_GUARD, F_UNLCK, false);
	if (ret) {
		close(fd);
	} else {
		/* Members copy messages into each other's buffers
		 * (process_vm_writev): where Yama limits that to a
		 * process's ancestors, let the others in.  No Yama: an
		 * error, and nothing to let in. */
		(void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY);
		atomic_store_explicit(&session_cur, &session_self,
				      memory_order_release);
		if (!session_atexit)
			session_atexit =
			    atexit(session_exit) == 0 &&
			    pthread_atfork(NULL, NULL, session_forked) == 0;
	}
	pthread_mutex_unlock(&session_guard);
	return ret;
}

/*
 * Leave, or with @exiting, as the process exits: an instance still placed
 * then (its creator did not end it) may be run by its threads until the
 * process is gone, so its member keeps its slot and blocks, which the
 * others free once it is dead, and its mapping.
 */
static int session_leave(bool exiting)
{
	struct session *s;
	bool persistent;

	pthread_mutex_lock(&session_guard);
	s = session_current();
	if (s == NULL || (s->placed && !exiting)) {
		pthread_mutex_unlock(&session_guard);
		return s ? -EBUSY : -ENOENT;
	}
	atomic_store_explicit(&session_cur, NULL, memory_order_release);
	persistent = s->hdr->persistent;
	if (!s->placed) {
		if (session_lock(s->hdr) == 0) {
			session_member_remove(s->hdr, s->slot);
			session_unlock(s->hdr);
		}
		session_segment_close(s->hdr);
	}
	session_ctl_lock(s->ctl_fd, SESSION_CTL_MEMBERS, F_UNLCK, false);
	session_ctl_lock(s->ctl_fd, SESSION_CTL_GUARD, F_WRLCK, true);
	if (session_ctl_lock(s->ctl_fd, SESSION_CTL_MEMBERS, F_WRLCK, false) ==
		0 &&
	    !persistent)
		session_remove(s->name);
	/* With its locks: a placed member's slot stays locked until it is
	 * dead, so that nobody frees its blocks under its threads. */
	if (s->placed)
		session_ctl_lock(s->ctl_fd, SESSION_CTL_GUARD, F_UNLCK, false);
	else
		close(s->ctl_fd);
	pthread_mutex_unlock(&session_guard);
	return 0;
}

int fusion_session_leave(void)
{
	return session_leave(false);
}
