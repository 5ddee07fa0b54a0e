// SPDX-License-Identifier: MIT
/*
 * The 8259A pair. At reset the master delivers IRQ 0-7 on vectors 8-15,
 * on top of the CPU's exceptions, so the first thing is to move the lines
 * to 32-47. The PIC also raises "spurious" IRQ 7 and 15 when a request
 * goes away before it is acknowledged: those are checked against the
 * in-service register and not acknowledged.
 */
#include <kernel/arch.h>
#include <asm/pic.h>
#include <asm/io.h>
#include <dynhz/printk.h>

#define PIC1_CMD  0x20
#define PIC1_DATA 0x21
#define PIC2_CMD  0xa0
#define PIC2_DATA 0xa1

#define ICW1_INIT_ICW4 0x11 /* edge triggered, cascade, ICW4 follows */
#define ICW4_8086      0x01
#define OCW2_EOI       0x20
#define OCW3_READ_ISR  0x0b
#define CASCADE_IRQ    2

static struct {
	irq_handler_t fn;
	void *data;
} lines[NR_PIC_IRQS];

static u16 mask = 0xffff;
static unsigned long spurious;

static void write_mask(void)
{
	outb(PIC1_DATA, (u8)mask);
	outb(PIC2_DATA, (u8)(mask >> 8));
}

void pic_mask(unsigned int irq)
{
	mask |= (u16)(1U << irq);
	write_mask();
}

void pic_unmask(unsigned int irq)
{
	mask &= (u16) ~(1U << irq);
	if (irq >= 8)
		mask &= (u16) ~(1U << CASCADE_IRQ);
	write_mask();
}

static u8 read_isr(u16 cmd_port)
{
	outb(cmd_port, OCW3_READ_ISR);
	return inb(cmd_port);
}

static void pic_eoi(unsigned int irq)
{
	if (irq >= 8)
		outb(PIC2_CMD, OCW2_EOI);
	outb(PIC1_CMD, OCW2_EOI);
}

/* A spurious IRQ 7/15 is not in service; a spurious 15 still needs the master's EOI. */
static bool is_spurious(unsigned int irq)
{
	if (irq == 7 && !(read_isr(PIC1_CMD) & 0x80))
		return true;
	if (irq == 15 && !(read_isr(PIC2_CMD) & 0x80)) {
		outb(PIC1_CMD, OCW2_EOI);
		return true;
	}
	return false;
}

static void pic_interrupt(struct irq_frame *f, void *data)
{
	unsigned int irq = f->vector - PIC_IRQ_BASE;

	(void)data;
	if (is_spurious(irq)) {
		spurious++;
		return;
	}
	if (lines[irq].fn) {
		lines[irq].fn(lines[irq].data);
	} else {
		dz_printk("pic: irq %u with no handler, masked\n", irq);
		pic_mask(irq);
	}
	pic_eoi(irq);
}

unsigned long pic_spurious_count(void)
{
	return spurious;
}

void irq_register(unsigned int irq, irq_handler_t fn, void *data)
{
	DZ_BUG_ON(irq >= NR_PIC_IRQS || irq == CASCADE_IRQ);
	lines[irq].fn = fn;
	lines[irq].data = data;
	pic_unmask(irq);
}

void pic_init(void)
{
	/* The init sequence: ICW1 to both, then vector base, wiring and mode. */
	outb(PIC1_CMD, ICW1_INIT_ICW4);
	outb(PIC2_CMD, ICW1_INIT_ICW4);
	outb(PIC1_DATA, PIC_IRQ_BASE);
	outb(PIC2_DATA, PIC_IRQ_BASE + 8);
	outb(PIC1_DATA, 1U << CASCADE_IRQ); /* the slave hangs on IRQ 2 */
	outb(PIC2_DATA, CASCADE_IRQ);	    /* ... and knows it */
	outb(PIC1_DATA, ICW4_8086);
	outb(PIC2_DATA, ICW4_8086);
	mask = 0xffff;
	write_mask();
	for (unsigned int v = 0; v < NR_PIC_IRQS; v++)
		vector_register(PIC_IRQ_BASE + v, pic_interrupt, NULL);
}
