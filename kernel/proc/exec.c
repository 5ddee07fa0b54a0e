// SPDX-License-Identifier: MIT
/*
 * exec: a static i386 ELF program from the root file system into a fresh
 * address space (exec.h), for the kernel's first programs and for
 * execve. kernel/proc/elf.c says what goes where; this file makes the areas,
 * each backed by its part of the file (a page is read from the image when
 * first touched, so a program pays only for the pages it uses), and
 * writes the startup stack, all in a new space: the caller's old one is
 * given up only once the new one is whole, so a failed execve returns to
 * an untouched program.
 *
 * One exec at a time (exec_lock): the plan, the startup stack and
 * execve's copy of its arguments are big, and live in static buffers
 * rather than on a 16 KiB kernel stack.
 */
#include "exec.h"
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/syscall.h>
#include <kernel/uaccess.h>
#include <kernel/wait.h>
#include <kernel/arch.h>
#include <kernel/kernel.h>
#include <kernel/timers.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

#define STACK_ROOM (32 * 1024) /* argv, envp and the auxiliary vector: Linux allows more */
#define ARG_PTRS   4096	       /* strings of argv and envp together */

static u8 stack_buf[STACK_ROOM] __attribute__((aligned(16)));

/* execve's arguments, copied in from the caller before its memory goes. */
static struct {
	char path[VFS_PATH_MAX];
	char strings[STACK_ROOM]; /* more would not fit on the new stack: E2BIG */
	const char *ptrs[ARG_PTRS + 2];
	u32 used;
} args_in;

static bool exec_busy;
static DECLARE_WAIT_QUEUE_HEAD(exec_wq);

static bool exec_trylock(void)
{
	unsigned long flags = dz_irq_save();
	bool got = !exec_busy;

	exec_busy = true;
	dz_irq_restore(flags);
	return got;
}

static void exec_lock(void)
{
	wait_event(exec_wq, exec_trylock());
}

static void exec_unlock(void)
{
	exec_busy = false;
	wake_up(&exec_wq);
}

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

static int load_segments(struct mm *mm, const struct elf_plan *plan, const u8 *img)
{
	for (u32 i = 0; i < plan->nmaps; i++) {
		const struct elf_map *m = &plan->maps[i];
		u32 prot = (m->prot & PF_R ? VM_READ : 0) | (m->prot & PF_W ? VM_WRITE : 0) |
			   (m->prot & PF_X ? VM_EXEC : 0);
		/* Read from the image on first touch: a program pays for the pages it uses. */
		int err = mm_add_file_vma(mm, m->va, m->pages * PAGE_SIZE, prot,
					  (const u8 *)img + m->file_off, m->file_bytes);

		if (err)
			return err;
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

/*
 * comm is the last part of the path as the caller gave it, as Linux's
 * (a link's name: /bin/cat gives "cat"); exe is the file, links resolved.
 */
static void keep_names(struct proc *p, const char *path, const char *abspath,
		       const char *const *argv)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
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
	get_random_bytes(aux.random, sizeof(aux.random));
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
	case ENOEXEC:
		return "a #! line without an interpreter: ENOEXEC";
	default:
		return "cannot be loaded";
	}
}

/* Builds the program's image in mm (a new space): its segments, its stack. */
static int build_image(struct mm *mm, const struct elf_plan *plan, const void *img,
		       const char *abspath, const char *const *argv, const char *const *envp,
		       struct exec_start *start)
{
	int err = mm_create(mm);

	if (!err)
		err = load_segments(mm, plan, img);
	if (!err)
		err = mm_add_vma(mm, USER_TOP - USER_STACK_MAX, USER_STACK_MAX,
				 VM_READ | VM_WRITE | VM_GROWSDOWN);
	if (!err)
		err = build_stack(mm, plan, abspath, argv, envp, &start->esp);
	if (err) {
		mm_destroy(mm);
		return err;
	}
	mm->brk_start = mm->brk = plan->brk;
	mm->stack_top = USER_TOP;
	start->eip = plan->entry;
	return 0;
}

/* ---- scripts: "#!interpreter [argument]" ---- */

#define BINPRM_BUF_SIZE 256 /* Linux reads this much of a file for its #! line */
#define SCRIPT_HOPS_MAX 5   /* Linux's exec_binprm(): more interpreters in a row is ELOOP */
#define SCRIPT_ARGV_MAX (ARG_PTRS + 1 + 2 * SCRIPT_HOPS_MAX)

static char script_lines[SCRIPT_HOPS_MAX][BINPRM_BUF_SIZE];
static const char *script_argv[SCRIPT_ARGV_MAX + 1];

static bool spacetab(char c)
{
	return c == ' ' || c == '\t';
}

/* A space, tab or NUL from s on, before end; NULL if none. */
static char *next_terminator(char *s, const char *end)
{
	for (; s < end; s++)
		if (spacetab(*s) || !*s)
			return s;
	return NULL;
}

static char *next_non_spacetab(char *s, const char *end)
{
	for (; s < end; s++)
		if (!spacetab(*s))
			return s;
	return NULL;
}

/*
 * The #! line of an image, as Linux's binfmt_script reads it: the first
 * 256 bytes up to a newline, the interpreter's name and at most one
 * argument (the rest of the line, blanks around it trimmed). *name is
 * NULL when the image is no script; -ENOEXEC for a line without a name,
 * or one whose name the 256 bytes cut off.
 */
static int script_parse(const u8 *img, u32 size, char *buf, char **name, char **arg)
{
	char *end = buf + BINPRM_BUF_SIZE - 1, *nl, *sep;

	*name = *arg = NULL;
	if (size < 2 || img[0] != '#' || img[1] != '!')
		return 0;
	memset(buf, 0, BINPRM_BUF_SIZE);
	memcpy(buf, img, size < BINPRM_BUF_SIZE ? size : BINPRM_BUF_SIZE);
	for (nl = buf; nl < buf + BINPRM_BUF_SIZE && *nl != '\n'; nl++)
		;
	if (nl == buf + BINPRM_BUF_SIZE) {
		nl = next_non_spacetab(buf + 2, end);
		if (!nl || !next_terminator(nl, end))
			return -ENOEXEC; /* all blanks, or a name that goes on past the 256 bytes */
		nl = end;
	}
	while (spacetab(nl[-1]))
		nl--;
	*name = next_non_spacetab(buf + 2, nl);
	if (!*name || *name == nl)
		return -ENOEXEC;
	sep = next_terminator(*name, nl);
	if (sep && *sep)
		*arg = next_non_spacetab(sep, nl);
	*nl = '\0';
	if (sep)
		*sep = '\0';
	return 0;
}

/*
 * argv for the interpreter, in script_argv: its name, its argument if
 * any, the script's path, then the script's argv without argv[0], as
 * Linux passes them. -E2BIG past the room there is.
 */
static int script_args(const char *const **argv, const char *name, const char *arg,
		       const char *path)
{
	const char *const *old = *argv;
	u32 n = 0, lead = arg ? 3 : 2;

	while (old && old[n])
		n++;
	if (n + lead > SCRIPT_ARGV_MAX)
		return -E2BIG;
	if (n > 1)
		memmove(script_argv + lead, old + 1, (n - 1) * sizeof(*old));
	script_argv[0] = name;
	if (arg)
		script_argv[1] = arg;
	script_argv[lead - 1] = path;
	script_argv[lead + (n > 1 ? n - 1 : 0)] = NULL;
	*argv = script_argv;
	return 0;
}

/*
 * The file an exec runs: path's image, or for a script its interpreter's
 * (a script's interpreter may be a script, SCRIPT_HOPS_MAX deep), with
 * *argv rewritten for it. abspath names the file found.
 */
static int find_image(struct proc *p, const char *path, const char *const **argv, const void **img,
		      u32 *size, char *abspath, size_t abslen)
{
	for (int hop = 0;; hop++) {
		char *name, *arg;
		int err = vfs_exec_image(p->cwd, path, img, size, abspath, abslen);

		if (!err)
			err = script_parse(*img, *size,
					   script_lines[hop < SCRIPT_HOPS_MAX ? hop : 0], &name,
					   &arg);
		if (err || !name)
			return err;
		if (hop == SCRIPT_HOPS_MAX)
			return -ELOOP;
		err = script_args(argv, name, arg, path);
		if (err)
			return err;
		path = name;
	}
}

/* Called with exec_lock held. */
static int exec_load_locked(struct proc *p, const char *path, const char *const *argv,
			    const char *const *envp, struct exec_start *start, bool report)
{
	static struct elf_plan plan;
	static struct mm new_mm;
	static char abspath[VFS_CWD_MAX], why[120];
	const void *img;
	u32 size;
	int err;

	err = find_image(p, path, &argv, &img, &size, abspath, sizeof(abspath));
	if (err) {
		if (report)
			dz_printk("exec: %s: %s\n", path, errname(err));
		return err;
	}
	plan.user_top = USER_MMAP_TOP;
	if (elf_load_plan(img, size, USER_PIE_BASE, &plan, why, sizeof(why))) {
		if (report)
			dz_printk("exec: %s: %s\n", abspath, why);
		return -ENOEXEC;
	}
	err = build_image(&new_mm, &plan, img, abspath, argv, envp, start);
	if (err) {
		if (report)
			dz_printk("exec: %s: %s\n", abspath, errname(err));
		return err;
	}
	/* The point of no return: the old image goes (a kernel thread starting p has none). */
	if (p == proc_current())
		mm_activate(&new_mm);
	proc_release_mm(p);
	p->mm = new_mm;
	/* A script's name is the process's (comm), its interpreter the exe, as Linux's. */
	keep_names(p, path, abspath, argv);
	return 0;
}

int exec_load(struct proc *p, const char *path, const char *const *argv, const char *const *envp,
	      struct exec_start *start, bool report)
{
	int err;

	exec_lock();
	err = exec_load_locked(p, path, argv, envp, start, report);
	exec_unlock();
	return err;
}

/* ---- execve ---- */

/* One string of argv or envp into args_in; E2BIG past the room the new stack has. */
static long copy_arg(u32 uptr, const char **out)
{
	u32 room = sizeof(args_in.strings) - args_in.used;
	long len;

	if (!room)
		return -E2BIG;
	len = strncpy_from_user(args_in.strings + args_in.used, uptr, room);
	if (len == -ENAMETOOLONG)
		return -E2BIG;
	if (len < 0)
		return len;
	*out = args_in.strings + args_in.used;
	args_in.used += (u32)len + 1;
	return 0;
}

/*
 * A NULL-terminated array of string pointers (argv or envp) into
 * args_in.ptrs from *n on, NULL-terminated there. A NULL array is empty,
 * as Linux takes it.
 */
static long copy_strings(u32 uarr, u32 *n)
{
	for (u32 i = 0; uarr; i++) {
		u32 uptr;
		long err;

		if (copy_from_user(&uptr, uarr + 4 * i, 4))
			return -EFAULT;
		if (!uptr)
			break;
		if (*n >= ARG_PTRS)
			return -E2BIG;
		err = copy_arg(uptr, &args_in.ptrs[*n]);
		if (err)
			return err;
		(*n)++;
	}
	args_in.ptrs[(*n)++] = NULL;
	return 0;
}

/* The path and the arguments, in the order Linux checks them. */
static long copy_exec_args(u32 upath, u32 uargv, u32 uenvp, const char ***argv, const char ***envp)
{
	u32 n = 0, envp_at;
	long len = strncpy_from_user(args_in.path, upath, sizeof(args_in.path));
	long err;

	if (len < 0)
		return len;
	if (!len)
		return -ENOENT;
	args_in.used = 0;
	err = copy_strings(uargv, &n);
	if (err)
		return err;
	envp_at = n;
	err = copy_strings(uenvp, &n);
	if (err)
		return err;
	*argv = args_in.ptrs;
	*envp = args_in.ptrs + envp_at;
	/* No argv at all: Linux gives the program one empty argv[0]. */
	if (envp_at == 1) {
		static const char *const empty_argv[] = { "", NULL };

		*argv = (const char **)empty_argv;
	}
	return 0;
}

/* What the new program must not inherit: handlers, TLS, the FPU, close-on-exec files. */
static void flush_old_program(struct proc *p)
{
	unsigned long flags;

	files_close_on_exec(&p->files);
	ptimer_proc_exit(p); /* POSIX timers do not survive exec; interval timers do */
	signal_proc_exec(p);
	p->clear_child_tid = 0;
	p->did_exec = true;
	flags = dz_irq_save();
	memset(p->tls, 0, sizeof(p->tls));
	arch_set_tls(p->tls);
	fpu_init_state(p->fpu);
	fpu_restore(p->fpu);
	dz_irq_restore(flags);
}

/* The system call returns into the new program: its entry, its stack, clean registers. */
static void start_frame(struct irq_frame *f, const struct exec_start *start)
{
	*f = (struct irq_frame){
		.gs = 0,
		.fs = 0,
		.es = USER_DS,
		.ds = USER_DS,
		.vector = f->vector,
		.eip = start->eip,
		.cs = USER_CS,
		.eflags = X86_EFLAGS_IF | 2U, /* bit 1 always reads as 1 */
		.user_esp = start->esp,
		.user_ss = USER_DS,
	};
}

/* execve(path, argv, envp): by hand rather than with SYSCALL_DEFINE3, it rewrites the caller's frame. */
SYSCALL_PROTO(execve);
long sys_execve(const struct syscall_args *args)
{
	struct proc *p = proc_current();
	struct exec_start start;
	const char **argv, **envp;
	long err;

	exec_lock();
	err = copy_exec_args(args->a[0], args->a[1], args->a[2], &argv, &envp);
	if (!err)
		err = exec_load_locked(p, args_in.path, argv, envp, &start, false);
	exec_unlock();
	if (err)
		return err;
	flush_old_program(p);
	start_frame(args->frame, &start);
	return 0; /* EAX of the new program: zero, as every other register */
}
