/* SPDX-License-Identifier: MIT */
/* Running code that must panic, in a child process, for the unit tests. */
#ifndef DYNHZ_TEST_PANIC_H
#define DYNHZ_TEST_PANIC_H

/*
 * Runs fn in a child with the console on; the child must die of a panic
 * (SIGABRT after a "panic:" line), or the test fails. Returns what the
 * child printed (valid until the next call).
 */
const char *panic_output(void (*fn)(void));

/* The same, and the panic's text must contain want. */
void expect_panic(void (*fn)(void), const char *want);

#endif
