// SPDX-License-Identifier: GPL-2.0
/*
 * ctx - pipe ping-pong load, the load of UnixBench's "Pipe-based Context
 * Switching" test (context1), run as several pairs at once.
 *
 * A pair is two processes joined by two pipes.  The first sends an 8-byte
 * counter, the second checks it and sends it back incremented, the first
 * checks the reply: one round trip, two context switches when both share a
 * CPU.  Pairs are separate processes that start together, so that their
 * placement is up to the scheduler; -P pins process k of the 2 * PAIRS to
 * online CPU (k mod ncpu) instead, for comparison.
 *
 * Output: one line per pair, then a UnixBench-style COUNT line with the
 * total and the score (sum over pairs of round trips per second) against
 * the UnixBench baseline of 4000 lps.  TAP: one test, ok when every pair
 * ran and every counter came back as expected.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "affsched_util.h"

#define MAX_PAIRS	4096
#define MAX_SECONDS	86400
#define DEF_SECONDS	10
#define BASELINE_LPS	4000.0

/*
 * What a pair reports to the top parent.  Small enough for one atomic pipe
 * write (PIPE_BUF), so reports of different pairs never interleave.
 */
struct pair_report {
	uint32_t pair;
	uint32_t ok;
	uint64_t trips;
	int64_t nsec;
	char why[112];
};

static unsigned int nr_pairs = 1;
static unsigned int seconds = DEF_SECONDS;
static int pin;

static int cpus[CPU_SETSIZE];
static int nr_cpus;

static volatile sig_atomic_t time_up;

static void on_alarm(int sig)
{
	(void)sig;
	time_up = 1;
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [-p PAIRS] [-t SECONDS] [-P] [-h]\n"
		"  -p PAIRS    ping-pong pairs run at the same time (default 1, max %d)\n"
		"  -t SECONDS  duration of the run (default %d)\n"
		"  -P          pin process k of the 2*PAIRS to online CPU (k mod ncpu)\n"
		"  -h          this help\n",
		prog, MAX_PAIRS, DEF_SECONDS);
}

static int get_online_cpus(void)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[nr_cpus++] = cpu;
	return nr_cpus ? 0 : -1;
}

static int pin_to(pid_t pid, unsigned int k)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpus[k % nr_cpus], &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

/*
 * The second process of a pair: expects 0, 1, 2, ... and answers each
 * value plus one.  Exit status 0 at EOF (the first process is done), 1 on
 * an unexpected value, 2 on an I/O error.
 */
static int echo_loop(int in, int out)
{
	uint64_t expect = 0, v;

	for (;;) {
		ssize_t n = read_full(in, &v, sizeof(v));

		if (n == 0)
			return 0;
		if (n != sizeof(v))
			return 2;
		if (v != expect)
			return 1;
		v++;
		if (write_full(out, &v, sizeof(v)) != sizeof(v))
			return 2;
		expect = v;
	}
}

static void report(int fd, struct pair_report *r)
{
	/* Nothing sensible is left to do if this fails: the parent notices. */
	if (write_full(fd, r, sizeof(*r)) != sizeof(*r))
		_exit(3);
}

/* The first process of pair @idx: runs the pair and reports on @res_w. */
static void run_pair(unsigned int idx, int ready_w, int go_r, int res_w)
{
	struct pair_report r = { .pair = idx };
	int down[2], up[2];	/* first -> second, second -> first */
	uint64_t v = 0, back;
	int64_t start;
	int status = 0;
	pid_t pid;
	char c;
	ssize_t n;

	if (pipe(down) || pipe(up)) {
		snprintf(r.why, sizeof(r.why), "pipe: %s", strerror(errno));
		report(res_w, &r);
		_exit(1);
	}
	pid = fork();
	if (pid < 0) {
		snprintf(r.why, sizeof(r.why), "fork: %s", strerror(errno));
		report(res_w, &r);
		_exit(1);
	}
	if (pid == 0) {
		close(ready_w);
		close(go_r);
		close(res_w);
		close(down[1]);
		close(up[0]);
		_exit(echo_loop(down[0], up[1]));
	}
	close(down[0]);
	close(up[1]);

	if (pin && (pin_to(0, 2 * idx) || pin_to(pid, 2 * idx + 1))) {
		snprintf(r.why, sizeof(r.why), "sched_setaffinity: %s", strerror(errno));
		goto out;
	}

	/* Ready; then wait until the parent closes the barrier pipe. */
	if (write_full(ready_w, "r", 1) != 1) {
		snprintf(r.why, sizeof(r.why), "ready pipe: %s", strerror(errno));
		goto out;
	}
	close(ready_w);
	ready_w = -1;
	do
		n = read(go_r, &c, 1);
	while (n > 0 || (n < 0 && errno == EINTR));
	close(go_r);

	start = now_ns();
	alarm(seconds);
	while (!time_up) {
		if (write_full(down[1], &v, sizeof(v)) != sizeof(v)) {
			snprintf(r.why, sizeof(r.why), "write after %" PRIu64 " round trips: %s",
				 r.trips, strerror(errno));
			break;
		}
		n = read_full(up[0], &back, sizeof(back));
		if (n != sizeof(back)) {
			snprintf(r.why, sizeof(r.why), "read after %" PRIu64 " round trips: %s",
				 r.trips, n < 0 ? strerror(errno) : "partner exited");
			break;
		}
		if (back != v + 1) {
			snprintf(r.why, sizeof(r.why), "sent %" PRIu64 ", got back %" PRIu64,
				 v, back);
			break;
		}
		v = back;
		r.trips++;
	}
	r.nsec = now_ns() - start;
	alarm(0);
	r.ok = !r.why[0];

out:
	if (ready_w >= 0)
		close(ready_w);
	/* EOF on its input tells the second process to exit. */
	close(down[1]);
	close(up[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	if (r.ok && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		r.ok = 0;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
			snprintf(r.why, sizeof(r.why), "second process got an unexpected counter");
		else
			snprintf(r.why, sizeof(r.why), "second process failed (status 0x%x)",
				 (unsigned int)status);
	}
	report(res_w, &r);
	_exit(r.ok ? 0 : 1);
}

int main(int argc, char **argv)
{
	struct pair_report *res;
	unsigned char *seen;
	int ready[2], go[2], resp[2];
	unsigned int i, started = 0, nready = 0, nres = 0;
	uint64_t total = 0;
	double score = 0.0, cpu;
	struct sigaction sa;
	struct rusage ru;
	pid_t *pids;
	int fail = 0;
	int opt;
	char c;
	ssize_t n;

	while ((opt = getopt(argc, argv, "p:t:Ph")) != -1) {
		switch (opt) {
		case 'p':
			nr_pairs = parse_uint(argv[0], 'p', optarg, 1, MAX_PAIRS, usage);
			break;
		case 't':
			seconds = parse_uint(argv[0], 't', optarg, 1, MAX_SECONDS, usage);
			break;
		case 'P':
			pin = 1;
			break;
		default:
			usage_exit(opt, argv[0], usage);
		}
	}
	no_operands(argc, argv, usage);

	ksft_print_header();
	ksft_set_plan(1);

	if (get_online_cpus())
		ksft_exit_fail_msg("sched_getaffinity: %s\n", strerror(errno));
	ksft_print_msg("ctx: %u pairs, %u s, %s, %d online CPUs\n", nr_pairs, seconds,
		       pin ? "pinned" : "not pinned", nr_cpus);

	res = calloc(nr_pairs, sizeof(*res));
	seen = calloc(nr_pairs, 1);
	pids = calloc(nr_pairs, sizeof(*pids));
	if (!res || !seen || !pids)
		ksft_exit_fail_msg("out of memory\n");

	/* A pair whose partner died must see EPIPE, not die of SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL))
		ksft_exit_fail_msg("sigaction: %s\n", strerror(errno));

	if (pipe(ready) || pipe(go) || pipe(resp))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));

	fflush(stdout);
	for (i = 0; i < nr_pairs; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			ksft_print_msg("fork of pair %u: %s\n", i, strerror(errno));
			fail = 1;
			break;
		}
		if (pid == 0) {
			close(ready[0]);
			close(go[1]);
			close(resp[0]);
			run_pair(i, ready[1], go[0], resp[1]);
		}
		pids[i] = pid;
		started++;
	}
	close(ready[1]);
	close(go[0]);
	close(resp[1]);

	if (fail) {
		/* Do not run a partial load: stop the pairs already started. */
		for (i = 0; i < started; i++)
			kill(pids[i], SIGKILL);
	}

	/* Each pair closes its end after one byte: EOF means all are set up. */
	while ((n = read(ready[0], &c, 1)) != 0) {
		if (n > 0)
			nready++;
		else if (errno != EINTR)
			break;
	}
	close(ready[0]);
	if (!fail && nready != nr_pairs)
		ksft_print_msg("only %u of %u pairs got ready\n", nready, nr_pairs);
	close(go[1]);	/* start */

	for (;;) {
		struct pair_report r;

		n = read_full(resp[0], &r, sizeof(r));
		if (n == 0)
			break;
		if (n != sizeof(r)) {
			ksft_print_msg("short report from a pair\n");
			fail = 1;
			break;
		}
		if (r.pair >= nr_pairs || seen[r.pair]) {
			ksft_print_msg("bogus report for pair %u\n", r.pair);
			fail = 1;
			continue;
		}
		r.why[sizeof(r.why) - 1] = '\0';
		res[r.pair] = r;
		seen[r.pair] = 1;
		nres++;
	}
	close(resp[0]);

	for (i = 0; i < started; i++) {
		int status = 0;
		pid_t w;

		do
			w = waitpid(pids[i], &status, 0);
		while (w < 0 && errno == EINTR);
		if (w < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fail = 1;
	}
	if (getrusage(RUSAGE_CHILDREN, &ru))
		memset(&ru, 0, sizeof(ru));
	cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	      ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;

	for (i = 0; i < nr_pairs; i++) {
		struct pair_report *r = &res[i];
		double secs = r->nsec / 1e9;

		if (!seen[i]) {
			ksft_print_msg("pair %u: no report\n", i);
			fail = 1;
			continue;
		}
		if (!r->ok || !r->trips || secs <= 0) {
			ksft_print_msg("pair %u: failed: %s\n", i,
				       r->why[0] ? r->why : "no round trips");
			fail = 1;
			continue;
		}
		ksft_print_msg("pair %u: %" PRIu64 " round trips in %.3f s\n", i,
			       r->trips, secs);
		total += r->trips;
		score += r->trips / secs;
	}

	printf("COUNT|%" PRIu64 "|1|lps\n", total);
	ksft_print_msg("score %.1f lps\n", score);
	ksft_print_msg("index %.1f\n", score / BASELINE_LPS * 10.0);
	ksft_print_msg("cpu_seconds %.2f\n", cpu);

	if (fail) {
		ksft_test_result_fail("ctx: %u pairs, %u reported, %" PRIu64 " round trips\n",
				      nr_pairs, nres, total);
		return ksft_exit_fail();
	}
	ksft_test_result_pass("ctx: %u pairs, %" PRIu64 " round trips, counters verified\n",
			      nr_pairs, total);
	return ksft_exit_pass();
}
