// SPDX-License-Identifier: MIT
/*
 * The file tree: the read-only root from the initramfs (kernel/fs/initramfs.c
 * reads it into nodes), /proc (kernel/fs/procfs.c) mounted on it, and path
 * resolution with Linux's rules. The open files are file_table.c's.
 *
 * Paths are resolved here rather than by ramfs_lookup_at() because they
 * cross into /proc and back (a ".." from /proc, a link in the root that
 * points into /proc, /proc/self/exe that points back), and because the
 * kernel stack is 8 KiB: the walk is a loop with a small explicit stack
 * of what is left of each path while a link's target is walked, not a
 * recursion.
 */
#include "vfs-internal.h"
#include <kernel/errno.h>
#include <kernel/console.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

#define VFS_MAX_NODES 4096
#define LINK_MAX      40 /* links followed in one lookup, as Linux */

static struct ramfs_node nodes[VFS_MAX_NODES];
static struct ramfs rootfs;
static bool have_root;

/* --- the root --- */

static void empty_root(void)
{
	nodes[0] = (struct ramfs_node){ .name = "", .mode = RAMFS_S_IFDIR | 0755, .nlink = 2 };
	nodes[0].parent = &nodes[0];
	rootfs.root = &nodes[0];
	rootfs.count = 1;
}

/**
 * vfs_init() - the root from the initramfs, and /proc
 * @archive: the cpio newc archive (stays in memory: the tree points into it), or NULL
 * @len: its length in bytes
 *
 * A malformed archive gets its one line and leaves an empty root, so the
 * kernel still boots (to its shell) and /proc still works. It may come
 * before clock_init(): /proc's load-average timer starts with the first
 * process (files_open_console()).
 */
void vfs_init(const void *archive, size_t len)
{
	static char err[160];

	have_root = false;
	if (archive) {
		if (initramfs_parse(archive, len, &rootfs, nodes, VFS_MAX_NODES, err, sizeof(err)))
			dz_printk("%s: booting with an empty root\n", err);
		else
			have_root = true;
	}
	if (!have_root)
		empty_root();
	else
		dz_printk("vfs: root from the initramfs: %u bytes, %u nodes\n", (unsigned int)len,
			  (unsigned int)rootfs.count);
	procfs_init();
	timerfd_init();
}

bool vfs_have_root(void)
{
	return have_root;
}

void vfs_root(struct vnode *out)
{
	*out = (struct vnode){ .kind = VN_RAMFS, .rn = rootfs.root };
}

/* --- vnodes --- */

static u32 ramfs_type(const struct vnode *v)
{
	return v->rn->mode & RAMFS_S_IFMT;
}

bool vnode_is_dir(const struct vnode *v)
{
	if (v->kind == VN_RAMFS)
		return ramfs_type(v) == RAMFS_S_IFDIR;
	return v->kind == VN_PROC && procfs_is_dir(v);
}

bool vnode_is_link(const struct vnode *v)
{
	if (v->kind == VN_RAMFS)
		return ramfs_type(v) == RAMFS_S_IFLNK;
	return v->kind == VN_PROC && procfs_is_link(v);
}

static bool is_rootdir(const struct vnode *v)
{
	return v->kind == VN_RAMFS && v->rn == rootfs.root;
}

/* Linux's new_encode_dev(): what stat64 and getdents report. */
static u32 encode_dev(u32 major, u32 minor)
{
	return (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12);
}

static void ramfs_stat(const struct ramfs_node *n, struct kstat *st)
{
	u32 type = n->mode & RAMFS_S_IFMT;

	*st = (struct kstat){
		.dev = encode_dev(0, DEV_RAMFS),
		.rdev = encode_dev(n->rdevmajor, n->rdevminor),
		.ino = (u32)(n - nodes) + 1,
		.mode = n->mode,
		.nlink = n->nlink ? n->nlink : 1,
		.uid = n->uid,
		.gid = n->gid,
		.blksize = 4096,
		.size = type == RAMFS_S_IFDIR ? 0 : n->size,
		.mtime = n->mtime,
	};
	/* As a ramfs: whole pages of memory, in 512-byte blocks. */
	if (type == RAMFS_S_IFREG)
		st->blocks = (st->size + 4095) / 4096 * 8;
}

void vfs_stat(const struct vnode *v, struct kstat *st)
{
	if (v->kind == VN_RAMFS) {
		ramfs_stat(v->rn, st);
	} else if (v->kind == VN_PROC) {
		procfs_stat(v, st);
		st->dev = encode_dev(0, DEV_PROC);
	} else if (v->kind == VN_TIMERFD) {
		/* Linux's anonymous inode: one for all, no file type, 0600 */
		*st = (struct kstat){ .dev = encode_dev(0, DEV_ANON_INODE),
				      .ino = 1,
				      .mode = 0600,
				      .nlink = 1,
				      .blksize = 4096 };
	} else if (v->kind == VN_PIPE) {
		*st = (struct kstat){ .dev = encode_dev(0, DEV_PIPEFS),
				      .ino = pipe_ino(v),
				      .mode = S_IFIFO | 0600,
				      .nlink = 1,
				      .blksize = 4096 };
	} else if (v->rn) {
		ramfs_stat(v->rn, st); /* the console opened by its node: the node's identity */
	} else {
		*st = (struct kstat){ .dev = encode_dev(0, DEV_DEVTMP),
				      .rdev = encode_dev(CONSOLE_MAJ, CONSOLE_MIN),
				      .ino = 3,
				      .mode = S_IFCHR | 0620,
				      .nlink = 1,
				      .blksize = 1024 };
	}
}

bool vnode_is_chr(const struct vnode *v)
{
	return v->kind == VN_RAMFS && ramfs_type(v) == S_IFCHR;
}

int vfs_dev_node(const struct vnode *v)
{
	if (!vnode_is_chr(v) || v->rn->rdevmajor != MEM_MAJ)
		return 0;
	if (v->rn->rdevminor == NULL_MIN)
		return DEV_NODE_NULL;
	return v->rn->rdevminor == ZERO_MIN ? DEV_NODE_ZERO : 0;
}

int vfs_open_device(struct vnode *v)
{
	if (vfs_dev_node(v))
		return 0; /* read and written through the node (file.c) */
	if (!vnode_is_chr(v) || v->rn->rdevmajor != CONSOLE_MAJ ||
	    (v->rn->rdevminor != CONSOLE_MIN && v->rn->rdevminor != TTY_MIN))
		return -ENXIO;
	if (v->rn->rdevminor == TTY_MIN && console_foreground_of(proc_current()) < 0)
		return -ENXIO;
	v->kind = VN_CONSOLE;
	return 0;
}

int vfs_link_target(const struct vnode *v, const char **target, char *tmp)
{
	if (v->kind == VN_PROC)
		return procfs_link_target(v, target, tmp);
	if (v->kind != VN_RAMFS || ramfs_type(v) != RAMFS_S_IFLNK)
		return -EINVAL;
	*target = v->rn->data;
	return (int)v->rn->size;
}

/* --- paths --- */

static bool name_eq(const struct ramfs_node *n, const char *s, u32 len)
{
	return n->namelen == len && !memcmp(n->name, s, len);
}

/* One name in directory dir (neither "." nor ".."); 0 or -ENOENT. */
static int lookup_child(const struct vnode *dir, const char *s, u32 len, struct vnode *out)
{
	if (dir->kind == VN_PROC)
		return procfs_lookup(dir, s, len, out);
	/* /proc is mounted on the root, whether or not the archive has a /proc. */
	if (is_rootdir(dir) && len == 4 && !memcmp(s, "proc", 4)) {
		procfs_root(out);
		return 0;
	}
	for (const struct ramfs_node *c = ramfs_dir_first(dir->rn); c; c = ramfs_dir_next(c))
		if (name_eq(c, s, len)) {
			*out = (struct vnode){ .kind = VN_RAMFS, .rn = c };
			return 0;
		}
	return -ENOENT;
}

static void parent_of(const struct vnode *v, struct vnode *out)
{
	if (v->kind == VN_PROC)
		procfs_parent(v, out);
	else
		*out = (struct vnode){ .kind = VN_RAMFS, .rn = v->rn->parent };
}

/* What is left of one path (the given one, or a link's target) to walk. */
struct seg {
	const char *p;
	u32 len;
};

static void skip_slashes(struct seg *s)
{
	while (s->len && *s->p == '/')
		s->p++, s->len--;
}

struct walk {
	struct seg stack[LINK_MAX]; /* the rest of each path a link interrupted */
	int depth, links;
	char tmp[VFS_LINK_TMP]; /* a /proc link's target made up (self) */
	bool follow, must_dir;
};

/*
 * Enters the link at n found in *cur. The rest of the current path (s)
 * waits on the stack; the target is walked from *cur, or from the root.
 * /proc/self's target lives in w->tmp: it is one name without links, so
 * it is used up before another link can be read into tmp.
 */
static int enter_link(struct walk *w, struct vnode *cur, const struct vnode *n, struct seg *s)
{
	const char *t;
	int len;

	if (++w->links > LINK_MAX)
		return -ELOOP;
	len = vfs_link_target(n, &t, w->tmp);
	if (len < 0)
		return len;
	if (len == 0)
		return -ENOENT;
	if (len >= VFS_PATH_MAX)
		return -ENAMETOOLONG;
	skip_slashes(s);
	if (s->len)
		w->stack[w->depth++] = *s;
	s->p = t;
	s->len = (u32)len;
	if (*t == '/')
		vfs_root(cur);
	return 0;
}

/* One component c (clen bytes) in *cur; last says nothing follows it. */
static int step(struct walk *w, struct vnode *cur, const char *c, u32 clen, struct seg *s,
		bool last)
{
	struct vnode n;
	int ret;

	if (clen > RAMFS_NAME_MAX)
		return -ENAMETOOLONG;
	if (!vnode_is_dir(cur))
		return -ENOTDIR;
	if (clen == 1 && c[0] == '.')
		return 0;
	if (clen == 2 && c[0] == '.' && c[1] == '.') {
		parent_of(cur, &n);
		*cur = n;
		return 0;
	}
	ret = lookup_child(cur, c, clen, &n);
	if (ret)
		return ret;
	if (vnode_is_link(&n) && (!last || w->follow)) {
		/* Links inside a followed last link are followed too, as on Linux. */
		if (last)
			w->follow = true;
		return enter_link(w, cur, &n, s);
	}
	*cur = n;
	return 0;
}

int vfs_resolve(const struct vnode *start, const char *path, u32 len, unsigned int flags,
		struct vnode *out)
{
	struct walk w = { .follow = flags & LOOKUP_FOLLOW };
	struct seg s = { path, len };
	struct vnode cur = *start;

	if (len == 0)
		return -ENOENT;
	if (len >= VFS_PATH_MAX)
		return -ENAMETOOLONG;
	if (*path == '/')
		vfs_root(&cur);
	for (;;) {
		const char *c;
		u32 clen, before;
		bool last;
		int ret;

		skip_slashes(&s);
		if (!s.len) {
			if (!w.depth)
				break;
			s = w.stack[--w.depth];
			continue;
		}
		c = s.p;
		while (s.len && *s.p != '/')
			s.p++, s.len--;
		clen = (u32)(s.p - c);
		before = s.len;
		skip_slashes(&s);
		last = !s.len && !w.depth;
		/* "name/" must be a directory: a link there is followed. */
		if (last && before) {
			w.follow = true;
			w.must_dir = true;
		}
		ret = step(&w, &cur, c, clen, &s, last);
		if (ret)
			return ret;
	}
	if ((w.must_dir || (flags & LOOKUP_DIRECTORY)) && !vnode_is_dir(&cur))
		return -ENOTDIR;
	*out = cur;
	return 0;
}

int vfs_cwd(struct vnode *out)
{
	struct proc *p = proc_current();
	struct vnode root;
	u32 len;

	vfs_root(&root);
	if (!p || !p->cwd[0]) {
		*out = root;
		return 0;
	}
	for (len = 0; len < VFS_CWD_MAX && p->cwd[len]; len++)
		;
	return vfs_resolve(&root, p->cwd, len, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, out);
}

/* The ramfs node's path, written backwards from its end into buf. */
static int ramfs_path(const struct ramfs_node *n, char *buf, u32 size)
{
	u32 at = size - 1, len;

	buf[at] = '\0';
	if (n == rootfs.root) {
		if (size < 2)
			return -ENAMETOOLONG;
		buf[0] = '/';
		buf[1] = '\0';
		return 1;
	}
	for (; n != rootfs.root; n = n->parent) {
		if (n->namelen + 1 > at)
			return -ENAMETOOLONG;
		at -= n->namelen;
		memcpy(buf + at, n->name, n->namelen);
		buf[--at] = '/';
	}
	len = size - 1 - at;
	memmove(buf, buf + at, len + 1);
	return (int)len;
}

int vfs_path(const struct vnode *v, char *buf, u32 size)
{
	if (!size)
		return -ENAMETOOLONG;
	if (v->kind == VN_PROC)
		return procfs_path(v, buf, size);
	if (v->kind == VN_TIMERFD) {
		int n = dz_snprintf(buf, size, "anon_inode:[timerfd]");

		return n < (int)size ? n : -ENAMETOOLONG;
	}
	if (v->kind == VN_PIPE) {
		int n = dz_snprintf(buf, size, "pipe:[%u]", (unsigned int)pipe_ino(v));

		return n < (int)size ? n : -ENAMETOOLONG;
	}
	if (v->kind == VN_CONSOLE) {
		if (size < sizeof("/dev/console"))
			return -ENAMETOOLONG;
		memcpy(buf, "/dev/console", sizeof("/dev/console"));
		return (int)sizeof("/dev/console") - 1;
	}
	return ramfs_path(v->rn, buf, size);
}

/* --- directories --- */

static u8 dtype_of(u32 mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return DT_DIR;
	case S_IFREG:
		return DT_REG;
	case S_IFLNK:
		return DT_LNK;
	case S_IFCHR:
		return DT_CHR;
	default:
		return DT_UNKNOWN;
	}
}

static void dirent_set(struct vfs_dirent *de, const char *name, u32 len, const struct vnode *v)
{
	struct kstat st;

	vfs_stat(v, &st);
	memcpy(de->name, name, len);
	de->name[len] = '\0';
	de->ino = st.ino;
	de->type = dtype_of(st.mode);
}

/* Whether the archive's root has a "proc" of its own (shadowed by /proc). */
static bool root_has_proc(void)
{
	for (const struct ramfs_node *c = ramfs_dir_first(rootfs.root); c; c = ramfs_dir_next(c))
		if (name_eq(c, "proc", 4))
			return true;
	return false;
}

/*
 * The cursor of a ramfs directory: NULL before its first entry, the node
 * last listed, or END once everything (a made-up /proc last, in the root
 * of an archive without one) has been.
 */
#define END ((const void *)&rootfs)

static int ramfs_dirent(const struct vnode *dir, const void **cursor, struct vfs_dirent *de)
{
	const struct ramfs_node *c = *cursor;
	struct vnode v;

	if (*cursor == END)
		return 0;
	c = c ? ramfs_dir_next(c) : ramfs_dir_first(dir->rn);
	if (!c) {
		*cursor = END;
		if (!is_rootdir(dir) || root_has_proc())
			return 0;
		procfs_root(&v);
		dirent_set(de, "proc", 4, &v);
		return 1;
	}
	*cursor = c;
	if (is_rootdir(dir) && name_eq(c, "proc", 4))
		procfs_root(&v);
	else
		v = (struct vnode){ .kind = VN_RAMFS, .rn = c };
	dirent_set(de, c->name, c->namelen, &v);
	return 1;
}

/* The cursor as if entries 2 to index - 1 had just been listed (after an lseek). */
static const void *ramfs_seek(const struct vnode *dir, u32 index)
{
	const struct ramfs_node *c = NULL;

	for (u32 i = 2; i < index; i++) {
		c = c ? ramfs_dir_next(c) : ramfs_dir_first(dir->rn);
		if (!c)
			return END;
	}
	return c;
}

/**
 * vfs_dirent() - one entry of a directory, by index
 * @dir: the directory
 * @index: 0 ".", 1 "..", then its entries in order
 * @cursor: the caller's hint, kept between calls: what the call for
 *	index - 1 left there; NULL to have it found from the start
 * @de: the entry
 *
 * Return: 1 with *de filled, 0 past the last entry.
 */
int vfs_dirent(const struct vnode *dir, u32 index, const void **cursor, struct vfs_dirent *de)
{
	struct vnode v;

	if (index < 2) {
		if (index)
			parent_of(dir, &v);
		else
			v = *dir;
		dirent_set(de, "..", index + 1, &v); /* "." or ".." */
		*cursor = NULL;
		return 1;
	}
	if (dir->kind == VN_PROC)
		return procfs_dirent(dir, index - 2, de);
	if (!*cursor && index > 2)
		*cursor = ramfs_seek(dir, index);
	return ramfs_dirent(dir, cursor, de);
}

/* The length of a kernel string of at most max bytes, or max when it has no NUL. */
static u32 bounded_len(const char *s, u32 max)
{
	u32 n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

/**
 * vfs_exec_image() - the bytes of a program to execute
 * @cwd: the directory a relative path starts from (absolute), or NULL for the root
 * @path: the program's path
 * @data: set to its bytes, in the archive (read-only, valid while the root exists)
 * @size: set to its length
 * @abspath: set to its absolute path, links resolved (for /proc/<pid>/exe)
 * @abslen: the size of abspath
 *
 * Return: 0, -ENOENT, -ENOTDIR, -ELOOP, -ENAMETOOLONG as Linux's lookup,
 * -EACCES when it is no regular file or has no execute bit.
 */
int vfs_exec_image(const char *cwd, const char *path, const void **data, u32 *size, char *abspath,
		   size_t abslen)
{
	struct vnode start, v;
	u32 len = bounded_len(path, VFS_PATH_MAX);
	int ret;

	vfs_root(&start);
	if (cwd && *cwd) {
		ret = vfs_resolve(&start, cwd, bounded_len(cwd, VFS_PATH_MAX),
				  LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &start);
		if (ret)
			return ret;
	}
	ret = vfs_resolve(&start, path, len, LOOKUP_FOLLOW, &v);
	if (ret)
		return ret;
	if (v.kind != VN_RAMFS || ramfs_type(&v) != RAMFS_S_IFREG || !(v.rn->mode & 0111))
		return -EACCES;
	ret = vfs_path(&v, abspath, (u32)(abslen > VFS_PATH_MAX ? VFS_PATH_MAX : abslen));
	if (ret < 0)
		return ret;
	*data = v.rn->data;
	*size = v.rn->size;
	return 0;
}
