/* SPDX-License-Identifier: MIT */
/*
 * The Linux i386 system-call ABI: `int $0x80`, the number in EAX, up to six
 * arguments in EBX, ECX, EDX, ESI, EDI, EBP, the result in EAX (a negated
 * errno from kernel/errno.h on failure).
 *
 * A handler is defined with SYSCALL_DEFINEn(name, type, arg, ...), which
 * makes `long sys_name(const struct syscall_args *)` for the table in
 * kernel/syscall.c; the numbers are in each room's table beside the calls
 * (kernel/<room>/syscalls.h). Every user pointer is a u32 and reaches
 * memory only through kernel/uaccess.h.
 */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

#include <dynhz/types.h>

struct irq_frame;

struct syscall_args {
	u32 a[6];
	struct irq_frame *frame; /* the caller's registers (sigreturn, signals) */
};

typedef long (*syscall_fn_t)(const struct syscall_args *args);

/* Each makes the handler's prototype first: the tables are the gate's alone. */
#define SYSCALL_PROTO(name) long sys_##name(const struct syscall_args *args)
#define SYSCALL_DEFINE0(name) \
	SYSCALL_PROTO(name);  \
	long sys_##name(const struct syscall_args *args __attribute__((unused)))
#define SYSCALL_DEFINE1(name, t1, a1)                    \
	SYSCALL_PROTO(name);                             \
	static long do_sys_##name(t1 a1);                \
	long sys_##name(const struct syscall_args *args) \
	{                                                \
		return do_sys_##name((t1)args->a[0]);    \
	}                                                \
	static long do_sys_##name(t1 a1)
#define SYSCALL_DEFINE2(name, t1, a1, t2, a2)                         \
	SYSCALL_PROTO(name);                                          \
	static long do_sys_##name(t1 a1, t2 a2);                      \
	long sys_##name(const struct syscall_args *args)              \
	{                                                             \
		return do_sys_##name((t1)args->a[0], (t2)args->a[1]); \
	}                                                             \
	static long do_sys_##name(t1 a1, t2 a2)
#define SYSCALL_DEFINE3(name, t1, a1, t2, a2, t3, a3)                                 \
	SYSCALL_PROTO(name);                                                          \
	static long do_sys_##name(t1 a1, t2 a2, t3 a3);                               \
	long sys_##name(const struct syscall_args *args)                              \
	{                                                                             \
		return do_sys_##name((t1)args->a[0], (t2)args->a[1], (t3)args->a[2]); \
	}                                                                             \
	static long do_sys_##name(t1 a1, t2 a2, t3 a3)
#define SYSCALL_DEFINE4(name, t1, a1, t2, a2, t3, a3, t4, a4)                        \
	SYSCALL_PROTO(name);                                                         \
	static long do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4);                       \
	long sys_##name(const struct syscall_args *args)                             \
	{                                                                            \
		return do_sys_##name((t1)args->a[0], (t2)args->a[1], (t3)args->a[2], \
				     (t4)args->a[3]);                                \
	}                                                                            \
	static long do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4)
#define SYSCALL_DEFINE5(name, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5)                \
	SYSCALL_PROTO(name);                                                         \
	static long do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5);                \
	long sys_##name(const struct syscall_args *args)                             \
	{                                                                            \
		return do_sys_##name((t1)args->a[0], (t2)args->a[1], (t3)args->a[2], \
				     (t4)args->a[3], (t5)args->a[4]);                \
	}                                                                            \
	static long do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5)
#define SYSCALL_DEFINE6(name, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6)         \
	SYSCALL_PROTO(name);                                                          \
	static long do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6);          \
	long sys_##name(const struct syscall_args *args)                              \
	{                                                                             \
		return do_sys_##name((t1)args->a[0], (t2)args->a[1], (t3)args->a[2],  \
				     (t4)args->a[3], (t5)args->a[4], (t6)args->a[5]); \
	}                                                                             \
	static long do_sys_##name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6)

/* dynhz's own call, NR_DYNHZ_HZ (kernel/retune.h, kernel/time/retune.c). */
long sys_dynhz_hz(const struct syscall_args *args);

/* The entry from the system-call gate (kernel/syscall.c). */
void syscall_handle(struct irq_frame *f);

/* Calls and errors seen, for the fuzz test's report. */
struct syscall_stats {
	u64 calls, enosys;
};
void syscall_stats_read(struct syscall_stats *st);

#endif
