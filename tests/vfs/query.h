/* SPDX-License-Identifier: MIT */
/*
 * The queries both test_vfs (through the kernel's system calls) and
 * ref_vfs (through the host's Linux, in the extracted tree) answer, one
 * line each, in one format, so that check.sh can diff the two. A query
 * is "op<TAB>path" on stdin:
 *
 *	stat lstat readlink list cat cwd open_r open_dir open_nofollow access_r access_x
 */
#ifndef TESTS_VFS_QUERY_H
#define TESTS_VFS_QUERY_H

#include <stdio.h>
#include <stdint.h>
#include <string.h>

/* The d_type of a directory entry, as a letter (host and kernel numbers are the same). */
static inline char query_dtype(unsigned int t)
{
	switch (t) {
	case 4:
		return 'd';
	case 8:
		return 'f';
	case 10:
		return 'l';
	case 2:
		return 'c';
	default:
		return '?';
	}
}

/* FNV-1a of a file's bytes. */
static inline uint32_t query_hash(uint32_t h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

#define QUERY_HASH0 2166136261u

/* The stat line: size is left out for directories (the host's say 4096), mtime for links. */
static inline void query_print_stat(const char *op, const char *path, unsigned int mode,
				    unsigned int nlink, unsigned int uid, unsigned int gid,
				    unsigned long long size, long long mtime)
{
	printf("%s %s: mode=%o nlink=%u uid=%u gid=%u", op, path, mode, nlink, uid, gid);
	if ((mode & 0170000) != 0040000)
		printf(" size=%llu", size);
	if ((mode & 0170000) != 0120000)
		printf(" mtime=%lld", mtime);
	printf("\n");
}

static int query_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

#endif
