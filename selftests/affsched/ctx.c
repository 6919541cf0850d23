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
 *
 * UnixBench mode (-u) runs PAIRS copies of UnixBench's context1 as its Run
 * script does: the copies are forked one after the other with no start
 * barrier.  A copy arms a SIGALRM for SECONDS (default 10, as Run passes),
 * makes two pipes and forks; the parent writes its round-trip count as an
 * 8-byte value, the child reads it, checks it against its own count and
 * writes the same value back, the parent reads it and checks it.  The
 * copy's count is the round trips completed when the alarm comes (one in
 * flight does not count); it then closes its pipes and the child exits at
 * end of file.  Like Run, the score is the sum of the copies' counts over
 * the mean of their elapsed times (fork of the copy to the exit of both of
 * its processes), in lps, and the index is the score over 4000 times 10.
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
static int ub_mode;

static int cpus[CPU_SETSIZE];
static int nr_cpus;

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [-u] [-p PAIRS] [-t SECONDS] [-P] [-h]\n"
		"  -p PAIRS    ping-pong pairs run at the same time (default 1, max %d)\n"
		"  -t SECONDS  duration of the run (default %d)\n"
		"  -P          pin process k of the 2*PAIRS to online CPU (k mod ncpu)\n"
		"  -u          UnixBench mode: PAIRS copies of context1, forked with no\n"
		"              start barrier, each timed by its own SIGALRM; the counter\n"
		"              comes back unchanged; score = sum of counts / mean elapsed\n"
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

/*
 * SIGPIPE ignored (a copy whose partner died must see EPIPE, not die of
 * it) and SIGALRM setting time_up, with or without SA_RESTART.
 */
static void setup_signals(int restart)
{
	signal(SIGPIPE, SIG_IGN);
	if (install_alarm(restart ? SA_RESTART : 0))
		ksft_exit_fail_msg("sigaction: %s\n", strerror(errno));
}

/* Read reports until every writer has closed @fd; 1 on a bad report. */
static int collect_reports(int fd, struct pair_report *res, unsigned char *seen,
			   unsigned int *nres)
{
	struct pair_report r;
	int fail = 0;
	ssize_t n;

	*nres = 0;
	for (;;) {
		n = read_full(fd, &r, sizeof(r));
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
		(*nres)++;
	}
	return fail;
}

static void kill_all(const pid_t *pids, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
}

/* CPU seconds of the children waited for, and of theirs. */
static double children_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru))
		return 0.0;
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/*
 * UnixBench mode (-u): context1.  The child of a copy: expects 0, 1, 2,
 * ... and sends each value back unchanged.  Exit status 0 at end of file
 * or EPIPE (the parent is done), 1 on an unexpected value, 2 on an error.
 */
static int ub_echo(int in, int out)
{
	uint64_t expect = 0, v;
	ssize_t n;

	for (;;) {
		n = read_full(in, &v, sizeof(v));
		if (n == 0)
			return 0;
		if (n != sizeof(v))
			return 2;
		if (v != expect)
			return 1;
		if (write_full(out, &v, sizeof(v)) != sizeof(v))
			return errno == EPIPE ? 0 : 2;
		expect++;
	}
}

/*
 * The parent of a copy: round trips until the alarm.  SIGALRM has no
 * SA_RESTART here, so a read still waiting for the reply ends with EINTR
 * and that round trip does not count, as in context1.
 */
static void ub_ping(struct pair_report *r, int out, int in)
{
	uint64_t v, back;
	ssize_t n;

	while (!time_up) {
		v = r->trips;
		n = write(out, &v, sizeof(v));
		if (n < 0 && errno == EINTR)
			break;
		if (n != sizeof(v)) {
			snprintf(r->why, sizeof(r->why), "write after %" PRIu64 " round trips: %s",
				 r->trips, n < 0 ? strerror(errno) : "short write");
			return;
		}
		n = read(in, &back, sizeof(back));
		if (n < 0 && errno == EINTR)
			break;
		if (n != sizeof(back)) {
			snprintf(r->why, sizeof(r->why), "read after %" PRIu64 " round trips: %s",
				 r->trips, n < 0 ? strerror(errno) : "partner exited");
			return;
		}
		if (back != v) {
			snprintf(r->why, sizeof(r->why), "sent %" PRIu64 ", got back %" PRIu64,
				 v, back);
			return;
		}
		r->trips++;
	}
}

/* Wait for the child of a copy; fills r->why unless it exited with 0. */
static void ub_wait_echo(struct pair_report *r, pid_t pid)
{
	int status = 0;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	if (r->why[0] || (WIFEXITED(status) && WEXITSTATUS(status) == 0))
		return;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
		snprintf(r->why, sizeof(r->why), "child got an unexpected counter");
	else
		snprintf(r->why, sizeof(r->why), "child failed (status 0x%x)",
			 (unsigned int)status);
}

/* Copy @idx, forked at @t0 (CLOCK_MONOTONIC ns); never returns. */
static void __attribute__((noreturn)) ub_copy(unsigned int idx, int64_t t0, int res_w)
{
	struct pair_report r = { .pair = idx };
	int down[2], up[2];	/* parent -> child, child -> parent */
	pid_t pid = -1;

	alarm(seconds);		/* before the pipes and the fork, as context1 */
	if (pipe(down) || pipe(up)) {
		snprintf(r.why, sizeof(r.why), "pipe: %s", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(r.why, sizeof(r.why), "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		close(res_w);
		close(down[1]);
		close(up[0]);
		_exit(ub_echo(down[0], up[1]));
	}
	close(down[0]);
	close(up[1]);
	if (pin && (pin_to(0, 2 * idx) || pin_to(pid, 2 * idx + 1)))
		snprintf(r.why, sizeof(r.why), "sched_setaffinity: %s", strerror(errno));
	else
		ub_ping(&r, down[1], up[0]);
	alarm(0);
	close(down[1]);
	close(up[0]);
	ub_wait_echo(&r, pid);
out:
	r.ok = !r.why[0];
	r.nsec = now_ns() - t0;
	report(res_w, &r);
	_exit(r.ok ? 0 : 1);
}

/* Fork the copies one after the other; how many started. */
static unsigned int ub_start(pid_t *pids, int res_p[2])
{
	unsigned int i;

	fflush(stdout);
	for (i = 0; i < nr_pairs; i++) {
		int64_t t0 = now_ns();

		pids[i] = fork();
		if (pids[i] < 0) {
			ksft_print_msg("fork of copy %u: %s\n", i, strerror(errno));
			break;
		}
		if (pids[i] == 0) {
			close(res_p[0]);
			ub_copy(i, t0, res_p[1]);
		}
	}
	close(res_p[1]);
	return i;
}

/* Per-copy lines and Run's sum; 1 if a copy failed or did not report. */
static int ub_report(const struct pair_report *res, const unsigned char *seen,
		     uint64_t *total)
{
	double elapsed = 0.0, rate, min = -1.0, max = 0.0, score;
	unsigned int i, n = 0;
	int fail = 0;

	for (i = 0; i < nr_pairs; i++) {
		const struct pair_report *r = &res[i];
		double secs = r->nsec / 1e9;

		if (!seen[i] || !r->ok || secs <= 0) {
			ksft_print_msg("copy %u: failed: %s\n", i,
				       !seen[i] ? "no report" : r->why[0] ? r->why : "no time");
			fail = 1;
			continue;
		}
		rate = r->trips / secs;
		ksft_print_msg("copy %u: %" PRIu64 " round trips, elapsed %.6f s, %.1f lps\n",
			       i, r->trips, secs, rate);
		*total += r->trips;
		elapsed += secs;
		n++;
		if (min < 0 || rate < min)
			min = rate;
		if (rate > max)
			max = rate;
	}
	score = n ? *total / (elapsed / n) : 0.0;
	printf("COUNT|%" PRIu64 "|1|lps\n", *total);
	ksft_print_msg("score %.1f lps\n", score);
	ksft_print_msg("index %.1f\n", score / BASELINE_LPS * 10.0);
	ksft_print_msg("elapsed %.6f s (mean over copies)\n", n ? elapsed / n : 0.0);
	ksft_print_msg("min_copy_score %.1f lps\n", min < 0 ? 0.0 : min);
	ksft_print_msg("max_copy_score %.1f lps\n", max);
	return fail;
}

/* UnixBench mode: run the copies, collect and sum their counts. */
static int ub_main(void)
{
	struct pair_report *res = calloc(nr_pairs, sizeof(*res));
	unsigned char *seen = calloc(nr_pairs, 1);
	pid_t *pids = calloc(nr_pairs, sizeof(*pids));
	unsigned int started, nres;
	uint64_t total = 0;
	int res_p[2], fail;

	ksft_print_header();
	ksft_set_plan(1);
	if (get_online_cpus())
		ksft_exit_fail_msg("sched_getaffinity: %s\n", strerror(errno));
	ksft_print_msg("ctx -u: UnixBench context1, %u copies, %u s, %s, %d online CPUs\n",
		       nr_pairs, seconds, pin ? "pinned" : "not pinned", nr_cpus);
	if (!res || !seen || !pids)
		ksft_exit_fail_msg("out of memory\n");
	setup_signals(0);
	if (pipe(res_p))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));

	started = ub_start(pids, res_p);
	fail = started < nr_pairs;
	if (fail)
		kill_all(pids, started);
	fail |= collect_reports(res_p[0], res, seen, &nres);
	close(res_p[0]);
	fail |= reap_children(pids, started);
	fail |= ub_report(res, seen, &total);
	ksft_print_msg("cpu_seconds %.2f\n", children_cpu());
	if (fail) {
		ksft_test_result_fail("ctx -u: %u copies, %u reported, %" PRIu64 " round trips\n",
				      nr_pairs, nres, total);
		return ksft_exit_fail();
	}
	ksft_test_result_pass("ctx -u: %u copies, %" PRIu64 " round trips, counters verified\n",
			      nr_pairs, total);
	return ksft_exit_pass();
}

static void parse_args(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "p:t:Puh")) != -1) {
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
		case 'u':
			ub_mode = 1;
			break;
		default:
			usage_exit(opt, argv[0], usage);
		}
	}
	no_operands(argc, argv, usage);
}

int main(int argc, char **argv)
{
	struct pair_report *res;
	unsigned char *seen;
	int ready[2], go[2], resp[2];
	unsigned int i, started = 0, nready = 0, nres = 0;
	uint64_t total = 0;
	double score = 0.0, cpu;
	pid_t *pids;
	int fail = 0;
	char c;
	ssize_t n;

	parse_args(argc, argv);
	if (ub_mode)
		return ub_main();

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

	setup_signals(1);

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
		kill_all(pids, started);
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

	fail |= collect_reports(resp[0], res, seen, &nres);
	close(resp[0]);

	fail |= reap_children(pids, started);
	cpu = children_cpu();

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
