// SPDX-License-Identifier: MIT
/*
 * The kernel's own image (kimage.h): its text and read-only data
 * are summed at boot and again when init ends. The kernel maps itself
 * writable, so a system call that wrote through a pointer it failed to
 * check, into its own code or constants, would otherwise go unseen until
 * that code ran. One pass of a multiplicative hash over 32-bit words:
 * well under a millisecond for the whole image.
 */
#include "kimage.h"
#include <dynhz/printk.h>

extern const char __kernel_start[], __rodata_end[];

static u32 boot_sum;

static u32 image_bytes(void)
{
	return (u32)(__rodata_end - __kernel_start) & ~3U;
}

static u32 image_sum(void)
{
	const u32 *w = (const u32 *)(const void *)__kernel_start;
	u32 h = 0x811c9dc5U;

	for (u32 i = 0; i < image_bytes() / 4; i++)
		h = (h ^ w[i]) * 0x01000193U;
	return h;
}

void kimage_sum_at_boot(void)
{
	boot_sum = image_sum();
}

bool kimage_check(void)
{
	u32 now = image_sum();

	if (now == boot_sum) {
		dz_printk("kernel: text and read-only data unchanged since boot (%u bytes, sum "
			  "0x%08x)\n",
			  (unsigned int)image_bytes(), (unsigned int)now);
		return true;
	}
	dz_printk("kernel: text and read-only data CHANGED since boot (%u bytes, sum 0x%08x at "
		  "boot, 0x%08x now)\n",
		  (unsigned int)image_bytes(), (unsigned int)boot_sum, (unsigned int)now);
	return false;
}
