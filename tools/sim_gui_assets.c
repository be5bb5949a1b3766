/* SPDX-License-Identifier: MIT */
/* The GUI's files, found beside the running binary (sim_gui_assets.h). */
#include "sim_gui_assets.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ASSETS_DIR "share/fusion/sim-gui"

int sim_gui_assets_open(void)
{
	char exe[PATH_MAX], path[PATH_MAX + sizeof(ASSETS_DIR) + 4];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;
	int fd;

	if (len < 0)
		return -errno;
	exe[len] = '\0';
	/* EXE is PREFIX/bin/fusion: the folder is PREFIX/share/... */
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/../" ASSETS_DIR, exe);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr,
			"fusion sim: the GUI's files are missing: %s: %s\n",
			path, strerror(errno));
		return -errno;
	}
	return fd;
}

static const struct {
	const char *ext, *type;
} types[] = {
    {".html", "text/html; charset=utf-8"},
    /* Module scripts load only with a JavaScript media type. */
    {".js", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".svg", "image/svg+xml"},
};

static const char *type_of(const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t ext = strlen(types[i].ext);

		if (len > ext && strcmp(name + len - ext, types[i].ext) == 0)
			return types[i].type;
	}
	return NULL;
}

int sim_gui_asset_open(int dir, const char *name, const char **type,
		       off_t *size)
{
	struct stat st;
	int fd;

	/* The folder is flat: a name with a '/' (or "..", or a dot file)
	 * is no file of ours, whatever it resolves to. */
	*type = type_of(name);
	if (!*type || name[0] == '.' || strchr(name, '/'))
		return -ENOENT;
	fd = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -ENOENT;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ENOENT;
	}
	*size = st.st_size;
	return fd;
}
