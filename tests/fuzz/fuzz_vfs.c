// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the kernel's path resolution (kernel/fs/vfs.c, with
 * /proc from procfs.c and the host shim of tests/vfs): a fixed root with
 * directories, files and links of every kind (relative, absolute, loops,
 * into /proc and back), made as a cpio newc archive here; the input is a
 * working directory, a path and a flags byte, NUL-separated.
 *
 * Beyond "no crash, no sanitizer report", each answer must be Linux's
 * kind of answer, and a success must round-trip: the absolute path
 * vfs_path() gives for the result names the same object again, and has
 * no ".", ".." or empty components. Listing a directory result ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../vfs/shim.h"
#include <kernel/errno.h>
#include <dynhz/host.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char archive[16384];
static size_t arc_len;

static void put(const char *name, unsigned int mode, const char *body)
{
	size_t nlen = strlen(name) + 1, blen = body ? strlen(body) : 0;

	arc_len += (size_t)sprintf(archive + arc_len,
				   "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
				   (unsigned int)arc_len + 1, mode, 0, 0, 1, 0, (unsigned int)blen,
				   0, 0, 0, 0, (unsigned int)nlen, 0);
	memcpy(archive + arc_len, name, nlen);
	arc_len = (arc_len + nlen + 3) & ~(size_t)3;
	if (body)
		memcpy(archive + arc_len, body, blen);
	arc_len = (arc_len + blen + 3) & ~(size_t)3;
}

static void make_root(void)
{
	static const struct {
		const char *name;
		unsigned int mode;
		const char *body;
	} e[] = {
		{ "bin", 040755, NULL },
		{ "bin/busybox", 0100755, "bb" },
		{ "bin/sh", 0120777, "busybox" },
		{ "bin/abs", 0120777, "/bin/busybox" },
		{ "a", 040755, NULL },
		{ "a/b", 040755, NULL },
		{ "a/b/f", 0100644, "f" },
		{ "a/b/up", 0120777, "../../bin" },
		{ "a/b/top", 0120777, "/" },
		{ "a/b/dots", 0120777, "./../b/./" },
		{ "loop", 0120777, "loop" },
		{ "l1", 0120777, "l2" },
		{ "l2", 0120777, "a/b/f/" },
		{ "self", 0120777, "/proc/self" },
		{ "pexe", 0120777, "proc/1/exe" },
		{ "empty", 0120777, "" },
		{ "proc", 040555, NULL },
		{ "TRAILER!!!", 0, NULL },
	};

	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		put(e[i].name, e[i].mode, e[i].body);
}

static bool known_error(int e)
{
	return e == -ENOENT || e == -ENOTDIR || e == -ELOOP || e == -ENAMETOOLONG || e == -EINVAL;
}

/* No "." or ".." or empty component, one leading slash. */
static bool canonical(const char *p, int len)
{
	if (len < 1 || p[0] != '/')
		return false;
	if (len == 1)
		return true;
	for (int i = 0; i < len;) {
		int j = i + 1;

		while (j < len && p[j] != '/')
			j++;
		if (j == i + 1 || (j == i + 2 && p[i + 1] == '.') ||
		    (j == i + 3 && p[i + 1] == '.' && p[i + 2] == '.'))
			return false;
		i = j;
	}
	return true;
}

static bool same(const struct vnode *a, const struct vnode *b)
{
	return a->kind == b->kind && a->rn == b->rn && a->pent == b->pent && a->pid == b->pid;
}

static void list(const struct vnode *dir)
{
	const void *cursor = NULL;
	struct vfs_dirent de;
	u32 i;

	for (i = 0; i < 10000 && vfs_dirent(dir, i, &cursor, &de); i++)
		;
	if (i == 10000)
		abort(); /* a listing that never ends */
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char buf[2][VFS_PATH_MAX + 1], out[VFS_PATH_MAX];
	static bool ready;
	struct vnode root, start, v, again;
	size_t cut[2] = { 0, 0 }, n = 0;
	unsigned int flags;
	int ret, len;

	if (!ready) {
		dynhz_boot_quiet("hz=100");
		make_root();
		dynhz_host_set_quiet(true);
		vfs_init(archive, arc_len);
		shim_procs[1].state = PROC_RUNNING;
		shim_procs[1].pid = 1;
		strcpy(shim_procs[1].exe, "/bin/busybox");
		shim_current = &shim_procs[1];
		ready = true;
	}
	if (size < 1 || size > 2 * VFS_PATH_MAX)
		return 0;
	flags = data[0] & (LOOKUP_FOLLOW | LOOKUP_DIRECTORY);
	for (size_t i = 1; i < size && n < 2; i++)
		if (!data[i])
			cut[n++] = i;
	if (n < 1)
		return 0;
	/* cwd = data[1..cut0), path = data[cut0+1 .. cut1 or end) */
	len = (int)(cut[0] - 1);
	if (len > VFS_PATH_MAX)
		return 0;
	memcpy(buf[0], data + 1, (size_t)len);
	vfs_root(&root);
	start = root;
	if (len && vfs_resolve(&root, buf[0], (u32)len, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &start))
		return 0;
	len = (int)((n > 1 ? cut[1] : size) - cut[0] - 1);
	if (len > VFS_PATH_MAX)
		return 0;
	memcpy(buf[1], data + cut[0] + 1, (size_t)len);
	ret = vfs_resolve(&start, buf[1], (u32)len, flags, &v);
	if (ret) {
		if (!known_error(ret))
			abort();
		return 0;
	}
	if ((flags & LOOKUP_DIRECTORY) && !vnode_is_dir(&v))
		abort();
	len = vfs_path(&v, out, sizeof(out));
	if (len < 0 || !canonical(out, len))
		abort();
	if (vfs_resolve(&root, out, (u32)len, 0, &again) || !same(&v, &again))
		abort();
	if (vnode_is_dir(&v))
		list(&v);
	return 0;
}
