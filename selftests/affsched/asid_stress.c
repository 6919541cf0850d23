// SPDX-License-Identifier: GPL-2.0
/*
 * asid_stress - context switches between many address spaces, each
 * checking after every switch that its memory is still its own.
 *
 * RINGS rings of PROCS processes each pass a token around their ring
 * through pipes, ROUNDS times: every pass is a wake-up, so a switch to
 * another address space on some CPU.  Each process maps PAGES private
 * anonymous pages after fork(), so the processes of a run use the same
 * virtual addresses for different physical pages.  On each wake-up a
 * process reads every word of its pages and compares it with the word
 * it wrote on its previous turn (its index, the round and the word's
 * offset), then writes the words of the new round.  A translation of
 * another process's pages, or a stale one of its own, shows up as a
 * wrong word.
 *
 * With more live address spaces than the arm64 ASID allocator hands out
 * (CONFIG_ARM64_DEBUG_ASID_LIMIT makes that a few dozen), every round of
 * a ring of at least that many processes spans an ASID rollover: in one
 * generation no more than that many address spaces can hold an ASID.
 * The rings run at once, so rollovers race with switches on other CPUs.
 *
 * QEMU TCG does not tag its TLB with ASIDs (it flushes its TLB when the
 * ASID changes), so under TCG this exercises the allocator's logic, not
 * the hardware's TLB behaviour.
 *
 * TAP: one test, ok when every process made all its rounds and found
 * every word as it left it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "affsched_util.h"

#define MAX_PROCS	4096
#define MAX_RINGS	64
#define MAX_ROUNDS	1000000
#define MAX_PAGES	64
#define MAX_SECONDS	3600

/* Exit statuses of a ring member. */
enum {
	MEMBER_OK = 0,
	MEMBER_CORRUPT = 1,	/* a word was not what the process wrote */
	MEMBER_ERROR = 2,	/* a system call failed */
};

static unsigned int nr_rings = 4;
static unsigned int nr_procs = 8;
static unsigned int nr_rounds = 100;
static unsigned int nr_pages = 4;
static unsigned int timeout = 600;

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [-g RINGS] [-p PROCS] [-r ROUNDS] [-k PAGES] [-t TIMEOUT]\n"
		"  -g RINGS    rings running at once (1..%d, default 4)\n"
		"  -p PROCS    processes per ring (2..%d, default 8)\n"
		"  -r ROUNDS   times the token goes round each ring (1..%d, default 100)\n"
		"  -k PAGES    pages each process checks (1..%d, default 4)\n"
		"  -t TIMEOUT  give up after this many seconds (1..%d, default 600)\n",
		prog, MAX_RINGS, MAX_PROCS, MAX_ROUNDS, MAX_PAGES, MAX_SECONDS);
}

/* The word at @i of process @id's pages after round @round. */
static inline uint64_t pattern(unsigned int id, unsigned int round, size_t i)
{
	return ((uint64_t)id << 44) ^ ((uint64_t)round << 20) ^ i ^
	       0x5a5a000000000000ULL;
}

static void fill(uint64_t *mem, size_t words, unsigned int id,
		 unsigned int round)
{
	size_t i;

	for (i = 0; i < words; i++)
		mem[i] = pattern(id, round, i);
}

/* Index of the first word that is not as filled for @round, or @words. */
static size_t check(const uint64_t *mem, size_t words, unsigned int id,
		    unsigned int round)
{
	size_t i;

	for (i = 0; i < words; i++)
		if (mem[i] != pattern(id, round, i))
			break;
	return i;
}

/*
 * Member @pos of ring @ring: read the token from @in, check and refill
 * the pages, pass the token on to @out; @nr_rounds times.  Member 0
 * starts each round, the others follow, so a round of a ring switches
 * address spaces PROCS times.
 */
static int member(unsigned int ring, unsigned int pos, int in, int out)
{
	unsigned int id = ring * nr_procs + pos;
	size_t words = (size_t)nr_pages * getpagesize() / sizeof(uint64_t);
	uint64_t *mem;
	unsigned int round;
	uint32_t token;
	size_t bad;

	mem = mmap(NULL, words * sizeof(uint64_t), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		ksft_print_msg("process %u: mmap: %s\n", id, strerror(errno));
		return MEMBER_ERROR;
	}
	fill(mem, words, id, 0);
	if (pos == 0 && write_full(out, &(uint32_t){ 0 }, sizeof(token)) < 0)
		goto io_error;
	for (round = 1; round <= nr_rounds; round++) {
		if (read_full(in, &token, sizeof(token)) != sizeof(token))
			goto io_error;
		bad = check(mem, words, id, round - 1);
		if (bad != words) {
			ksft_print_msg("process %u (ring %u), round %u: word %zu at %p is %#" PRIx64 ", wrote %#" PRIx64 "\n",
				       id, ring, round, bad, (void *)&mem[bad], mem[bad],
				       pattern(id, round - 1, bad));
			return MEMBER_CORRUPT;
		}
		fill(mem, words, id, round);
		/* Member 0's last pass would have no reader left. */
		if ((pos != 0 || round < nr_rounds) &&
		    write_full(out, &token, sizeof(token)) < 0)
			goto io_error;
	}
	return MEMBER_OK;

io_error:
	ksft_print_msg("process %u: pipe: %s\n", id, strerror(errno));
	return MEMBER_ERROR;
}

static pid_t *pids;
static unsigned int nr_pids;

static void kill_all(void)
{
	unsigned int i;

	for (i = 0; i < nr_pids; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
}

int main(int argc, char **argv)
{
	unsigned int total, ring, pos, done = 0, corrupt = 0, errors = 0;
	int (*fds)[2];
	struct rusage ru;
	int64_t start;
	int opt, st;
	pid_t pid;

	while ((opt = getopt(argc, argv, "g:p:r:k:t:h")) != -1) {
		switch (opt) {
		case 'g':
			nr_rings = parse_uint(argv[0], 'g', optarg, 1, MAX_RINGS, usage);
			break;
		case 'p':
			nr_procs = parse_uint(argv[0], 'p', optarg, 2, MAX_PROCS, usage);
			break;
		case 'r':
			nr_rounds = parse_uint(argv[0], 'r', optarg, 1, MAX_ROUNDS, usage);
			break;
		case 'k':
			nr_pages = parse_uint(argv[0], 'k', optarg, 1, MAX_PAGES, usage);
			break;
		case 't':
			timeout = parse_uint(argv[0], 't', optarg, 1, MAX_SECONDS, usage);
			break;
		default:
			usage_exit(opt, argv[0], usage);
		}
	}
	no_operands(argc, argv, usage);
	total = nr_rings * nr_procs;
	if (total > MAX_PROCS) {
		fprintf(stderr, "%s: %u rings of %u processes is more than %d\n",
			argv[0], nr_rings, nr_procs, MAX_PROCS);
		return 2;
	}

	ksft_print_header();
	ksft_set_plan(1);
	ksft_print_msg("asid_stress: %u rings of %u processes, %u rounds, %u pages each\n",
		       nr_rings, nr_procs, nr_rounds, nr_pages);

	pids = calloc(total, sizeof(*pids));
	fds = calloc(total, sizeof(*fds));
	if (!pids || !fds)
		ksft_exit_fail_msg("out of memory\n");
	/* Pipe k feeds process k; the last of a ring feeds the first. */
	for (pos = 0; pos < total; pos++)
		if (pipe(fds[pos]))
			ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	/* No SA_RESTART: the alarm ends the waitpid() below with EINTR. */
	if (install_alarm(0))
		ksft_exit_fail_msg("sigaction: %s\n", strerror(errno));

	start = now_ns();
	for (ring = 0; ring < nr_rings; ring++) {
		for (pos = 0; pos < nr_procs; pos++) {
			unsigned int k = ring * nr_procs + pos;
			unsigned int next = ring * nr_procs + (pos + 1) % nr_procs;

			pid = fork();
			if (pid < 0) {
				ksft_print_msg("fork: %s\n", strerror(errno));
				kill_all();
				ksft_exit_fail();
			}
			if (pid == 0)
				_exit(member(ring, pos, fds[k][0], fds[next][1]));
			pids[nr_pids++] = pid;
		}
	}

	alarm(timeout);
	while (done < total) {
		unsigned int i;

		pid = waitpid(-1, &st, 0);
		if (pid < 0) {
			if (errno == EINTR) {
				ksft_print_msg("timed out after %u s with %u of %u processes done\n",
					       timeout, done, total);
				kill_all();
				ksft_test_result_fail("no process found a word it did not write\n");
				ksft_exit_fail();
			}
			ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
		}
		for (i = 0; i < nr_pids; i++)
			if (pids[i] == pid)
				pids[i] = 0;
		done++;
		if (WIFEXITED(st) && WEXITSTATUS(st) == MEMBER_OK)
			continue;
		if (WIFEXITED(st) && WEXITSTATUS(st) == MEMBER_CORRUPT)
			corrupt++;
		else
			errors++;
		/* A ring with a dead member never finishes. */
		kill_all();
	}
	alarm(0);

	getrusage(RUSAGE_CHILDREN, &ru);
	ksft_print_msg("%u processes, %" PRIu64 " wake-ups in %.2f s; voluntary switches %ld, involuntary %ld\n",
		       total, (uint64_t)total * nr_rounds, (now_ns() - start) / 1e9,
		       ru.ru_nvcsw, ru.ru_nivcsw);
	if (corrupt || errors) {
		ksft_print_msg("%u process(es) found a word they did not write, %u failed otherwise\n",
			       corrupt, errors);
		ksft_test_result_fail("no process found a word it did not write\n");
		ksft_exit_fail();
	}
	ksft_test_result_pass("no process found a word it did not write\n");
	ksft_exit_pass();
}
