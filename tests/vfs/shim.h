/* SPDX-License-Identifier: MIT */
/* The host stand-ins for the kernel around the file layer (shim.c). */
#ifndef TESTS_VFS_SHIM_H
#define TESTS_VFS_SHIM_H

#include <kernel/proc.h>
#include <kernel/mm.h>
#include <kernel/user.h>
#include "../../kernel/fs/vfs-internal.h"

#define USER_BASE  0x10000000u /* user pointers: USER_BASE + offset into user_mem */
#define USER_LEN   (1u << 20)
#define SHIM_PROCS 8

extern u8 user_mem[USER_LEN];
extern struct proc shim_procs[SHIM_PROCS];
extern struct proc *shim_current;
extern struct cpu_times shim_cpu;
extern struct page_stats shim_pages;
extern u64 shim_switches;
extern char shim_console_out[4096];
extern size_t shim_console_len;

#endif
