// SPDX-License-Identifier: MIT
/*
 * Host driver for kernel/fs/initramfs.c, called by check.sh, which holds the
 * reference (stat, readlink, cat of the tree the archive came from):
 *
 *   test_initramfs dump ARCHIVE           one line per node: path, mode, uid, gid, mtime, size, target
 *   test_initramfs extract ARCHIVE DIR    every regular file's contents under DIR
 *   test_initramfs lookup ARCHIVE PATH F  the node's path, or "err N" (F: 1 to follow a last link)
 *   test_initramfs corrupt ARCHIVE        every truncation and many byte flips: clean failures only
 *   test_initramfs errors                 hand-made malformed archives: the expected error lines
 *
 * Each archive is copied into a buffer of exactly its size, so that ASan
 * sees any read past its end.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <kernel/initramfs.h>

#define MAX_NODES 4096

static struct ramfs_node nodes[MAX_NODES];
static struct ramfs fs;
static char err[256];

static unsigned char *load(const char *file, size_t *len)
{
	FILE *f = fopen(file, "rb");
	unsigned char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(file);
		exit(2);
	}
	buf = malloc(n ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(file);
		exit(2);
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int parse(const unsigned char *buf, size_t len, size_t max)
{
	return initramfs_parse(buf, len, &fs, nodes, max, err, sizeof(err));
}

static void parse_or_die(const char *file)
{
	size_t len;
	unsigned char *buf = load(file, &len);

	if (parse(buf, len, MAX_NODES)) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	/* buf stays: the nodes point into it */
}

/* The node's path from the root, "" for the root itself. */
static void path_of(const struct ramfs_node *n, char *out, size_t outlen)
{
	size_t len;

	if (n == n->parent) {
		out[0] = '\0';
		return;
	}
	path_of(n->parent, out, outlen);
	len = strlen(out);
	snprintf(out + len, outlen - len, "/%.*s", (int)n->namelen, n->name);
}

static void dump(const struct ramfs_node *dir)
{
	for (const struct ramfs_node *c = ramfs_dir_first(dir); c; c = ramfs_dir_next(c)) {
		char p[8192];

		path_of(c, p, sizeof(p));
		printf("%s\t%o\t%u\t%u\t%u\t%u\t", p + 1, c->mode, c->uid, c->gid, c->mtime,
		       ramfs_is_dir(c) ? 0 : c->size);
		if (ramfs_is_link(c))
			printf("%.*s", (int)c->size, (const char *)c->data);
		printf("\n");
		if (ramfs_is_dir(c))
			dump(c);
	}
}

static void extract(const struct ramfs_node *dir, const char *to)
{
	for (const struct ramfs_node *c = ramfs_dir_first(dir); c; c = ramfs_dir_next(c)) {
		char p[8192];

		snprintf(p, sizeof(p), "%s/%.*s", to, (int)c->namelen, c->name);
		if (ramfs_is_dir(c)) {
			mkdir(p, 0755);
			extract(c, p);
		} else if ((c->mode & RAMFS_S_IFMT) == RAMFS_S_IFREG) {
			FILE *f = fopen(p, "wb");

			if (!f || fwrite(c->data, 1, c->size, f) != c->size || fclose(f)) {
				perror(p);
				exit(2);
			}
		}
	}
}

/* A failure must be one line "initramfs: at byte N: ..." within [0, len]. */
static int bad_failure(size_t len)
{
	unsigned long at;

	if (sscanf(err, "initramfs: at byte %lu: ", &at) != 1 || at > len || strchr(err, '\n')) {
		fprintf(stderr, "malformed error line: \"%s\"\n", err);
		return 1;
	}
	return 0;
}

static int try_copy(const unsigned char *src, size_t len, int *ok)
{
	unsigned char *b = malloc(len ? len : 1);
	int ret;

	memcpy(b, src, len);
	ret = parse(b, len, MAX_NODES);
	*ok = ret == 0;
	/* Look around the tree too: it must be consistent whatever was parsed. */
	if (ret == 0) {
		const struct ramfs_node *n;

		ramfs_lookup(&fs, "/bin/sh", true, &n);
		ramfs_lookup(&fs, "a/../b/./c", true, &n);
	}
	free(b);
	return ret ? bad_failure(len) : 0;
}

/*
 * Truncated before the end of TRAILER!!!'s name: must fail. After it
 * (cpio's zero padding): must succeed. Byte flips: either, cleanly.
 */
static int corrupt(const char *file)
{
	size_t len, trailer_end;
	unsigned char *buf = load(file, &len);
	unsigned char *t = memmem(buf, len, "TRAILER!!!", 11);
	int problems = 0, ok, flips = 0;

	if (!t) {
		fprintf(stderr, "no trailer in %s\n", file);
		return 1;
	}
	trailer_end = (size_t)(t - buf) + 11;
	for (size_t cut = 0; cut <= len; cut++) {
		problems += try_copy(buf, cut, &ok);
		if (ok != (cut >= trailer_end)) {
			fprintf(stderr, "cut at %zu: %s\n", cut, ok ? "parsed" : err);
			problems++;
		}
	}
	for (size_t i = 0; i < trailer_end; i++) {
		static const unsigned char x[] = { 0x01, 0x80, 0xff, 0x20 };

		for (size_t k = 0; k < sizeof(x); k++) {
			buf[i] ^= x[k];
			problems += try_copy(buf, len, &ok);
			buf[i] ^= x[k];
			flips++;
		}
	}
	printf("%zu truncations, %d flips, %d problems\n", len + 1, flips, problems);
	free(buf);
	return problems != 0;
}

/* --- hand-made archives, for the errors cpio itself would never write --- */

static size_t put_entry(char *out, size_t at, const char *name, unsigned mode, const char *data,
			unsigned size, unsigned namesize)
{
	int n = sprintf(out + at, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", 1,
			mode, 0, 0, 1, 0, size, 0, 0, 0, 0, namesize, 0);

	at += (size_t)n;
	memcpy(out + at, name, strlen(name) + 1);
	at = (at + strlen(name) + 1 + 3) & ~(size_t)3;
	if (data) {
		memcpy(out + at, data, size);
		at = (at + size + 3) & ~(size_t)3;
	}
	return at;
}

static size_t entry_of(char *out, size_t at, const char *name, unsigned mode, const char *data)
{
	unsigned size = data ? (unsigned)strlen(data) : 0;

	return put_entry(out, at, name, mode, data, size, (unsigned)strlen(name) + 1);
}

static int expect(const char *what, const char *arc, size_t len, size_t max, const char *want)
{
	static unsigned char *b; /* the last tree points into it: kept until the next */
	int ret;

	free(b);
	b = malloc(len ? len : 1);
	memcpy(b, arc, len);
	ret = parse(b, len, max);
	if (!want ? ret != 0 : ret == 0 || !strstr(err, want)) {
		fprintf(stderr, "%s: want \"%s\", got %d \"%s\"\n", what, want ? want : "success",
			ret, err);
		return 1;
	}
	printf("%-28s %s\n", what, want ? err : "parsed");
	return 0;
}

static int errors(void)
{
	static char a[1 << 16];
	size_t n, first;
	int bad = 0;

	bad += expect("empty", a, 0, MAX_NODES, "at byte 0: no TRAILER!!!");
	first = entry_of(a, 0, "bin", 040755, NULL);
	n = entry_of(a, first, "TRAILER!!!", 0, NULL);
	bad += expect("good", a, n, MAX_NODES, NULL);
	bad += expect("no trailer", a, first, MAX_NODES, "no TRAILER!!!");
	a[first + 3] = 'x';
	bad += expect("bad magic", a, n, MAX_NODES, "at byte 116: bad magic");
	memcpy(a + first, "070702", 6);
	bad += expect("crc magic", a, n, MAX_NODES, NULL);
	a[first + 6 + 8 * 6 + 2] = 'g'; /* filesize, third digit */
	bad += expect("not hex", a, n, MAX_NODES, "at byte 172: not hex");
	n = put_entry(a, 0, "f", 0100644, NULL, 0xffffffff, 2);
	bad += expect("huge size", a, n + 200, MAX_NODES, "at byte 0: size runs past the end");
	n = put_entry(a, 0, "f", 0100644, NULL, 0, 0xfffffff0);
	bad += expect("huge name", a, n, MAX_NODES, "at byte 0: name runs past the end");
	n = put_entry(a, 0, "f", 0100644, NULL, 0, 0);
	bad += expect("empty name", a, n, MAX_NODES, "at byte 0: empty name");
	n = entry_of(a, 0, "a/b/c/d", 0100644, "x");
	n = entry_of(a, n, "TRAILER!!!", 0, NULL);
	bad += expect("too many", a, n, 4, "at byte 0: too many files (max 4)");
	bad += expect("just enough", a, n, 5, NULL);
	n = entry_of(a, 0, "../x", 0100644, "x");
	n = entry_of(a, n, "TRAILER!!!", 0, NULL);
	bad += expect("dot dot", a, n, MAX_NODES, "\"..\"");
	n = entry_of(a, 0, "f", 0100644, "x");
	n = entry_of(a, n, "f/g", 0100644, "x");
	n = entry_of(a, n, "TRAILER!!!", 0, NULL);
	bad += expect("file as parent", a, n, MAX_NODES, "at byte 116: a parent is not a dir");
	n = put_entry(a, 0, "abc", 0100644, NULL, 0, 2); /* "ab" without its NUL */
	n = entry_of(a, n, "TRAILER!!!", 0, NULL);
	bad += expect("unterminated name", a, n, MAX_NODES, "not NUL-terminated");
	/* Later wins, normalized names, made-up parents. */
	n = entry_of(a, 0, "./x/y", 0100600, "old");
	n = entry_of(a, n, "/x//y", 0100644, "newer");
	n = entry_of(a, n, ".", 040700, NULL);
	n = entry_of(a, n, "TRAILER!!!", 0, NULL);
	bad += expect("duplicates", a, n, MAX_NODES, NULL);
	{
		const struct ramfs_node *y = NULL, *x = NULL;
		int r1, r2;

		r1 = ramfs_lookup(&fs, "x/y", true, &y);
		r2 = ramfs_lookup(&fs, "x", true, &x);
		if (r1 || r2 || y->size != 5 || memcmp(y->data, "newer", 5) || y->mode != 0100644 ||
		    x->mode != 040755 || fs.root->mode != 040700 || fs.count != 3) {
			fprintf(stderr, "duplicates: wrong tree\n");
			bad++;
		}
	}
	return bad != 0;
}

int main(int argc, char **argv)
{
	const struct ramfs_node *n;
	char p[8192];
	int ret;

	if (argc == 2 && !strcmp(argv[1], "errors"))
		return errors();
	if (argc < 3)
		return 2;
	if (!strcmp(argv[1], "corrupt"))
		return corrupt(argv[2]);
	parse_or_die(argv[2]);
	if (!strcmp(argv[1], "dump")) {
		dump(fs.root);
	} else if (!strcmp(argv[1], "extract") && argc == 4) {
		extract(fs.root, argv[3]);
	} else if (!strcmp(argv[1], "lookup") && argc == 5) {
		ret = ramfs_lookup(&fs, argv[3], atoi(argv[4]), &n);
		if (ret) {
			printf("err %d\n", -ret);
		} else {
			path_of(n, p, sizeof(p));
			printf("%s\n", n == fs.root ? "/" : p);
		}
	} else {
		return 2;
	}
	return 0;
}
