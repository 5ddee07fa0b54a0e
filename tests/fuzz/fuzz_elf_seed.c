// SPDX-License-Identifier: MIT
/*
 * The source of fuzz_elf's seeds, built by tests/fuzz/check.sh at test time
 * into build/fuzz/seeds/fuzz_elf/: a program
 * with text, data and bss and no libc, so that the files stay small.
 *   gcc -m32 -static -nostdlib -Os -fno-pic -fno-asynchronous-unwind-tables \
 *       -Wl,--build-id=none -Wl,-z,noseparate-code fuzz_elf_seed.c -o static
 *   gcc -m32 -static-pie -nostdlib -Os -fpie -fno-asynchronous-unwind-tables \
 *       -Wl,--build-id=none -Wl,-z,noseparate-code -Wl,-z,norelro fuzz_elf_seed.c -o static-pie
 * then strip.
 */
int value = 7;
int zeros[2048];

void _start(void);

void _start(void)
{
	int status = value + zeros[value];

	__asm__ volatile("int $0x80" : : "a"(1), "b"(status));
	for (;;)
		;
}
