// SPDX-License-Identifier: MIT
/*
 * divcount: a QEMU TCG plugin that counts the integer divides and
 * multiplies a guest kernel executes (issue 40, item 7). Under -icount
 * a divide costs what an add does; on hardware a 64-bit divide costs
 * tens of cycles. So bench/linux counts them apart, where the guest
 * executes them, and prices them itself.
 *
 *	qemu-system-x86_64 ... -plugin build/bench/linux/divcount.so,out=FILE
 *
 * Every kernel instruction that divides (x86_64: div, idiv; arm64: udiv,
 * sdiv) or multiplies (x86_64: mul, imul; arm64: the three-source
 * group, madd, msub, umulh...) gets its own counter, bumped inline each
 * time it runs. The plugin also counts the kernel's instructions and all
 * instructions, by translation block, and the kernel's per block (keyed
 * by the block's first address), so that a kernel's instructions can be
 * summed per function.
 *
 * Marks: an instruction that does nothing but means "boundary" to this
 * plugin (x86_64: nopl with displacement bytes 68 7a 6e 68; arm64:
 * hint #0x6d), executed by tests/linux/timerload.c before each kind of
 * work and after the last. At each mark the plugin notes the totals; the
 * kinds are the spans between two marks. At exit it writes FILE:
 *
 *	target NAME
 *	phase I kinsns N insns N div N mul N	one line per span
 *	insn ADDR div|mul|ins N			per instruction (ins: per
 *						block, its instructions), the span
 *						from the first mark to the
 *						last, the kernel's only
 *
 * With no mark executed, one phase from boot to exit and per-instruction
 * counts of the whole run. The counters are plain adds: the guest must
 * have one CPU (-smp 1), as bench/linux's boots have.
 *
 * QEMU's plugin API is declared here, the few calls used, as QEMU 7.2
 * documents them (plugin API version 1), so that nothing but a compiler
 * is needed to build it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* QEMU's plugin API, version 1: the calls this plugin makes. */
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct {
	const char *target_name;
	/* more fields follow; only the first is read */
} qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

enum cls { DIV, MUL, INS };
static const char *const cls_name[] = { "div", "mul", "ins" };

/* One counted instruction. Entries live in chunks that never move. */
struct entry {
	uint64_t vaddr;
	uint64_t count;
	uint64_t base; /* count at the first mark */
	uint64_t last; /* count at the last mark */
	int cls;
};

#define CHUNK 4096
static struct entry **chunks;
static size_t nentries, nchunks;
static struct entry **table; /* open addressing on vaddr */
static size_t table_size;

static bool arm64;
static uint64_t kernel_start;
static uint64_t insns; /* all, user space too; the kernel's: class_total(INS) */
static const char *out_path;

struct phase {
	uint64_t kinsns, insns, div, mul;
};
static struct phase *marks;
static size_t nmarks;

static void *xalloc(size_t n)
{
	void *p = calloc(1, n);

	if (!p) {
		fprintf(stderr, "divcount: out of memory\n");
		exit(1);
	}
	return p;
}

static struct entry *entry_at(size_t i)
{
	return &chunks[i / CHUNK][i % CHUNK];
}

static size_t slot(uint64_t vaddr, int cls, size_t size)
{
	return (size_t)(((vaddr ^ (uint64_t)cls << 62) * 0x9e3779b97f4a7c15ull) >> 20) & (size - 1);
}

static void table_grow(void)
{
	size_t n = table_size ? table_size * 2 : 4096;
	struct entry **t = xalloc(n * sizeof(*t));

	for (size_t i = 0; i < nentries; i++) {
		struct entry *e = entry_at(i);
		size_t s = slot(e->vaddr, e->cls, n);

		while (t[s])
			s = (s + 1) & (n - 1);
		t[s] = e;
	}
	free(table);
	table = t;
	table_size = n;
}

/* The counter of the instruction at VADDR: a retranslation finds the old one. */
static struct entry *lookup(uint64_t vaddr, int cls)
{
	size_t s;

	if (2 * (nentries + 1) > table_size)
		table_grow();
	for (s = slot(vaddr, cls, table_size); table[s]; s = (s + 1) & (table_size - 1))
		if (table[s]->vaddr == vaddr && table[s]->cls == cls)
			return table[s];
	if (nentries == nchunks * CHUNK) {
		struct entry **c = realloc(chunks, (nchunks + 1) * sizeof(*c));

		if (!c) {
			fprintf(stderr, "divcount: out of memory\n");
			exit(1);
		}
		chunks = c;
		chunks[nchunks++] = xalloc(CHUNK * sizeof(struct entry));
	}
	table[s] = entry_at(nentries++);
	table[s]->vaddr = vaddr;
	table[s]->cls = cls;
	return table[s];
}

/* x86_64: the class of the instruction at B (N bytes), or -1. */
static int x86_class(const uint8_t *b, size_t n)
{
	size_t i = 0;
	unsigned int reg;

	/* Legacy prefixes, then REX. */
	while (i < n && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xf0 || b[i] == 0xf2 ||
			 b[i] == 0xf3 || b[i] == 0x2e || b[i] == 0x36 || b[i] == 0x3e ||
			 b[i] == 0x26 || b[i] == 0x64 || b[i] == 0x65))
		i++;
	if (i < n && (b[i] & 0xf0) == 0x40)
		i++;
	if (i + 1 >= n)
		return -1;
	switch (b[i]) {
	case 0xf6: /* group 3: /4 mul, /5 imul, /6 div, /7 idiv */
	case 0xf7:
		reg = (b[i + 1] >> 3) & 7;
		return reg >= 6 ? DIV : reg >= 4 ? MUL : -1;
	case 0x69: /* imul r, r/m, imm */
	case 0x6b:
		return MUL;
	case 0x0f:
		return b[i + 1] == 0xaf ? MUL : -1; /* imul r, r/m */
	}
	return -1;
}

/* arm64: the class of the instruction word W, or -1. */
static int arm64_class(uint32_t w)
{
	if ((w & 0x7fe0f800) == 0x1ac00800) /* udiv, sdiv (bit 10) */
		return DIV;
	if ((w & 0x1f000000) == 0x1b000000) /* data-processing, 3 source */
		return MUL;
	return -1;
}

static bool is_mark(const uint8_t *b, size_t n)
{
	static const uint8_t x86[] = { 0x0f, 0x1f, 0x80, 0x68, 0x7a, 0x6e, 0x68 };
	uint32_t w;

	if (arm64) {
		if (n != 4)
			return false;
		memcpy(&w, b, 4);
		return w == (0xd503201fu | (0x6du << 5));
	}
	return n == sizeof(x86) && !memcmp(b, x86, n);
}

static uint64_t class_total(int cls)
{
	uint64_t t = 0;

	for (size_t i = 0; i < nentries; i++)
		if (entry_at(i)->cls == cls)
			t += entry_at(i)->count;
	return t;
}

static void on_mark(unsigned int vcpu, void *udata)
{
	struct phase *m = realloc(marks, (nmarks + 1) * sizeof(*m));

	(void)vcpu;
	(void)udata;
	if (!m)
		return;
	marks = m;
	marks[nmarks] =
		(struct phase){ class_total(INS), insns, class_total(DIV), class_total(MUL) };
	for (size_t i = 0; i < nentries; i++) {
		struct entry *e = entry_at(i);

		if (!nmarks)
			e->base = e->count;
		e->last = e->count;
	}
	nmarks++;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	bool kernel = qemu_plugin_tb_vaddr(tb) >= kernel_start;

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insns, n);
	if (kernel) {
		qemu_plugin_register_vcpu_tb_exec_inline(
			tb, QEMU_PLUGIN_INLINE_ADD_U64,
			&lookup(qemu_plugin_tb_vaddr(tb), INS)->count, n);
	}
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *b = qemu_plugin_insn_data(insn);
		size_t size = qemu_plugin_insn_size(insn);
		uint32_t w = 0;
		int cls;

		if (is_mark(b, size)) {
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
			continue;
		}
		if (!kernel)
			continue;
		if (arm64) {
			if (size != 4)
				continue;
			memcpy(&w, b, 4);
			cls = arm64_class(w);
		} else {
			cls = x86_class(b, size);
		}
		if (cls < 0)
			continue;
		qemu_plugin_register_vcpu_insn_exec_inline(
			insn, QEMU_PLUGIN_INLINE_ADD_U64,
			&lookup(qemu_plugin_insn_vaddr(insn), cls)->count, 1);
	}
}

static void at_exit_cb(qemu_plugin_id_t id, void *udata)
{
	FILE *f = out_path ? fopen(out_path, "w") : stderr;
	struct phase end = { class_total(INS), insns, class_total(DIV), class_total(MUL) };
	bool window = nmarks >= 2;

	(void)id;
	(void)udata;
	if (!f) {
		fprintf(stderr, "divcount: cannot write %s\n", out_path);
		return;
	}
	fprintf(f, "target %s\n", arm64 ? "arm64" : "x86_64");
	if (!window) {
		fprintf(f, "phase 0 kinsns %llu insns %llu div %llu mul %llu\n",
			(unsigned long long)end.kinsns, (unsigned long long)end.insns,
			(unsigned long long)end.div, (unsigned long long)end.mul);
	}
	for (size_t i = 0; window && i + 1 < nmarks; i++)
		fprintf(f, "phase %zu kinsns %llu insns %llu div %llu mul %llu\n", i,
			(unsigned long long)(marks[i + 1].kinsns - marks[i].kinsns),
			(unsigned long long)(marks[i + 1].insns - marks[i].insns),
			(unsigned long long)(marks[i + 1].div - marks[i].div),
			(unsigned long long)(marks[i + 1].mul - marks[i].mul));
	for (size_t i = 0; i < nentries; i++) {
		struct entry *e = entry_at(i);
		uint64_t c = window ? e->last - e->base : e->count;

		if (c)
			fprintf(f, "insn %016llx %s %llu\n", (unsigned long long)e->vaddr,
				cls_name[e->cls], (unsigned long long)c);
	}
	if (f != stderr)
		fclose(f);
}

__attribute__((visibility("default"))) int
qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out_path = argv[i] + 4;
		} else {
			fprintf(stderr, "divcount: unknown argument '%s' (out=FILE)\n", argv[i]);
			return -1;
		}
	}
	if (!strcmp(info->target_name, "aarch64")) {
		arm64 = true;
		kernel_start = 0xffff000000000000ull;
	} else if (!strcmp(info->target_name, "x86_64")) {
		kernel_start = 0xffff800000000000ull;
	} else {
		fprintf(stderr, "divcount: target %s not supported (x86_64, aarch64)\n",
			info->target_name);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, at_exit_cb, NULL);
	return 0;
}
