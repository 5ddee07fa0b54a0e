// SPDX-License-Identifier: MIT
/*
 * Physical pages (kernel/include/kernel/mm.h): one bit per 4 KiB page of
 * the 4 GiB the i386 can address, set while the page is in use or not RAM.
 * The loader's memory map says which pages are RAM; the first megabyte
 * (the BIOS's), the kernel image and the modules are never handed out.
 *
 * Pages below KERNEL_MAP_TOP are the kernel's to see directly, so page
 * tables and other kernel memory come from there ("low"); user pages take
 * the pages above first, so that low ones last.
 */
#include <kernel/mm.h>
#include <kernel/arch.h>
#include <kernel/string.h>
#include <dynhz/port.h>
#include <dynhz/printk.h>

#define MAX_PAGES  (1U << 20) /* 4 GiB */
#define LOW_PAGES  (KERNEL_MAP_TOP / PAGE_SIZE)
#define FIRST_PAGE (0x100000U / PAGE_SIZE) /* below 1 MiB: the BIOS's */

static u32 used[MAX_PAGES / 32];
static u32 ram_pages, free_pages, reserved_pages;
static u32 top_page; /* one past the highest RAM page */
static u32 hint_low = FIRST_PAGE, hint_high = LOW_PAGES;

static bool page_used(u32 pfn)
{
	return used[pfn / 32] & (1U << (pfn % 32));
}

static void set_used(u32 pfn, bool on)
{
	if (on)
		used[pfn / 32] |= 1U << (pfn % 32);
	else
		used[pfn / 32] &= ~(1U << (pfn % 32));
}

/* Frees the RAM pages wholly inside [start, end). */
static void add_ram(u64 start, u64 end)
{
	u64 first = (start + PAGE_SIZE - 1) / PAGE_SIZE, last = end / PAGE_SIZE;

	if (last > MAX_PAGES)
		last = MAX_PAGES;
	if (first < FIRST_PAGE)
		first = FIRST_PAGE;
	for (u64 p = first; p < last; p++) {
		if (!page_used((u32)p))
			continue;
		set_used((u32)p, false);
		ram_pages++;
		free_pages++;
	}
	if (last > top_page)
		top_page = (u32)last;
}

void page_reserve(u32 start, u32 end)
{
	for (u32 p = start / PAGE_SIZE; p < PAGE_ALIGN(end) / PAGE_SIZE && p < top_page; p++) {
		if (page_used(p))
			continue;
		set_used(p, true);
		free_pages--;
		reserved_pages++;
	}
}

void page_alloc_init(u32 reserved_start, u32 reserved_end)
{
	u64 start, end;

	memset(used, 0xff, sizeof(used));
	for (unsigned int i = 0; arch_ram_range(i, &start, &end); i++)
		add_ram(start, end);
	if (!ram_pages)
		dz_panic("memory: the loader reported no usable memory");
	page_reserve(reserved_start, reserved_end);
}

/*
 * The first free page from *hint on, wrapping within [lo, hi). Interrupts
 * are off: full words of the bitmap are passed 32 pages at a time, so a
 * scan of 64 MiB is 512 words, not 16384 bits, and the tick is not held
 * off for a fraction of a millisecond when memory runs short.
 */
static u32 take(u32 *hint, u32 lo, u32 hi)
{
	for (u32 n = 0, p = *hint; n < hi - lo;) {
		if (p % 32 == 0 && used[p / 32] == 0xffffffffU && p + 32 <= hi &&
		    n + 32 <= hi - lo) {
			n += 32;
			p = p + 32 < hi ? p + 32 : lo;
			continue;
		}
		if (!page_used(p)) {
			set_used(p, true);
			free_pages--;
			*hint = p + 1 < hi ? p + 1 : lo;
			return p;
		}
		n++;
		p = p + 1 < hi ? p + 1 : lo;
	}
	return 0;
}

u32 page_alloc(bool low)
{
	unsigned long flags = dz_irq_save();
	u32 low_top = top_page < LOW_PAGES ? top_page : LOW_PAGES;
	u32 pfn = 0;

	if (!free_pages) {
		dz_irq_restore(flags);
		return 0;
	}
	if (!low && top_page > LOW_PAGES)
		pfn = take(&hint_high, LOW_PAGES, top_page);
	if (!pfn && low_top > FIRST_PAGE)
		pfn = take(&hint_low, FIRST_PAGE, low_top);
	dz_irq_restore(flags);
	if (!pfn)
		return 0;
	/* Cleared here, so no page carries another's data. */
	flags = dz_irq_save();
	memset(kmap(pfn * PAGE_SIZE, 2), 0, PAGE_SIZE);
	kunmap(2);
	dz_irq_restore(flags);
	return pfn * PAGE_SIZE;
}

void page_free(u32 pa)
{
	unsigned long flags = dz_irq_save();
	u32 pfn = pa / PAGE_SIZE;

	if (pa % PAGE_SIZE || pfn < FIRST_PAGE || pfn >= top_page || !page_used(pfn))
		dz_panic("page_free: 0x%x is not an allocated page", (unsigned int)pa);
	set_used(pfn, false);
	free_pages++;
	dz_irq_restore(flags);
}

/*
 * Pages more than one address space maps (fork's copy-on-write): for each
 * page up to top_page, how many owners it has beyond the first. A table of
 * contiguous low pages, made once by page_refs_init(); a page that is not
 * in it, or whose count is full, is simply not shared.
 */
static u8 *extra_refs;

/* Interrupts off: n free low pages in a row, taken; the first one's pfn, or 0. */
static u32 take_contig(u32 n)
{
	u32 low_top = top_page < LOW_PAGES ? top_page : LOW_PAGES, run = 0;

	for (u32 p = FIRST_PAGE; p < low_top; p++) {
		run = page_used(p) ? 0 : run + 1;
		if (run < n)
			continue;
		for (u32 q = p + 1 - n; q <= p; q++)
			set_used(q, true);
		free_pages -= n;
		reserved_pages += n;
		return p + 1 - n;
	}
	return 0;
}

void page_refs_init(void)
{
	unsigned long flags = dz_irq_save();
	u32 n = (top_page + PAGE_SIZE - 1) / PAGE_SIZE;
	u32 pfn = extra_refs ? 0 : take_contig(n);

	dz_irq_restore(flags);
	if (!pfn)
		return;
	extra_refs = (u8 *)(uintptr_t)(pfn * PAGE_SIZE);
	memset(extra_refs, 0, n * PAGE_SIZE);
}

bool page_share(u32 pa)
{
	unsigned long flags = dz_irq_save();
	u32 pfn = pa / PAGE_SIZE;
	bool ok = extra_refs && pfn < top_page && extra_refs[pfn] < 0xff;

	if (ok)
		extra_refs[pfn]++;
	dz_irq_restore(flags);
	return ok;
}

bool page_is_shared(u32 pa)
{
	u32 pfn = pa / PAGE_SIZE;

	return extra_refs && pfn < top_page && extra_refs[pfn];
}

void page_put(u32 pa)
{
	unsigned long flags = dz_irq_save();
	u32 pfn = pa / PAGE_SIZE;
	bool last = !(extra_refs && pfn < top_page && extra_refs[pfn]);

	if (!last)
		extra_refs[pfn]--;
	dz_irq_restore(flags);
	if (last)
		page_free(pa);
}

void page_stats_read(struct page_stats *st)
{
	unsigned long flags = dz_irq_save();

	st->total = ram_pages;
	st->free = free_pages;
	st->kernel = reserved_pages;
	dz_irq_restore(flags);
}
