/* SPDX-License-Identifier: MIT */
/*
 * The contract between an architecture (arch/<arch>/) and the kernel: the
 * one header through which each sees the other.
 *
 * The kernel calls the arch only through what is declared here, and the
 * headers included here (its types, its inline primitives, the C
 * runtime); it includes no <asm/...> header of its own. The arch includes
 * no kernel header but this one, and calls the kernel only through the
 * callbacks marked __arch_callback below: a short list of entry points
 * (the start, a thread's first instructions, the system call, a user
 * fault, the way back to ring 3, the end of an interrupt, a crash report,
 * a console byte, a page for the page tables). The arch's clock devices
 * talk to the core (time/) through its public <dynhz/clockevent.h> and
 * <dynhz/clocksource.h>, and its console and panic end are the core's
 * port (<dynhz/port.h>). So the arrows run kernel -> contract <- arch,
 * never from arch/ into the kernel's rooms; tests/house/check.sh checks
 * it on every build (nm of each object) and fails on a call or an
 * include that goes around the contract.
 *
 * What the kernel still knows of i386 beyond this header is the ABI of
 * the programs it runs (Linux i386): the registers of a system call and
 * of a signal frame in struct irq_frame, the user segments, the TLS
 * descriptors, the page-table entry bits of <asm/paging.h>. A second
 * architecture moves those behind the contract too.
 *
 * One CPU (DESIGN.md section 15): per-CPU state is the boot CPU's.
 */
#ifndef KERNEL_ARCH_H
#define KERNEL_ARCH_H

#include <dynhz/types.h>
#include <dynhz/port.h> /* dz_irq_save()/restore(); the console's output */
#include <dynhz/clockevent.h>
#include <kernel/layout.h> /* the address-space layout both sides agree on */
#include <kernel/string.h> /* the C runtime, which the arch provides */
#include <asm/cpu.h>	   /* interrupts on/off, halt, rdtsc, read_cr2 */
#include <asm/ptrace.h>	   /* struct irq_frame, the user segments */
#include <asm/paging.h>	   /* page-table entry bits, CR3, TLB flush */
#include <asm/fpu.h>	   /* a process's FPU/SSE state */
#include <asm/switch.h>	   /* a new thread's stack, the switch */

/* Marks a kernel entry point the arch may call: the only arrows from arch/ into the kernel. */
#define __arch_callback

/* ---- Boot and the boot CPU's bring-up ---- */

/*
 * The arch's entry code clears the BSS, takes the boot stack and calls
 * start_kernel() (kernel/main.c), which calls arch_setup() first thing.
 */
__arch_callback _Noreturn void start_kernel(void);

/*
 * The boot CPU's bring-up, interrupts off: the console first (so that
 * everything after it can print), the descriptor tables and the system
 * call's gate, the interrupt controller, the FPU and SSE for ring 3; then
 * the loader's facts into boot_params, copied before any page is handed
 * out (they may lie in free memory).
 */
void arch_setup(void);

/* What the loader said, once arch_setup() has run. */
#define BOOT_CMDLINE_MAX 4096 /* the command line kept, its NUL included */
struct boot_params {
	const char *cmdline;	      /* the command line, "" if none: a copy that stays */
	bool have_initrd;	      /* a module came: the initramfs */
	u32 initrd_start, initrd_end; /* its physical bounds, end exclusive, as given */
	u32 image_start, image_end;   /* the kernel's own image, physical */
};
extern struct boot_params boot_params;

/*
 * The usable RAM the loader reported, range by range: false past the
 * last. Only before the first page is handed out (page_alloc_init()).
 */
bool arch_ram_range(unsigned int i, u64 *start, u64 *end);

/* The boot CPU's stack, where start_kernel() ran: the idle thread keeps it (its lowest word). */
extern u32 boot_stack_bottom[];

/* The image's text and read-only data, [__kernel_start, __rodata_end) (kernel/kimage.c). */
extern const char __kernel_start[], __rodata_end[];

/* ---- Traps and interrupts ---- */

/*
 * Interrupt handlers nest this deep now: 0 in thread context (a system
 * call runs in its thread, not counted).
 */
unsigned int irq_depth(void);

/* After every interrupt handler, interrupts still off: the scheduler may preempt. */
__arch_callback void sched_irq_exit(void);

/* A system call (`int $0x80` from ring 3), in the calling thread with interrupts on. */
__arch_callback void syscall_handle(struct irq_frame *f);

/*
 * An exception from ring 3 (name: the exception's): true when the kernel
 * dealt with it and the program goes on (a page filled, a signal's
 * handler to run); false: not a process after all, the arch reports a
 * kernel fault. It may not return (the process ends).
 */
__arch_callback bool user_fault(struct irq_frame *f, const char *name);

/* Before every return to ring 3, interrupts off: pending signals are delivered to f. */
__arch_callback void user_return(struct irq_frame *f);

/* A crash report's "doing what": the current thread and its activity. */
__arch_callback void sched_describe(void);

/* ---- Paging (i386: two levels, <asm/paging.h>) ---- */

/* Builds the kernel's tables (the layout of <kernel/layout.h>) and turns paging on. */
void paging_init(void);
/* The kernel's own page directory (physical). */
u32 paging_kernel_pgdir(void);
/* A new directory: a zeroed low page with the kernel's entries; 0 if none left. */
u32 paging_new_pgdir(void);
/*
 * The entry for va in the directory pgdir, making its table (a low page)
 * when create is set; NULL when there is none (or none could be made).
 */
u32 *paging_pte(u32 pgdir, u32 va, bool create);
/*
 * The kernel's view of a page: direct below KERNEL_MAP_TOP, else a kmap
 * slot, held with interrupts off (the slots are the CPU's): 0 and 1 for
 * copies (fork, exec's stack), 2 page_alloc's clearing, 3 the fill of a
 * page from a program's image.
 */
void *kmap(u32 pa, unsigned int slot);
void kunmap(unsigned int slot);

/* A zeroed page for a page table: low (inside the kernel's map). 0 when none is left. */
__arch_callback u32 page_alloc(bool low);

/* ---- User entry, context switch, a process's CPU state ---- */

/*
 * Loads the user segments and IRETs to eip with the stack at esp,
 * interrupts on, every general register zero (the i386 ABI: EDX is the
 * function a C library registers with atexit, 0 for none). The caller's
 * kernel stack is abandoned: set arch_set_kernel_stack() first,
 * interrupts from ring 3 land there.
 */
_Noreturn void arch_enter_user(u32 eip, u32 esp);
/*
 * Returns to ring 3 through f, a whole frame from ring 3 (a forked child's
 * copy of its parent's system-call frame), as an interrupt's end does.
 * Interrupts off; f should be at the top of the thread's stack (the
 * kernel stack), which it becomes.
 */
_Noreturn void arch_enter_user_frame(struct irq_frame *f);

/* The kernel stack an interrupt from ring 3 lands on: the running thread's top. */
void arch_set_kernel_stack(void *top);

/* A new thread's first instructions, on its own stack, interrupts off (asm/switch.h). */
__arch_callback void sched_thread_start(void);

/* The state a new program's FPU and SSE start in (FNINIT, MXCSR 0x1f80). */
void fpu_init_state(u8 *state);

/*
 * Thread-local storage (set_thread_area, kernel/sched/tls.c): a process's
 * three descriptors, GDT_TLS_ENTRIES of them from entry GDT_TLS_FIRST,
 * loaded by arch_set_tls() whenever it runs. The kernel keeps the slots;
 * the arch says what a struct user_desc (Linux's <asm/ldt.h>) is as a
 * descriptor and back.
 */
struct user_desc {
	u32 entry_number;
	u32 base_addr;
	u32 limit;
	u32 flags; /* seg_32bit, contents (2 bits), read_exec_only, limit_in_pages, seg_not_present, useable */
};
void arch_set_tls(const u64 *desc);
/* Can u be loaded (Linux's tls_desc_okay(), or one of the two ways to say "no segment")? */
bool arch_tls_valid(const struct user_desc *u);
/* u as a descriptor; 0 for "no segment". */
u64 arch_tls_encode(const struct user_desc *u);
/* The descriptor as get_thread_area reports it (all but entry_number). */
void arch_tls_decode(u64 desc, struct user_desc *u);
/*
 * Slot entry was just emptied: a segment register of f (the frame that
 * returns to ring 3) naming it becomes the null selector, as Linux's
 * fixup of that reload makes it.
 */
void arch_tls_forget(struct irq_frame *f, u32 entry);

/* ---- Clock devices ---- */

/*
 * The clocksource (the TSC, calibrated against the PIT and registered
 * with the core), and the tick device the command line chooses
 * (clockevent=pit, the default, with the local APIC timer as its one-shot
 * in idle when there is one; or clockevent=lapic): returned for the
 * kernel to hand to the core. Interrupts on (the PIT calibrates).
 */
struct clock_event_device *arch_clock_init(const char *cmdline);

/* The TSC's calibrated rate in Hz (0 before arch_clock_init()), and counts to ns rounded down. */
u64 tsc_hz(void);
u64 tsc_to_ns(u64 cycles);

/*
 * The TSC when the periodic tick device started its first period: tick n
 * comes n periods later (the self-tests' check that no tick was lost).
 */
extern u64 arch_tick_start_tsc;
/*
 * The TSC at the start of the last periodic tick interrupt: where the
 * interrupt-off window of a change of HZ, applied in that tick, begins
 * (kernel/test/retunebench.c).
 */
extern u64 arch_tick_irq_tsc;

/* Facts for `stat` and /proc/dynhz; an arch without the device says 0 or false. */
u64 lapic_timer_hz(void);		/* the local APIC timer's rate */
unsigned long pit_lost_ticks(void);	/* PIT ticks merged into the next one */
unsigned long pic_spurious_count(void); /* spurious IRQ 7 and 15 */
bool arch_tick_idle_on_lapic(void);	/* the PIT ticks, the local APIC timer wakes idle */

/* The real-time clock's time at boot, Unix seconds, with its one line (kernel/time/realtime.c). */
u64 rtc_boot_seconds(void);

/* ---- The console (a serial port) ---- */

/*
 * Output is the core's dz_port_console_write() (<dynhz/port.h>: CR LF for
 * LF, from any context); this one writes bytes as they are (a tty with
 * OPOST off).
 */
void arch_console_write_raw(const char *s, size_t len);
/*
 * Starts receiving: what was typed before first, in order, then every
 * byte by interrupt, each handed to console_rx() in interrupt context.
 */
void arch_console_rx_enable(void);
/* Takes what the receiver holds now (the kernel's poll, for a UART whose interrupt is lost). */
void arch_console_poll(void);
/* One byte received (kernel/fs/console.c). */
__arch_callback void console_rx(char c);

/* ---- The machine's end ---- */

/* Stops the machine: QEMU exits with the success or failure status tests expect. */
_Noreturn void machine_exit(bool success);
_Noreturn void machine_poweroff(void);
/* Stops the CPU for good, the machine left on (reboot(2)'s halt). */
_Noreturn void machine_halt(void);
/* Resets the machine (reboot(2)'s restart); QEMU with -no-reboot exits, status 0. */
_Noreturn void machine_restart(void);

#endif
