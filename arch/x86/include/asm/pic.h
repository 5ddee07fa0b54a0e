/* SPDX-License-Identifier: MIT */
/* The two cascaded 8259A interrupt controllers of the PC. */
#ifndef ASM_PIC_H
#define ASM_PIC_H

#include <asm/irq.h>

typedef void (*irq_handler_t)(void *data);

/* Remaps IRQ 0-15 to vectors 32-47 and masks every line. */
void pic_init(void);

/* Installs a handler for a line and unmasks it; the PIC layer sends EOI. */
void irq_register(unsigned int irq, irq_handler_t fn, void *data);
void pic_mask(unsigned int irq);
void pic_unmask(unsigned int irq);

#endif
