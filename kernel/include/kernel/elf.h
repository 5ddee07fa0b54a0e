/* SPDX-License-Identifier: MIT */
/*
 * Static i386 ELF executables: the reader that turns a file image into a
 * plan of page mappings, and the builder of the stack a program finds at
 * its entry point (argc, argv, envp, the auxiliary vector), as the i386
 * System V ABI and Linux lay them out. Freestanding, and self-contained so
 * that host tests and fuzzers can include it too.
 */
#ifndef KERNEL_ELF_H
#define KERNEL_ELF_H

#include <dynhz/types.h>

/* The file header and the program header, as the ELF32 format has them. */
struct elf32_ehdr {
	u8 e_ident[16];
	u16 e_type;
	u16 e_machine;
	u32 e_version;
	u32 e_entry;
	u32 e_phoff;
	u32 e_shoff;
	u32 e_flags;
	u16 e_ehsize;
	u16 e_phentsize;
	u16 e_phnum;
	u16 e_shentsize;
	u16 e_shnum;
	u16 e_shstrndx;
};

struct elf32_phdr {
	u32 p_type;
	u32 p_offset;
	u32 p_vaddr;
	u32 p_paddr;
	u32 p_filesz;
	u32 p_memsz;
	u32 p_flags;
	u32 p_align;
};

#define EI_CLASS    4
#define EI_DATA	    5
#define EI_VERSION  6
#define ELFCLASS32  1
#define ELFDATA2LSB 1
#define EV_CURRENT  1
#define ET_EXEC	    2
#define ET_DYN	    3
#define EM_386	    3

#define PT_LOAD	     1
#define PT_INTERP    3
#define PT_PHDR	     6
#define PT_TLS	     7
#define PT_GNU_STACK 0x6474e551

#define PF_X 1
#define PF_W 2
#define PF_R 4

#define ELF_PAGE_SIZE 4096U
/* Where user space ends when the caller does not say (the kernel's split). */
#define ELF_USER_TOP 0xC0000000U
/* Bounds on what is read: more than any real static program uses. */
#define ELF_MAX_PHNUM 128
#define ELF_MAX_LOADS 16

/* Linux's errno for an argument list too long for the stack. */
#define ELF_E2BIG 7

/*
 * One PT_LOAD segment, as read (seg_*, with the load bias added) and as
 * it is to be mapped: pages from va on; the first file_bytes of them
 * copied from file_off in the image, the zero_bytes after them cleared
 * (the bss and the tail of the last file page), so that file_bytes +
 * zero_bytes == pages * ELF_PAGE_SIZE.
 */
struct elf_map {
	u32 va;
	u32 pages;
	u32 file_off;
	u32 file_bytes;
	u32 zero_bytes;
	u32 prot; /* PF_R | PF_W | PF_X */
	u32 seg_va;
	u32 seg_filesz;
	u32 seg_memsz;
};

struct elf_plan {
	u32 user_top; /* in: user space ends here (0: ELF_USER_TOP) */
	u32 bias;     /* what was added to every address (0 for ET_EXEC) */
	u32 entry;
	u32 phdr; /* AT_PHDR: the program headers in memory; 0 if not loaded */
	u32 phent;
	u32 phnum;
	u32 brk;				      /* page-aligned end of the highest segment */
	bool exec_stack;			      /* PT_GNU_STACK asks for it, or is absent */
	u32 tls_va, tls_filesz, tls_memsz, tls_align; /* PT_TLS, all 0 if none */
	u32 nmaps;
	struct elf_map maps[ELF_MAX_LOADS]; /* sorted by va, disjoint */
};

/*
 * Checks img (len bytes) as a static i386 executable and fills plan; a
 * static-pie (ET_DYN) is placed at load_bias_for_pie, which must be page
 * aligned. Returns 0, or -1 with one line in err saying why not, ending
 * in ": ENOEXEC", what exec answers.
 */
int elf_load_plan(const void *img, size_t len, u32 load_bias_for_pie, struct elf_plan *plan,
		  char *err, size_t errlen);

/* Auxiliary vector types. */
#define AT_NULL	    0
#define AT_PHDR	    3
#define AT_PHENT    4
#define AT_PHNUM    5
#define AT_PAGESZ   6
#define AT_BASE	    7
#define AT_FLAGS    8
#define AT_ENTRY    9
#define AT_UID	    11
#define AT_EUID	    12
#define AT_GID	    13
#define AT_EGID	    14
#define AT_PLATFORM 15
#define AT_HWCAP    16
#define AT_CLKTCK   17
#define AT_SECURE   23
#define AT_RANDOM   25
#define AT_EXECFN   31

/* What the auxiliary vector says that the caller knows and the builder does not. */
struct elf_auxv {
	u32 phdr, phent, phnum, entry;
	u32 base; /* the interpreter's address: 0 for a static program */
	u32 flags;
	u32 uid, euid, gid, egid;
	u32 hwcap;  /* CPUID leaf 1 EDX, as Linux gives it */
	u32 secure; /* set-id program: 0 here */
	u8 random[16];
	const char *execfn; /* the path executed; NULL: argv[0] */
};

/*
 * Lays out the startup stack downwards from stack_top_va, whose memory
 * (seen by the caller) ends at stack_top_mem, in at most room bytes.
 * argv and envp are NULL-terminated (either may be NULL: empty). Sets
 * *sp_out to the 16-byte aligned address of argc and returns 0, or
 * returns -ELF_E2BIG when it does not fit.
 */
int elf_build_stack(u8 *stack_top_mem, u32 stack_top_va, size_t room, const char *const *argv,
		    const char *const *envp, const struct elf_auxv *aux, u32 *sp_out);

#endif
