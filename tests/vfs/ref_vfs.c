// SPDX-License-Identifier: MIT
/*
 * The reference for tests/vfs: the host's own Linux answers the queries
 * of query.h in a tree that cpio extracted, every path resolved with
 * openat2(RESOLVE_IN_ROOT), so that "/" and ".." and absolute links stay
 * inside the tree as they do inside the kernel's root.
 *
 *	ref_vfs DIR < queries
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "query.h"

static int rootfd;
static char rootpath[PATH_MAX];

static int open_in(const char *path, int flags)
{
	struct open_how how = { .flags = (unsigned long long)flags, .resolve = RESOLVE_IN_ROOT };
	long fd = syscall(SYS_openat2, rootfd, path, &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

static void print_err(const char *op, const char *path, int err)
{
	printf("%s %s: err %d\n", op, path, err);
}

static void q_stat(const char *op, const char *path, bool follow)
{
	int fd = open_in(path, O_PATH | (follow ? 0 : O_NOFOLLOW));
	struct stat st;

	if (fd < 0)
		return print_err(op, path, -fd);
	fstatat(fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	close(fd);
	query_print_stat(op, path, st.st_mode, (unsigned int)st.st_nlink, st.st_uid, st.st_gid,
			 (unsigned long long)st.st_size, (long long)st.st_mtime);
}

static void q_readlink(const char *path)
{
	int fd = open_in(path, O_PATH | O_NOFOLLOW);
	char buf[PATH_MAX];
	ssize_t n;

	if (fd < 0)
		return print_err("readlink", path, -fd);
	n = readlinkat(fd, "", buf, sizeof(buf));
	close(fd);
	if (n < 0)
		/* Linux says ENOENT for "" on a non-link O_PATH fd; readlink(2) of a path says EINVAL. */
		return print_err("readlink", path, errno == ENOENT ? EINVAL : errno);
	printf("readlink %s: %.*s\n", path, (int)n, buf);
}

static void q_list(const char *path)
{
	int fd = open_in(path, O_RDONLY | O_DIRECTORY);
	char *names[8192];
	size_t n = 0;
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return print_err("list", path, -fd);
	d = fdopendir(fd);
	while ((de = readdir(d)) && n < 8192) {
		names[n] = malloc(strlen(de->d_name) + 3);
		sprintf(names[n++], "%s/%c", de->d_name, query_dtype(de->d_type));
	}
	closedir(d);
	qsort(names, n, sizeof(*names), query_cmp);
	printf("list %s:", path);
	for (size_t i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");
}

static void q_cat(const char *path)
{
	int fd = open_in(path, O_RDONLY);
	unsigned char buf[1000];
	uint32_t h = QUERY_HASH0;
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return print_err("cat", path, -fd);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		h = query_hash(h, buf, (size_t)n);
		len += (size_t)n;
	}
	close(fd);
	if (n < 0)
		return print_err("cat", path, errno);
	printf("cat %s: len=%zu hash=%08x\n", path, len, h);
}

static void q_cwd(const char *path)
{
	int fd = open_in(path, O_PATH | O_DIRECTORY);
	char link[64], buf[PATH_MAX];
	size_t rl = strlen(rootpath);
	ssize_t n;

	if (fd < 0)
		return print_err("cwd", path, -fd);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	printf("cwd %s: %s\n", path, strlen(buf) == rl ? "/" : buf + rl);
}

static void q_open(const char *op, const char *path, int flags)
{
	int fd = open_in(path, flags);
	struct stat st;

	if (fd < 0)
		return print_err(op, path, -fd);
	fstat(fd, &st);
	close(fd);
	printf("%s %s: ok dir=%d\n", op, path, S_ISDIR(st.st_mode));
}

static void q_access(const char *op, const char *path, int mode)
{
	int fd = open_in(path, O_PATH);

	if (fd < 0)
		return print_err(op, path, -fd);
	if (faccessat(fd, "", mode, AT_EMPTY_PATH))
		print_err(op, path, errno);
	else
		printf("%s %s: ok\n", op, path);
	close(fd);
}

int main(int argc, char **argv)
{
	static char line[8192];

	if (argc != 2 || !realpath(argv[1], rootpath)) {
		fprintf(stderr, "usage: ref_vfs DIR < queries\n");
		return 2;
	}
	rootfd = open(rootpath, O_PATH | O_DIRECTORY);
	while (fgets(line, sizeof(line), stdin)) {
		char *tab = strchr(line, '\t'), *path;

		if (!tab)
			continue;
		*tab = '\0';
		path = tab + 1;
		path[strcspn(path, "\n")] = '\0';
		if (!strcmp(line, "stat"))
			q_stat("stat", path, true);
		else if (!strcmp(line, "lstat"))
			q_stat("lstat", path, false);
		else if (!strcmp(line, "readlink"))
			q_readlink(path);
		else if (!strcmp(line, "list"))
			q_list(path);
		else if (!strcmp(line, "cat"))
			q_cat(path);
		else if (!strcmp(line, "cwd"))
			q_cwd(path);
		else if (!strcmp(line, "open_r"))
			q_open(line, path, O_RDONLY);
		else if (!strcmp(line, "open_dir"))
			q_open(line, path, O_RDONLY | O_DIRECTORY);
		else if (!strcmp(line, "open_nofollow"))
			q_open(line, path, O_RDONLY | O_NOFOLLOW);
		else if (!strcmp(line, "access_r"))
			q_access(line, path, R_OK);
		else if (!strcmp(line, "access_x"))
			q_access(line, path, X_OK);
	}
	return 0;
}
