// SPDX-License-Identifier: MIT
/*
 * Address spaces (kernel/include/kernel/mm.h): the areas (vmas) a process
 * may touch, and the pages behind them, filled on first touch.
 *
 * An area's pages are mapped with its protection. PROT_NONE cannot be
 * said by an i386 page-table entry that is present, so such a page is
 * kept but marked not present (PTE_KEPT), and made present again when the
 * protection allows it: mprotect never loses data.
 */
#include <kernel/mm.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

#define PTE_KEPT 0x200U /* software bit: the page is ours but hidden (PROT_NONE) */
#define PTE_COW	 0x400U /* software bit: shared since a fork, copied on the first write */
#define PDE_SPAN 0x400000U

static bool mm_is_active(const struct mm *mm)
{
	return mm->pgdir && read_cr3() == mm->pgdir;
}

static u32 pte_flags(u32 prot)
{
	if (!(prot & (VM_READ | VM_WRITE | VM_EXEC)))
		return PTE_KEPT;
	return PTE_P | PTE_U | ((prot & VM_WRITE) ? PTE_W : 0);
}

/* An entry's page with the flags for prot; a page shared copy-on-write stays unwritable. */
static u32 pte_remake(u32 pte, u32 prot)
{
	u32 flags = pte_flags(prot);

	if (pte & PTE_COW)
		flags = (flags & ~PTE_W) | PTE_COW;
	return (pte & PTE_ADDR) | flags;
}

int mm_create(struct mm *mm)
{
	memset(mm, 0, sizeof(*mm));
	mm->pgdir = paging_new_pgdir();
	return mm->pgdir ? 0 : -ENOMEM;
}

/* Frees the pages of [start, end) that are present or kept. */
static void free_pages_in(struct mm *mm, u32 start, u32 end)
{
	bool active = mm_is_active(mm);

	for (u32 va = start; va < end && va >= start;) {
		u32 *pte = paging_pte(mm->pgdir, va, false);

		if (!pte) {
			va = (va & ~(PDE_SPAN - 1)) + PDE_SPAN;
			continue;
		}
		if (*pte & PTE_ADDR) {
			page_put(*pte & PTE_ADDR);
			mm->rss--;
		}
		*pte = 0;
		if (active)
			invlpg(va);
		va += PAGE_SIZE;
	}
}

void mm_destroy(struct mm *mm)
{
	u32 *pd = (u32 *)(uintptr_t)mm->pgdir;

	if (!pd)
		return;
	if (mm_is_active(mm))
		load_cr3(paging_kernel_pgdir());
	for (u32 i = USER_START >> 22; i < USER_TOP >> 22; i++) {
		if (!(pd[i] & PTE_P))
			continue;
		free_pages_in(mm, i << 22, (i + 1) << 22);
		page_free(pd[i] & PTE_ADDR);
		pd[i] = 0;
	}
	page_free(mm->pgdir);
	mm->pgdir = 0;
	mm->nvmas = 0;
}

/* Gives dst (a new space) its own copy of the page src maps at va with entry src_pte. */
static int copy_page_at(struct mm *dst, u32 va, u32 src_pte)
{
	u32 *pte = paging_pte(dst->pgdir, va, true), pa;
	unsigned long flags;

	if (!pte)
		return -ENOMEM;
	pa = page_alloc(false);
	if (!pa)
		return -ENOMEM;
	/* The two kmap slots are the CPU's, not this thread's: no switch while they are held. */
	flags = dz_irq_save();
	memcpy(kmap(pa, 0), kmap(src_pte & PTE_ADDR, 1), PAGE_SIZE);
	kunmap(1);
	kunmap(0);
	dz_irq_restore(flags);
	*pte = pa | (src_pte & ~PTE_ADDR);
	dst->rss++;
	return 0;
}

/*
 * dst maps the page src maps at va (entry *src_pte) too, both unwritable
 * until one of them writes (mm_fault_in copies it then); a page that
 * cannot be shared is copied now.
 */
static int share_page_at(struct mm *dst, u32 va, u32 *src_pte)
{
	u32 *pte = paging_pte(dst->pgdir, va, true);

	if (!pte)
		return -ENOMEM;
	if (!page_share(*src_pte & PTE_ADDR))
		return copy_page_at(dst, va, *src_pte);
	*src_pte = (*src_pte & ~PTE_W) | PTE_COW;
	*pte = *src_pte;
	dst->rss++;
	return 0;
}

/* Shares the pages src has in [start, end), skipping the 4 MiB spans without a table. */
static int share_pages_in(struct mm *dst, struct mm *src, u32 start, u32 end)
{
	for (u32 va = start; va < end && va >= start;) {
		u32 *pte = paging_pte(src->pgdir, va, false);
		int err;

		if (!pte) {
			va = (va & ~(PDE_SPAN - 1)) + PDE_SPAN;
			continue;
		}
		if ((*pte & PTE_ADDR) && (err = share_page_at(dst, va, pte)))
			return err;
		va += PAGE_SIZE;
	}
	return 0;
}

/**
 * mm_copy() - a copy of an address space, for fork
 * @dst: the new space (its old content is overwritten, not freed)
 * @src: the space to copy, active or not
 *
 * Every area, and every page src has (present, or kept hidden by
 * PROT_NONE), copy-on-write: both spaces map the same page, unwritable,
 * and the first to write to it gets a copy of its own (mm_fault_in); the
 * last owner left writes to it in place. Pages src has not touched yet
 * stay untouched in dst. A fork costs an entry for each page the parent
 * has touched, and a page copy for each page either then writes.
 *
 * Return: 0, or -ENOMEM (dst is then destroyed).
 */
int mm_copy(struct mm *dst, struct mm *src)
{
	int err = mm_create(dst);

	if (err)
		return err;
	memcpy(dst->vmas, src->vmas, sizeof(dst->vmas));
	dst->nvmas = src->nvmas;
	dst->brk_start = src->brk_start;
	dst->brk = src->brk;
	dst->stack_top = src->stack_top;
	for (u32 i = 0; i < src->nvmas && !err; i++)
		err = share_pages_in(dst, src, src->vmas[i].start, src->vmas[i].end);
	/* src's entries lost their write bit: its TLB must not keep it. */
	if (mm_is_active(src))
		load_cr3(src->pgdir);
	if (err)
		mm_destroy(dst);
	return err;
}

void mm_activate(const struct mm *mm)
{
	if (mm->pgdir && read_cr3() != mm->pgdir)
		load_cr3(mm->pgdir);
}

void mm_activate_kernel(void)
{
	if (read_cr3() != paging_kernel_pgdir())
		load_cr3(paging_kernel_pgdir());
}

static struct mm *running_mm;

struct mm *mm_current(void)
{
	return running_mm;
}

void mm_set_current(struct mm *mm)
{
	running_mm = mm;
}

const struct vma *mm_find_vma(const struct mm *mm, u32 addr)
{
	for (u32 i = 0; i < mm->nvmas; i++)
		if (addr >= mm->vmas[i].start && addr < mm->vmas[i].end)
			return &mm->vmas[i];
	return NULL;
}

static bool range_ok(u32 start, u32 len)
{
	return !(start & ~PAGE_MASK) && len && start >= USER_START && start <= USER_TOP &&
	       len <= USER_TOP - start;
}

static bool overlaps(const struct mm *mm, u32 start, u32 end)
{
	for (u32 i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].start < end && start < mm->vmas[i].end)
			return true;
	return false;
}

bool mm_range_free(const struct mm *mm, u32 start, u32 len)
{
	return !overlaps(mm, start, start + PAGE_ALIGN(len));
}

int mm_add_vma(struct mm *mm, u32 start, u32 len, u32 prot)
{
	return mm_add_file_vma(mm, start, len, prot, NULL, 0);
}

int mm_add_file_vma(struct mm *mm, u32 start, u32 len, u32 prot, const void *src, u32 src_bytes)
{
	u32 end, i;

	len = PAGE_ALIGN(len);
	if (!range_ok(start, len))
		return -EINVAL;
	end = start + len;
	if (overlaps(mm, start, end))
		return -EINVAL;
	if (mm->nvmas == MM_MAX_VMAS)
		return -ENOMEM;
	for (i = mm->nvmas; i > 0 && mm->vmas[i - 1].start > start; i--)
		mm->vmas[i] = mm->vmas[i - 1];
	mm->vmas[i] = (struct vma){ start, end, prot, src_bytes ? src : NULL, src ? src_bytes : 0 };
	mm->nvmas++;
	return 0;
}

/* v[0] and v[1] were one area, cut after cut bytes: each keeps its part of the image. */
static void split_src(struct vma *v, u32 cut)
{
	if (!v[0].src)
		return;
	if (v[0].src_bytes <= cut) {
		v[1].src = NULL;
		v[1].src_bytes = 0;
		return;
	}
	v[1].src = v[0].src + cut;
	v[1].src_bytes = v[0].src_bytes - cut;
	v[0].src_bytes = cut;
}

/* Makes addr a boundary between areas, splitting the one holding it. */
static int split_at(struct mm *mm, u32 addr)
{
	for (u32 i = 0; i < mm->nvmas; i++) {
		struct vma *v = &mm->vmas[i];

		if (addr <= v->start || addr >= v->end)
			continue;
		if (mm->nvmas == MM_MAX_VMAS)
			return -ENOMEM;
		memmove(v + 1, v, (mm->nvmas - i) * sizeof(*v));
		mm->nvmas++;
		v[0].end = addr;
		v[1].start = addr;
		split_src(v, addr - v[0].start);
		return 0;
	}
	return 0;
}

int mm_remove_range(struct mm *mm, u32 start, u32 len)
{
	u32 end;
	int err;

	len = PAGE_ALIGN(len);
	if (!range_ok(start, len))
		return -EINVAL;
	end = start + len;
	if ((err = split_at(mm, start)) || (err = split_at(mm, end)))
		return err;
	for (u32 i = 0; i < mm->nvmas;) {
		if (mm->vmas[i].start >= start && mm->vmas[i].end <= end) {
			memmove(&mm->vmas[i], &mm->vmas[i + 1],
				(mm->nvmas - i - 1) * sizeof(mm->vmas[0]));
			mm->nvmas--;
		} else {
			i++;
		}
	}
	free_pages_in(mm, start, end);
	return 0;
}

/* Where the areas from start on first leave a hole before end (end: none). */
static u32 mapped_prefix(const struct mm *mm, u32 start, u32 end)
{
	u32 a = start;

	while (a < end) {
		const struct vma *v = mm_find_vma(mm, a);

		if (!v)
			return a;
		a = v->end;
	}
	return end;
}

/* Rewrites the entries of the pages already there in [start, end) for prot. */
static void reprotect_pages(struct mm *mm, u32 start, u32 end, u32 prot)
{
	bool active = mm_is_active(mm);

	for (u32 va = start; va < end; va += PAGE_SIZE) {
		u32 *pte = paging_pte(mm->pgdir, va, false);

		if (!pte || !(*pte & PTE_ADDR))
			continue;
		*pte = pte_remake(*pte, prot);
		if (active)
			invlpg(va);
	}
}

int mm_protect(struct mm *mm, u32 start, u32 len, u32 prot)
{
	u32 end, hole;
	int err;

	len = PAGE_ALIGN(len);
	if (!range_ok(start, len))
		return -EINVAL;
	end = start + len;
	/* As Linux: up to the first hole, then ENOMEM; nothing when the hole is first. */
	hole = mapped_prefix(mm, start, end);
	if (hole == start)
		return -ENOMEM;
	if ((err = split_at(mm, start)) || (err = split_at(mm, hole)))
		return err;
	for (u32 i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].start >= start && mm->vmas[i].end <= hole)
			mm->vmas[i].prot = (mm->vmas[i].prot & VM_GROWSDOWN) | prot;
	reprotect_pages(mm, start, hole, prot);
	return hole == end ? 0 : -ENOMEM;
}

u32 mm_find_gap(const struct mm *mm, u32 len)
{
	u32 top = USER_MMAP_TOP;

	len = PAGE_ALIGN(len);
	if (!len || len > USER_MMAP_TOP - USER_START)
		return 0;
	/* Downwards from the top, as Linux's default layout: below the stack. */
	for (u32 i = mm->nvmas; i-- > 0;) {
		const struct vma *v = &mm->vmas[i];

		if (v->start >= top)
			continue;
		if (v->end <= top && top - v->end >= len)
			return top - len;
		top = v->start;
	}
	return top - USER_START >= len ? top - len : 0;
}

/* A new page (zeroed) at va of area v: its bytes of the program's image, if it has any. */
static void fill_from_image(const struct vma *v, u32 va, u32 pa)
{
	u32 off = va - v->start, n;
	unsigned long flags;

	if (!v->src || off >= v->src_bytes)
		return;
	n = v->src_bytes - off < PAGE_SIZE ? v->src_bytes - off : PAGE_SIZE;
	flags = dz_irq_save();
	memcpy(kmap(pa, 3), v->src + off, n);
	kunmap(3);
	dz_irq_restore(flags);
}

/*
 * A write to a page shared copy-on-write: a copy of its own, or the page
 * itself when no other owner is left. False when no page is left.
 * Interrupts off throughout, so that an owner leaving meanwhile cannot be
 * missed (the count is checked and dropped at one instant).
 */
static bool break_cow(u32 *pte)
{
	unsigned long flags = dz_irq_save();
	u32 old = *pte & PTE_ADDR, pa = old;

	if (page_is_shared(old)) {
		pa = page_alloc(false);
		if (pa) {
			memcpy(kmap(pa, 0), kmap(old, 1), PAGE_SIZE);
			kunmap(1);
			kunmap(0);
			page_put(old);
		}
	}
	if (pa)
		*pte = pa | (*pte & ~PTE_ADDR & ~PTE_COW);
	dz_irq_restore(flags);
	return pa != 0;
}

int mm_fault_in(struct mm *mm, u32 addr, bool write)
{
	const struct vma *v = mm_find_vma(mm, addr);
	u32 *pte, flags, pa;

	if (!v || (write && !(v->prot & VM_WRITE)) || !(v->prot & (VM_READ | VM_WRITE | VM_EXEC)))
		return -EFAULT;
	pte = paging_pte(mm->pgdir, addr, true);
	if (!pte)
		return -ENOMEM;
	flags = pte_flags(v->prot);
	if (*pte & PTE_ADDR) {
		if (write && (*pte & PTE_COW) && !break_cow(pte))
			return -ENOMEM;
		*pte = pte_remake(*pte, v->prot);
	} else {
		pa = page_alloc(false);
		if (!pa)
			return -ENOMEM;
		fill_from_image(v, addr & PAGE_MASK, pa);
		*pte = pa | flags;
		mm->rss++;
	}
	if (mm_is_active(mm))
		invlpg(addr & PAGE_MASK);
	return 0;
}

u32 mm_lookup(const struct mm *mm, u32 addr, bool *writable)
{
	u32 *pte;

	if (addr < USER_START || addr >= USER_TOP || !mm->pgdir)
		return 0;
	pte = paging_pte(mm->pgdir, addr, false);
	if (!pte || !(*pte & PTE_P))
		return 0;
	if (writable)
		*writable = *pte & PTE_W;
	return *pte & PTE_ADDR;
}

/* Drops the pages of [start, end) (MADV_DONTNEED): they read as zero next time. */
void mm_drop_pages(struct mm *mm, u32 start, u32 end)
{
	free_pages_in(mm, start, end);
}
