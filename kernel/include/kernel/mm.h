/* SPDX-License-Identifier: MIT */
/*
 * Memory: physical pages, and each process's address space.
 *
 * The loader's memory map gives the pages (kernel/mm/page_alloc.c). The kernel
 * sees the first KERNEL_MAP_TOP bytes of physical memory at the same
 * addresses, in every address space, supervisor-only; pages above that are
 * for user space only, and the kernel reaches one through kmap(). Page
 * tables, kernel stacks and everything the kernel allocates come from the
 * low pages.
 *
 * A process owns USER_START to USER_TOP: its program's segments, its brk
 * heap, its mmap areas (downwards from below the stack) and its stack.
 * Every area is a vma; pages are filled on first touch (a fault from user
 * space, or a copy from the kernel through kernel/uaccess.h), so a large
 * reservation costs nothing until used.
 */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include <dynhz/types.h>
#include <kernel/layout.h>

/*
 * Physical pages (kernel/mm/page_alloc.c): the RAM the loader reported
 * (arch_ram_range()), but the first megabyte (the BIOS's) and
 * [reserved_start, reserved_end) (the kernel's image).
 */
void page_alloc_init(u32 reserved_start, u32 reserved_end);
/* Reserves [start, end) (the initramfs), before anything is allocated. */
void page_reserve(u32 start, u32 end);
/* A zeroed page: low (inside the kernel's map) or any. 0 when none is left. */
u32 page_alloc(bool low);
void page_free(u32 pa);
/*
 * Sharing a page between address spaces (fork's copy-on-write). After
 * page_refs_init() (once, before the first process), page_share() adds an
 * owner (false: it cannot be shared, copy it instead), page_put() drops
 * one and frees the page with the last, page_is_shared() says whether
 * another owner has it. A page never shared is put as it is freed.
 */
void page_refs_init(void);
bool page_share(u32 pa);
bool page_is_shared(u32 pa);
void page_put(u32 pa);
struct page_stats {
	u32 total;  /* pages the loader reported as usable RAM */
	u32 free;   /* of them, free now */
	u32 kernel; /* the kernel image, its tables and the initramfs */
};
void page_stats_read(struct page_stats *st);

/* Areas of an address space. */
#define VM_READ	     1U
#define VM_WRITE     2U
#define VM_EXEC	     4U
#define VM_GROWSDOWN 8U /* the stack */
#define MM_MAX_VMAS  64

/*
 * An area. A program's segment is backed by its image: the first
 * src_bytes bytes of the area come from src (in the initramfs, which
 * stays in memory), page by page on first touch; the rest, and every
 * byte of an area without src (anonymous), reads as zero at first.
 */
struct vma {
	u32 start, end; /* page-aligned, end exclusive */
	u32 prot;	/* VM_* */
	const u8 *src;
	u32 src_bytes;
};

struct mm {
	u32 pgdir;		      /* physical address of the page directory; 0: none */
	struct vma vmas[MM_MAX_VMAS]; /* sorted by start, disjoint */
	u32 nvmas;
	u32 brk_start, brk; /* the heap: brk_start to PAGE_ALIGN(brk) is a vma */
	u32 stack_top;
	u32 rss; /* pages mapped */
};

/* A fresh address space with the kernel's mappings only; -ENOMEM. */
int mm_create(struct mm *mm);
/* Frees every user page and table, and the directory. */
void mm_destroy(struct mm *mm);
/* A copy of src (fork): its pages shared copy-on-write; -ENOMEM. */
int mm_copy(struct mm *dst, struct mm *src);
/* Loads mm's directory into CR3 (the scheduler, on a switch). */
void mm_activate(const struct mm *mm);
/* The kernel's own directory, for kernel threads. */
void mm_activate_kernel(void);
/*
 * The address space of the program the CPU runs: the one uaccess and the
 * memory calls work in, NULL in a kernel thread. The scheduler sets it
 * whenever the running thread's process changes (kernel/sched/proc.c,
 * and the end of a process): memory needs no process table.
 */
struct mm *mm_current(void);
void mm_set_current(struct mm *mm);

/* Adds [start, start+len) as an area (pages are filled on first touch); -ENOMEM, -EINVAL. */
int mm_add_vma(struct mm *mm, u32 start, u32 len, u32 prot);
/* The same, its first src_bytes bytes read from src as each page is first touched. */
int mm_add_file_vma(struct mm *mm, u32 start, u32 len, u32 prot, const void *src, u32 src_bytes);
/* Removes [start, start+len) from every area, freeing its pages. */
int mm_remove_range(struct mm *mm, u32 start, u32 len);
/* Changes the protection of [start, start+len); -ENOMEM where nothing is mapped. */
int mm_protect(struct mm *mm, u32 start, u32 len, u32 prot);
/* No area meets [start, start+len). */
bool mm_range_free(const struct mm *mm, u32 start, u32 len);
/* Finds a free gap of len bytes below USER_MMAP_TOP; 0 when none. */
u32 mm_find_gap(const struct mm *mm, u32 len);
/* The area holding addr, or NULL. */
const struct vma *mm_find_vma(const struct mm *mm, u32 addr);

/*
 * Makes the page holding addr present for this access (a fault or a
 * kernel copy): 0, or -EFAULT when addr is in no area or the area forbids
 * the access, -ENOMEM when no page is left.
 */
int mm_fault_in(struct mm *mm, u32 addr, bool write);
/* Drops the pages of [start, end) (MADV_DONTNEED): they read as zero on next touch. */
void mm_drop_pages(struct mm *mm, u32 start, u32 end);
/* The physical page at addr if present (0 if not); *writable says whether it may be written. */
u32 mm_lookup(const struct mm *mm, u32 addr, bool *writable);

#endif
