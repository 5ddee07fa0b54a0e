// SPDX-License-Identifier: MIT
/*
 * The C runtime of the kernel build (kernel/string.h): the four memory
 * functions the compiler may call on its own (struct copies, array
 * initializers) even in a freestanding program, and the few string
 * functions the kernel uses. There is no libc in the kernel; the port
 * provides these (docs/PORTING.md: the core needs strlen and may need the
 * memory functions), and they are the arch's because the copies use the
 * CPU's string instructions.
 */
#include <kernel/arch.h>

/*
 * String instructions, a word at a time: pages are copied (copy-on-write),
 * filled from a program's image and cleared with these, and a byte loop
 * costs four instructions a byte where REP MOVSL costs one per four bytes.
 */
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	void *d = dst;
	size_t words = n / 4, bytes = n % 4;

	__asm__ volatile("rep movsl\n\t"
			 "mov %3, %%ecx\n\t"
			 "rep movsb"
			 : "+D"(d), "+S"(src), "+c"(words)
			 : "r"(bytes)
			 : "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d < s)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	void *d = dst;
	u32 v = (unsigned char)c * 0x01010101U;
	size_t words = n / 4, bytes = n % 4;

	__asm__ volatile("rep stosl\n\t"
			 "mov %3, %%ecx\n\t"
			 "rep stosb"
			 : "+D"(d), "+c"(words)
			 : "a"(v), "r"(bytes)
			 : "memory");
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncmp(hay, needle, n))
			return (char *)hay;
	return n ? NULL : (char *)hay;
}
