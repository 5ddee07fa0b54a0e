// SPDX-License-Identifier: MIT
void shell_run(void);
void shell_run(void) {}
