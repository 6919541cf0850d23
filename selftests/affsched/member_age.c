// SPDX-License-Identifier: GPL-2.0
/*
 * member_age: contend for a file's inode lock for a while, then stop.
 *
 * Usage: member_age -f FILE -c CONTEND_MS -a AFTER_MS [-s STOPPED]
 *
 * For CONTEND_MS it writes 4 KB at offset 0 of FILE in a loop; when other
 * tasks write FILE at the same time (the placement test's shared-file
 * load), it contends with them for the inode's rwsem and joins their
 * group.  Then, for AFTER_MS, it sleeps 5 ms and runs about 1 ms in turn
 * without touching FILE, so that where it runs is decided at each wake-up.
 * With -s it creates the file STOPPED as it stops contending, so that a
 * test can change what applies to the second phase only.
 *
 * It prints the CPU it runs on (sched_getcpu()) about every 5 ms, as
 * "ms:cpu" pairs after the phase's name, one line per phase, with ms
 * counted from the start of the phase:
 *	contend 0:3 5:2 ...
 *	after 5:6 11:7 ...
 * Exit status: 0; 1 if FILE cannot be opened or written or STOPPED cannot
 * be created; 2 on bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "affsched_util.h"

#define BLOCK		4096
#define PERIOD_NS	5000000LL	/* one sample per 5 ms */
#define BURN_NS		1000000LL	/* run 1 ms after each sleep */
#define MAX_MS		60000U

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s -f FILE -c CONTEND_MS -a AFTER_MS [-s STOPPED]\n"
		"  -f FILE        a file other tasks write at the same time\n"
		"  -c CONTEND_MS  write FILE in a loop for this long (1..%u)\n"
		"  -a AFTER_MS    then sleep 5 ms and run 1 ms in turn (1..%u)\n"
		"  -s STOPPED     create this file when the writes stop\n"
		"  -h             this help\n", prog, MAX_MS, MAX_MS);
}

static void sample(int64_t start)
{
	printf(" %lld:%d", (long long)((now_ns() - start) / 1000000), sched_getcpu());
}

int main(int argc, char **argv)
{
	static char buf[BLOCK];
	int64_t start, next, end, t;
	unsigned int contend_ms = 0, after_ms = 0;
	struct timespec nap = { 0, PERIOD_NS };
	const char *file = NULL, *stopped = NULL;
	int fd, opt;

	while ((opt = getopt(argc, argv, "f:c:a:s:h")) != -1) {
		switch (opt) {
		case 'f':
			file = optarg;
			break;
		case 'c':
			contend_ms = parse_uint(argv[0], 'c', optarg, 1, MAX_MS, usage);
			break;
		case 'a':
			after_ms = parse_uint(argv[0], 'a', optarg, 1, MAX_MS, usage);
			break;
		case 's':
			stopped = optarg;
			break;
		default:
			usage_exit(opt, argv[0], usage);
		}
	}
	no_operands(argc, argv, usage);
	if (!file || !contend_ms || !after_ms)
		usage_error(argv[0], usage, "-f, -c and -a are required");
	fd = open(file, O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], file, strerror(errno));
		return 1;
	}
	memset(buf, 'a', sizeof(buf));

	printf("contend");
	start = now_ns();
	end = start + contend_ms * 1000000LL;
	next = start;
	while ((t = now_ns()) < end) {
		if (pwrite(fd, buf, sizeof(buf), 0) != sizeof(buf)) {
			fprintf(stderr, "%s: write: %s\n", argv[0], strerror(errno));
			return 1;
		}
		if (t >= next) {
			sample(start);
			next = t + PERIOD_NS;
		}
	}
	close(fd);
	if (stopped) {
		fd = open(stopped, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			fprintf(stderr, "%s: %s: %s\n", argv[0], stopped, strerror(errno));
			return 1;
		}
		close(fd);
	}

	printf("\nafter");
	start = now_ns();
	end = start + after_ms * 1000000LL;
	while (now_ns() < end) {
		nanosleep(&nap, NULL);
		sample(start);
		t = now_ns();
		while (now_ns() - t < BURN_NS)
			;
	}
	printf("\n");
	return 0;
}
