// SPDX-License-Identifier: MIT
/* See panic.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <dynhz/host.h>

#include "panic.h"

const char *panic_output(void (*fn)(void))
{
	static char buf[4096];
	int fds[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };

		setrlimit(RLIMIT_CORE, &no_core); /* the abort is expected */
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		dynhz_host_set_quiet(false);
		fn();
		_exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += n;
	buf[len] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT || !strstr(buf, "panic:"))
		fail_msg("expected a panic, got status %#x and \"%s\"", status, buf);
	return buf;
}

void expect_panic(void (*fn)(void), const char *want)
{
	const char *out = panic_output(fn);

	if (!strstr(out, want))
		fail_msg("expected a panic with \"%s\", got \"%s\"", want, out);
}
