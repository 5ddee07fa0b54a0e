// SPDX-License-Identifier: MIT
/*
 * libFuzzer: any bytes as an initramfs. Parsing must either succeed or
 * leave one line "initramfs: at byte N: ..." with N within the input;
 * after a success, lookups of a few paths (through links, "..", trailing
 * slashes) must end in a node of the tree or in one of Linux's errnos,
 * and every directory's entries must point back to it. ASan sees any read
 * outside the input, which libFuzzer hands over in a buffer of its size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kernel/initramfs.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_NODES 64

static struct ramfs_node nodes[MAX_NODES];

static const char *const paths[] = { "/", "bin/sh",  "/bin/sh/", "a/../b/./c", "..",
				     "x", "l/l/l/l", "/a/b/c/d", "./a" };

static void check_tree(const struct ramfs *fs)
{
	for (size_t i = 0; i < fs->count; i++) {
		const struct ramfs_node *d = &nodes[i];

		if (!ramfs_is_dir(d))
			continue;
		for (const struct ramfs_node *c = ramfs_dir_first(d); c; c = ramfs_dir_next(c))
			if (c->parent != d || c < nodes || c >= nodes + fs->count)
				abort();
	}
}

static void check_lookups(const struct ramfs *fs)
{
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		for (int follow = 0; follow < 2; follow++) {
			const struct ramfs_node *n = NULL;
			int ret = ramfs_lookup(fs, paths[i], follow, &n);

			if (ret == 0 && (n < nodes || n >= nodes + fs->count))
				abort();
			if (ret && ret != -DZ_ENOENT && ret != -DZ_ENOTDIR && ret != -DZ_ELOOP &&
			    ret != -DZ_ENAMETOOLONG)
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ramfs fs;
	char err[128];
	unsigned long at;

	if (initramfs_parse(data, size, &fs, nodes, MAX_NODES, err, sizeof(err))) {
		if (sscanf(err, "initramfs: at byte %lu: ", &at) != 1 || at > size)
			abort();
		return 0;
	}
	check_tree(&fs);
	check_lookups(&fs);
	return 0;
}
