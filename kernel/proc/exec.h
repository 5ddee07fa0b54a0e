/* SPDX-License-Identifier: MIT */
/* Loading a program into a new address space (kernel/proc/exec.c). */
#ifndef KERNEL_EXEC_H
#define KERNEL_EXEC_H

#include <kernel/proc.h>

/*
 * Loads the static ELF program at path (found from p->cwd) into a new
 * address space, with argv and envp on its stack, and only once it is
 * whole makes it p's: p's old space is released (proc_release_mm: freed,
 * or handed back to a vfork parent) and p->exe, p->comm and p->cmdline
 * name the new program; *start says where it begins. Works from any
 * thread: the new pages are written through kmap. Returns 0, or a negated
 * errno (-ENOENT, -EACCES, -ENOEXEC, -E2BIG, -ENOMEM...) with p untouched
 * and, when report is set, one line ("exec: PATH: why") printed.
 */
int exec_load(struct proc *p, const char *path, const char *const *argv, const char *const *envp,
	      struct exec_start *start, bool report);

#endif
