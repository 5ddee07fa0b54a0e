// SPDX-License-Identifier: MIT
/*
 * Host driver for the kernel's file layer (kernel/fs/vfs.c, file.c, stat.c, procfs.c
 * with the real initramfs reader), called by check.sh:
 *
 *	test_vfs query ARCHIVE < queries	query.h's answers, through the system calls
 *	test_vfs check ARCHIVE			errno values, descriptors, the ABI's
 *						layouts and /proc, against expected values
 *
 * Every call goes through the sys_* entry points with a struct
 * syscall_args, as the kernel's dispatcher makes it, and every structure
 * is read back from "user memory" at the byte offsets of Linux i386's
 * ABI, not through the kernel's own declarations.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

#include "shim.h"
#include "query.h"
#include <kernel/errno.h>
#include <kernel/syscall.h>
#include <dynhz/host.h>
#include <dynhz/timekeeping.h>

/* --- user memory: a bump allocator, reset for every query --- */

static u32 ubrk;

static void ureset(void)
{
	ubrk = 0;
}

static u32 ualloc(u32 len)
{
	u32 at = (ubrk + 15) & ~15u;

	if (at + len > USER_LEN) {
		fprintf(stderr, "user memory exhausted\n");
		exit(2);
	}
	ubrk = at + len;
	memset(user_mem + at, 0, len);
	return USER_BASE + at;
}

static u32 ustr(const char *s)
{
	u32 u = ualloc((u32)strlen(s) + 1);

	memcpy(user_mem + (u - USER_BASE), s, strlen(s) + 1);
	return u;
}

static u8 *kptr(u32 u)
{
	return user_mem + (u - USER_BASE);
}

static u32 rd32(u32 u, u32 off)
{
	u32 v;

	memcpy(&v, kptr(u) + off, 4);
	return v;
}

static u64 rd64(u32 u, u32 off)
{
	u64 v;

	memcpy(&v, kptr(u) + off, 8);
	return v;
}

static u16 rd16(u32 u, u32 off)
{
	u16 v;

	memcpy(&v, kptr(u) + off, 2);
	return v;
}

/* The file calls, as the kernel's gate declares them (kernel/fs/syscalls.h). */
#define SYSCALL(nr, name) SYSCALL_PROTO(name);
#include "../../kernel/fs/syscalls.h"
#undef SYSCALL

static long sc(syscall_fn_t fn, u32 a, u32 b, u32 c, u32 d, u32 e)
{
	struct syscall_args args = { { a, b, c, d, e, 0 }, NULL };

	return fn(&args);
}

#define SC1(n, a)	      sc(sys_##n, (u32)(a), 0, 0, 0, 0)
#define SC2(n, a, b)	      sc(sys_##n, (u32)(a), (u32)(b), 0, 0, 0)
#define SC3(n, a, b, c)	      sc(sys_##n, (u32)(a), (u32)(b), (u32)(c), 0, 0)
#define SC4(n, a, b, c, d)    sc(sys_##n, (u32)(a), (u32)(b), (u32)(c), (u32)(d), 0)
#define SC5(n, a, b, c, d, e) sc(sys_##n, (u32)(a), (u32)(b), (u32)(c), (u32)(d), (u32)(e))

/* --- the process the calls come from --- */

static struct proc *make_proc(int pid, const char *comm)
{
	struct proc *p = &shim_procs[pid % SHIM_PROCS];

	memset(p, 0, sizeof(*p));
	p->state = PROC_RUNNING;
	p->pid = pid;
	p->ppid = pid > 1 ? 1 : 0;
	p->pgid = p->sid = 1;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	snprintf(p->exe, sizeof(p->exe), "/bin/busybox");
	if (files_open_console(&p->files))
		exit(2);
	return p;
}

static void load_root(const char *file)
{
	static unsigned char *buf;
	FILE *f = fopen(file, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(file);
		exit(2);
	}
	buf = malloc((size_t)n);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(2);
	fclose(f);
	dynhz_host_set_quiet(true); /* the boot line would mix with the answers */
	vfs_init(buf, (size_t)n);
	dynhz_host_set_quiet(false);
}

/* --- the queries --- */

static void print_err(const char *op, const char *path, long err)
{
	printf("%s %s: err %ld\n", op, path, -err);
}

/* stat64 read back at Linux i386's offsets: mode 16, nlink 20, uid 24, gid 28, size 44, mtime 72. */
static void q_stat(const char *op, const char *path, bool follow)
{
	u32 st = ualloc(96);
	long r = follow ? SC2(stat64, ustr(path), st) : SC2(lstat64, ustr(path), st);

	if (r)
		return print_err(op, path, r);
	query_print_stat(op, path, rd32(st, 16), rd32(st, 20), rd32(st, 24), rd32(st, 28),
			 rd64(st, 44), (long long)rd32(st, 72));
}

static void q_readlink(const char *path)
{
	u32 buf = ualloc(4096);
	long r = SC3(readlink, ustr(path), buf, 4096);

	if (r < 0)
		return print_err("readlink", path, r);
	printf("readlink %s: %.*s\n", path, (int)r, (const char *)kptr(buf));
}

/*
 * getdents64 with a small buffer (several calls, resumed where each
 * stopped), then the old getdents after an lseek back to 0: both must
 * list the same.
 */
static int list_entries(int fd, bool d64, char **names, int max)
{
	u32 buf = ualloc(300); /* a few entries a call: the longest name fits */
	int n = 0;
	long r;

	while ((r = d64 ? SC3(getdents64, fd, buf, 300) : SC3(getdents, fd, buf, 300)) > 0) {
		for (u32 off = 0; off < (u32)r;) {
			u16 reclen = rd16(buf, off + (d64 ? 16 : 8));
			const char *name = (const char *)kptr(buf) + off + (d64 ? 19 : 10);
			u8 type = d64 ? kptr(buf)[off + 18] : kptr(buf)[off + reclen - 1];

			if (n < max && asprintf(&names[n], "%s/%c", name, query_dtype(type)) > 0)
				n++;
			off += reclen;
		}
	}
	return r < 0 ? (int)r : n;
}

static void q_list(const char *path)
{
	static char *a[8192], *b[8192];
	long fd = SC2(open, ustr(path), O_RDONLY | O_DIRECTORY);
	int na, nb;

	if (fd < 0)
		return print_err("list", path, fd);
	na = list_entries((int)fd, true, a, 8192);
	SC3(lseek, fd, 0, 0);
	nb = list_entries((int)fd, false, b, 8192);
	SC1(close, fd);
	if (na < 0 || nb != na) {
		printf("list %s: getdents64 %d, getdents %d entries\n", path, na, nb);
		return;
	}
	qsort(a, (size_t)na, sizeof(*a), query_cmp);
	qsort(b, (size_t)nb, sizeof(*b), query_cmp);
	printf("list %s:", path);
	for (int i = 0; i < na; i++) {
		printf(" %s", a[i]);
		if (strcmp(a[i], b[i]))
			printf("(getdents: %s)", b[i]);
		free(a[i]);
		free(b[i]);
	}
	printf("\n");
}

static void q_cat(const char *path)
{
	long fd = SC2(open, ustr(path), O_RDONLY);
	u32 buf = ualloc(1000);
	u32 h = QUERY_HASH0;
	size_t len = 0;
	long n;

	if (fd < 0)
		return print_err("cat", path, fd);
	while ((n = SC3(read, fd, buf, 1000)) > 0) {
		h = query_hash(h, kptr(buf), (size_t)n);
		len += (size_t)n;
	}
	SC1(close, fd);
	if (n < 0)
		return print_err("cat", path, n);
	printf("cat %s: len=%zu hash=%08x\n", path, len, h);
}

static void q_cwd(const char *path)
{
	u32 buf = ualloc(4096);
	long r = SC1(chdir, ustr(path));

	if (r)
		return print_err("cwd", path, r);
	r = SC2(getcwd, buf, 4096);
	printf("cwd %s: %s\n", path, r > 0 ? (const char *)kptr(buf) : "?");
}

static void q_open(const char *op, const char *path, u32 flags)
{
	long fd = SC2(open, ustr(path), flags);
	u32 st = ualloc(96);

	if (fd < 0)
		return print_err(op, path, fd);
	SC2(fstat64, fd, st);
	SC1(close, fd);
	printf("%s %s: ok dir=%d\n", op, path, (rd32(st, 16) & 0170000) == 0040000);
}

static void q_access(const char *op, const char *path, u32 mode)
{
	long r = SC2(access, ustr(path), mode);

	if (r)
		print_err(op, path, r);
	else
		printf("%s %s: ok\n", op, path);
}

static int run_queries(void)
{
	static char line[8192];

	while (fgets(line, sizeof(line), stdin)) {
		char *tab = strchr(line, '\t'), *path;

		if (!tab)
			continue;
		*tab = '\0';
		path = tab + 1;
		path[strcspn(path, "\n")] = '\0';
		ureset();
		shim_current->cwd[0] = '\0';
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
			q_access(line, path, 4);
		else if (!strcmp(line, "access_x"))
			q_access(line, path, 1);
	}
	return 0;
}

int check_run(void);

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_vfs query|check ARCHIVE\n");
		return 2;
	}
	if (dynhz_boot_quiet("hz=100"))
		return 2;
	load_root(argv[2]);
	shim_current = make_proc(1, "init");
	if (!strcmp(argv[1], "query"))
		return run_queries();
	if (!strcmp(argv[1], "check"))
		return check_run();
	return 2;
}

/* --- the checks with expected values (check.c's helpers need the above) --- */

static int failures;

static void expect(long got, long want, const char *what, ...)
	__attribute__((format(printf, 3, 4)));
static void expect(long got, long want, const char *what, ...)
{
	va_list ap;

	if (got == want)
		return;
	va_start(ap, what);
	fprintf(stderr, "FAIL: ");
	vfprintf(stderr, what, ap);
	fprintf(stderr, ": got %ld, want %ld\n", got, want);
	va_end(ap);
	failures++;
}

static void expect_str(const char *got, const char *want, const char *what)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "FAIL: %s:\n  got  \"%s\"\n  want \"%s\"\n", what, got, want);
		failures++;
	}
}

/* Reads a whole file through open and read; its text in a static buffer, or NULL. */
static const char *slurp(const char *path, long *len)
{
	static char out[8192];
	long fd = SC2(open, ustr(path), O_RDONLY), n;
	u32 buf = ualloc(7);

	*len = 0;
	if (fd < 0) {
		*len = fd;
		return NULL;
	}
	/* 7 bytes at a time: a snapshot must read the same in pieces */
	while ((n = SC3(read, fd, buf, 7)) > 0 && *len + n < (long)sizeof(out)) {
		memcpy(out + *len, kptr(buf), (size_t)n);
		*len += n;
	}
	out[*len] = '\0';
	SC1(close, fd);
	return out;
}

#define AT_FDCWD_U ((u32)AT_FDCWD)

static void check_errors(void)
{
	u32 st = ualloc(96), buf = ualloc(4096), path = ualloc(4200);
	long fd;

	expect(SC3(read, 99, buf, 1), -EBADF, "read of fd 99");
	expect(SC3(read, -1, buf, 1), -EBADF, "read of fd -1");
	expect(SC1(close, 99), -EBADF, "close of fd 99");
	expect(SC2(stat64, 0x1000, st), -EFAULT, "stat64 of a path outside user memory");
	expect(SC2(stat64, ustr("f1"), 0x1000), -EFAULT,
	       "stat64 into a buffer outside user memory");
	expect(SC2(open, ustr("/f1"), O_WRONLY), -EROFS, "open O_WRONLY on the root");
	expect(SC2(open, ustr("/f1"), O_RDWR), -EROFS, "open O_RDWR on the root");
	expect(SC2(open, ustr("/f1"), O_RDONLY | O_TRUNC), -EROFS, "open O_TRUNC on the root");
	expect(SC2(open, ustr("/new"), O_CREAT | O_WRONLY), -EROFS, "create on the root");
	expect(SC2(open, ustr("/nodir/new"), O_CREAT | O_WRONLY), -ENOENT,
	       "create in a missing dir");
	expect(SC2(open, ustr("/f1"), O_CREAT | O_EXCL), -EEXIST, "O_CREAT|O_EXCL of a file");
	expect(SC2(open, ustr("/a"), O_WRONLY), -EISDIR, "open a directory O_WRONLY");
	fd = SC2(open, ustr("/proc/uptime"), O_WRONLY);
	expect(fd >= 0, 1, "open /proc/uptime O_WRONLY (root may)");
	expect(SC3(write, fd, ustr("1"), 1), -EIO, "write to /proc/uptime");
	SC1(close, fd);
	expect(SC2(open, ustr("/f1/x"), O_RDONLY), -ENOTDIR, "a file as a directory");
	expect(SC2(open, ustr("/f1"), O_RDONLY | O_DIRECTORY), -ENOTDIR, "O_DIRECTORY on a file");
	expect(SC2(open, ustr("/bin/sh"), O_RDONLY | O_NOFOLLOW), -ELOOP, "O_NOFOLLOW on a link");
	memset(kptr(path), 'n', 300);
	memcpy(kptr(path) + 300, "", 1);
	expect(SC2(stat64, path, st), -ENAMETOOLONG, "a 300-byte name");
	memset(kptr(path), '/', 4200);
	expect(SC2(stat64, path, st), -ENAMETOOLONG, "a path with no NUL in 4096 bytes");
	kptr(path)[4095] = '\0';
	expect(SC2(stat64, path, st), 0, "a path of 4095 bytes and its NUL (PATH_MAX)");
	expect(SC2(stat64, ustr(""), st), -ENOENT, "an empty path");

	fd = SC2(open, ustr("/a"), O_RDONLY);
	expect(SC3(read, fd, buf, 10), -EISDIR, "read of a directory");
	expect(SC3(lseek, fd, 0, 2), -EINVAL, "SEEK_END on a directory");
	SC1(close, fd);
	fd = SC2(open, ustr("/size7"), O_RDONLY | O_LARGEFILE);
	expect(SC3(read, fd, 0x1000, 1), -EFAULT, "read into a buffer outside user memory");
	expect(SC3(read, fd, buf, 0), 0, "read of 0 bytes");
	expect(SC3(write, fd, buf, 1), -EBADF, "write to a file opened O_RDONLY");
	expect(SC3(lseek, fd, 0, 7), -EINVAL, "lseek whence 7");
	expect(SC3(lseek, fd, -1, 0), -EINVAL, "lseek to -1");
	expect(SC3(lseek, fd, 0, 2), 7, "SEEK_END of a 7-byte file");
	expect(SC3(lseek, fd, -2, 1), 5, "SEEK_CUR -2");
	expect(SC3(read, fd, buf, 10), 2, "read of the last 2 bytes");
	expect(SC3(lseek, fd, 3, 3), 3, "SEEK_DATA");
	expect(SC3(lseek, fd, 3, 4), 7, "SEEK_HOLE");
	expect(SC3(lseek, fd, 7, 3), -ENXIO, "SEEK_DATA at the end");
	expect(SC5(_llseek, fd, 0, 5, buf, 0), 0, "_llseek to 5");
	expect((long)rd64(buf, 0), 5, "_llseek's result");
	expect(SC5(_llseek, fd, 1, 0, buf, 0), 0, "_llseek past 4 GiB");
	expect((long)(rd64(buf, 0) >> 32), 1, "_llseek's 64-bit result");
	expect(SC5(_llseek, fd, 0, 5, 0x1000, 0), -EFAULT, "_llseek into a bad pointer");
	expect(SC5(_llseek, fd, 0xffffffff, 0xffffffff, buf, 0), -EINVAL, "_llseek to -1");
	expect(SC3(fcntl64, fd, 3, 0), O_LARGEFILE, "F_GETFL");
	expect(SC3(fcntl64, fd, 4, O_NONBLOCK | O_WRONLY), 0, "F_SETFL");
	expect(SC3(fcntl64, fd, 3, 0), O_LARGEFILE | O_NONBLOCK,
	       "F_GETFL after F_SETFL (access mode kept)");
	expect(SC3(fcntl64, fd, 1, 0), 0, "F_GETFD");
	expect(SC3(fcntl64, fd, 2, 1), 0, "F_SETFD");
	expect(SC3(fcntl64, fd, 1, 0), 1, "F_GETFD after F_SETFD");
	expect(SC3(fcntl64, fd, 0, 20), 20, "F_DUPFD 20");
	expect(SC3(fcntl64, 20, 1, 0), 0, "F_DUPFD clears close-on-exec");
	expect(SC3(fcntl64, fd, 1030, 20), 21, "F_DUPFD_CLOEXEC 20");
	expect(SC3(fcntl64, 21, 1, 0), 1, "F_DUPFD_CLOEXEC sets close-on-exec");
	expect(SC3(fcntl64, fd, 0, 64), -EINVAL, "F_DUPFD 64");
	expect(SC3(fcntl64, fd, 999, 0), -EINVAL, "fcntl 999");
	expect(SC3(fcntl64, 99, 1, 0), -EBADF, "fcntl of fd 99");
	expect(SC3(ioctl, fd, 0x5401, buf), -ENOTTY, "TCGETS on a file");
	expect(SC3(ioctl, 99, 0x5401, buf), -EBADF, "ioctl of fd 99");
	expect(SC3(ioctl, 0, 0x5401, buf), 0, "TCGETS on the console");
	expect(SC3(lseek, 0, 0, 0), -ESPIPE, "lseek of the console");
	expect(SC3(getdents64, fd, buf, 4096), -ENOTDIR, "getdents64 of a file");
	expect(SC2(dup2, fd, 10), 10, "dup2 to 10");
	expect(SC2(dup2, fd, 64), -EBADF, "dup2 to 64");
	expect(SC2(dup2, 63, 63), -EBADF, "dup2 of a closed fd to itself");
	expect(SC2(dup2, 10, 10), 10, "dup2 of an open fd to itself");
	expect(SC1(dup, 10), 4, "dup takes the lowest free");
	for (int i = 4; i < 22; i++)
		SC1(close, i);
	expect(SC1(close, fd), 0, "close");
	expect(SC1(close, fd), -EBADF, "close twice");
}

static void check_emfile(void)
{
	long fd, n = 0;

	while ((fd = SC2(open, ustr("/f1"), O_RDONLY)) >= 0)
		n++;
	expect(fd, -EMFILE, "the open after the table is full");
	expect(n, NR_OPEN - 3, "descriptors a process can open");
	expect(SC1(dup, 0), -EMFILE, "dup with a full table");
	for (int i = 3; i < NR_OPEN; i++)
		SC1(close, i);
}

static void check_paths(void)
{
	u32 st = ualloc(96), st2 = ualloc(96), sx = ualloc(256), buf = ualloc(4096);
	long fd, dfd;

	expect(SC2(getcwd, buf, 1), -ERANGE, "getcwd into 1 byte");
	expect(SC2(getcwd, buf, 2), 2, "getcwd of / (its length with the NUL)");
	expect(SC2(getcwd, 0x1000, 100), -EFAULT, "getcwd into a bad buffer");
	expect(SC1(chdir, ustr("f1")), -ENOTDIR, "chdir to a file");
	expect(SC1(chdir, ustr("lib")), 0, "chdir through a link");
	SC2(getcwd, buf, 4096);
	expect_str((const char *)kptr(buf), "/a/b", "getcwd after chdir lib");
	expect(SC2(stat64, ustr("c/deep"), st), 0, "a relative path from the new cwd");
	expect(SC1(chdir, ustr("..")), 0, "chdir ..");
	SC2(getcwd, buf, 4096);
	expect_str((const char *)kptr(buf), "/a", "getcwd after chdir ..");
	expect(SC1(chdir, ustr("/proc/1")), 0, "chdir /proc/1");
	SC2(getcwd, buf, 4096);
	expect_str((const char *)kptr(buf), "/proc/1", "getcwd in /proc");
	expect(SC3(readlink, ustr("cwd"), buf, 4096), 7, "readlink /proc/1/cwd");
	expect(SC1(chdir, ustr("../..")), 0, "chdir ../.. from /proc/1");
	SC2(getcwd, buf, 4096);
	expect_str((const char *)kptr(buf), "/", "getcwd after leaving /proc");

	expect(SC3(readlink, ustr("bin/sh"), buf, 0), -EINVAL, "readlink into 0 bytes");
	expect(SC3(readlink, ustr("bin/sh"), buf, 3), 3, "readlink truncated");
	expect(SC3(readlink, ustr("f1"), buf, 100), -EINVAL, "readlink of a file");
	expect(SC2(access, ustr("f1"), 8), -EINVAL, "access mode 8");
	expect(SC2(access, ustr("f1"), 2), -EROFS, "access W_OK on the root");
	expect(SC2(access, ustr("f1"), 1), -EACCES, "access X_OK of a 0600 file");
	expect(SC2(access, ustr("bin/sh"), 1), 0, "access X_OK through a link");
	expect(SC4(faccessat2, AT_FDCWD_U, ustr("f1"), 4, 1), -EINVAL, "faccessat2 flags 1");
	expect(SC4(faccessat2, AT_FDCWD_U, ustr("bin/sh"), 4, AT_SYMLINK_NOFOLLOW), 0,
	       "faccessat2 nofollow");

	dfd = SC2(open, ustr("/a"), O_RDONLY | O_DIRECTORY);
	fd = SC4(openat, dfd, ustr("b/c/deep"), O_RDONLY, 0);
	expect(fd >= 0, 1, "openat from a directory fd");
	expect(SC4(openat, fd, ustr("x"), O_RDONLY, 0), -ENOTDIR, "openat from a file fd");
	expect(SC4(openat, 99, ustr("x"), O_RDONLY, 0), -EBADF, "openat from fd 99");
	expect(SC4(openat, 99, ustr("/f1"), O_RDONLY, 0) >= 0, 1,
	       "openat of an absolute path ignores dirfd");
	expect(SC4(fstatat64, dfd, ustr("b/up"), st, AT_SYMLINK_NOFOLLOW), 0, "fstatat64 nofollow");
	expect(rd32(st, 16) & 0170000, 0120000, "fstatat64 nofollow sees the link");
	expect(SC4(fstatat64, dfd, ustr("b/up"), st, 0), 0, "fstatat64 follow");
	expect(rd32(st, 16), 0100600, "fstatat64 follow sees f1");
	expect(SC4(fstatat64, fd, ustr(""), st, AT_EMPTY_PATH), 0, "fstatat64 AT_EMPTY_PATH");
	SC2(fstat64, fd, st2);
	expect(memcmp(kptr(st), kptr(st2), 96), 0, "AT_EMPTY_PATH is fstat");
	expect(SC4(fstatat64, fd, ustr(""), st, 0), -ENOENT, "fstatat64 of an empty path");
	expect(SC4(fstatat64, dfd, ustr("b"), st, 1), -EINVAL, "fstatat64 flags 1");
	expect(SC4(readlinkat, dfd, ustr("b/up"), buf, 100), 8, "readlinkat");
	expect(memcmp(kptr(buf), "../../f1", 8), 0, "readlinkat's target");
	expect(SC2(stat64, ustr("/size4097"), st), 0, "stat64 size4097");
	expect(SC5(statx, AT_FDCWD_U, ustr("/size4097"), 0, 0x7ff, sx), 0, "statx");
	expect(rd32(sx, 0) & 0x7ff, 0x7ff, "statx mask");
	expect(rd16(sx, 28), (long)rd32(st, 16), "statx mode = stat64's");
	expect((long)rd64(sx, 40), (long)rd64(st, 44), "statx size = stat64's");
	expect((long)rd64(sx, 32), (long)rd64(st, 88), "statx ino = stat64's");
	expect((long)rd64(sx, 112), rd32(st, 72), "statx mtime = stat64's");
	expect((long)rd64(sx, 48), (long)rd64(st, 56), "statx blocks = stat64's");
	expect(rd32(st, 12), (long)rd64(st, 88), "stat64's two inode fields");
	expect(SC5(statx, AT_FDCWD_U, ustr("f1"), 0, 0x80000000u, sx), -EINVAL,
	       "statx reserved mask");
	expect(SC5(statx, AT_FDCWD_U, ustr("f1"), 0x6000, 0x7ff, sx), -EINVAL,
	       "statx both sync types");
	expect(SC5(statx, fd, 0, AT_EMPTY_PATH, 0x7ff, sx), 0,
	       "statx NULL path with AT_EMPTY_PATH");
	expect(SC5(statx, AT_FDCWD_U, ustr("f1"), 0, 0x7ff, 0x1000), -EFAULT,
	       "statx into a bad buffer");
	SC1(close, fd);
	SC1(close, dfd);
	fd = SC2(open, ustr("/f1"), O_PATH);
	expect(fd >= 0, 1, "O_PATH open");
	expect(SC3(read, fd, buf, 1), -EBADF, "read of an O_PATH fd");
	expect(SC2(fstat64, fd, st), 0, "fstat64 of an O_PATH fd");
	SC1(close, fd);
	fd = SC2(open, ustr("/bin/sh"), O_PATH | O_NOFOLLOW);
	SC2(fstat64, fd, st);
	expect(rd32(st, 16) & 0170000, 0120000, "O_PATH|O_NOFOLLOW holds the link");
	SC1(close, fd);
}

static void check_vectors(void)
{
	u32 iov = ualloc(8 * 4), buf = ualloc(64);
	long fd = SC2(open, ustr("/f1"), O_RDONLY);
	u32 v[8] = { buf, 2, buf + 10, 2, buf + 20, 100 };

	memcpy(kptr(iov), v, sizeof(v));
	expect(SC3(readv, fd, iov, 3), 4, "readv of f1 (\"one\\n\")");
	expect(memcmp(kptr(buf), "on", 2) || memcmp(kptr(buf) + 10, "e\n", 2), 0, "readv's pieces");
	SC1(close, fd);
	memcpy(kptr(buf), "hello, world\n", 13);
	v[0] = buf, v[1] = 7, v[2] = buf + 7, v[3] = 6;
	memcpy(kptr(iov), v, sizeof(v));
	shim_console_len = 0;
	expect(SC3(writev, 1, iov, 2), 13, "writev to the console");
	expect(shim_console_len == 13 && !memcmp(shim_console_out, "hello, world\n", 13), 1,
	       "writev's bytes");
	expect(SC3(writev, 1, iov, 1025), -EINVAL, "writev of 1025 iovecs");
	expect(SC3(writev, 1, 0x1000, 1), -EFAULT, "writev of a bad iovec array");
	v[1] = 0x80000000u;
	memcpy(kptr(iov), v, sizeof(v));
	expect(SC3(writev, 1, iov, 2), -EINVAL, "writev of a negative length");
	expect(SC3(write, 1, 0x1000, 4), -EFAULT, "write from a bad buffer");
	expect(SC3(write, 1, buf, 0), 0, "write of nothing");
}

/* The fields of a /proc/<pid>/stat line, split at spaces after the comm. */
static int stat_fields(const char *s, char f[64][32])
{
	const char *close = strrchr(s, ')');
	int n = 3; /* the state, after "pid (comm)" */

	if (!close)
		return 0;
	for (const char *p = close + 2; *p && n < 64; n++) {
		size_t l = strcspn(p, " \n");

		snprintf(f[n], 32, "%.*s", (int)l, p);
		p += l;
		if (*p)
			p++;
	}
	return n - 1;
}

static void check_proc(void)
{
	static struct thread running = { .state = TASK_RUNNING };
	struct proc *p = shim_current, *z;
	char want[256], f[64][32];
	const char *s;
	long len, fd;
	u32 buf = ualloc(4096);
	u64 now;

	shim_cpu = (struct cpu_times){ 1234567890, 500000000, 3219999999ULL };
	shim_switches = 4242;
	shim_pages = (struct page_stats){ 16384, 12000, 300 };
	p->thread = &running;
	p->utime_ns = 1500000000;
	p->stime_ns = 259999999;
	p->cutime_ns = 20000000;
	p->start_ns = 420000000;
	p->mm.vmas[0] =
		(struct vma){ .start = 0x08048000, .end = 0x08050000, .prot = VM_READ | VM_EXEC };
	p->mm.vmas[1] =
		(struct vma){ .start = 0x08050000, .end = 0x08052000, .prot = VM_READ | VM_WRITE };
	p->mm.vmas[2] = (struct vma){ .start = 0xbfffe000,
				      .end = 0xc0000000,
				      .prot = VM_READ | VM_WRITE | VM_GROWSDOWN };
	p->mm.nvmas = 3;
	p->mm.rss = 7;
	memcpy(p->cmdline, "busybox\0cat\0/proc/1/stat\0", 26);
	p->cmdline_len = 26;
	dynhz_host_run_ticks(250);

	now = ktime_get_ns();
	s = slurp("/proc/uptime", &len);
	snprintf(want, sizeof(want), "%llu.%02llu 3.21\n", (unsigned long long)(now / 1000000000),
		 (unsigned long long)(now % 1000000000 / 10000000));
	expect_str(s ? s : "", want, "/proc/uptime");
	s = slurp("/proc/stat", &len);
	expect(s && !strncmp(s, "cpu  123 0 50 321 0 0 0 0 0 0\ncpu0 123 0 50 321 0 0 0 0 0 0\n",
			     60),
	       1, "/proc/stat's cpu lines");
	expect(s && strstr(s, "\nctxt 4242\n") && strstr(s, "\nbtime 0\n") &&
		       strstr(s, "\nprocesses 1\n") && strstr(s, "\nprocs_running 1\n"),
	       1, "/proc/stat's ctxt, btime, processes, procs_running");
	s = slurp("/proc/1/stat", &len);
	expect(s && !strncmp(s, "1 (init) R 0 1 1 ", 17), 1, "/proc/1/stat's start");
	expect(stat_fields(s ? s : "", f), 52, "/proc/1/stat's field count");
	expect_str(f[14], "150", "utime");
	expect_str(f[15], "25", "stime");
	expect_str(f[16], "2", "cutime");
	expect_str(f[17], "0", "cstime");
	expect_str(f[22], "42", "starttime");
	expect_str(f[23], "49152", "vsize");
	expect_str(f[24], "7", "rss");
	expect_str(f[38], "17", "exit_signal");
	s = slurp("/proc/1/statm", &len);
	expect_str(s ? s : "", "12 7 0 8 0 4 0\n", "/proc/1/statm");
	s = slurp("/proc/self/cmdline", &len);
	expect(len == 26 && !memcmp(s, "busybox\0cat\0/proc/1/stat\0", 26), 1,
	       "/proc/self/cmdline");
	s = slurp("/proc/self/comm", &len);
	expect_str(s ? s : "", "init\n", "/proc/self/comm");
	s = slurp("/proc/1/status", &len);
	expect(s && strstr(s, "Name:\tinit\n") && strstr(s, "\nPid:\t1\n") &&
		       strstr(s, "\nVmRSS:\t      28 kB\n"),
	       1, "/proc/1/status");
	s = slurp("/proc/meminfo", &len);
	expect(s && !strncmp(s, "MemTotal:          65536 kB\nMemFree:           48000 kB\n", 56),
	       1, "/proc/meminfo");
	expect(SC3(readlink, ustr("/proc/self"), buf, 100), 1, "readlink /proc/self");
	expect(SC3(readlink, ustr("/proc/self/exe"), buf, 100), 12, "readlink /proc/self/exe");
	expect(SC3(readlink, ustr("/proc/self/exe/"), buf, 100), -ENOTDIR, "/proc/self/exe/");
	expect(SC1(access, ustr("/proc/self/exe")), 0, "access of /proc/self/exe (the program)");
	expect(SC2(open, ustr("/proc/2/stat"), O_RDONLY), -ENOENT, "a pid that does not exist");
	expect(SC2(open, ustr("/proc/01/stat"), O_RDONLY), -ENOENT, "a pid with a leading zero");
	z = make_proc(2, "sh");
	z->state = PROC_ZOMBIE;
	z->exit_status = 3;
	s = slurp("/proc/2/stat", &len);
	expect(s && !strncmp(s, "2 (sh) Z 1 ", 11), 1, "a zombie's state");
	s = slurp("/proc/2/cmdline", &len);
	expect(len, 0, "a zombie's cmdline");
	s = slurp("/proc/loadavg", &len);
	expect_str(s ? s : "", "0.00 0.00 0.00 1/1 2\n", "/proc/loadavg at first");
	dynhz_host_run_ticks(6000);
	s = slurp("/proc/loadavg", &len);
	expect(s && !strncmp(s, "0.6", 3) && strstr(s, " 1/1 2\n"), 1,
	       "/proc/loadavg after a minute at 1");
	if (s && strncmp(s, "0.6", 3))
		fprintf(stderr, "  loadavg: %s", s);

	/* A snapshot: what was opened reads the same later, at any offset. */
	fd = SC2(open, ustr("/proc/uptime"), O_RDONLY);
	SC3(read, fd, buf, 4096);
	memcpy(want, kptr(buf), 64);
	dynhz_host_run_ticks(100);
	expect(SC3(lseek, fd, 0, 2), -EINVAL, "SEEK_END on a /proc file");
	expect(SC3(lseek, fd, 0, 0), 0, "SEEK_SET on a /proc file");
	len = SC3(read, fd, buf, 4096);
	expect(memcmp(kptr(buf), want, (size_t)len), 0, "a /proc file is read from its snapshot");
	SC1(close, fd);
	{
		long fds[17];
		int k;

		for (k = 0; k < 17; k++)
			fds[k] = SC2(open, ustr("/proc/uptime"), O_RDONLY);
		expect(fds[16], -ENFILE, "the 17th /proc file open at once");
		for (k = 0; k < 16; k++)
			SC1(close, fds[k]);
	}
	z->state = PROC_FREE;
}

static void check_exec(void)
{
	char abs[256];
	const void *data;
	u32 size;

	expect(vfs_exec_image("/", "bin/sh", &data, &size, abs, sizeof(abs)), 0, "exec bin/sh");
	expect_str(abs, "/bin/busybox", "exec bin/sh's path");
	expect(size == 8 && !memcmp(data, "busybox\n", 8), 1, "exec bin/sh's bytes");
	expect(vfs_exec_image("/a", "b/../../bin/busybox", &data, &size, abs, sizeof(abs)), 0,
	       "exec relative to a cwd");
	expect(vfs_exec_image("/", "/proc/self/exe", &data, &size, abs, sizeof(abs)), 0,
	       "exec /proc/self/exe");
	expect_str(abs, "/bin/busybox", "exec /proc/self/exe's path");
	expect(vfs_exec_image(NULL, "/a/b/c/deep", &data, &size, abs, sizeof(abs)), -EACCES,
	       "exec of a file without x bits");
	expect(vfs_exec_image(NULL, "/a", &data, &size, abs, sizeof(abs)), -EACCES,
	       "exec a directory");
	expect(vfs_exec_image(NULL, "/missing", &data, &size, abs, sizeof(abs)), -ENOENT,
	       "exec missing");
	expect(vfs_exec_image(NULL, "/loop1", &data, &size, abs, sizeof(abs)), -ELOOP,
	       "exec a loop");
	expect(vfs_exec_image(NULL, "/f1/", &data, &size, abs, sizeof(abs)), -ENOTDIR, "exec f1/");
}

/* Without an initramfs (or with a broken one): an empty root, and /proc all the same. */
static void check_no_root(void)
{
	static const char junk[] = "070701 not an archive";
	u32 st = ualloc(96);

	vfs_init(NULL, 0);
	expect(vfs_have_root(), 0, "no initramfs: no root");
	expect(SC2(stat64, ustr("/proc/uptime"), st), 0, "no initramfs: /proc/uptime");
	expect(SC2(stat64, ustr("/bin"), st), -ENOENT, "no initramfs: no /bin");
	vfs_init(junk, sizeof(junk));
	expect(vfs_have_root(), 0, "a broken initramfs: no root");
	expect(SC2(stat64, ustr("/proc/self"), st), 0, "a broken initramfs: /proc/self");
}

int check_run(void)
{
	check_errors();
	ureset();
	check_emfile();
	ureset();
	check_paths();
	ureset();
	check_vectors();
	ureset();
	check_proc();
	ureset();
	check_exec();
	ureset();
	check_no_root();
	printf("%d failures\n", failures);
	return failures != 0;
}
