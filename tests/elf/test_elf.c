// SPDX-License-Identifier: MIT
/*
 * Host tests of kernel/proc/elf.c, built with ASan and UBSan.
 *
 *   test_elf plan FILE BIAS    prints the plan in readelf's terms (check.sh
 *                              compares it with readelf -lh) after checking
 *                              the page mappings against the segments
 *   test_elf trunc FILE        the file cut at many lengths: one-line
 *                              rejections, or plans that fit in what is left
 *   test_elf corrupt FILE      header fields broken one at a time, each with
 *                              the message it must give
 *   test_elf stack             stacks built and walked back as a libc does
 *
 * Exit status 0 when every check passed; problems go to stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kernel/elf.h>

static int failures;

#define CHECK(cond, ...)                                                  \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                     \
			fputc('\n', stderr);                              \
			failures++;                                       \
		}                                                         \
	} while (0)

static u8 *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	u8 *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(2);
	}
	buf = malloc(n ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* A rejection is one line, starting "elf: ". */
static void check_message(const char *err, const char *what)
{
	CHECK(strncmp(err, "elf: ", 5) == 0, "%s: message \"%s\" does not start with elf:", what,
	      err);
	CHECK(!strchr(err, '\n'), "%s: message \"%s\" is more than one line", what, err);
	CHECK(strlen(err) > 8, "%s: message \"%s\" says nothing", what, err);
}

/* What every accepted plan must be, whatever the file. */
static void check_plan(const struct elf_plan *p, size_t len)
{
	for (u32 i = 0; i < p->nmaps; i++) {
		const struct elf_map *m = &p->maps[i];
		u64 end = (u64)m->va + (u64)m->pages * ELF_PAGE_SIZE;

		CHECK(m->va % ELF_PAGE_SIZE == 0, "map %u: va 0x%x not page aligned", i, m->va);
		CHECK(m->seg_va >= m->va && (u64)m->seg_va + m->seg_memsz <= end,
		      "map %u: segment outside its pages", i);
		CHECK(end - m->seg_va - m->seg_memsz < ELF_PAGE_SIZE, "map %u: a page too many", i);
		CHECK((u64)m->file_bytes + m->zero_bytes == end - m->va,
		      "map %u: copied + zeroed != the pages", i);
		CHECK((u64)m->file_off + m->file_bytes <= len, "map %u: copy past the file", i);
		CHECK(end <= p->user_top, "map %u: above user space", i);
		CHECK(i == 0 || m->va >= p->maps[i - 1].va + p->maps[i - 1].pages * ELF_PAGE_SIZE,
		      "map %u: overlaps or precedes the one before", i);
		if (m->seg_filesz) {
			/* The segment's bytes land at seg_va. */
			u32 skip = m->seg_va - m->va;

			CHECK(m->file_bytes == skip + m->seg_filesz, "map %u: file bytes", i);
		}
	}
	CHECK(p->nmaps && p->brk == p->maps[p->nmaps - 1].va +
					    p->maps[p->nmaps - 1].pages * ELF_PAGE_SIZE,
	      "brk 0x%x is not the end of the last map", p->brk);
}

static void flags(char *out, u32 prot)
{
	int n = 0;

	if (prot & PF_R)
		out[n++] = 'R';
	if (prot & PF_W)
		out[n++] = 'W';
	if (prot & PF_X)
		out[n++] = 'E';
	out[n] = '\0';
}

static int do_plan(const char *path, u32 bias)
{
	size_t len;
	u8 *img = read_all(path, &len);
	struct elf_plan p = { .user_top = ELF_USER_TOP };
	char err[160], f[4];

	if (elf_load_plan(img, len, bias, &p, err, sizeof(err))) {
		check_message(err, path);
		printf("rejected %s\n", err);
		free(img);
		return failures ? 1 : 3;
	}
	check_plan(&p, len);
	printf("entry 0x%08x\nphdr 0x%08x\nphnum %u\nphent %u\n", p.entry, p.phdr, p.phnum,
	       p.phent);
	for (u32 i = 0; i < p.nmaps; i++) {
		flags(f, p.maps[i].prot);
		printf("load 0x%08x 0x%x 0x%x %s\n", p.maps[i].seg_va, p.maps[i].seg_filesz,
		       p.maps[i].seg_memsz, f);
	}
	printf("brk 0x%08x\nexecstack %d\n", p.brk, p.exec_stack);
	free(img);
	return failures ? 1 : 0;
}

/* The file ends at cut: an exact-size copy, so ASan sees any read past it. */
static int try_cut(const u8 *img, size_t cut, struct elf_plan *p, char *err, size_t errlen)
{
	u8 *copy = malloc(cut ? cut : 1);
	int rc;

	memcpy(copy, img, cut);
	p->user_top = ELF_USER_TOP;
	rc = elf_load_plan(copy, cut, 0x56555000, p, err, errlen);
	if (rc == 0)
		check_plan(p, cut);
	free(copy);
	return rc;
}

static int do_trunc(const char *path)
{
	size_t len, rejected = 0, accepted = 0, tried = 0;
	u8 *img = read_all(path, &len);
	struct elf_plan p;
	char err[160];

	for (size_t cut = 0; cut < len; cut += cut < 4096 ? 1 : 997 + cut / 64) {
		char what[64];

		snprintf(what, sizeof(what), "cut at %zu", cut);
		tried++;
		if (try_cut(img, cut, &p, err, sizeof(err))) {
			check_message(err, what);
			rejected++;
			continue;
		}
		accepted++;
		/* What was accepted must have all its segments' bytes. */
		for (u32 i = 0; i < p.nmaps; i++)
			CHECK((u64)p.maps[i].file_off + p.maps[i].file_bytes <= cut,
			      "%s: map %u needs bytes past the cut", what, i);
	}
	printf("%zu lengths: %zu rejected, %zu accepted\n", tried, rejected, accepted);
	CHECK(rejected > 0, "no truncation was rejected");
	free(img);
	return failures ? 1 : 0;
}

/* The program headers of a copy, by index, and the first two PT_LOADs. */
struct victim {
	u8 *img;
	size_t len;
	struct elf32_ehdr *eh;
	struct elf32_phdr *ph;
	int load[2], last_load;
};

static void open_victim(struct victim *v, const u8 *orig, size_t len)
{
	int n = 0;

	v->img = malloc(len);
	memcpy(v->img, orig, len);
	v->len = len;
	v->eh = (struct elf32_ehdr *)v->img;
	v->ph = (struct elf32_phdr *)(v->img + v->eh->e_phoff);
	v->load[0] = v->load[1] = v->last_load = -1;
	for (int i = 0; i < v->eh->e_phnum; i++) {
		if (v->ph[i].p_type != PT_LOAD)
			continue;
		if (n < 2)
			v->load[n++] = i;
		v->last_load = i;
	}
}

enum mutation {
	M_MAGIC,
	M_CLASS,
	M_DATA,
	M_MACHINE,
	M_TYPE,
	M_PHENTSIZE,
	M_PHNUM0,
	M_PHNUM_BIG,
	M_PHOFF,
	M_OFFSET,
	M_FILESZ,
	M_MEMSZ,
	M_FILESZ_GT,
	M_OVERLAP,
	M_ORDER,
	M_KERNEL,
	M_WRAP,
	M_ALIGN,
	M_CONGRUENT,
	M_ENTRY,
	M_COUNT
};

static const struct {
	const char *name, *expect;
} cases[M_COUNT] = {
	[M_MAGIC] = { "magic", "elf: not ELF (bad magic)" },
	[M_CLASS] = { "ELFCLASS64", "elf: not a 32-bit ELF" },
	[M_DATA] = { "big-endian", "elf: not little-endian" },
	[M_MACHINE] = { "e_machine x86-64", "elf: not an i386 program" },
	[M_TYPE] = { "e_type ET_REL", "elf: not an executable" },
	[M_PHENTSIZE] = { "e_phentsize 56", "elf: bad e_phentsize" },
	[M_PHNUM0] = { "e_phnum 0", "elf: bad e_phnum" },
	[M_PHNUM_BIG] = { "e_phnum 65535", "elf: bad e_phnum" },
	[M_PHOFF] = { "e_phoff near 4 GiB", "elf: program headers run past the end of the file" },
	[M_OFFSET] = { "p_offset near 4 GiB", "runs past the end of the file" },
	[M_FILESZ] = { "p_filesz 0xffffffff", "runs past the end of the file" },
	[M_MEMSZ] = { "p_memsz near 4 GiB", "lies outside user space" },
	[M_FILESZ_GT] = { "p_filesz > p_memsz", "has p_filesz > p_memsz" },
	[M_OVERLAP] = { "overlapping segments", "overlaps the one before it" },
	[M_ORDER] = { "descending segments", "is out of order" },
	[M_KERNEL] = { "kernel-space p_vaddr", "lies outside user space" },
	[M_WRAP] = { "p_vaddr + p_memsz wraps", "lies outside user space" },
	[M_ALIGN] = { "p_align 3", "p_align is not a power of two" },
	[M_CONGRUENT] = { "p_vaddr moved by 16", "differ" },
	[M_ENTRY] = { "entry outside", "elf: entry point 0x00001000 is not in any segment" },
};

static void mutate(struct victim *v, enum mutation m)
{
	struct elf32_phdr *a = &v->ph[v->load[0]], *b = &v->ph[v->load[1]];
	struct elf32_phdr *z = &v->ph[v->last_load];

	switch (m) {
	case M_MAGIC:
		v->img[1] = 'e';
		break;
	case M_CLASS:
		v->img[EI_CLASS] = 2;
		break;
	case M_DATA:
		v->img[EI_DATA] = 2;
		break;
	case M_MACHINE:
		v->eh->e_machine = 62;
		break;
	case M_TYPE:
		v->eh->e_type = 1;
		break;
	case M_PHENTSIZE:
		v->eh->e_phentsize = 56;
		break;
	case M_PHNUM0:
		v->eh->e_phnum = 0;
		break;
	case M_PHNUM_BIG:
		v->eh->e_phnum = 0xffff;
		break;
	case M_PHOFF:
		v->eh->e_phoff = 0xfffffff0;
		break;
	case M_OFFSET:
		b->p_offset = 0xfffff000 | (b->p_vaddr & 0xfff);
		break;
	case M_FILESZ:
		b->p_filesz = b->p_memsz = 0xffffffff;
		break;
	case M_MEMSZ:
		z->p_memsz = 0xfffff000;
		break;
	case M_FILESZ_GT:
		b->p_filesz = b->p_memsz + 1;
		break;
	case M_OVERLAP:
		b->p_vaddr = a->p_vaddr + (b->p_vaddr & 0xfff);
		break;
	case M_ORDER:
		b->p_vaddr = a->p_vaddr - 0x100000 + (b->p_vaddr & 0xfff);
		break;
	case M_KERNEL:
		z->p_vaddr = 0xc0000000 | (z->p_vaddr & 0xfff);
		break;
	case M_WRAP:
		z->p_vaddr = 0xbffff000 | (z->p_vaddr & 0xfff);
		z->p_memsz = 0x40002000;
		break;
	case M_ALIGN:
		b->p_align = 3;
		break;
	case M_CONGRUENT:
		b->p_vaddr += 16;
		break;
	case M_ENTRY:
		v->eh->e_entry = 0x1000;
		break;
	case M_COUNT:
		break;
	}
}

static int do_corrupt(const char *path)
{
	size_t len;
	u8 *img = read_all(path, &len);
	struct elf_plan p;
	char err[160];

	for (int m = 0; m < M_COUNT; m++) {
		struct victim v;
		int rc;

		open_victim(&v, img, len);
		if (v.load[1] < 0) {
			fprintf(stderr, "%s: fewer than two PT_LOAD segments\n", path);
			exit(2);
		}
		mutate(&v, m);
		p.user_top = ELF_USER_TOP;
		rc = elf_load_plan(v.img, v.len, 0x56555000, &p, err, sizeof(err));
		CHECK(rc == -1, "%s: accepted", cases[m].name);
		if (rc == -1) {
			check_message(err, cases[m].name);
			CHECK(strstr(err, cases[m].expect), "%s: \"%s\", expected \"%s\"",
			      cases[m].name, err, cases[m].expect);
			printf("%-24s %s\n", cases[m].name, err);
		}
		/* A short buffer is cut, still terminated; none at all is fine too. */
		rc = elf_load_plan(v.img, v.len, 0, &p, err, 6);
		CHECK(rc == -1 && strlen(err) == 5, "%s: errlen 6 gave \"%s\"", cases[m].name, err);
		CHECK(elf_load_plan(v.img, v.len, 0, &p, NULL, 0) == -1, "%s: errlen 0",
		      cases[m].name);
		free(v.img);
	}
	free(img);
	return failures ? 1 : 0;
}

/* The stack: built in an exact-size buffer, then walked from sp. */
struct walk {
	const u8 *top_mem;
	u32 top_va, sp;
	size_t room;
};

static u32 word(const struct walk *w, u32 va)
{
	u32 x;

	if (va < w->sp || va + 4 > w->top_va) {
		CHECK(0, "word at 0x%x outside the stack", va);
		return 0;
	}
	memcpy(&x, w->top_mem - (w->top_va - va), 4);
	return x;
}

static const char *string(const struct walk *w, u32 va)
{
	if (va < w->sp || va >= w->top_va) {
		CHECK(0, "string at 0x%x outside the stack", va);
		return "";
	}
	const char *s = (const char *)w->top_mem - (w->top_va - va);

	CHECK(memchr(s, 0, w->top_va - va), "string at 0x%x not terminated", va);
	return s;
}

static void walk_aux(const struct walk *w, u32 at, const struct elf_auxv *aux, const char *execfn)
{
	u32 seen = 0, type;

	do {
		type = word(w, at);
		u32 val = word(w, at + 4);

		at += 8;
		CHECK(type < 32 && !(seen & (1U << type)), "auxv type %u repeated", type);
		seen |= 1U << (type & 31);
		switch (type) {
		case AT_PHDR:
			CHECK(val == aux->phdr, "AT_PHDR");
			break;
		case AT_PHENT:
			CHECK(val == 32, "AT_PHENT");
			break;
		case AT_PHNUM:
			CHECK(val == aux->phnum, "AT_PHNUM");
			break;
		case AT_PAGESZ:
			CHECK(val == 4096, "AT_PAGESZ %u", val);
			break;
		case AT_BASE:
			CHECK(val == 0, "AT_BASE");
			break;
		case AT_ENTRY:
			CHECK(val == aux->entry, "AT_ENTRY");
			break;
		case AT_UID:
			CHECK(val == aux->uid, "AT_UID");
			break;
		case AT_EUID:
			CHECK(val == aux->euid, "AT_EUID");
			break;
		case AT_GID:
			CHECK(val == aux->gid, "AT_GID");
			break;
		case AT_EGID:
			CHECK(val == aux->egid, "AT_EGID");
			break;
		case AT_HWCAP:
			CHECK(val == aux->hwcap, "AT_HWCAP");
			break;
		case AT_CLKTCK:
			CHECK(val == 100, "AT_CLKTCK %u", val);
			break;
		case AT_SECURE:
			CHECK(val == 0, "AT_SECURE");
			break;
		case AT_PLATFORM:
			CHECK(!strcmp(string(w, val), "i686"), "AT_PLATFORM");
			break;
		case AT_EXECFN:
			CHECK(!strcmp(string(w, val), execfn), "AT_EXECFN");
			break;
		case AT_RANDOM:
			CHECK(val >= w->sp && val + 16 <= w->top_va &&
				      !memcmp(w->top_mem - (w->top_va - val), aux->random, 16),
			      "AT_RANDOM");
			break;
		}
	} while (type != AT_NULL && !failures);
	u32 want = 1U << AT_PHDR | 1U << AT_PHENT | 1U << AT_PHNUM | 1U << AT_PAGESZ |
		   1U << AT_ENTRY | 1U << AT_UID | 1U << AT_EUID | 1U << AT_GID | 1U << AT_EGID |
		   1U << AT_PLATFORM | 1U << AT_HWCAP | 1U << AT_CLKTCK | 1U << AT_SECURE |
		   1U << AT_RANDOM | 1U << AT_EXECFN | 1U << AT_NULL;
	CHECK((seen & want) == want, "auxv types missing: 0x%x", want & ~seen);
}

/* As a libc's _start: argc at sp, then argv, NULL, envp, NULL, auxv. */
static void walk(const struct walk *w, const char *const *argv, const char *const *envp,
		 const struct elf_auxv *aux)
{
	u32 at = w->sp, argc = word(w, at), n;

	CHECK(w->sp % 16 == 0, "sp 0x%x not 16-byte aligned", w->sp);
	CHECK(w->top_va - w->sp <= w->room, "used more than the room");
	for (n = 0; argv && argv[n]; n++)
		;
	CHECK(argc == n, "argc %u, expected %u", argc, n);
	at += 4;
	for (u32 i = 0; i < argc && !failures; i++, at += 4)
		CHECK(!strcmp(string(w, word(w, at)), argv[i]), "argv[%u]", i);
	CHECK(word(w, at) == 0, "argv not NULL-terminated");
	at += 4;
	for (n = 0; envp && envp[n]; n++, at += 4)
		CHECK(!strcmp(string(w, word(w, at)), envp[n]), "envp[%u]", n);
	CHECK(word(w, at) == 0, "envp not NULL-terminated");
	walk_aux(w, at + 4, aux, aux->execfn ? aux->execfn : argv && argv[0] ? argv[0] : "");
}

static int build(const char *const *argv, const char *const *envp, const struct elf_auxv *aux,
		 u32 top_va, size_t room, bool walk_it)
{
	u8 *buf = malloc(room ? room : 1);
	struct walk w = { buf + room, top_va, 0, room };
	int rc;

	memset(buf, 0xa5, room);
	rc = elf_build_stack(buf + room, top_va, room, argv, envp, aux, &w.sp);
	if (rc == 0 && walk_it)
		walk(&w, argv, envp, aux);
	free(buf);
	return rc;
}

static int do_stack(void)
{
	static const char *const argv1[] = { "/bin/busybox", "uptime", NULL };
	static const char *const envp1[] = { "HOME=/", "TERM=linux", "PATH=/bin:/sbin", NULL };
	static const char *const one[] = { "x", NULL };
	struct elf_auxv aux = { .phdr = 0x08048034,
				.phent = 32,
				.phnum = 8,
				.entry = 0x8049b00,
				.uid = 1,
				.euid = 2,
				.gid = 3,
				.egid = 4,
				.hwcap = 0x178bfbff };
	const char *big[1001];
	static char blob[200000];
	size_t need = 0;

	for (int i = 0; i < 16; i++)
		aux.random[i] = (u8)(i * 37 + 1);
	CHECK(build(argv1, envp1, &aux, 0xbffff000, 65536, true) == 0, "simple stack");
	aux.execfn = "/init";
	CHECK(build(argv1, NULL, &aux, 0xbffff000, 65536, true) == 0, "no envp, execfn");
	CHECK(build(NULL, NULL, &aux, 0xbffff000, 4096, true) == 0, "no argv");
	aux.execfn = NULL;
	for (int i = 0; i < 1000; i++)
		big[i] = i % 3 ? "an argument of some length" : "";
	big[1000] = NULL;
	CHECK(build(big, big, &aux, 0xbffff000, 131072, true) == 0, "1000 arguments");
	/* Every alignment of the string area, each at the smallest room that fits. */
	for (int extra = 0; extra < 40 && !failures; extra++) {
		static char s[64];
		const char *const v[] = { s, NULL };
		size_t room;

		memset(s, 'a', (size_t)extra);
		s[extra] = '\0';
		for (room = 64; build(v, envp1, &aux, 0x7ffffff0U + (u32)extra, room, false);
		     room++)
			CHECK(room < 4096, "never fits");
		CHECK(build(v, envp1, &aux, 0x7ffffff0U + (u32)extra, room, true) == 0,
		      "smallest room");
		CHECK(build(v, envp1, &aux, 0x7ffffff0U + (u32)extra, room - 1, false) ==
			      -ELF_E2BIG,
		      "one byte less");
		need = room;
	}
	printf("stack: smallest room for a 39-byte argument: %zu bytes\n", need);
	memset(blob, 'b', sizeof(blob) - 1);
	const char *const huge[] = { blob, NULL };

	CHECK(build(huge, NULL, &aux, 0xbffff000, 131072, false) == -ELF_E2BIG, "200 KB argument");
	CHECK(build(one, NULL, &aux, 0x80, 4096, false) == -ELF_E2BIG, "stack top at 0x80");
	CHECK(build(one, NULL, &aux, 0x1000, 4096, true) == 0, "stack top at 0x1000");
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "plan"))
		return do_plan(argv[2], (u32)strtoul(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "trunc"))
		return do_trunc(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "corrupt"))
		return do_corrupt(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "stack"))
		return do_stack();
	fprintf(stderr, "usage: test_elf plan FILE BIAS | trunc FILE | corrupt FILE | stack\n");
	return 2;
}
