// SPDX-License-Identifier: MIT
/*
 * The memory system calls: brk, mmap2, munmap, mprotect, madvise, with
 * Linux's arguments and errors. Only anonymous memory: the root file
 * system is in memory already, and a program that maps a file is told
 * ENODEV, as Linux tells it of a file system that cannot map.
 */
#include <kernel/mm.h>
#include <kernel/syscall.h>
#include <kernel/errno.h>

#define PROT_READ	    0x1
#define PROT_WRITE	    0x2
#define PROT_EXEC	    0x4
#define PROT_GROWSDOWN	    0x01000000
#define PROT_GROWSUP	    0x02000000
#define MAP_SHARED	    0x01
#define MAP_PRIVATE	    0x02
#define MAP_SHARED_VALIDATE 0x03
#define MAP_TYPE	    0x0f
#define MAP_FIXED	    0x10
#define MAP_ANONYMOUS	    0x20
#define MAP_FIXED_NOREPLACE 0x100000
#define MADV_DONTNEED	    4

static u32 vm_prot(u32 prot)
{
	/* A readable i386 page is executable; a writable one is readable. */
	return prot & (PROT_READ | PROT_WRITE | PROT_EXEC);
}

/* The heap's area, [brk_start, PAGE_ALIGN(brk)), is the one starting at brk_start. */
static struct vma *heap_vma(struct mm *mm)
{
	for (u32 i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].start == mm->brk_start)
			return &mm->vmas[i];
	return NULL;
}

static bool heap_can_grow(const struct mm *mm, u32 old_end, u32 new_end)
{
	for (u32 i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].start != mm->brk_start && mm->vmas[i].start < new_end &&
		    old_end < mm->vmas[i].end)
			return false;
	return new_end <= USER_MMAP_TOP;
}

/* As Linux: the new break, or the old one when it cannot move. */
SYSCALL_DEFINE1(brk, u32, addr)
{
	struct mm *mm = mm_current();
	u32 old_end = PAGE_ALIGN(mm->brk), new_end = PAGE_ALIGN(addr);
	struct vma *v;

	if (addr < mm->brk_start || new_end < addr)
		return (long)mm->brk;
	if (new_end > old_end) {
		if (!heap_can_grow(mm, old_end, new_end))
			return (long)mm->brk;
		v = heap_vma(mm);
		if (v)
			v->end = new_end;
		else if (mm_add_vma(mm, mm->brk_start, new_end - mm->brk_start, VM_READ | VM_WRITE))
			return (long)mm->brk;
	} else if (new_end < old_end) {
		mm_remove_range(mm, new_end, old_end - new_end);
	}
	mm->brk = addr;
	return (long)addr;
}

static long map_checks(u32 addr, u32 len, u32 prot, u32 flags)
{
	u32 type = flags & MAP_TYPE;

	if (!len)
		return -EINVAL;
	if (type != MAP_SHARED && type != MAP_PRIVATE && type != MAP_SHARED_VALIDATE)
		return -EINVAL;
	if ((flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) && (addr & ~PAGE_MASK))
		return -EINVAL;
	/* Unknown protection bits are ignored by mmap (not by mprotect), as on Linux. */
	(void)prot;
	if (PAGE_ALIGN(len) < len || PAGE_ALIGN(len) > USER_TOP - USER_START)
		return -ENOMEM;
	return 0;
}

SYSCALL_DEFINE6(mmap2, u32, addr, u32, len, u32, prot, u32, flags, int, fd, u32, pgoff)
{
	struct mm *mm = mm_current();
	u32 size = PAGE_ALIGN(len), at;
	long err = map_checks(addr, len, prot, flags);

	(void)fd;
	(void)pgoff;
	if (err)
		return err;
	if (!(flags & MAP_ANONYMOUS))
		return -ENODEV;
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		if (addr < USER_START || size > USER_TOP - addr)
			return (flags & MAP_FIXED) ? -ENOMEM : -EINVAL;
		at = addr;
		/* MAP_FIXED replaces; MAP_FIXED_NOREPLACE gets EEXIST below */
		if (flags & MAP_FIXED)
			mm_remove_range(mm, at, size);
	} else {
		/* A hint is taken when it is free, as Linux does. */
		at = addr & PAGE_MASK;
		if (at < USER_START || size > USER_MMAP_TOP - at || !mm_range_free(mm, at, size))
			at = mm_find_gap(mm, size);
		if (!at)
			return -ENOMEM;
	}
	err = mm_add_vma(mm, at, size, vm_prot(prot));
	if (err)
		return err == -EINVAL ? -EEXIST : err;
	return (long)at;
}

/* As Linux: EINVAL for a bad range; unmapping what is not mapped is no error. */
SYSCALL_DEFINE2(munmap, u32, addr, u32, len)
{
	u32 end;

	if ((addr & ~PAGE_MASK) || !len || addr > USER_TOP || len > USER_TOP - addr)
		return -EINVAL;
	end = PAGE_ALIGN(addr + len);
	if (end <= USER_START)
		return 0;
	if (addr < USER_START)
		addr = USER_START;
	return mm_remove_range(mm_current(), addr, end - addr);
}

SYSCALL_DEFINE3(mprotect, u32, addr, u32, len, u32, prot)
{
	if (addr & ~PAGE_MASK)
		return -EINVAL;
	if (prot & ~(u32)(PROT_READ | PROT_WRITE | PROT_EXEC | PROT_GROWSDOWN | PROT_GROWSUP))
		return -EINVAL;
	if (!len)
		return 0;
	if (PAGE_ALIGN(len) < len || addr < USER_START || PAGE_ALIGN(len) > USER_TOP - addr)
		return -ENOMEM;
	return mm_protect(mm_current(), addr, len, vm_prot(prot));
}

SYSCALL_DEFINE3(madvise, u32, addr, u32, len, int, advice)
{
	struct mm *mm = mm_current();
	u32 end = PAGE_ALIGN(addr + len);
	bool hole = false;

	if ((addr & ~PAGE_MASK) || end < addr || advice < 0)
		return -EINVAL;
	if (!len)
		return 0;
	if (addr < USER_START || end > USER_TOP)
		return -ENOMEM;
	/* As Linux: the advice applies to what is mapped; a hole anywhere is ENOMEM. */
	for (u32 a = addr; a < end; a += PAGE_SIZE) {
		if (!mm_find_vma(mm, a)) {
			hole = true;
			continue;
		}
		if (advice == MADV_DONTNEED)
			mm_drop_pages(mm, a, a + PAGE_SIZE);
	}
	return hole ? -ENOMEM : 0;
}
