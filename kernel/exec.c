// SPDX-License-Identifier: MIT
/*
 * exec: a static i386 ELF program from the root file system into a fresh
 * address space (kernel/exec.h). kernel/elf.c says what goes where; this
 * file makes the areas, copies the file's bytes into their pages, and
 * writes the startup stack, all before the program's thread runs.
 */
#include <kernel/exec.h>
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <asm/cpu.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

#define STACK_ROOM (32 * 1024) /* argv, envp and the auxiliary vector: Linux allows more */

static u8 stack_buf[STACK_ROOM] __attribute__((aligned(16)));
static u64 random_state;

/* Writes len bytes at uaddr of mm (not necessarily the active one), filling pages. */
static int mm_write(struct mm *mm, u32 uaddr, const void *src, u32 len)
{
	const u8 *s = src;

	while (len) {
		u32 n = PAGE_SIZE - (uaddr & ~PAGE_MASK), pa;
		unsigned long flags;

		if (n > len)
			n = len;
		if (mm_fault_in(mm, uaddr, false) || !(pa = mm_lookup(mm, uaddr, NULL)))
			return -ENOMEM;
		flags = dz_irq_save();
		memcpy((u8 *)kmap(pa, 0) + (uaddr & ~PAGE_MASK), s, n);
		kunmap(0);
		dz_irq_restore(flags);
		uaddr += n;
		s += n;
		len -= n;
	}
	return 0;
}

/* splitmix64 over the TSC: AT_RANDOM's 16 bytes differ from boot to boot and program to program. */
static u64 random_next(void)
{
	u64 z = (random_state += 0x9e3779b97f4a7c15ULL ^ rdtsc());

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void exec_random_bytes(u8 *buf, u32 len)
{
	for (u32 i = 0; i < len; i += 8) {
		u64 r = random_next();

		memcpy(buf + i, &r, len - i < 8 ? len - i : 8);
	}
}

static int load_segments(struct mm *mm, const struct elf_plan *plan, const u8 *img)
{
	for (u32 i = 0; i < plan->nmaps; i++) {
		const struct elf_map *m = &plan->maps[i];
		u32 prot = (m->prot & PF_R ? VM_READ : 0) | (m->prot & PF_W ? VM_WRITE : 0) |
			   (m->prot & PF_X ? VM_EXEC : 0);
		int err = mm_add_vma(mm, m->va, m->pages * PAGE_SIZE, prot);

		if (err)
			return err;
		if (m->file_bytes && mm_write(mm, m->va, img + m->file_off, m->file_bytes))
			return -ENOMEM;
	}
	return 0;
}

/* The command line /proc shows: argv, each string NUL-terminated, as much as fits. */
static void keep_cmdline(struct proc *p, const char *const *argv)
{
	u32 n = 0;

	for (u32 i = 0; argv && argv[i] && n < PROC_CMDLINE_MAX; i++) {
		size_t len = strlen(argv[i]) + 1;

		if (len > PROC_CMDLINE_MAX - n)
			len = PROC_CMDLINE_MAX - n;
		memcpy(p->cmdline + n, argv[i], len);
		n += (u32)len;
	}
	p->cmdline_len = n;
}

static void keep_names(struct proc *p, const char *abspath, const char *const *argv)
{
	const char *base = strrchr(abspath, '/');
	size_t len;

	base = base ? base + 1 : abspath;
	len = strlen(base);
	if (len >= PROC_COMM_LEN)
		len = PROC_COMM_LEN - 1;
	memcpy(p->comm, base, len);
	p->comm[len] = '\0';
	len = strlen(abspath);
	if (len >= sizeof(p->exe))
		len = sizeof(p->exe) - 1;
	memcpy(p->exe, abspath, len);
	p->exe[len] = '\0';
	keep_cmdline(p, argv);
}

static int build_stack(struct mm *mm, const struct elf_plan *plan, const char *abspath,
		       const char *const *argv, const char *const *envp, u32 *sp)
{
	struct elf_auxv aux = { 0 };
	u32 a, b, c;
	int err;

	aux.phdr = plan->phdr;
	aux.phent = plan->phent;
	aux.phnum = plan->phnum;
	aux.entry = plan->entry;
	aux.execfn = abspath;
	cpuid(1, &a, &b, &c, &aux.hwcap);
	exec_random_bytes(aux.random, sizeof(aux.random));
	err = elf_build_stack(stack_buf + STACK_ROOM, USER_TOP, STACK_ROOM, argv, envp, &aux, sp);
	if (err)
		return err;
	return mm_write(mm, *sp, stack_buf + (*sp - (USER_TOP - STACK_ROOM)), USER_TOP - *sp);
}

static const char *errname(int err)
{
	/* Each with the errno it answers, as Linux's execve would. */
	switch (-err) {
	case ENOENT:
		return "no such file: ENOENT";
	case ENOTDIR:
		return "a path component is not a directory: ENOTDIR";
	case ELOOP:
		return "too many symbolic links: ELOOP";
	case ENAMETOOLONG:
		return "name too long: ENAMETOOLONG";
	case EACCES:
		return "not a regular file with an execute bit: EACCES";
	case ENOMEM:
		return "out of memory: ENOMEM";
	case E2BIG:
		return "arguments too long for the stack: E2BIG";
	default:
		return "cannot be loaded";
	}
}

int exec_load(struct proc *p, const char *path, const char *const *argv, const char *const *envp,
	      struct exec_start *start)
{
	static struct elf_plan plan;
	static char abspath[VFS_CWD_MAX], why[120];
	const void *img;
	u32 size;
	int err;

	err = vfs_exec_image(p->cwd, path, &img, &size, abspath, sizeof(abspath));
	if (err) {
		dz_printk("exec: %s: %s\n", path, errname(err));
		return err;
	}
	plan.user_top = USER_MMAP_TOP;
	if (elf_load_plan(img, size, USER_PIE_BASE, &plan, why, sizeof(why))) {
		dz_printk("exec: %s: %s\n", abspath, why);
		return -ENOEXEC;
	}
	err = mm_create(&p->mm);
	if (!err)
		err = load_segments(&p->mm, &plan, img);
	if (!err)
		err = mm_add_vma(&p->mm, USER_TOP - USER_STACK_MAX, USER_STACK_MAX,
				 VM_READ | VM_WRITE | VM_GROWSDOWN);
	if (!err)
		err = build_stack(&p->mm, &plan, abspath, argv, envp, &start->esp);
	if (err) {
		mm_destroy(&p->mm);
		dz_printk("exec: %s: %s\n", abspath, errname(err));
		return err;
	}
	p->mm.brk_start = p->mm.brk = plan.brk;
	p->mm.stack_top = USER_TOP;
	start->eip = plan.entry;
	keep_names(p, abspath, argv);
	return 0;
}
