// SPDX-License-Identifier: GPL-2.0
/*
 * lockcost - what affsched's hold tracking adds to an uncontended lock
 * acquisition by a member of a group.
 *
 * The process first makes itself a member of the group of a file's inode
 * rwsem: it and HELPERS child processes pwrite() one block to the same
 * file for JOIN milliseconds, so that it enters the rwsem's slow path.
 * All helpers but one then exit; that one sleeps, still a member (a member
 * leaves only when it contends for another lock, or exits), so the group
 * has two members, too few to be placed (with -l all of them exit, and
 * the process is a lone member).  The process then times WRITES pwrite()
 * calls of BLOCK bytes.  Every one of them takes the rwsem without
 * contention, so with affsched enabled each pays the acquire and release
 * hooks (a count and a flag in the member's own state) and nothing else;
 * with affsched disabled, or for a process outside any group, the hooks
 * are one static branch or one compare.  Run it with enable at 0 and 1
 * and compare the figures.
 *
 * In a guest run with instruction counting (run-vm.sh with
 * AFFSCHED_ACCEL=icount) the guest's nanosecond is one instruction, so
 * the difference is the hooks' instruction count and repeats to within a
 * few instructions from run to run.
 *
 * Output: "# pwrite_ns <mean ns per call>" and "# member <yes|no|unknown>"
 * (whether the groups file showed an rwsem group of two members, this
 * process and the sleeping helper, or of one with -l, once the others had
 * exited).  TAP: one test, ok when every write succeeded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "affsched_util.h"

#define DEF_WRITES	20000
#define MAX_WRITES	100000000
#define DEF_BLOCK	1024
#define MAX_BLOCK	(1U << 20)
#define DEF_HELPERS	3
#define MAX_HELPERS	64
#define DEF_JOIN_MS	300
#define MAX_JOIN_MS	60000
#define DEF_DIR		"/tmp"
#define DEF_DEBUGFS	"/sys/kernel/debug/affsched"

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [-n WRITES] [-b BLOCK] [-c HELPERS] [-j MS] [-l] [-d DIR] [-D DEBUGFS_DIR] [-h]\n"
		"  -n WRITES    timed pwrite() calls (default %u, max %u)\n"
		"  -b BLOCK     bytes per write (default %u, max %u)\n"
		"  -c HELPERS   processes that contend with this one first (default %u, max %u)\n"
		"  -j MS        how long they contend, milliseconds (default %u, max %u)\n"
		"  -l           let every helper exit: time as the group's lone member\n"
		"               (default: one helper stays, asleep, as the second)\n"
		"  -d DIR       directory for the file (default %s)\n"
		"  -D DIR       affsched debugfs directory, read for the membership\n"
		"               report only (default %s)\n"
		"  -h           this help\n",
		prog, DEF_WRITES, MAX_WRITES, DEF_BLOCK, MAX_BLOCK, DEF_HELPERS,
		MAX_HELPERS, DEF_JOIN_MS, MAX_JOIN_MS, DEF_DIR, DEF_DEBUGFS);
}

static char file_path[4096];

static void remove_file(void)
{
	if (file_path[0])
		unlink(file_path);
}

/* Reap @count helpers; the number that failed. */
static unsigned int reap(unsigned int count)
{
	unsigned int failed = 0;
	int status;
	pid_t pid;

	while (count) {
		pid = wait(&status);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		count--;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			failed++;
			ksft_print_msg("helper %d failed (status 0x%x)\n", (int)pid,
				       (unsigned int)status);
		}
	}
	return failed;
}

/* Write @buf at offset 0 until @end (CLOCK_MONOTONIC ns); 0 or an errno. */
static int contend(int fd, const char *buf, size_t block, int64_t end)
{
	while (now_ns() < end) {
		if (pwrite(fd, buf, block, 0) != (ssize_t)block)
			return errno ? errno : EIO;
	}
	return 0;
}

/*
 * "yes" when the groups file lists an rwsem group of exactly @members
 * members, "no" when it lists none, "unknown" when it cannot be read or
 * has no valid header.
 */
static const char *membership(const char *dir, unsigned int members)
{
	static struct affsched_group_line lines[1024];
	char path[4200], why[160];
	int nr, i;

	snprintf(path, sizeof(path), "%s/groups", dir);
	nr = read_groups(path, lines, 1024, why, sizeof(why));
	if (nr < 0)
		return "unknown";
	for (i = 0; i < nr && i < 1024; i++)
		if (!strcmp(lines[i].kind, "rwsem") && lines[i].members == members)
			return "yes";
	return "no";
}

int main(int argc, char **argv)
{
	unsigned int writes = DEF_WRITES, block = DEF_BLOCK, helpers = DEF_HELPERS;
	unsigned int join_ms = DEF_JOIN_MS, i, forked, keep = 1, bad = 0;
	const char *dir = DEF_DIR, *debugfs = DEF_DEBUGFS;
	int64_t end, t0, t1;
	int opt, fd, err, gate[2];
	pid_t pid;
	char *buf;

	while ((opt = getopt(argc, argv, "n:b:c:j:ld:D:h")) != -1) {
		switch (opt) {
		case 'n':
			writes = parse_uint(argv[0], 'n', optarg, 1, MAX_WRITES, usage);
			break;
		case 'b':
			block = parse_uint(argv[0], 'b', optarg, 1, MAX_BLOCK, usage);
			break;
		case 'c':
			helpers = parse_uint(argv[0], 'c', optarg, 1, MAX_HELPERS, usage);
			break;
		case 'j':
			join_ms = parse_uint(argv[0], 'j', optarg, 1, MAX_JOIN_MS, usage);
			break;
		case 'l':
			keep = 0;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'D':
			debugfs = optarg;
			break;
		default:
			usage_exit(opt, argv[0], usage);
		}
	}
	no_operands(argc, argv, usage);

	ksft_print_header();
	ksft_set_plan(1);
	buf = malloc(block);
	if (!buf)
		ksft_exit_fail_msg("malloc: %s\n", strerror(errno));
	memset(buf, 'a', block);
	snprintf(file_path, sizeof(file_path), "%s/lockcost.%d", dir, (int)getpid());
	fd = open(file_path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		file_path[0] = '\0';
		ksft_exit_fail_msg("create %s/lockcost.%d: %s\n", dir, (int)getpid(),
				   strerror(errno));
	}
	ksft_print_msg("writes %u block %u helpers %u join_ms %u kept %u\n",
		       writes, block, helpers, join_ms, keep);

	/*
	 * Contend, so that this process joins the rwsem's group.  Helper 0
	 * then waits (unless -l) for the end of the gate pipe, whose write
	 * end closes when this process is done or dies; the others exit.
	 */
	if (pipe(gate))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	fflush(stdout);
	end = now_ns() + (int64_t)join_ms * 1000000;
	for (i = 0; i < helpers; i++) {
		pid = fork();
		if (pid < 0) {
			bad++;
			ksft_print_msg("fork: %s\n", strerror(errno));
			break;
		}
		if (pid == 0) {
			char c;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(gate[1]);
			err = contend(fd, buf, block, end);
			while (keep && i == 0 && read(gate[0], &c, 1) < 0 && errno == EINTR)
				;
			_exit(err ? 1 : 0);
		}
	}
	forked = i;
	close(gate[0]);
	err = contend(fd, buf, block, end);
	if (err) {
		bad++;
		ksft_print_msg("pwrite while contending: %s\n", strerror(err));
	}
	keep = forked ? keep : 0;
	bad += reap(forked - keep);
	/* Let a kept helper finish its last write and go to sleep. */
	usleep(100000);
	ksft_print_msg("member %s\n", membership(debugfs, 1 + keep));

	/* Every acquisition below is uncontended. */
	t0 = now_ns();
	for (i = 0; i < writes; i++) {
		if (pwrite(fd, buf, block, 0) != (ssize_t)block) {
			bad++;
			ksft_print_msg("pwrite: %s\n", strerror(errno));
			break;
		}
	}
	t1 = now_ns();
	close(gate[1]);
	bad += reap(keep);
	close(fd);
	remove_file();
	if (i)
		ksft_print_msg("pwrite_ns %.0f\n", (double)(t1 - t0) / i);
	ksft_test_result(!bad, "%u uncontended writes of %u bytes timed\n", i, block);
	free(buf);
	return ksft_get_fail_cnt() ? ksft_exit_fail() : ksft_exit_pass();
}
