/* SPDX-License-Identifier: MIT */
/*
 * The session segment: its names in /dev/shm, the checks a joiner makes
 * before it trusts a word of it, and its mapping at the fixed base that
 * keeps every pointer inside valid in every member.
 */
#include "session.h"
#include "nucleus.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUSION_VERSION_STRING
#error "the build defines FUSION_VERSION_STRING"
#endif

/* FNV-1a over what must agree for two members to share structures. */
static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

uint64_t session_fingerprint(void)
{
	const size_t sizes[] = {
	    SESSION_LAYOUT,
	    sizeof(void *),
	    sizeof(struct session_header),
	    sizeof(pthread_mutex_t),
	    offsetof(struct session_header, shm),
	};
	uint64_t h = 0xcbf29ce484222325ull;
	struct nk_layout nucleus;

	nk_layout_get(&nucleus);
	h = fnv(h, FUSION_VERSION_STRING, sizeof(FUSION_VERSION_STRING));
	h = fnv(h, &nucleus, sizeof(nucleus));
	return fnv(h, sizes, sizeof(sizes));
}

int session_header_check(const struct session_header *hdr, uint64_t size,
			 uid_t owner, const char **why)
{
	uint32_t state = atomic_load(&hdr->state);

	if (memcmp(hdr->magic, SESSION_MAGIC, sizeof(hdr->magic)) != 0)
		*why = "not a Fusion session (bad magic)";
	else if (hdr->layout != SESSION_LAYOUT)
		*why = "made by another version of Fusion (layout differs)";
	else if (hdr->header_size != sizeof(*hdr) ||
		 hdr->fingerprint != session_fingerprint())
		*why = "made by another build of libfusion (structures differ)";
	else if (hdr->size != size)
		*why =
		    "truncated or resized (its size is not the one recorded)";
	else if (hdr->base == 0 || hdr->base % (uint64_t)sysconf(_SC_PAGESIZE))
		*why = "corrupted (bad base address)";
	else if (hdr->uid != owner)
		*why = "not owned by the user who created it";
	else if (state > SESSION_BROKEN ||
		 memchr(hdr->name, '\0', sizeof(hdr->name)) == NULL)
		*why = "corrupted (bad state or name)";
	else
		return 0;
	return -EPROTO;
}

static int refuse(const char *name, const char *why)
{
	fprintf(stderr, "fusion: session %s refused: %s (/dev/shm/fusion.%s)\n",
		name, why, name);
	return -EPROTO;
}

int session_map_fixed(int fd, int flags, uint64_t base, uint64_t size,
		      void **out)
{
	void *want = (void *)(uintptr_t)base;
	void *mem = mmap(want, size, PROT_READ | PROT_WRITE,
			 flags | MAP_FIXED_NOREPLACE, fd, 0);

	if (mem == MAP_FAILED)
		return errno == EEXIST ? -EADDRINUSE : -errno;
	if (mem != want) { /* a kernel without MAP_FIXED_NOREPLACE */
		munmap(mem, size);
		return -EADDRINUSE;
	}
	*out = mem;
	return 0;
}

static int header_init(struct session_header *hdr, const char *name,
		       const struct session_params *p)
{
	pthread_mutexattr_t attr;
	int ret;

	memcpy(hdr->magic, SESSION_MAGIC, sizeof(hdr->magic));
	hdr->layout = SESSION_LAYOUT;
	hdr->header_size = sizeof(*hdr);
	hdr->fingerprint = session_fingerprint();
	hdr->size = p->size;
	hdr->base = p->base;
	hdr->uid = geteuid();
	hdr->gid = (uint32_t)p->gid;
	hdr->persistent = p->persistent;
	snprintf(hdr->name, sizeof(hdr->name), "%s", name);
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
	ret = pthread_mutex_init(&hdr->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	if (ret)
		return -ret;
	hdr->data = (sizeof(*hdr) + SESSION_SHM_ALIGN - 1) &
		    ~(uint64_t)(SESSION_SHM_ALIGN - 1);
	atomic_store(&hdr->state, SESSION_READY);
	return 0;
}

/* The segment exists: check it, then map it where its header says. */
static int segment_join(int fd, const char *name, struct session_header **out)
{
	struct session_header hdr;
	const char *why;
	struct stat st;
	int ret;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return refuse(name, "not a regular file");
	if (st.st_mode & (S_IWOTH | S_IROTH))
		return refuse(name, "readable or writable by any user");
	if ((uint64_t)st.st_size < sizeof(hdr))
		return refuse(name, "truncated (shorter than its header)");
	if (pread(fd, &hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr))
		return refuse(name, "unreadable header");
	ret = session_header_check(&hdr, (uint64_t)st.st_size, st.st_uid, &why);
	if (ret)
		return refuse(name, why);
	if (atomic_load(&hdr.state) == SESSION_INIT)
		return -EAGAIN; /* its creator died making it */
	return session_map_fixed(fd, MAP_SHARED, hdr.base, hdr.size,
				 (void **)out);
}

static int segment_create(int fd, const char *name,
			  const struct session_params *p,
			  struct session_header **out)
{
	mode_t mode = p->gid != (gid_t)-1 ? 0660 : 0600;
	int ret;

	/* Not the umask's mode, and the group before any byte is written. */
	if (fchmod(fd, mode) ||
	    (p->gid != (gid_t)-1 && fchown(fd, (uid_t)-1, p->gid)) ||
	    ftruncate(fd, (off_t)p->size))
		return -errno;
	ret = session_map_fixed(fd, MAP_SHARED, p->base, p->size, (void **)out);
	if (ret)
		return ret;
	ret = header_init(*out, name, p);
	if (ret) {
		munmap(*out, p->size);
		return ret;
	}
	return 0;
}

int session_segment_open(const char *name, const struct session_params *p,
			 struct session_header **hdr)
{
	char path[FUSION_SESSION_NAME_MAX + 16];
	int fd, ret;

	session_shm_path(name, path, sizeof(path));
	for (;;) {
		fd = shm_open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW,
			      0600);
		if (fd >= 0) {
			ret = segment_create(fd, name, p, hdr);
			if (ret)
				shm_unlink(path);
			break;
		}
		if (errno != EEXIST)
			return -errno;
		fd = shm_open(path, O_RDWR | O_NOFOLLOW, 0);
		if (fd < 0 && errno == ENOENT)
			continue; /* removed since: make it */
		if (fd < 0)
			return -errno;
		ret = segment_join(fd, name, hdr);
		if (ret != -EAGAIN)
			break;
		/* Half made by a creator that died (the caller holds the
		 * control file, so nobody is making it now): make it anew. */
		close(fd);
		shm_unlink(path);
	}
	close(fd);
	return ret;
}

void session_segment_close(struct session_header *hdr)
{
	munmap(hdr, hdr->size);
}
