// SPDX-License-Identifier: MIT
/*
 * udp2: one process, three threads of one name, for issue 43's case of a
 * program whose threads ask for different timeouts.
 *
 *   server: waits for datagrams on its socket with SO_RCVTIMEO 200 ms
 *           (a jiffies timeout of 200 ms, restarted at every datagram:
 *           most of the program's timeouts asked);
 *   sender: sends the server a datagram every 2 ms (clock_nanosleep, an
 *           hrtimer: HZ does not move it);
 *   client: waits on its own socket with SO_RCVTIMEO 1 ms (a jiffies
 *           timeout of one tick or so), again each time it runs out; the
 *           server answers it once in 25 datagrams (every 50 ms).
 *
 * The client's 1 ms timeouts fire again and again; at 100 Hz each becomes
 * 10 to 20 ms, at 250 Hz 4 to 8. The server's 200 ms ones are all cut short
 * by the datagrams. Usage: udp2 [SECONDS] (default 10). Prints each
 * thread's pid (its thread id) and what it did, one line each.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static atomic_bool done;
static int srv_fd, cli_fd;
static struct sockaddr_in srv_addr, cli_addr;

static int udp_socket(struct sockaddr_in *addr, long timeout_us)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	socklen_t len = sizeof(*addr);
	struct timeval tv = { .tv_sec = timeout_us / 1000000, .tv_usec = timeout_us % 1000000 };

	if (fd < 0) {
		perror("udp2: socket");
		exit(1);
	}
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)addr, sizeof(*addr)) ||
	    getsockname(fd, (struct sockaddr *)addr, &len) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		perror("udp2: bind/setsockopt");
		exit(1);
	}
	return fd;
}

static long tid(void)
{
	return (long)syscall(SYS_gettid);
}

static void *server(void *arg)
{
	char buf[64];
	unsigned long got = 0, timeouts = 0;

	(void)arg;
	printf("udp2: server tid=%ld SO_RCVTIMEO=200ms\n", tid());
	fflush(stdout);
	while (!atomic_load(&done)) {
		ssize_t n = recv(srv_fd, buf, sizeof(buf), 0);

		if (n < 0) {
			timeouts += errno == EAGAIN || errno == EWOULDBLOCK;
			continue;
		}
		if (++got % 25 == 0)
			sendto(srv_fd, "pong", 4, 0, (struct sockaddr *)&cli_addr,
			       sizeof(cli_addr));
	}
	printf("udp2: server received %lu, timed out %lu\n", got, timeouts);
	return NULL;
}

static void *client(void *arg)
{
	char buf[64];
	unsigned long got = 0, timeouts = 0;

	(void)arg;
	printf("udp2: client tid=%ld SO_RCVTIMEO=1ms\n", tid());
	fflush(stdout);
	while (!atomic_load(&done)) {
		ssize_t n = recv(cli_fd, buf, sizeof(buf), 0);

		if (n < 0)
			timeouts += errno == EAGAIN || errno == EWOULDBLOCK;
		else
			got++;
	}
	printf("udp2: client received %lu, timed out %lu\n", got, timeouts);
	return NULL;
}

static void *sender(void *arg)
{
	struct timespec t;
	unsigned long sent = 0;

	(void)arg;
	printf("udp2: sender tid=%ld every 2ms\n", tid());
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t);
	while (!atomic_load(&done)) {
		t.tv_nsec += 2000000;
		if (t.tv_nsec >= 1000000000) {
			t.tv_nsec -= 1000000000;
			t.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
		sendto(srv_fd, "ping", 4, 0, (struct sockaddr *)&srv_addr, sizeof(srv_addr));
		sent++;
	}
	printf("udp2: sender sent %lu\n", sent);
	return NULL;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 10;
	pthread_t th[3];
	struct timespec d;

	if (secs <= 0 || secs > 3600) {
		fprintf(stderr, "usage: udp2 [SECONDS]\n");
		return 2;
	}
	srv_fd = udp_socket(&srv_addr, 200000);
	cli_fd = udp_socket(&cli_addr, 1000);
	if (pthread_create(&th[0], NULL, server, NULL) ||
	    pthread_create(&th[1], NULL, client, NULL) ||
	    pthread_create(&th[2], NULL, sender, NULL)) {
		fprintf(stderr, "udp2: pthread_create failed\n");
		return 1;
	}
	d.tv_sec = (time_t)secs;
	d.tv_nsec = (long)((secs - (double)d.tv_sec) * 1e9);
	nanosleep(&d, NULL);
	atomic_store(&done, true);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	return 0;
}
