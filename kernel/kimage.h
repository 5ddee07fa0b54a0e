/* SPDX-License-Identifier: MIT */
/*
 * The kernel's text and read-only data, from the start of the image to
 * the end of .rodata (arch/x86/kernel.ld): summed at boot, checked when
 * init ends, so that a stray write by the kernel into itself is seen.
 */
#ifndef KERNEL_KIMAGE_H
#define KERNEL_KIMAGE_H

#include <dynhz/types.h>

/* Remembers the sum: first thing at boot. */
void kimage_sum_at_boot(void);

/*
 * Sums again and prints one line, "kernel: text and read-only data
 * unchanged since boot (N bytes, sum 0x...)" or "... CHANGED since boot
 * ..."; whether it is unchanged.
 */
bool kimage_check(void);

#endif
