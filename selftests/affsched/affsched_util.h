/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the affsched selftest programs: strict option
 * parsing, clock readers, EINTR-safe full reads and writes, and reaping
 * the copies of a load.
 */
#ifndef AFFSCHED_UTIL_H
#define AFFSCHED_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Parse option -@opt's argument @s as a decimal unsigned integer in
 * [@min, @max].  Anything else (sign, trailing junk, overflow, out of
 * range) prints an error and the program's @usage to stderr and exits
 * with status 2.
 */
static inline unsigned int parse_uint(const char *prog, char opt, const char *s,
				      unsigned int min, unsigned int max,
				      void (*usage)(FILE *, const char *))
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "%s: -%c: '%s' is not an integer in [%u, %u]\n",
			prog, opt, s, min, max);
		usage(stderr, prog);
		exit(2);
	}
	return v;
}

/*
 * The default of a getopt() switch: -h (@opt 'h') prints the program's
 * @usage to stdout and exits 0, any other option prints it to stderr and
 * exits 2.
 */
static inline void __attribute__((noreturn))
usage_exit(int opt, const char *prog, void (*usage)(FILE *, const char *))
{
	usage(opt == 'h' ? stdout : stderr, prog);
	exit(opt == 'h' ? 0 : 2);
}

/*
 * After the getopt() loop: none of the programs takes operands, so one
 * left in @argv from @optind on prints an error and the usage to stderr
 * and exits 2.
 */
static inline void no_operands(int argc, char **argv,
			       void (*usage)(FILE *, const char *))
{
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[optind]);
		usage(stderr, argv[0]);
		exit(2);
	}
}

/* Current time of clock @clk in nanoseconds. */
static inline int64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* CLOCK_MONOTONIC in nanoseconds. */
static inline int64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* CLOCK_MONOTONIC in seconds. */
static inline double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Read exactly @len bytes unless EOF comes first; -1 on error. */
static inline ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

/* Write all @len bytes; -1 on error. */
static inline ssize_t write_full(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, (const char *)buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		done += n;
	}
	return done;
}

/*
 * Wait for the @n children in @pids; print each that did not exit with
 * status 0 to stderr.  Return: 1 if one did not, else 0.
 */
static inline int reap_children(const pid_t *pids, unsigned int n)
{
	unsigned int i;
	int fail = 0;

	for (i = 0; i < n; i++) {
		int status = 0;
		pid_t w;

		do
			w = waitpid(pids[i], &status, 0);
		while (w < 0 && errno == EINTR);
		if (w < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "# child %u (pid %d) exited with status 0x%x\n",
				i, (int)pids[i], (unsigned int)status);
			fail = 1;
		}
	}
	return fail;
}

#endif /* AFFSCHED_UTIL_H */
