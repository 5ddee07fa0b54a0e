// SPDX-License-Identifier: MIT
/*
 * The file system calls as a real program sees them (tests/files): built
 * for this host, where Linux answers (the reference), and static for
 * i386 with glibc, where the reference kernel boots it as init. Both
 * print one line per check; check.sh diffs the two.
 *
 *	filecheck ROOT linux	the checks both must answer alike, in ROOT
 *	filecheck ROOT rofs	the read-only root's answers (dynhz only)
 *
 * Paths are relative to ROOT (the extracted tree on the host, / on
 * dynhz) and the tree's links are relative, so both see one tree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <termios.h>

#ifdef __i386__
/* glibc's i386 struct stat64 is the kernel's: the layout dynhz must give. */
_Static_assert(sizeof(struct stat64) == 96, "stat64 is 96 bytes on i386");
_Static_assert(offsetof(struct stat64, st_mode) == 16, "st_mode");
_Static_assert(offsetof(struct stat64, st_size) == 44, "st_size");
_Static_assert(offsetof(struct stat64, st_blocks) == 56, "st_blocks");
_Static_assert(offsetof(struct stat64, st_mtim) == 72, "st_mtim");
_Static_assert(offsetof(struct stat64, st_ino) == 88, "st_ino");
#define NR_STAT	   SYS_stat64
#define NR_LSTAT   SYS_lstat64
#define NR_FSTAT   SYS_fstat64
#define NR_FSTATAT SYS_fstatat64
#define BAD_PTR	   0xc0001000UL /* the kernel's half */
typedef struct stat64 kstat_t;
#else
#define NR_STAT	   SYS_stat
#define NR_LSTAT   SYS_lstat
#define NR_FSTAT   SYS_fstat
#define NR_FSTATAT SYS_newfstatat
#define BAD_PTR	   0xffff800000001000UL /* the kernel's half */
typedef struct stat kstat_t;
#endif

static char rootpath[PATH_MAX];

/* The result of a call: its value, or the errno's name. */
static void res(const char *what, long r)
{
	if (r < 0)
		printf("%s: errno %d (%s)\n", what, errno, strerrorname_np(errno));
	else
		printf("%s: %ld\n", what, r);
}

static void print_stat(const char *what, const kstat_t *st)
{
	printf("%s: mode %o nlink %lu uid %u gid %u", what, (unsigned int)st->st_mode,
	       (unsigned long)st->st_nlink, (unsigned int)st->st_uid, (unsigned int)st->st_gid);
	if (!S_ISDIR(st->st_mode))
		printf(" size %lld blocks %lld", (long long)st->st_size, (long long)st->st_blocks);
	if (!S_ISLNK(st->st_mode) && !S_ISDIR(st->st_mode))
		printf(" mtime %lld", (long long)st->st_mtime);
	printf("\n");
}

static const char *const paths[] = {
	".",
	"a/..",
	"f1",
	"dir",
	"dir/",
	"dir/file7",
	"lib",
	"lib/",
	"lib/c/deep",
	"a/b/up",
	"a/b/c/top",
	"a/b/c/top/f1",
	"loop1",
	"loop1/",
	"dangling",
	"f1/",
	"f1/x",
	"missing",
	"size4097",
	"hard5",
	"l40",
	"l41",
	"a//b///c/./deep",
	"a/b/../../f1",
	"bin/filecheck",
};

static void check_stat(void)
{
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		char what[128];
		kstat_t st;
		struct stat gs;
		struct statx sx;
		long r;

		snprintf(what, sizeof(what), "stat %s", paths[i]);
		r = syscall(NR_STAT, paths[i], &st);
		r < 0 ? res(what, r) : print_stat(what, &st);
		snprintf(what, sizeof(what), "lstat %s", paths[i]);
		r = syscall(NR_LSTAT, paths[i], &st);
		r < 0 ? res(what, r) : print_stat(what, &st);
		snprintf(what, sizeof(what), "fstatat nofollow %s", paths[i]);
		r = syscall(NR_FSTATAT, AT_FDCWD, paths[i], &st, AT_SYMLINK_NOFOLLOW);
		r < 0 ? res(what, r) : print_stat(what, &st);
		/* glibc's stat(): statx first on i386 */
		snprintf(what, sizeof(what), "glibc stat %s", paths[i]);
		if (stat(paths[i], &gs))
			res(what, -1);
		else
			printf("%s: mode %o size %lld\n", what, (unsigned int)gs.st_mode,
			       S_ISDIR(gs.st_mode) ? 0LL : (long long)gs.st_size);
		snprintf(what, sizeof(what), "statx %s", paths[i]);
		if (statx(AT_FDCWD, paths[i], 0, STATX_BASIC_STATS, &sx))
			res(what, -1);
		else
			printf("%s: mask %x mode %o nlink %u size %llu\n", what,
			       sx.stx_mask & STATX_BASIC_STATS, sx.stx_mode, sx.stx_nlink,
			       S_ISDIR(sx.stx_mode) ? 0ULL : (unsigned long long)sx.stx_size);
	}
}

static void check_errors(void)
{
	kstat_t st;
	char buf[64];
	int fd = open("size4097", O_RDONLY);
	int dfd = open("dir", O_RDONLY | O_DIRECTORY);
	char *pages;
	long r;

	res("read fd -1", syscall(SYS_read, -1, buf, 1));
	res("read fd 999", syscall(SYS_read, 999, buf, 1));
	res("close fd 999", syscall(SYS_close, 999));
	res("read into NULL", syscall(SYS_read, fd, NULL, 10));
	res("read into the kernel", syscall(SYS_read, fd, BAD_PTR, 10));
	res("read 0 bytes", syscall(SYS_read, fd, buf, 0));
	res("open of a bad pointer", syscall(SYS_open, 1, O_RDONLY));
	res("stat of a kernel pointer", syscall(NR_STAT, BAD_PTR, &st));
	res("stat into NULL", syscall(NR_STAT, "f1", NULL));
	res("fstat into the kernel", syscall(NR_FSTAT, fd, BAD_PTR));
	res("fstat of fd 999", syscall(NR_FSTAT, 999, &st));
	/* a buffer whose second page is gone: Linux copies what fits */
	pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(pages + 4096, 4096);
	lseek(fd, 0, SEEK_SET);
	res("read across the end of a mapping", syscall(SYS_read, fd, pages + 4090, 100));
	res("read into a read-only page",
	    (mprotect(pages, 4096, PROT_READ), syscall(SYS_read, fd, pages, 10)));
	munmap(pages, 4096);
	res("lseek whence 9", lseek(fd, 0, 9));
	res("lseek to -1", lseek(fd, -1, SEEK_SET));
	res("lseek SEEK_END", lseek(fd, 0, SEEK_END));
	res("lseek SEEK_END -97", lseek(fd, -97, SEEK_END));
	res("read after SEEK_END -97", read(fd, buf, sizeof(buf)));
	res("lseek SEEK_CUR", lseek(fd, 0, SEEK_CUR));
	res("lseek SEEK_DATA 10", lseek(fd, 10, SEEK_DATA));
	res("lseek SEEK_HOLE 10", lseek(fd, 10, SEEK_HOLE));
	res("lseek SEEK_DATA past the end", lseek(fd, 5000, SEEK_DATA));
	res("read of a directory", read(dfd, buf, sizeof(buf)));
	res("write to a read-only fd", write(fd, "x", 1));
	res("ioctl TCGETS of a file", ioctl(fd, TCGETS, buf));
	res("ioctl of fd 999", ioctl(999, TCGETS, buf));
	res("open a directory O_WRONLY", open("dir", O_WRONLY));
	res("open a file as a directory", open("f1/x", O_RDONLY));
	res("O_DIRECTORY of a file", open("f1", O_RDONLY | O_DIRECTORY));
	res("O_NOFOLLOW of a link", open("lib", O_RDONLY | O_NOFOLLOW));
	res("O_CREAT|O_EXCL of a file", open("f1", O_RDONLY | O_CREAT | O_EXCL, 0644));
	res("open a link loop", open("loop1", O_RDONLY));
	res("open a dangling link", open("dangling", O_RDONLY));
	res("open missing", open("missing", O_RDONLY));
	memset(buf, 'n', 63);
	buf[63] = '\0';
	{
		char name[300];

		memset(name, 'n', 299);
		name[299] = '\0';
		res("open a 299-byte name", open(name, O_RDONLY));
	}
	res("getdents64 of a file", syscall(SYS_getdents64, fd, buf, sizeof(buf)));
	res("getdents64 into 8 bytes", syscall(SYS_getdents64, dfd, buf, 8));
	res("getdents64 into the kernel", syscall(SYS_getdents64, dfd, BAD_PTR, 4096));
	res("access mode 8", access("f1", 8));
	res("access X_OK of a 0600 file", access("f1", X_OK));
	res("access R_OK through a link", access("a/b/up", R_OK));
	res("faccessat2 flags 1", syscall(439, AT_FDCWD, "f1", R_OK, 1));
	res("readlink of a file", readlink("f1", buf, sizeof(buf)));
	res("readlink into 0 bytes", syscall(SYS_readlinkat, AT_FDCWD, "lib", buf, 0));
	r = readlink("a/b/up", buf, 3);
	printf("readlink truncated: %ld %.3s\n", r, buf);
	res("statx reserved mask", syscall(SYS_statx, AT_FDCWD, "f1", 0, 0x80000000u, buf));
	res("statx bad flags", syscall(SYS_statx, AT_FDCWD, "f1", 0x1, STATX_BASIC_STATS, buf));
	res("fstatat bad flags", syscall(NR_FSTATAT, AT_FDCWD, "f1", &st, 0x1));
	res("fstatat AT_EMPTY_PATH", syscall(NR_FSTATAT, fd, "", &st, AT_EMPTY_PATH));
	res("fstatat empty path", syscall(NR_FSTATAT, fd, "", &st, 0));
	res("openat from a file", openat(fd, "x", O_RDONLY));
	res("openat from fd 999", openat(999, "x", O_RDONLY));
	close(fd);
	close(dfd);
}

static void check_fds(void)
{
	int fd = open("f1", O_RDONLY), d;
	struct iovec iov[3];
	char a[2], b[2], c[10];

	res("dup2 to 40", dup2(fd, 40));
	res("F_GETFD", fcntl(40, F_GETFD));
	res("F_SETFD", fcntl(40, F_SETFD, FD_CLOEXEC));
	res("F_GETFD after", fcntl(40, F_GETFD));
	res("F_DUPFD 30", fcntl(fd, F_DUPFD, 30));
	res("F_DUPFD_CLOEXEC 30", fcntl(fd, F_DUPFD_CLOEXEC, 30));
	res("F_GETFD of it", fcntl(31, F_GETFD));
	res("F_GETFL", fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK | O_APPEND));
	res("F_SETFL", fcntl(fd, F_SETFL, O_NONBLOCK | O_RDWR));
	res("F_GETFL after", fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK | O_APPEND));
	res("fcntl 999", fcntl(fd, 999));
	res("dup2 to itself", dup2(fd, fd));
	res("dup2 of fd 999", dup2(999, 41));
	res("dup2 to -1", dup2(fd, -1));
	d = dup(fd);
	printf("dup is the lowest free: %d\n", d == fd + 1);
	res("close 40", close(40));
	res("close 40 again", close(40));
	close(30);
	close(31);
	close(d);
	iov[0] = (struct iovec){ a, 2 };
	iov[1] = (struct iovec){ b, 2 };
	iov[2] = (struct iovec){ c, 10 };
	res("readv", readv(fd, iov, 3));
	printf("readv's pieces: %.2s %.2s\n", a, b);
	res("readv of 1025 iovecs", syscall(SYS_readv, fd, iov, 1025));
	res("readv of -1 iovecs", syscall(SYS_readv, fd, iov, -1));
	res("readv of a kernel iovec array", syscall(SYS_readv, fd, BAD_PTR, 1));
	iov[0].iov_len = (size_t)-1;
	res("readv of a negative length", syscall(SYS_readv, fd, iov, 1));
	iov[0] = (struct iovec){ "writev ", 7 };
	iov[1] = (struct iovec){ "works\n", 6 };
	fflush(stdout);
	res("writev", writev(1, iov, 2));
	close(fd);
}

static int cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* getdents64 in 100-byte pieces, then rewound and read in one; both sorted. */
static void check_dirs(void)
{
	static char *names[256];
	char buf[4096];
	const char *dirs[] = { ".", "dir", "a/b", "lib", "empty" };

	for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
		int fd = open(dirs[k], O_RDONLY | O_DIRECTORY), n = 0;
		long r;

		for (int pass = 0; pass < 2; pass++) {
			n = 0;
			lseek(fd, 0, SEEK_SET);
			while ((r = syscall(SYS_getdents64, fd, buf, pass ? sizeof(buf) : 100)) > 0)
				for (long off = 0; off < r;) {
					struct dirent64 *de = (struct dirent64 *)(buf + off);

					if (n < 256 && asprintf(&names[n], "%s/%d", de->d_name,
								de->d_type) > 0)
						n++;
					off += de->d_reclen;
				}
			qsort(names, (size_t)n, sizeof(*names), cmp);
			printf("list %s pass %d:", dirs[k], pass);
			for (int i = 0; i < n; i++) {
				printf(" %s", names[i]);
				free(names[i]);
			}
			printf("\n");
		}
		close(fd);
	}
}

static void print_cwd(const char *what)
{
	char buf[PATH_MAX];
	size_t rl = strlen(rootpath);

	if (!getcwd(buf, sizeof(buf)))
		return res(what, -1);
	printf("%s: %s\n", what, rl == 1 ? buf : strlen(buf) == rl ? "/" : buf + rl);
}

static void check_cwd(void)
{
	char small[2];

	res("getcwd into 1 byte", syscall(SYS_getcwd, small, 1));
	res("getcwd into the kernel", syscall(SYS_getcwd, BAD_PTR, 100));
	res("chdir to a file", chdir("f1"));
	res("chdir missing", chdir("missing"));
	res("chdir lib", chdir("lib"));
	print_cwd("cwd after chdir lib");
	res("stat c/deep from there", access("c/deep", R_OK));
	res("chdir c/top", chdir("c/top"));
	print_cwd("cwd after chdir c/top");
	res("chdir back", chdir(rootpath));
}

/* What programs read from /proc/self: the same shape on both. */
static void check_proc(char **argv)
{
	char buf[4096], want[512];
	int fd = open("/proc/self/stat", O_RDONLY), n = 0, len = 0;
	long r = read(fd, buf, sizeof(buf) - 1), pid, ppid;
	char *p = strrchr(buf, ')');

	close(fd);
	buf[r > 0 ? r : 0] = '\0';
	for (char *q = p ? p + 1 : buf; *q && *q != '\n'; q++)
		n += *q == ' ';
	printf("/proc/self/stat fields: %d\n", n + 2);
	sscanf(buf, "%ld", &pid);
	ppid = p ? strtol(p + 4, NULL, 10) : -1;
	printf("/proc/self/stat pid is getpid: %d, ppid is getppid: %d\n", pid == getpid(),
	       ppid == getppid());
	fd = open("/proc/self/cmdline", O_RDONLY);
	r = read(fd, buf, sizeof(buf));
	close(fd);
	for (int i = 1; argv[i]; i++) {
		memcpy(want + len, argv[i], strlen(argv[i]) + 1);
		len += (int)strlen(argv[i]) + 1;
	}
	printf("/proc/self/cmdline after argv[0]: %d\n",
	       r > (long)strlen(argv[0]) && !memcmp(buf + strlen(buf) + 1, want, (size_t)len));
	res("/proc/self/exe is a link", readlink("/proc/self/exe", buf, sizeof(buf)) > 0);
	fd = open("/proc/uptime", O_RDONLY);
	r = read(fd, buf, sizeof(buf) - 1);
	buf[r > 0 ? r : 0] = '\0';
	close(fd);
	{
		unsigned long a, b, c, d;
		char nl;

		printf("/proc/uptime shape: %d\n",
		       sscanf(buf, "%lu.%2lu %lu.%2lu%c", &a, &b, &c, &d, &nl) == 5 && nl == '\n');
	}
	fd = open("/proc/uptime", O_WRONLY); /* root may */
	res("/proc/uptime O_WRONLY", fd < 0 ? -1 : 0);
	res("write to /proc/uptime", write(fd, "1", 1));
	close(fd);
	res("/proc/999999/stat", open("/proc/999999/stat", O_RDONLY));
	res("/proc/self/stat/", open("/proc/self/stat/", O_RDONLY));
}

/* dynhz only: the root is read-only. */
static void check_rofs(void)
{
	res("open O_WRONLY", open("f1", O_WRONLY));
	res("open O_RDWR", open("f1", O_RDWR));
	res("open O_TRUNC", open("f1", O_RDONLY | O_TRUNC));
	res("create", open("new", O_WRONLY | O_CREAT, 0644));
	res("create in a missing directory", open("nodir/new", O_WRONLY | O_CREAT, 0644));
	res("access W_OK", access("f1", W_OK));
	res("lseek of the console", lseek(0, 0, SEEK_CUR));
	/* Linux's ramfs (dcache_dir_lseek); ext4 answers otherwise */
	res("lseek of a directory SEEK_END", lseek(open("dir", O_RDONLY), 0, SEEK_END));
	{
		struct winsize ws;
		struct termios t;
		pid_t pg;

		res("TIOCGWINSZ", ioctl(1, TIOCGWINSZ, &ws));
		printf("winsize: %d x %d\n", ws.ws_row, ws.ws_col);
		res("TCGETS", tcgetattr(0, &t));
		res("isatty(1)", isatty(1));
		res("TIOCGPGRP", ioctl(0, TIOCGPGRP, &pg));
		printf("pgrp is getpgrp: %d\n", pg == getpgrp());
		res("ioctl 0x1234 of the console", ioctl(0, 0x1234, 0));
	}
}

int main(int argc, char **argv)
{
	if (argc < 3 || !realpath(argv[1], rootpath) || chdir(rootpath)) {
		fprintf(stderr, "usage: filecheck ROOT linux|rofs\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[2], "rofs")) {
		check_rofs();
		return 0;
	}
	check_stat();
	check_errors();
	check_fds();
	check_dirs();
	check_cwd();
	check_proc(argv);
	printf("filecheck: done\n");
	return 0;
}
