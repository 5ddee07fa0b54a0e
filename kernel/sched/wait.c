// SPDX-License-Identifier: MIT
/* Simple wait queues (see include/kernel/wait.h). */
#include <kernel/wait.h>
#include <dynhz/port.h>

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w, int state)
{
	unsigned long flags = dz_irq_save();

	if (list_empty(&w->entry))
		list_add_tail(&w->entry, &wq->head);
	set_current_state(state);
	dz_irq_restore(flags);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	unsigned long flags = dz_irq_save();

	(void)wq;
	__set_current_state(TASK_RUNNING);
	list_del_init(&w->entry);
	dz_irq_restore(flags);
}

int wake_up(struct wait_queue_head *wq)
{
	unsigned long flags = dz_irq_save();
	struct list_head *p;
	int n = 0;

	for (p = wq->head.next; p != &wq->head; p = p->next)
		n += wake_up_process(list_entry(p, struct wait_queue_entry, entry)->task);
	dz_irq_restore(flags);
	return n;
}
