/* SPDX-License-Identifier: MIT */
/*
 * The initramfs: a cpio "newc" archive read in place into a read-only
 * ramfs. Nodes come from an array the caller supplies and point into the
 * archive for their names and data, so the archive must outlive the tree.
 * Freestanding: the kernel uses it, the host tests it.
 */
#ifndef KERNEL_INITRAMFS_H
#define KERNEL_INITRAMFS_H

#include <dynhz/types.h>
#include <dynhz/errno.h>

/* File types in a mode, with Linux's values. */
#define RAMFS_S_IFMT  0170000
#define RAMFS_S_IFDIR 0040000
#define RAMFS_S_IFREG 0100000
#define RAMFS_S_IFLNK 0120000

#define RAMFS_NAME_MAX 255  /* longest path component */
#define RAMFS_PATH_MAX 4096 /* longest path, its NUL included */
#define RAMFS_LINK_MAX 40   /* symbolic links followed in one lookup */

struct ramfs_node {
	const char *name; /* last component, not NUL-terminated; "" for the root */
	u32 namelen;
	u32 mode; /* type and permissions */
	u32 uid, gid, mtime, nlink;
	u32 ino, devmajor, devminor, rdevmajor, rdevminor;
	u32 size;		   /* bytes of data */
	const void *data;	   /* a file's contents or a link's target, inside the archive */
	struct ramfs_node *parent; /* the root is its own parent */
	struct ramfs_node *child;  /* first entry of a directory */
	struct ramfs_node *last;   /* last entry, where the next one goes */
	struct ramfs_node *next;   /* next entry of the same directory */
};

struct ramfs {
	struct ramfs_node *root;
	size_t count; /* nodes used, the root and made-up parents included */
};

/*
 * Reads the archive buf[0..len) into fs, using at most max_nodes of nodes
 * (at least one, for the root). Returns 0, or -DZ_EINVAL with one line in
 * err ("initramfs: at byte N: what") when the archive is malformed.
 */
int initramfs_parse(const void *buf, size_t len, struct ramfs *fs, struct ramfs_node *nodes,
		    size_t max_nodes, char *err, size_t errlen);

/*
 * Finds path (absolute, or relative to dir; NULL dir means the root).
 * A symbolic link as the last component is followed only when follow is
 * set. Returns 0 with *out set, or -DZ_ENOENT, -DZ_ENOTDIR, -DZ_ELOOP,
 * -DZ_ENAMETOOLONG as Linux would.
 */
int ramfs_lookup_at(const struct ramfs *fs, const struct ramfs_node *dir, const char *path,
		    bool follow, const struct ramfs_node **out);
int ramfs_lookup(const struct ramfs *fs, const char *path, bool follow,
		 const struct ramfs_node **out);

/* A directory's entries, in archive order: first, then next until NULL. */
const struct ramfs_node *ramfs_dir_first(const struct ramfs_node *dir);
const struct ramfs_node *ramfs_dir_next(const struct ramfs_node *node);

static inline bool ramfs_is_dir(const struct ramfs_node *n)
{
	return (n->mode & RAMFS_S_IFMT) == RAMFS_S_IFDIR;
}

static inline bool ramfs_is_link(const struct ramfs_node *n)
{
	return (n->mode & RAMFS_S_IFMT) == RAMFS_S_IFLNK;
}

#endif
