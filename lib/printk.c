// SPDX-License-Identifier: MIT
/* printk and panic on top of the port's console. */
#include <dynhz/printk.h>
#include <dynhz/port.h>

int dz_printk(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = dz_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf)) {
		/* Cut, but keep the line a line: a message must not run into the next. */
		n = sizeof(buf) - 1;
		if (fmt[0] && fmt[__builtin_strlen(fmt) - 1] == '\n') {
			buf[n - 4] = buf[n - 3] = buf[n - 2] = '.';
			buf[n - 1] = '\n';
		}
	}
	dz_port_console_write(buf, (size_t)n);
	return n;
}

_Noreturn void dz_panic_at(const char *file, int line, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	dz_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	dz_printk("panic: %s:%d: %s\n", file, line, buf);
	dz_port_panic_exit();
}
