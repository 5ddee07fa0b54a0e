// SPDX-License-Identifier: MIT
/*
 * Static i386 ELF executables: from a file image to a plan of page
 * mappings, and the stack a program starts on. Nothing here trusts the
 * file: every offset and size is checked against the image, sums are done
 * in 64 bits so that no u32 wraps, and a rejection is one line saying why.
 * The headers are copied out byte by byte, since the image may be at any
 * alignment; both the kernel and the hosts that test this are little-endian,
 * as ELFDATA2LSB files are.
 */
#include <kernel/elf.h>
#include <dynhz/hz.h>

#define PAGE_MASK (ELF_PAGE_SIZE - 1)

/* An error line being written: always NUL-terminated, cut when full. */
struct errbuf {
	char *buf;
	size_t len;
	size_t at;
};

static void err_char(struct errbuf *e, char c)
{
	if (e->at + 1 >= e->len)
		return;
	e->buf[e->at++] = c;
	e->buf[e->at] = '\0';
}

static void err_str(struct errbuf *e, const char *s)
{
	while (*s)
		err_char(e, *s++);
}

static void err_dec(struct errbuf *e, u32 n)
{
	char d[10];
	int i = 0;

	do
		d[i++] = (char)('0' + n % 10);
	while (n /= 10);
	while (i)
		err_char(e, d[--i]);
}

static void err_hex(struct errbuf *e, u64 n)
{
	int shift = 28;

	err_str(e, "0x");
	if (n >> 32)
		shift = 60;
	for (; shift >= 0; shift -= 4)
		err_char(e, "0123456789abcdef"[(n >> shift) & 0xf]);
}

static int fail(struct errbuf *e, const char *msg)
{
	err_str(e, "elf: ");
	err_str(e, msg);
	return -1;
}

static int fail_seg(struct errbuf *e, u32 i, const char *msg)
{
	err_str(e, "elf: segment ");
	err_dec(e, i);
	err_str(e, msg);
	return -1;
}

static void copy_bytes(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	while (n--)
		*d++ = *s++;
}

/* Whether [off, off + size) lies inside a file of len bytes. */
static bool in_file(u64 off, u64 size, size_t len)
{
	return off + size <= (u64)len;
}

/* The header checks that do not depend on the program headers. */
static int check_ehdr(const u8 *img, size_t len, struct elf32_ehdr *eh, struct errbuf *e)
{
	static const u8 magic[4] = { 0x7f, 'E', 'L', 'F' };

	for (int i = 0; i < 4; i++)
		if (len <= (size_t)i || img[i] != magic[i])
			return fail(e, "not ELF (bad magic)");
	if (len < sizeof(*eh))
		return fail(e, "truncated ELF header");
	copy_bytes(eh, img, sizeof(*eh));
	if (eh->e_ident[EI_CLASS] != ELFCLASS32)
		return fail(e, "not a 32-bit ELF (ELFCLASS32 expected)");
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return fail(e, "not little-endian (ELFDATA2LSB expected)");
	if (eh->e_ident[EI_VERSION] != EV_CURRENT || eh->e_version != EV_CURRENT)
		return fail(e, "unknown ELF version");
	if (eh->e_machine != EM_386)
		return fail(e, "not an i386 program (e_machine is not EM_386)");
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return fail(e, "not an executable (e_type is neither ET_EXEC nor ET_DYN)");
	if (eh->e_phentsize != sizeof(struct elf32_phdr))
		return fail(e, "bad e_phentsize (32 expected)");
	if (eh->e_phnum == 0 || eh->e_phnum > ELF_MAX_PHNUM)
		return fail(e, "bad e_phnum (1 to 128 program headers)");
	if (!in_file(eh->e_phoff, (u64)eh->e_phnum * sizeof(struct elf32_phdr), len))
		return fail(e, "program headers run past the end of the file");
	return 0;
}

/* A dynamic program: name its interpreter, printable bytes only, briefly. */
static int fail_interp(const u8 *img, size_t len, const struct elf32_phdr *ph, struct errbuf *e)
{
	err_str(e, "elf: dynamically linked (PT_INTERP ");
	if (in_file(ph->p_offset, ph->p_filesz, len)) {
		for (u32 i = 0; i < ph->p_filesz && i < 64; i++) {
			u8 c = img[ph->p_offset + i];

			if (c == '\0')
				break;
			err_char(e, c >= 0x20 && c < 0x7f ? (char)c : '?');
		}
	} else {
		err_str(e, "past the end of the file");
	}
	err_str(e, "): only static programs run here");
	return -1;
}

/* Page congruence is what lets the file's pages become the program's. */
static int check_load(const struct elf32_phdr *ph, u32 i, size_t len, struct errbuf *e)
{
	if (ph->p_filesz > ph->p_memsz)
		return fail_seg(e, i, " has p_filesz > p_memsz");
	if (!in_file(ph->p_offset, ph->p_filesz, len))
		return fail_seg(e, i, " runs past the end of the file");
	if (ph->p_align > 1 && (ph->p_align & (ph->p_align - 1)))
		return fail_seg(e, i, ": p_align is not a power of two");
	if (ph->p_align > 1 && ((ph->p_offset - ph->p_vaddr) & (ph->p_align - 1)))
		return fail_seg(e, i, ": p_offset and p_vaddr differ modulo p_align");
	if ((ph->p_offset ^ ph->p_vaddr) & PAGE_MASK)
		return fail_seg(e, i, ": p_offset and p_vaddr differ within a page");
	return 0;
}

/* Appends segment i to the plan, after checking where it goes. */
static int add_load(struct elf_plan *plan, const struct elf32_phdr *ph, u32 i, u32 top,
		    struct errbuf *e)
{
	u64 va = (u64)ph->p_vaddr + plan->bias;
	u64 end = va + ph->p_memsz;
	u64 page_end = (end + PAGE_MASK) & ~(u64)PAGE_MASK;
	struct elf_map *m = &plan->maps[plan->nmaps];

	if (page_end > top || va < ELF_PAGE_SIZE) {
		fail_seg(e, i, " lies outside user space (");
		err_hex(e, va);
		err_str(e, "-");
		err_hex(e, end);
		err_str(e, ")");
		return -1;
	}
	if (plan->nmaps) {
		const struct elf_map *prev = m - 1;

		if (va < prev->seg_va)
			return fail_seg(e, i, " is out of order (PT_LOAD must ascend)");
		if (va < (u64)prev->seg_va + prev->seg_memsz)
			return fail_seg(e, i, " overlaps the one before it");
		if (va < (u64)prev->va + (u64)prev->pages * ELF_PAGE_SIZE)
			return fail_seg(e, i, " shares a page with the one before it");
	}
	if (plan->nmaps == ELF_MAX_LOADS)
		return fail(e, "more than 16 PT_LOAD segments");
	m->seg_va = (u32)va;
	m->seg_filesz = ph->p_filesz;
	m->seg_memsz = ph->p_memsz;
	m->prot = ph->p_flags & (PF_R | PF_W | PF_X);
	m->va = (u32)va & ~PAGE_MASK;
	m->pages = (u32)((page_end - m->va) / ELF_PAGE_SIZE);
	/* A bss-only segment takes nothing from the file, not even its first page. */
	m->file_off = ph->p_filesz ? ph->p_offset - ((u32)va & PAGE_MASK) : 0;
	m->file_bytes = ph->p_filesz ? ((u32)va & PAGE_MASK) + ph->p_filesz : 0;
	m->zero_bytes = m->pages * ELF_PAGE_SIZE - m->file_bytes;
	plan->nmaps++;
	return 0;
}

/* The map holding [va, va + size) of the program's memory, or NULL. */
static const struct elf_map *map_at(const struct elf_plan *plan, u64 va, u64 size)
{
	for (u32 i = 0; i < plan->nmaps; i++) {
		const struct elf_map *m = &plan->maps[i];

		if (va >= m->seg_va && va + size <= (u64)m->seg_va + m->seg_memsz)
			return m;
	}
	return NULL;
}

/* The segment types beyond PT_LOAD that matter to a static program. */
static int read_other(struct elf_plan *plan, const u8 *img, size_t len, const struct elf32_phdr *ph,
		      u32 i, struct errbuf *e)
{
	switch (ph->p_type) {
	case PT_INTERP:
		return fail_interp(img, len, ph, e);
	case PT_PHDR:
		if ((u64)ph->p_vaddr + plan->bias > U32_MAX)
			return fail_seg(e, i, " (PT_PHDR) lies outside user space");
		plan->phdr = ph->p_vaddr + plan->bias;
		break;
	case PT_GNU_STACK:
		plan->exec_stack = ph->p_flags & PF_X;
		break;
	case PT_TLS:
		if (ph->p_filesz > ph->p_memsz)
			return fail_seg(e, i, " (PT_TLS) has p_filesz > p_memsz");
		if (!in_file(ph->p_offset, ph->p_filesz, len))
			return fail_seg(e, i, " (PT_TLS) runs past the end of the file");
		if ((u64)ph->p_vaddr + plan->bias + ph->p_memsz > U32_MAX)
			return fail_seg(e, i, " (PT_TLS) lies outside user space");
		plan->tls_va = ph->p_vaddr + plan->bias;
		plan->tls_filesz = ph->p_filesz;
		plan->tls_memsz = ph->p_memsz;
		plan->tls_align = ph->p_align;
		break;
	}
	return 0;
}

/* AT_PHDR without PT_PHDR: where the first segment holding them maps e_phoff. */
static u32 phdr_from_loads(const struct elf_plan *plan, const u8 *img, const struct elf32_ehdr *eh)
{
	u64 size = (u64)eh->e_phnum * sizeof(struct elf32_phdr);

	for (u32 i = 0; i < eh->e_phnum; i++) {
		struct elf32_phdr ph;

		copy_bytes(&ph, img + eh->e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		if (eh->e_phoff >= ph.p_offset &&
		    (u64)eh->e_phoff + size <= (u64)ph.p_offset + ph.p_filesz)
			return ph.p_vaddr + plan->bias + (eh->e_phoff - ph.p_offset);
	}
	return 0;
}

/* The checks that need the whole plan: entry, program headers, TLS. */
static int finish(struct elf_plan *plan, const u8 *img, const struct elf32_ehdr *eh,
		  struct errbuf *e)
{
	const struct elf_map *last = &plan->maps[plan->nmaps - 1];

	if ((u64)eh->e_entry + plan->bias > U32_MAX ||
	    !map_at(plan, (u64)eh->e_entry + plan->bias, 1)) {
		fail(e, "entry point ");
		err_hex(e, (u64)eh->e_entry + plan->bias);
		err_str(e, " is not in any segment");
		return -1;
	}
	plan->entry = eh->e_entry + plan->bias;
	if (!plan->phdr)
		plan->phdr = phdr_from_loads(plan, img, eh);
	else if (!map_at(plan, plan->phdr, (u64)plan->phnum * plan->phent))
		return fail(e, "PT_PHDR is not in any segment");
	if (plan->tls_memsz && !map_at(plan, plan->tls_va, plan->tls_memsz))
		return fail(e, "PT_TLS is not in any segment");
	plan->brk = last->va + last->pages * ELF_PAGE_SIZE;
	return 0;
}

static void clear_plan(struct elf_plan *plan, u32 top)
{
	u8 *p = (u8 *)plan;

	for (size_t i = 0; i < sizeof(*plan); i++)
		p[i] = 0;
	plan->user_top = top;
	/* Without PT_GNU_STACK, i386 Linux keeps the old executable stack. */
	plan->exec_stack = true;
}

static int load_plan(const void *img, size_t len, u32 load_bias_for_pie, struct elf_plan *plan,
		     char *err, size_t errlen)
{
	struct errbuf e = { err, errlen, 0 };
	const u8 *p = img;
	struct elf32_ehdr eh;
	u32 top = plan->user_top ? plan->user_top : ELF_USER_TOP;

	if (errlen)
		err[0] = '\0';
	clear_plan(plan, top);
	if (check_ehdr(p, len, &eh, &e))
		return -1;
	if (eh.e_type == ET_DYN) {
		if (load_bias_for_pie & PAGE_MASK)
			return fail(&e, "load bias is not page aligned");
		plan->bias = load_bias_for_pie;
	}
	plan->phent = eh.e_phentsize;
	plan->phnum = eh.e_phnum;
	for (u32 i = 0; i < eh.e_phnum; i++) {
		struct elf32_phdr ph;

		copy_bytes(&ph, p + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD) {
			if (read_other(plan, p, len, &ph, i, &e))
				return -1;
			continue;
		}
		if (check_load(&ph, i, len, &e))
			return -1;
		if (ph.p_memsz && add_load(plan, &ph, i, top, &e))
			return -1;
	}
	if (!plan->nmaps)
		return fail(&e, "no PT_LOAD segment");
	return finish(plan, p, &eh, &e);
}

int elf_load_plan(const void *img, size_t len, u32 load_bias_for_pie, struct elf_plan *plan,
		  char *err, size_t errlen)
{
	struct errbuf e = { err, errlen, 0 };

	if (!load_plan(img, len, load_bias_for_pie, plan, err, errlen))
		return 0;
	/* The errno exec answers, as Linux's binfmt_elf for a program it cannot use. */
	while (e.at < errlen && err[e.at])
		e.at++;
	err_str(&e, ": ENOEXEC");
	return -1;
}

/*
 * The stack, from the top down as Linux builds it: a NULL word, the path
 * executed, the environment and argument strings, the platform name, the
 * 16 random bytes, then (16-byte aligned at argc) the table a C library's
 * _start walks: argc, argv[], NULL, envp[], NULL, the auxv pairs. Sizes
 * are summed first, in 64 bits, so that writing cannot run out of room.
 */
struct stack {
	u8 *top_mem;
	u32 top_va;
	u32 sp; /* the strings' cursor, going down */
};

#define AUX_PAIRS 18 /* put_auxv's, AT_NULL included */

static u32 count(const char *const *v)
{
	u32 n = 0;

	while (v && v[n])
		n++;
	return n;
}

static size_t str_size(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n + 1;
}

/* The bytes all strings of v take, stopping early once past limit. */
static u64 strs_size(const char *const *v, u32 n, u64 limit)
{
	u64 sum = 0;

	for (u32 i = 0; i < n && sum <= limit; i++)
		sum += str_size(v[i]);
	return sum;
}

static u8 *mem(const struct stack *s, u32 va)
{
	return s->top_mem - (s->top_va - va);
}

static u32 push_bytes(struct stack *s, const void *src, size_t size)
{
	s->sp -= (u32)size;
	copy_bytes(mem(s, s->sp), src, size);
	return s->sp;
}

static u32 push_str(struct stack *s, const char *str)
{
	return push_bytes(s, str, str_size(str));
}

static void put_word(const struct stack *s, u32 *at, u32 val)
{
	copy_bytes(mem(s, *at), &val, 4);
	*at += 4;
}

/* Pushes the strings of v, last first, and writes their addresses from at on. */
static void push_strs(struct stack *s, const char *const *v, u32 n, u32 at)
{
	for (u32 i = n; i-- > 0;) {
		u32 where = at + i * 4;

		put_word(s, &where, push_str(s, v[i]));
	}
}

static void put_aux(const struct stack *s, u32 *at, u32 type, u32 val)
{
	put_word(s, at, type);
	put_word(s, at, val);
}

static void put_auxv(const struct stack *s, u32 *at, const struct elf_auxv *aux, u32 platform,
		     u32 random, u32 execfn)
{
	put_aux(s, at, AT_PHDR, aux->phdr);
	put_aux(s, at, AT_PHENT, aux->phent);
	put_aux(s, at, AT_PHNUM, aux->phnum);
	put_aux(s, at, AT_PAGESZ, ELF_PAGE_SIZE);
	put_aux(s, at, AT_BASE, aux->base);
	put_aux(s, at, AT_FLAGS, aux->flags);
	put_aux(s, at, AT_ENTRY, aux->entry);
	put_aux(s, at, AT_UID, aux->uid);
	put_aux(s, at, AT_EUID, aux->euid);
	put_aux(s, at, AT_GID, aux->gid);
	put_aux(s, at, AT_EGID, aux->egid);
	put_aux(s, at, AT_PLATFORM, platform);
	put_aux(s, at, AT_HWCAP, aux->hwcap);
	put_aux(s, at, AT_CLKTCK, USER_HZ);
	put_aux(s, at, AT_SECURE, aux->secure);
	put_aux(s, at, AT_RANDOM, random);
	put_aux(s, at, AT_EXECFN, execfn);
	put_aux(s, at, AT_NULL, 0);
}

int elf_build_stack(u8 *stack_top_mem, u32 stack_top_va, size_t room, const char *const *argv,
		    const char *const *envp, const struct elf_auxv *aux, u32 *sp_out)
{
	static const u32 zero;
	struct stack s = { stack_top_mem, stack_top_va, stack_top_va };
	u32 argc = count(argv), envc = count(envp);
	const char *execfn = aux->execfn ? aux->execfn : argc ? argv[0] : "";
	u64 limit = room < stack_top_va ? room : stack_top_va;
	u64 table = 4 * (1 + (u64)argc + 1 + (u64)envc + 1 + 2 * AUX_PAIRS);
	u64 strs = 4 + str_size(execfn) + sizeof("i686") + 16;
	u32 sp, at, platform, random, va_execfn;

	strs += strs_size(argv, argc, limit);
	strs += strs_size(envp, envc, limit);
	/* The table goes below the strings, rounded down to 16 bytes. */
	if (strs + table + 15 > limit)
		return -ELF_E2BIG;
	sp = (u32)(stack_top_va - strs - table) & ~15U;
	if (stack_top_va - sp > limit)
		return -ELF_E2BIG;
	push_bytes(&s, &zero, 4);
	va_execfn = push_str(&s, execfn);
	push_strs(&s, envp, envc, sp + 4 * (1 + argc + 1));
	push_strs(&s, argv, argc, sp + 4);
	platform = push_str(&s, "i686");
	random = push_bytes(&s, aux->random, 16);
	at = sp;
	put_word(&s, &at, argc);
	at += argc * 4;
	put_word(&s, &at, 0);
	at += envc * 4;
	put_word(&s, &at, 0);
	put_auxv(&s, &at, aux, platform, random, va_execfn);
	*sp_out = sp;
	return 0;
}
