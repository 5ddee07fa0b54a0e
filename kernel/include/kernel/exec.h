/* SPDX-License-Identifier: MIT */
/* Loading a program into a new address space (kernel/exec.c). */
#ifndef KERNEL_EXEC_H
#define KERNEL_EXEC_H

#include <kernel/proc.h>

/*
 * Loads the static ELF program at path (found from cwd) into a new address
 * space in p->mm, with argv and envp on its stack, and sets p->exe,
 * p->comm and p->cmdline. Works from any thread: the new pages are
 * written through kmap. Returns 0, or a negated errno with one line
 * ("exec: PATH: why") printed.
 */
int exec_load(struct proc *p, const char *path, const char *const *argv, const char *const *envp,
	      struct exec_start *start);

/* Bytes that differ from boot to boot and call to call (AT_RANDOM, getrandom); not for keys. */
void exec_random_bytes(u8 *buf, u32 len);

#endif
