// SPDX-License-Identifier: GPL-2.0
/*
 * fstime - file write, read and copy load, the load of UnixBench's "File
 * Copy" tests (fstime), with several copies at once.
 *
 * Each copy is a process that runs three time-bounded passes over a file
 * of MAXBLOCKS blocks of BUFSIZE bytes: write it (over and over), read it
 * (over and over), copy it block by block to a second file (over and
 * over).  Copies start each pass together.  By default every copy has its
 * own files; with -s all copies share one pair of files, as UnixBench did
 * before 2023, so that N copies contend on the same inodes' locks - the
 * case affsched is about.
 *
 * Output: KB/s summed over copies for each pass; for the copy pass also a
 * UnixBench-style COUNT line, the index against the UnixBench baseline and
 * the KB copied per CPU second.  TAP: one test per pass.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "affsched_util.h"

#define MAX_COPIES	1024
#define MAX_SECONDS	86400
#define MAX_BUFSIZE	(16U << 20)
#define MAX_BLOCKS	(1U << 24)
#define MAX_FILE_SIZE	(1ULL << 40)
#define DEF_BUFSIZE	1024
#define DEF_BLOCKS	2000
#define DEF_SECONDS	30

enum { PASS_WRITE, PASS_READ, PASS_COPY, NR_PASSES };

static const char * const pass_name[NR_PASSES] = { "write", "read", "copy" };

enum { MSG_READY = 1, MSG_RESULT };

/* A copy's report to the parent; one atomic pipe write (< PIPE_BUF). */
struct fs_msg {
	uint32_t kind;
	uint32_t pass;
	uint32_t failed;	/* I/O error or bad content */
	uint32_t verified;	/* read pass: a whole file compared equal */
	uint64_t bytes;
	int64_t nsec;		/* wall time of the pass */
	int64_t cpu_nsec;	/* CPU time of the copy during the pass */
	char why[160];
};

static unsigned int bufsize = DEF_BUFSIZE;
static unsigned int maxblocks = DEF_BLOCKS;
static unsigned int copy_secs = DEF_SECONDS;
static unsigned int rw_secs;		/* 0: same as copy_secs */
static unsigned int copies = 1;
static int shared;
static const char *dir = ".";

static volatile sig_atomic_t time_up;

static void on_alarm(int sig)
{
	(void)sig;
	time_up = 1;
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [-b BUFSIZE] [-m MAXBLOCKS] [-t SECONDS] [-w SECONDS] [-c COPIES]\n"
		"          [-s] [-d DIR] [-h]\n"
		"  -b BUFSIZE    bytes per read/write (default %u)\n"
		"  -m MAXBLOCKS  blocks per file; file size = BUFSIZE * MAXBLOCKS (default %u)\n"
		"  -t SECONDS    duration of the copy pass (default %u)\n"
		"  -w SECONDS    duration of the write pass and of the read pass\n"
		"                (default: the -t value)\n"
		"  -c COPIES     copies run as separate processes at once (default 1)\n"
		"  -s            shared files: all copies use DIR/dummy0 and DIR/dummy1\n"
		"                (default: DIR/dummy0.N and DIR/dummy1.N for copy N)\n"
		"  -d DIR        directory for the files (default: current directory)\n"
		"  -h            this help\n",
		prog, DEF_BUFSIZE, DEF_BLOCKS, DEF_SECONDS);
}

static int file_path(char *buf, size_t len, int which, unsigned int copy)
{
	int n;

	if (shared)
		n = snprintf(buf, len, "%s/dummy%d", dir, which);
	else
		n = snprintf(buf, len, "%s/dummy%d.%u", dir, which, copy);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/*
 * Content of the data file: a byte pattern that depends on the offset in
 * the block and on @seed, with the block number folded into the first
 * eight bytes so that a block read from the wrong place shows.  Only the
 * header changes from block to block, which keeps the write pass cheap.
 */
static void fill_base(unsigned char *buf, unsigned int seed)
{
	unsigned int i;

	for (i = 0; i < bufsize; i++)
		buf[i] = (unsigned char)(i * 131 + seed * 29 + 7);
}

static void set_header(unsigned char *buf, const unsigned char *base, uint64_t blk)
{
	unsigned int i;

	for (i = 0; i < 8 && i < bufsize; i++)
		buf[i] = base[i] ^ (unsigned char)(blk >> (8 * i));
}

static void fail_msg(struct fs_msg *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail_msg(struct fs_msg *m, const char *fmt, ...)
{
	va_list ap;

	if (m->failed)
		return;
	m->failed = 1;
	va_start(ap, fmt);
	vsnprintf(m->why, sizeof(m->why), fmt, ap);
	va_end(ap);
}

struct copy_state {
	unsigned int copy;
	int fd[2];
	char path[2][PATH_MAX];
	unsigned char *base, *wbuf, *rbuf, *ebuf;
};

static void start_timer(unsigned int secs)
{
	time_up = 0;
	alarm(secs);
}

static int rewind_fd(struct copy_state *cs, int which, struct fs_msg *m)
{
	if (lseek(cs->fd[which], 0, SEEK_SET) < 0) {
		fail_msg(m, "lseek %s: %s", cs->path[which], strerror(errno));
		return -1;
	}
	return 0;
}

/* Write block @blk of the data file at the current offset. */
static int write_block(struct copy_state *cs, uint64_t blk, struct fs_msg *m)
{
	ssize_t n;

	set_header(cs->wbuf, cs->base, blk);
	n = write(cs->fd[0], cs->wbuf, bufsize);
	if (n == (ssize_t)bufsize)
		return 0;
	if (n < 0)
		fail_msg(m, "write %s: %s", cs->path[0], strerror(errno));
	else
		fail_msg(m, "write %s: %zd of %u bytes", cs->path[0], n, bufsize);
	return -1;
}

static void write_pass(struct copy_state *cs, struct fs_msg *m)
{
	uint64_t blk = 0, written = 0;

	if (rewind_fd(cs, 0, m))
		return;
	start_timer(rw_secs);
	while (!time_up) {
		if (write_block(cs, blk, m))
			break;
		m->bytes += bufsize;
		written++;
		if (++blk == maxblocks) {
			blk = 0;
			if (rewind_fd(cs, 0, m))
				break;
		}
	}
	alarm(0);
	/* Untimed: make sure the other passes find a whole file. */
	while (!m->failed && written < maxblocks) {
		if (write_block(cs, blk, m))
			break;
		written++;
		blk++;
	}
}

/*
 * The first time through the file, compare every block with what the
 * write pass put there.  In shared mode all copies wrote the same pattern
 * (same seed) to the same offsets and nobody writes dummy0 during this
 * pass, so the check holds there too.
 */
static void read_pass(struct copy_state *cs, struct fs_msg *m)
{
	uint64_t blk = 0;
	int verify = 1;
	ssize_t n;

	if (rewind_fd(cs, 0, m))
		return;
	memcpy(cs->ebuf, cs->base, bufsize);
	start_timer(rw_secs);
	while (!time_up) {
		n = read(cs->fd[0], cs->rbuf, bufsize);
		if (n < 0) {
			fail_msg(m, "read %s: %s", cs->path[0], strerror(errno));
			break;
		}
		if (n == 0) {
			if (blk != maxblocks) {
				fail_msg(m, "%s: EOF after %" PRIu64 " blocks, expected %u",
					 cs->path[0], blk, maxblocks);
				break;
			}
			if (verify)
				m->verified = 1;
			verify = 0;
			blk = 0;
			if (rewind_fd(cs, 0, m))
				break;
			continue;
		}
		if (n != (ssize_t)bufsize) {
			fail_msg(m, "read %s: %zd of %u bytes in block %" PRIu64,
				 cs->path[0], n, bufsize, blk);
			break;
		}
		if (blk >= maxblocks) {
			fail_msg(m, "%s: longer than %u blocks", cs->path[0], maxblocks);
			break;
		}
		if (verify) {
			set_header(cs->ebuf, cs->base, blk);
			if (memcmp(cs->rbuf, cs->ebuf, bufsize)) {
				fail_msg(m, "%s: block %" PRIu64 " does not hold what was written",
					 cs->path[0], blk);
				break;
			}
		}
		m->bytes += n;
		blk++;
	}
	alarm(0);
	/* Verified up to where time ran out: also fine. */
	if (verify && !m->failed && m->bytes)
		m->verified = 1;
}

static void copy_pass(struct copy_state *cs, struct fs_msg *m)
{
	uint64_t since_rewind = 0;
	ssize_t n;

	if (rewind_fd(cs, 0, m) || rewind_fd(cs, 1, m))
		return;
	start_timer(copy_secs);
	while (!time_up) {
		n = read(cs->fd[0], cs->rbuf, bufsize);
		if (n < 0) {
			fail_msg(m, "read %s: %s", cs->path[0], strerror(errno));
			break;
		}
		if (n == 0) {
			if (!since_rewind) {
				fail_msg(m, "%s is empty", cs->path[0]);
				break;
			}
			since_rewind = 0;
			if (rewind_fd(cs, 0, m) || rewind_fd(cs, 1, m))
				break;
			continue;
		}
		if (write_full(cs->fd[1], cs->rbuf, n) != n) {
			fail_msg(m, "write %s: %s", cs->path[1], strerror(errno));
			break;
		}
		m->bytes += n;
		since_rewind += n;
	}
	alarm(0);
}

static void send_msg(int fd, struct fs_msg *m)
{
	if (write_full(fd, m, sizeof(*m)) != sizeof(*m))
		_exit(3);
}

/* Body of copy @copy; never returns. */
static void run_copy(unsigned int copy, int rep_w, int go_r[NR_PASSES])
{
	struct copy_state cs = { .copy = copy, .fd = { -1, -1 } };
	char setup_err[160] = "";
	int flags = shared ? O_RDWR : O_RDWR | O_CREAT | O_TRUNC;
	int i, pass, failed = 0;

	cs.base = malloc(bufsize);
	cs.wbuf = malloc(bufsize);
	cs.rbuf = malloc(bufsize);
	cs.ebuf = malloc(bufsize);
	if (!cs.base || !cs.wbuf || !cs.rbuf || !cs.ebuf) {
		snprintf(setup_err, sizeof(setup_err), "out of memory");
	} else {
		/* Same pattern for everyone when the file is shared. */
		fill_base(cs.base, shared ? 0 : copy + 1);
		memcpy(cs.wbuf, cs.base, bufsize);
	}
	for (i = 0; i < 2 && !setup_err[0]; i++) {
		if (file_path(cs.path[i], sizeof(cs.path[i]), i, copy)) {
			snprintf(setup_err, sizeof(setup_err), "path too long");
			break;
		}
		cs.fd[i] = open(cs.path[i], flags, 0600);
		if (cs.fd[i] < 0)
			snprintf(setup_err, sizeof(setup_err), "open %s: %s",
				 cs.path[i], strerror(errno));
	}

	for (pass = 0; pass < NR_PASSES; pass++) {
		struct fs_msg m = { .kind = MSG_READY, .pass = pass };
		int64_t t0, c0;
		ssize_t n;
		char c;

		send_msg(rep_w, &m);
		do
			n = read(go_r[pass], &c, 1);
		while (n > 0 || (n < 0 && errno == EINTR));
		close(go_r[pass]);

		m.kind = MSG_RESULT;
		if (setup_err[0]) {
			fail_msg(&m, "%s", setup_err);
			send_msg(rep_w, &m);
			failed = 1;
			continue;
		}
		t0 = clock_ns(CLOCK_MONOTONIC);
		c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		if (pass == PASS_WRITE)
			write_pass(&cs, &m);
		else if (pass == PASS_READ)
			read_pass(&cs, &m);
		else
			copy_pass(&cs, &m);
		m.cpu_nsec = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
		m.nsec = clock_ns(CLOCK_MONOTONIC) - t0;
		failed |= m.failed;
		send_msg(rep_w, &m);
	}

	for (i = 0; i < 2; i++) {
		if (cs.fd[i] >= 0)
			close(cs.fd[i]);
		if (!shared && cs.path[i][0])
			unlink(cs.path[i]);
	}
	_exit(failed);
}

/* Remove the data files; ENOENT is fine (the copy removed its own). */
static void remove_files(void)
{
	char path[PATH_MAX];
	unsigned int c, n = shared ? 1 : copies;
	int i;

	for (c = 0; c < n; c++) {
		for (i = 0; i < 2; i++) {
			if (file_path(path, sizeof(path), i, c))
				continue;
			if (unlink(path) && errno != ENOENT)
				ksft_print_msg("unlink %s: %s\n", path, strerror(errno));
		}
	}
}

static double baseline(int *exact)
{
	*exact = 1;
	if (bufsize == 256)
		return 1655.0;
	if (bufsize == 4096)
		return 5800.0;
	*exact = bufsize == 1024;
	return 3960.0;
}

int main(int argc, char **argv)
{
	struct fs_msg res[NR_PASSES];
	int go[NR_PASSES][2];
	int *rep;
	pid_t *pids;
	unsigned char *alive;
	unsigned int c, started = 0, nfail = 0;
	struct sigaction sa;
	struct stat st;
	int opt, pass, exact;
	double base;

	while ((opt = getopt(argc, argv, "b:m:t:w:c:sd:h")) != -1) {
		switch (opt) {
		case 'b':
			bufsize = parse_uint(argv[0], 'b', optarg, 1, MAX_BUFSIZE, usage);
			break;
		case 'm':
			maxblocks = parse_uint(argv[0], 'm', optarg, 1, MAX_BLOCKS, usage);
			break;
		case 't':
			copy_secs = parse_uint(argv[0], 't', optarg, 1, MAX_SECONDS, usage);
			break;
		case 'w':
			rw_secs = parse_uint(argv[0], 'w', optarg, 1, MAX_SECONDS, usage);
			break;
		case 'c':
			copies = parse_uint(argv[0], 'c', optarg, 1, MAX_COPIES, usage);
			break;
		case 's':
			shared = 1;
			break;
		case 'd':
			dir = optarg;
			break;
		default:
			usage_exit(opt, argv[0], usage);
		}
	}
	no_operands(argc, argv, usage);
	if ((unsigned long long)bufsize * maxblocks > MAX_FILE_SIZE) {
		fprintf(stderr, "%s: file of %u blocks of %u bytes is too large\n",
			argv[0], maxblocks, bufsize);
		usage(stderr, argv[0]);
		return 2;
	}
	if (!rw_secs)
		rw_secs = copy_secs;

	ksft_print_header();
	ksft_set_plan(NR_PASSES);
	ksft_print_msg("fstime: bufsize %u, maxblocks %u (%llu KB file), %u copies, %s files in %s, write/read %u s, copy %u s\n",
		       bufsize, maxblocks, (unsigned long long)bufsize * maxblocks / 1024,
		       copies, shared ? "shared" : "per-copy", dir, rw_secs, copy_secs);

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		ksft_exit_fail_msg("%s is not a directory\n", dir);

	rep = calloc(copies, sizeof(*rep));
	pids = calloc(copies, sizeof(*pids));
	alive = calloc(copies, 1);
	if (!rep || !pids || !alive)
		ksft_exit_fail_msg("out of memory\n");

	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL))
		ksft_exit_fail_msg("sigaction: %s\n", strerror(errno));

	if (shared) {
		/* Created once here, so that no copy truncates another's data. */
		char path[PATH_MAX];
		int i, fd;

		for (i = 0; i < 2; i++) {
			if (file_path(path, sizeof(path), i, 0))
				ksft_exit_fail_msg("path too long\n");
			fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
			if (fd < 0) {
				remove_files();
				ksft_exit_fail_msg("create %s: %s\n", path, strerror(errno));
			}
			close(fd);
		}
	}

	for (pass = 0; pass < NR_PASSES; pass++)
		if (pipe(go[pass]))
			ksft_exit_fail_msg("pipe: %s\n", strerror(errno));

	fflush(stdout);
	for (c = 0; c < copies; c++) {
		int p[2];
		pid_t pid;

		if (pipe(p)) {
			ksft_print_msg("pipe: %s\n", strerror(errno));
			break;
		}
		pid = fork();
		if (pid < 0) {
			ksft_print_msg("fork of copy %u: %s\n", c, strerror(errno));
			close(p[0]);
			close(p[1]);
			break;
		}
		if (pid == 0) {
			int go_r[NR_PASSES];
			unsigned int k;

			close(p[0]);
			for (k = 0; k < c; k++)
				close(rep[k]);
			for (pass = 0; pass < NR_PASSES; pass++) {
				close(go[pass][1]);
				go_r[pass] = go[pass][0];
			}
			run_copy(c, p[1], go_r);
		}
		close(p[1]);
		rep[c] = p[0];
		pids[c] = pid;
		alive[c] = 1;
		started++;
	}
	for (pass = 0; pass < NR_PASSES; pass++)
		close(go[pass][0]);

	if (started < copies) {
		/* Do not measure a partial load. */
		for (c = 0; c < started; c++)
			kill(pids[c], SIGKILL);
		for (c = 0; c < started; c++)
			waitpid(pids[c], NULL, 0);
		remove_files();
		ksft_exit_fail_msg("could start only %u of %u copies\n", started, copies);
	}

	for (pass = 0; pass < NR_PASSES; pass++) {
		struct fs_msg *r = &res[pass];
		double kbps = 0.0, min = -1.0, max = 0.0, cpu = 0.0, kb = 0.0, secs = 0.0;
		unsigned int nverified = 0;

		memset(r, 0, sizeof(*r));

		/* Barrier: every live copy is set up for this pass. */
		for (c = 0; c < copies; c++) {
			struct fs_msg m;

			if (!alive[c])
				continue;
			if (read_full(rep[c], &m, sizeof(m)) != sizeof(m) ||
			    m.kind != MSG_READY || m.pass != (uint32_t)pass) {
				alive[c] = 0;
				fail_msg(r, "copy %u died", c);
			}
		}
		close(go[pass][1]);

		for (c = 0; c < copies; c++) {
			struct fs_msg m;
			double ckb, cs;

			if (!alive[c]) {
				fail_msg(r, "copy %u died", c);
				continue;
			}
			if (read_full(rep[c], &m, sizeof(m)) != sizeof(m) ||
			    m.kind != MSG_RESULT || m.pass != (uint32_t)pass) {
				alive[c] = 0;
				fail_msg(r, "copy %u died", c);
				continue;
			}
			m.why[sizeof(m.why) - 1] = '\0';
			if (m.failed)
				fail_msg(r, "copy %u: %s", c, m.why);
			nverified += m.verified;
			ckb = m.bytes / 1024.0;
			cs = m.nsec / 1e9;
			if (cs <= 0)
				continue;
			kb += ckb;
			kbps += ckb / cs;
			cpu += m.cpu_nsec / 1e9;
			if (cs > secs)
				secs = cs;
			if (min < 0 || ckb / cs < min)
				min = ckb / cs;
			if (ckb / cs > max)
				max = ckb / cs;
		}
		if (!r->failed && !kb)
			fail_msg(r, "no data moved");
		if (!r->failed && pass == PASS_READ && nverified != copies)
			fail_msg(r, "content of %u of %u copies not verified",
				 copies - nverified, copies);

		if (copies > 1 && min >= 0)
			ksft_print_msg("%s per copy: min %.0f max %.0f KBps\n",
				       pass_name[pass], min, max);
		if (pass == PASS_COPY) {
			base = baseline(&exact);
			printf("COUNT|%.0f|0|KBps\n", kbps);
			printf("TIME|%.1f\n", secs);
			ksft_print_msg("score %.0f KBps\n", kbps);
			if (exact)
				ksft_print_msg("index %.1f\n", kbps / base * 10.0);
			else
				ksft_print_msg("index %.1f (relative to the -b 1024 baseline %.0f KBps: no baseline for -b %u)\n",
					       kbps / base * 10.0, base, bufsize);
			if (cpu > 0)
				ksft_print_msg("kb_per_cpu_second %.0f\n", kb / cpu);
			else
				ksft_print_msg("kb_per_cpu_second n/a (no CPU time measured)\n");
		} else {
			ksft_print_msg("%s %.0f KBps\n", pass_name[pass], kbps);
		}
		if (r->failed) {
			nfail++;
			ksft_test_result_fail("%s: %s\n", pass_name[pass], r->why);
		} else if (pass == PASS_READ) {
			ksft_test_result_pass("read: %u copies, %.0f KBps, content verified\n",
					      copies, kbps);
		} else {
			ksft_test_result_pass("%s: %u copies, %.0f KBps\n", pass_name[pass],
					      copies, kbps);
		}
	}

	for (c = 0; c < copies; c++) {
		int status = 0;
		pid_t w;

		close(rep[c]);
		do
			w = waitpid(pids[c], &status, 0);
		while (w < 0 && errno == EINTR);
		if (w < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			ksft_print_msg("copy %u exited with status 0x%x\n", c,
				       (unsigned int)status);
			if (!nfail)
				nfail++;
		}
	}
	remove_files();

	return nfail ? ksft_exit_fail() : ksft_exit_pass();
}
