// SPDX-License-Identifier: MIT
/*
 * The initramfs reader: a cpio "newc" archive (what the kernel gets as a
 * multiboot module) read in place into a tree of nodes, and the lookup of
 * paths in that tree, with Linux's rules for ".", ".." and symbolic links.
 *
 * Every header field is checked against the end of the buffer before it
 * is used: the archive comes from outside the kernel. A truncated archive
 * fails (no TRAILER!!!) rather than yielding part of a root file system,
 * so a program is never missing silently; bytes after the trailer (cpio
 * pads to 512) are ignored.
 */
#include <kernel/initramfs.h>

#define HDR_LEN	  110 /* "070701", then 13 fields of 8 hex digits */
#define FIELD_LEN 8
#define MAGIC_LEN 6
#define N_FIELDS  13
#define TRAILER	  "TRAILER!!!"
#define DIR_MODE  (RAMFS_S_IFDIR | 0755) /* for parents the archive leaves out */
#define ALIGN4(x) (((x) + 3) & ~(size_t)3)

/* The header's fields, in their order in the archive. */
enum {
	F_INO,
	F_MODE,
	F_UID,
	F_GID,
	F_NLINK,
	F_MTIME,
	F_SIZE,
	F_DEVMAJ,
	F_DEVMIN,
	F_RDEVMAJ,
	F_RDEVMIN,
	F_NAMESIZE,
	F_CHECK
};

struct parser {
	const u8 *buf;
	size_t len;
	struct ramfs *fs;
	struct ramfs_node *nodes;
	size_t max;
	char *err;
	size_t errlen, errpos;
};

/* --- the error line, without printf --- */

static void err_str(struct parser *p, const char *s)
{
	while (*s && p->errpos + 1 < p->errlen)
		p->err[p->errpos++] = *s++;
	if (p->errlen)
		p->err[p->errpos] = '\0';
}

static void err_num(struct parser *p, size_t v)
{
	char digits[24];
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n) {
		char one[2] = { digits[--n], '\0' };

		err_str(p, one);
	}
}

/* One line: "initramfs: at byte OFF: WHAT", then SUFFIX (may be NULL). */
static int fail(struct parser *p, size_t off, const char *what, const char *suffix)
{
	p->errpos = 0;
	err_str(p, "initramfs: at byte ");
	err_num(p, off);
	err_str(p, ": ");
	err_str(p, what);
	if (suffix)
		err_str(p, suffix);
	return -DZ_EINVAL;
}

/* --- the tree --- */

static bool same(const char *a, const char *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static bool name_is(const struct ramfs_node *n, const char *s, size_t len)
{
	return n->namelen == len && same(n->name, s, len);
}

static struct ramfs_node *find_child(const struct ramfs_node *dir, const char *s, size_t len)
{
	for (struct ramfs_node *c = dir->child; c; c = c->next)
		if (name_is(c, s, len))
			return c;
	return NULL;
}

static struct ramfs_node *new_node(struct parser *p, struct ramfs_node *dir, const char *s,
				   size_t len)
{
	struct ramfs_node *n;

	if (p->fs->count >= p->max)
		return NULL;
	n = &p->nodes[p->fs->count++];
	*n = (struct ramfs_node){
		.name = s, .namelen = (u32)len, .mode = DIR_MODE, .nlink = 2, .parent = dir
	};
	if (dir->last)
		dir->last->next = n;
	else
		dir->child = n;
	dir->last = n;
	return n;
}

/* --- one header --- */

static int hex_digit(u8 c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The 13 fields at off (HDR_LEN bytes known to be there); 0 or an error. */
static int read_fields(struct parser *p, size_t off, u32 *f)
{
	const u8 *h = p->buf + off;

	if (h[0] != '0' || h[1] != '7' || h[2] != '0' || h[3] != '7' || h[4] != '0' ||
	    (h[5] != '1' && h[5] != '2'))
		return fail(p, off, "bad magic", " (not a cpio newc archive)");
	for (int i = 0; i < N_FIELDS; i++) {
		size_t at = MAGIC_LEN + (size_t)i * FIELD_LEN;

		f[i] = 0;
		for (int j = 0; j < FIELD_LEN; j++) {
			int d = hex_digit(h[at + j]);

			if (d < 0)
				return fail(p, off + at + j, "not hex", NULL);
			f[i] = f[i] << 4 | (u32)d;
		}
	}
	return 0;
}

/* --- placing an entry --- */

/* Skips "/", "./" and repeated slashes, which name nothing. */
static size_t skip_slashes(const char *s, size_t i, size_t len)
{
	for (;;) {
		if (i < len && s[i] == '/')
			i++;
		else if (i + 1 < len && s[i] == '.' && s[i + 1] == '/')
			i += 2;
		else if (i + 1 == len && s[i] == '.')
			i++; /* "." or "a/.": the directory itself */
		else
			return i;
	}
}

static void set_meta(struct ramfs_node *n, const u32 *f, const u8 *data)
{
	struct ramfs_node *keep = n->child;
	bool dir = (f[F_MODE] & RAMFS_S_IFMT) == RAMFS_S_IFDIR;

	n->mode = f[F_MODE];
	n->uid = f[F_UID];
	n->gid = f[F_GID];
	n->mtime = f[F_MTIME];
	n->nlink = f[F_NLINK];
	n->ino = f[F_INO];
	n->devmajor = f[F_DEVMAJ];
	n->devminor = f[F_DEVMIN];
	n->rdevmajor = f[F_RDEVMAJ];
	n->rdevminor = f[F_RDEVMIN];
	n->size = dir ? 0 : f[F_SIZE];
	n->data = dir ? NULL : data;
	/* The later entry wins: a directory replaced by a file loses its entries. */
	n->child = dir ? keep : NULL;
	if (!dir)
		n->last = NULL;
}

/* Walks name (len bytes, no NUL) from the root, making missing parents. */
static int place(struct parser *p, size_t off, const char *name, size_t len, const u32 *f,
		 const u8 *data)
{
	struct ramfs_node *cur = p->fs->root;
	size_t i = skip_slashes(name, 0, len);

	while (i < len) {
		size_t start = i, clen;
		struct ramfs_node *n;

		while (i < len && name[i] != '/')
			i++;
		clen = i - start;
		if (clen > RAMFS_NAME_MAX)
			return fail(p, off, "a name component is longer than 255 bytes", NULL);
		if (clen == 2 && name[start] == '.' && name[start + 1] == '.')
			return fail(p, off, "a name has a \"..\" component", NULL);
		if (!ramfs_is_dir(cur))
			return fail(p, off, "a parent is not a directory", NULL);
		n = find_child(cur, name + start, clen);
		if (!n)
			n = new_node(p, cur, name + start, clen);
		if (!n) {
			fail(p, off, "too many files (max ", NULL);
			err_num(p, p->max);
			err_str(p, ")");
			return -DZ_EINVAL;
		}
		cur = n;
		i = skip_slashes(name, i, len);
	}
	set_meta(cur, f, data);
	return 0;
}

/*
 * One entry at off; sets *next to the following header, or to 0 at the
 * trailer. Sizes are compared with what is left, never added to offsets
 * first, so a huge field cannot wrap around.
 */
static int entry(struct parser *p, size_t off, size_t *next)
{
	u32 f[N_FIELDS];
	size_t name_at = off + HDR_LEN, data_at;
	const char *name;
	int ret;

	if (p->len - off < HDR_LEN)
		return fail(p, off, "header runs past the end", NULL);
	ret = read_fields(p, off, f);
	if (ret)
		return ret;
	if (f[F_NAMESIZE] == 0)
		return fail(p, off, "empty name", NULL);
	if (f[F_NAMESIZE] > p->len - name_at)
		return fail(p, off, "name runs past the end", NULL);
	name = (const char *)p->buf + name_at;
	if (name[f[F_NAMESIZE] - 1] != '\0')
		return fail(p, off, "name is not NUL-terminated", NULL);
	data_at = ALIGN4(name_at + f[F_NAMESIZE]);
	if (data_at > p->len)
		data_at = p->len; /* only padding is missing: fine if nothing follows */
	if (f[F_NAMESIZE] == sizeof(TRAILER) && same(name, TRAILER, sizeof(TRAILER))) {
		*next = 0;
		return 0;
	}
	if (f[F_SIZE] > p->len - data_at)
		return fail(p, off, "size runs past the end", NULL);
	ret = place(p, off, name, f[F_NAMESIZE] - 1, f, p->buf + data_at);
	if (ret)
		return ret;
	*next = ALIGN4(data_at + f[F_SIZE]);
	if (*next > p->len)
		*next = p->len;
	return 0;
}

/*
 * GNU cpio writes a hard-linked file's data once, with its last link; the
 * others have size 0. Each such link gets the data too: links as copies.
 */
static void share_links(struct ramfs *fs, struct ramfs_node *nodes)
{
	for (size_t i = 0; i < fs->count; i++) {
		struct ramfs_node *a = &nodes[i];

		if ((a->mode & RAMFS_S_IFMT) != RAMFS_S_IFREG || a->nlink < 2 || a->size)
			continue;
		for (size_t j = 0; j < fs->count; j++) {
			struct ramfs_node *b = &nodes[j];

			if (b->size && b->nlink >= 2 && b->ino == a->ino &&
			    b->devmajor == a->devmajor && b->devminor == a->devminor &&
			    (b->mode & RAMFS_S_IFMT) == RAMFS_S_IFREG) {
				a->size = b->size;
				a->data = b->data;
				break;
			}
		}
	}
}

int initramfs_parse(const void *buf, size_t len, struct ramfs *fs, struct ramfs_node *nodes,
		    size_t max_nodes, char *err, size_t errlen)
{
	struct parser p = { .buf = buf,
			    .len = len,
			    .fs = fs,
			    .nodes = nodes,
			    .max = max_nodes,
			    .err = err,
			    .errlen = errlen };
	size_t off = 0;

	if (errlen)
		err[0] = '\0';
	fs->root = NULL;
	fs->count = 0;
	if (max_nodes == 0)
		return fail(&p, 0, "too many files (max 0)", NULL);
	fs->root = &nodes[0];
	fs->count = 1;
	nodes[0] = (struct ramfs_node){ .name = "", .mode = DIR_MODE, .nlink = 2 };
	nodes[0].parent = &nodes[0];
	for (;;) {
		size_t next;
		int ret;

		if (off >= len)
			return fail(&p, off, "no TRAILER!!!", " (the archive is cut short)");
		ret = entry(&p, off, &next);
		if (ret)
			return ret;
		if (!next)
			break;
		off = next;
	}
	share_links(fs, nodes);
	return 0;
}

/* --- lookup --- */

struct walk {
	const struct ramfs *fs;
	int links; /* symbolic links followed so far, for -ELOOP */
};

static int resolve(struct walk *w, const struct ramfs_node *cur, const char *path, size_t len,
		   bool follow, const struct ramfs_node **out);

/* Replaces *cur, a symbolic link found in dir, by what it points to. */
static int follow_link(struct walk *w, const struct ramfs_node *dir, const struct ramfs_node **cur)
{
	const struct ramfs_node *link = *cur;

	if (++w->links > RAMFS_LINK_MAX)
		return -DZ_ELOOP;
	if (link->size == 0)
		return -DZ_ENOENT; /* as Linux does for an empty target */
	if (link->size >= RAMFS_PATH_MAX)
		return -DZ_ENAMETOOLONG;
	/* Links within links are always followed to the end. */
	return resolve(w, dir, link->data, link->size, true, cur);
}

/*
 * path[0..len) from cur. A trailing slash asks for a directory, and so
 * follows a link in the last place even without follow, as on Linux.
 */
static int resolve(struct walk *w, const struct ramfs_node *cur, const char *path, size_t len,
		   bool follow, const struct ramfs_node **out)
{
	size_t i = 0;

	if (len && path[0] == '/')
		cur = w->fs->root;
	while (i < len) {
		size_t start, clen;
		const struct ramfs_node *n;
		bool last;

		while (i < len && path[i] == '/')
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && path[i] != '/')
			i++;
		clen = i - start;
		if (clen > RAMFS_NAME_MAX)
			return -DZ_ENAMETOOLONG;
		if (!ramfs_is_dir(cur))
			return -DZ_ENOTDIR;
		last = i == len;
		if (clen == 1 && path[start] == '.')
			continue;
		if (clen == 2 && path[start] == '.' && path[start + 1] == '.') {
			cur = cur->parent;
			continue;
		}
		n = find_child(cur, path + start, clen);
		if (!n)
			return -DZ_ENOENT;
		if (ramfs_is_link(n) && (!last || follow)) {
			int ret = follow_link(w, cur, &n);

			if (ret)
				return ret;
		}
		cur = n;
	}
	if (len && path[len - 1] == '/' && !ramfs_is_dir(cur))
		return -DZ_ENOTDIR;
	*out = cur;
	return 0;
}

/* How long path is, or RAMFS_PATH_MAX when it has no NUL before that. */
static size_t path_len(const char *path)
{
	size_t n = 0;

	while (n < RAMFS_PATH_MAX && path[n])
		n++;
	return n;
}

int ramfs_lookup_at(const struct ramfs *fs, const struct ramfs_node *dir, const char *path,
		    bool follow, const struct ramfs_node **out)
{
	struct walk w = { .fs = fs };
	size_t len = path_len(path);

	if (len >= RAMFS_PATH_MAX)
		return -DZ_ENAMETOOLONG;
	if (len == 0)
		return -DZ_ENOENT;
	/* "link/" must be a directory: resolve follows it like any parent. */
	if (path[len - 1] == '/')
		follow = true;
	return resolve(&w, dir ? dir : fs->root, path, len, follow, out);
}

int ramfs_lookup(const struct ramfs *fs, const char *path, bool follow,
		 const struct ramfs_node **out)
{
	return ramfs_lookup_at(fs, NULL, path, follow, out);
}

const struct ramfs_node *ramfs_dir_first(const struct ramfs_node *dir)
{
	return ramfs_is_dir(dir) ? dir->child : NULL;
}

const struct ramfs_node *ramfs_dir_next(const struct ramfs_node *node)
{
	return node->next;
}
