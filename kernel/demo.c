// SPDX-License-Identifier: MIT
void demo_run(void);
void demo_run(void) {}
