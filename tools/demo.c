// SPDX-License-Identifier: MIT
/*
 * make run-host: boots the core on the simulated PIT with the given
 * command line and shows what HZ setup decided.
 */
#include <stdio.h>

#include <dynhz/dynhz.h>
#include <dynhz/host.h>

int main(int argc, char **argv)
{
	static const unsigned int ms[] = { 1, 10, 100, 1000 };
	int err = dynhz_boot(argc > 1 ? argv[1] : "");

	printf("demo: dynhz_boot returned %d\n", err);
	for (unsigned int i = 0; i < ARRAY_SIZE(ms); i++) {
		unsigned long j = msecs_to_jiffies(ms[i]);

		printf("demo: %4u ms -> %lu jiffies -> %llu ns (schedule_timeout(HZ/10) = %u "
		       "jiffies)\n",
		       ms[i], j, (unsigned long long)jiffies_to_nsecs(j), HZ / 10);
	}
	printf("demo: INITIAL_JIFFIES = %lu; a 32-bit jiffies wraps %u s after boot\n",
	       INITIAL_JIFFIES, jiffies_to_msecs((u32)(0U - (u32)INITIAL_JIFFIES)) / 1000);
	return 0;
}
