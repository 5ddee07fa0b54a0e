// SPDX-License-Identifier: MIT
/*
 * memcheck: the memory system calls (mmap, munmap, mprotect, madvise,
 * brk) as a static i386 program sees them. The same program runs on Linux
 * (built for this host: the calls mean the same on x86_64) and on the
 * reference kernel (built for i386), and tests/memory/check.sh
 * compares what each printed, line by line: Linux is the reference.
 *
 *	memcheck ops SEED STEPS		random operations in a fixed window,
 *					the window's state after each
 *	memcheck errors			argument errors, one errno per line
 *	memcheck big MIB		maps and fills MIB MiB twice over
 *
 * A page's state is probed with system calls, never by touching it:
 * nanosleep reads 8 bytes (EFAULT if it cannot), clock_gettime writes 8.
 * The probes use the second half of a page, the marks the first half.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define PAGE	 4096UL
#define WIN	 0x30000000UL /* a window no libc uses */
#define NPAGES	 32
#define PROBE_R	 2048 /* nanosleep reads {0, 0} here: no sleep */
#define PROBE_W	 3072
#define MARK_MAX 2048

static unsigned long long rng;

static unsigned int next(unsigned int n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(rng >> 33) % n;
}

static char *page(unsigned int i)
{
	return (char *)(WIN + i * PAGE);
}

static int readable(const char *p)
{
	return syscall(SYS_nanosleep, p + PROBE_R, NULL) != -1 || errno != EFAULT;
}

static int writable(char *p)
{
	return syscall(SYS_clock_gettime, CLOCK_MONOTONIC, p + PROBE_W) == 0;
}

static unsigned int mark_at(unsigned int i)
{
	return (i * 7) % MARK_MAX;
}

/* One line: each page '.' (no access), 'r' or 'w', then a sum of the marks. */
static void show(unsigned int step, const char *op, long ret)
{
	char map[NPAGES + 1];
	unsigned long sum = 0;

	for (unsigned int i = 0; i < NPAGES; i++) {
		char *p = page(i);

		map[i] = '.';
		if (!readable(p))
			continue;
		map[i] = writable(p) ? 'w' : 'r';
		sum += (i + 1) * (unsigned char)p[mark_at(i)];
	}
	map[NPAGES] = '\0';
	printf("%4u %-28s %-6ld %s %lu\n", step, op, ret, map, sum);
}

static long result(long r)
{
	return r == -1 ? -errno : r;
}

static const int prots[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE, PROT_READ | PROT_EXEC,
			     PROT_READ | PROT_WRITE | PROT_EXEC };

static long do_mmap(unsigned int a, unsigned int n, int prot, char *op, size_t oplen)
{
	void *r = mmap(page(a), n * PAGE, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	snprintf(op, oplen, "mmap %u+%u prot %d", a, n, prot);
	return r == MAP_FAILED ? -errno : (long)((char *)r - page(0)) / (long)PAGE;
}

static void mark(unsigned int a, unsigned int n, unsigned int step)
{
	for (unsigned int i = a; i < a + n && i < NPAGES; i++)
		if (readable(page(i)) && writable(page(i)))
			page(i)[mark_at(i)] = (char)(step * 13 + i);
}

static long one_op(unsigned int step, char *op, size_t oplen)
{
	unsigned int a = next(NPAGES), n = 1 + next(6);
	int prot = prots[next(5)];

	if (a + n > NPAGES)
		n = NPAGES - a;
	switch (next(6)) {
	case 0:
	case 1:
		return do_mmap(a, n, prot, op, oplen);
	case 2:
		snprintf(op, oplen, "munmap %u+%u", a, n);
		return result(munmap(page(a), n * PAGE));
	case 3:
		snprintf(op, oplen, "mprotect %u+%u prot %d", a, n, prot);
		return result(mprotect(page(a), n * PAGE, prot));
	case 4:
		snprintf(op, oplen, "madvise-dontneed %u+%u", a, n);
		return result(madvise(page(a), n * PAGE, MADV_DONTNEED));
	default:
		snprintf(op, oplen, "mark %u+%u", a, n);
		mark(a, n, step);
		return 0;
	}
}

static int ops(unsigned long long seed, unsigned int steps)
{
	char op[64];

	rng = seed;
	for (unsigned int s = 0; s < steps; s++) {
		long r = one_op(s, op, sizeof(op));

		show(s, op, r);
	}
	return 0;
}

/* brk: only what a program can know, the moves relative to the first break. */
static void brk_moves(void)
{
	char *b0 = (char *)syscall(SYS_brk, 0), *b;
	static const long moves[] = { 3 * PAGE + 5, 10 * PAGE, PAGE, 0, 40 * PAGE, 2 * PAGE };

	for (unsigned int i = 0; i < sizeof(moves) / sizeof(moves[0]); i++) {
		b = (char *)syscall(SYS_brk, b0 + moves[i]);
		printf("brk +%ld: +%ld", moves[i], (long)(b - b0));
		if (moves[i] > (long)PAGE)
			printf(" page %s", readable(b0 + PAGE) && writable(b0 + PAGE) ? "rw" : "-");
		printf("\n");
	}
	b = (char *)syscall(SYS_brk, PAGE);
	printf("brk far below the start: +%ld\n", (long)(b - (char *)syscall(SYS_brk, 0)));
}

struct error_case {
	const char *what;
	long (*call)(void);
};

static long map_len0(void)
{
	return (long)mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static long map_notype(void)
{
	return (long)mmap(NULL, PAGE, PROT_READ, MAP_ANONYMOUS, -1, 0);
}

static long map_fixed_unaligned(void)
{
	return (long)mmap(page(0) + 1, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
			  0);
}

static long map_badprot(void)
{
	return (long)mmap(NULL, PAGE, 0x80, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static long map_huge(void)
{
	return (long)mmap(NULL, -(size_t)PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static long unmap_unaligned(void)
{
	return munmap(page(0) + 8, PAGE);
}

static long unmap_len0(void)
{
	return munmap(page(0), 0);
}

static long unmap_nothing(void)
{
	return munmap(page(NPAGES + 100), PAGE);
}

static long protect_unaligned(void)
{
	return mprotect(page(0) + 1, PAGE, PROT_READ);
}

static long protect_unmapped(void)
{
	return mprotect(page(NPAGES + 200), PAGE, PROT_READ);
}

static long protect_badprot(void)
{
	return mprotect(page(0), PAGE, 0x100);
}

static long protect_len0(void)
{
	return mprotect(page(NPAGES + 200), 0, PROT_READ);
}

static long advise_unaligned(void)
{
	return madvise(page(0) + 1, PAGE, MADV_DONTNEED);
}

static long advise_unmapped(void)
{
	return madvise(page(NPAGES + 300), PAGE, MADV_DONTNEED);
}

static const struct error_case error_cases[] = {
	{ "mmap length 0", map_len0 },
	{ "mmap neither shared nor private", map_notype },
	{ "mmap fixed unaligned", map_fixed_unaligned },
	{ "mmap bad protection", map_badprot },
	{ "mmap 4 GiB", map_huge },
	{ "munmap unaligned", unmap_unaligned },
	{ "munmap length 0", unmap_len0 },
	{ "munmap nothing there", unmap_nothing },
	{ "mprotect unaligned", protect_unaligned },
	{ "mprotect unmapped", protect_unmapped },
	{ "mprotect bad protection", protect_badprot },
	{ "mprotect length 0", protect_len0 },
	{ "madvise unaligned", advise_unaligned },
	{ "madvise unmapped", advise_unmapped },
};

static int errors(void)
{
	for (unsigned int i = 0; i < sizeof(error_cases) / sizeof(error_cases[0]); i++) {
		long r;

		errno = 0;
		r = error_cases[i].call();
		printf("%-32s %s\n", error_cases[i].what,
		       r == -1 || r == (long)MAP_FAILED ? strerror(errno) : "ok");
	}
	brk_moves();
	return 0;
}

/* Fills mib MiB with a pattern, checks it, frees it, twice: pages come back. */
static int big(unsigned long mib)
{
	unsigned long len = mib << 20, bad = 0;

	for (int round = 0; round < 2; round++) {
		unsigned int *p =
			mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			printf("memcheck: big: mmap of %lu MiB: %s\n", mib, strerror(errno));
			return 1;
		}
		for (unsigned long i = 0; i < len / 4; i += PAGE / 4)
			bad += p[i] != 0 || p[i + 1] != 0;
		for (unsigned long i = 0; i < len / 4; i += PAGE / 4)
			p[i] = (unsigned int)(i * 2654435761U) ^ (unsigned int)round;
		for (unsigned long i = 0; i < len / 4; i += PAGE / 4)
			bad += p[i] != ((unsigned int)(i * 2654435761U) ^ (unsigned int)round);
		munmap(p, len);
	}
	printf("memcheck: big %lu MiB twice: %lu bad words\n", mib, bad);
	return bad != 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "ops"))
		return ops(strtoull(argv[2], NULL, 0), (unsigned int)atoi(argv[3]));
	if (argc >= 2 && !strcmp(argv[1], "errors"))
		return errors();
	if (argc >= 3 && !strcmp(argv[1], "big"))
		return big(strtoul(argv[2], NULL, 0));
	fprintf(stderr, "usage: memcheck ops SEED STEPS | errors | big MIB\n");
	return 2;
}
