// SPDX-License-Identifier: MIT
/*
 * libFuzzer: any bytes as an executable for kernel/proc/elf.c. Never a crash or
 * a read past the input (ASan); a rejection is one line starting "elf: ";
 * an accepted plan copies only bytes of the file, stays below user_top
 * and above page 0, keeps its maps sorted and disjoint with each segment
 * inside its pages, and has its entry point in a segment. The stack builder
 * then gets the input's first bytes as argv strings: it fits in its room
 * or says -E2BIG, and never writes outside it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kernel/elf.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_plan(const struct elf_plan *p, size_t size)
{
	u64 prev_end = ELF_PAGE_SIZE;
	bool entry_in = false;

	if (!p->nmaps || p->nmaps > ELF_MAX_LOADS)
		abort();
	for (u32 i = 0; i < p->nmaps; i++) {
		const struct elf_map *m = &p->maps[i];
		u64 end = (u64)m->va + (u64)m->pages * ELF_PAGE_SIZE;

		if (m->va % ELF_PAGE_SIZE || m->va < prev_end || end > p->user_top)
			abort();
		if (m->seg_va < m->va || (u64)m->seg_va + m->seg_memsz > end)
			abort();
		if ((u64)m->file_off + m->file_bytes > size || m->file_bytes > end - m->va)
			abort();
		if ((u64)m->file_bytes + m->zero_bytes != end - m->va ||
		    m->seg_filesz > m->seg_memsz)
			abort();
		if (p->entry >= m->seg_va && p->entry - m->seg_va < m->seg_memsz)
			entry_in = true;
		prev_end = end;
	}
	if (!entry_in || p->brk != prev_end)
		abort();
}

static void check_err(const char *err)
{
	if (strncmp(err, "elf: ", 5) || strchr(err, '\n'))
		abort();
}

/* The input cut at NULs into at most 8 strings, as argv and envp. */
static void fuzz_stack(const uint8_t *data, size_t size)
{
	enum { ROOM = 2048 };
	char text[512];
	const char *argv[9];
	size_t n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;
	int argc = 0;
	struct elf_auxv aux = { .phent = 32 };
	u8 *stack = malloc(ROOM);
	u32 sp;

	memcpy(text, data, n);
	text[n] = '\0';
	for (size_t i = 0; i <= n && argc < 8; argc++) {
		argv[argc] = text + i;
		i += strlen(text + i) + 1;
	}
	argv[argc] = NULL;
	int rc = elf_build_stack(stack + ROOM, 0xbffff000, ROOM, argv, argv + argc / 2, &aux, &sp);

	if (rc != 0 && rc != -ELF_E2BIG)
		abort();
	if (rc == 0 && (sp % 16 || 0xbffff000 - sp > ROOM))
		abort();
	free(stack);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size copy: any read past the input is an ASan error. */
	uint8_t *img = malloc(size ? size : 1);
	struct elf_plan plan = { .user_top = ELF_USER_TOP };
	char err[128];

	memcpy(img, data, size);
	if (elf_load_plan(img, size, 0x56555000, &plan, err, sizeof(err)) == 0)
		check_plan(&plan, size);
	else
		check_err(err);
	/* A smaller user space, and no bias. */
	plan.user_top = 0x08100000;
	if (elf_load_plan(img, size, 0, &plan, err, sizeof(err)) == 0)
		check_plan(&plan, size);
	else
		check_err(err);
	free(img);
	fuzz_stack(data, size);
	return 0;
}
