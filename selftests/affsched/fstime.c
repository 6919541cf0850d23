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
 *
 * UnixBench mode (-u) behaves as UnixBench 5.1.3 runs fsdisk (-b 4096
 * -m 8000), fstime (-b 1024 -m 2000) and fsbuffer (-b 256 -m 500) with
 * COPIES copies: the copies are independent processes started one after
 * the other with no barrier.  Each one creat()s DIR/dummy0 and DIR/dummy1
 * itself, truncating whatever the copies already running put there, and
 * opens them read-write; then, each pass preceded by sync(), sleep(2),
 * sync() and sleep(2) (sleep(1) last before the copy pass), it writes
 * whole files of MAXBLOCKS KB (-m counts KB here, as in UnixBench) for -w
 * seconds (2), reads dummy0 for -w seconds, rewinding at its end, and
 * copies dummy0 to dummy1 for -t seconds, rewinding both at the end of
 * dummy0 or at a short read (another copy's creat() emptied it).  Each
 * pass runs until SIGALRM; its score is the data moved in 256-byte units
 * (a partial buffer rounded to the nearest unit) divided by 4 times the
 * pass's seconds, truncated to KBps.  When the alarm cuts a transfer
 * short, a copy gets part credit for the bytes read but not written, in
 * the ratio of its write score to its read + write scores.  The result is
 * the sum of the copies' copy-pass scores, as UnixBench's Run sums
 * copies, and its index against the test's baseline.  Each copy also
 * reports the wall time of every pass and of the settle before it, and
 * counts as a stall every pass that took more than 3 times its nominal
 * length.  -p uses UnixBench's newer per-copy names (dummy0-PID).
 * Test-only options of this mode: -q leaves out the sync()/sleep()
 * settles, -k keeps the files, -X K[:P|:rP] ends the copy pass after K
 * blocks, then credits one block cut short after P bytes were written
 * (or, with r, read), as the alarm would.
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

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* UnixBench mode: limits and units of UnixBench's fstime */
#define UB_COUNTSIZE	256			/* counted in 256-byte units */
#define UB_HALFCOUNT	(UB_COUNTSIZE / 2)
#define UB_COUNT_PER_K	(1024 / UB_COUNTSIZE)
#define UB_MIN_BUFSIZE	256
#define UB_MAX_BUFSIZE	8192
#define UB_MAX_KB	(1U << 20)
#define UB_MAX_SECONDS	3600
#define UB_DEF_RW_SECS	2
#define UB_STALL_FACTOR	3

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

/* UnixBench mode (-u) and its test-only options */
static int ub_mode, ub_per_copy, ub_quick, ub_keep;
static unsigned long ub_stop_after;	/* -X K: end the copy pass after K blocks */
static long ub_partial = -1;		/* -X K:P: then one block cut after P bytes */
static int ub_partial_read;		/* -X K:rP: cut in the read */

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [-b BUFSIZE] [-m MAXBLOCKS] [-t SECONDS] [-w SECONDS] [-c COPIES]\n"
		"          [-s] [-d DIR] [-h]\n"
		"       %s -u [-p] [-b BUFSIZE] [-m KB] [-t SECONDS] [-w SECONDS] [-c COPIES]\n"
		"          [-d DIR]\n"
		"  -b BUFSIZE    bytes per read/write (default %u)\n"
		"  -m MAXBLOCKS  blocks per file; file size = BUFSIZE * MAXBLOCKS (default %u)\n"
		"  -t SECONDS    duration of the copy pass (default %u)\n"
		"  -w SECONDS    duration of the write pass and of the read pass\n"
		"                (default: the -t value; %u with -u)\n"
		"  -c COPIES     copies run as separate processes at once (default 1)\n"
		"  -s            shared files: all copies use DIR/dummy0 and DIR/dummy1\n"
		"                (default: DIR/dummy0.N and DIR/dummy1.N for copy N)\n"
		"  -d DIR        directory for the files (default: current directory)\n"
		"  -u            UnixBench 5.1.3 File Copy: every copy creat()s the shared\n"
		"                DIR/dummy0 and DIR/dummy1 itself, no start barrier,\n"
		"                sync()+sleep() before each pass, 256-byte units; -m is\n"
		"                the file size in KB; -b %u..%u, -m 1..%u,\n"
		"                -t and -w 1..%u.  fsdisk: -b 4096 -m 8000,\n"
		"                fstime: -b 1024 -m 2000, fsbuffer: -b 256 -m 500\n"
		"  -p            with -u: per-copy files DIR/dummy0-PID, DIR/dummy1-PID\n"
		"                (UnixBench since 2023)\n"
		"  -h            this help\n"
		"Test-only, with -u: -q no sync()/sleep() settles; -k keep the files;\n"
		"  -X K[:P|:rP] end the copy pass after K blocks, crediting one more block\n"
		"  cut short after P bytes written (P) or read (rP)\n",
		prog, prog, DEF_BUFSIZE, DEF_BLOCKS, DEF_SECONDS, UB_DEF_RW_SECS,
		UB_MIN_BUFSIZE, UB_MAX_BUFSIZE, UB_MAX_KB, UB_MAX_SECONDS);
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

/* Record the first failure: set *@failed and its reason in @why. */
static void set_why(uint32_t *failed, char *why, size_t len, const char *fmt, va_list ap)
{
	if (*failed)
		return;
	*failed = 1;
	vsnprintf(why, len, fmt, ap);
}

static void fail_msg(struct fs_msg *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail_msg(struct fs_msg *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_why(&m->failed, m->why, sizeof(m->why), fmt, ap);
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

/*
 * UnixBench mode (-u).  Every copy is one process, forked with no barrier,
 * that does what UnixBench 5.1.3's fstime does with "-c": creat() and open
 * the two files, then the write, read and copy passes, each after its
 * settle; it sends one ub_msg to the parent at the end.
 */

/* sync(), sleep, sync(), sleep before each pass */
static const unsigned int ub_sleeps[NR_PASSES][2] = { { 2, 2 }, { 2, 2 }, { 2, 1 } };

struct ub_pass {
	uint64_t counted;	/* data moved, in 256-byte units */
	int64_t score;		/* KBps: counted / (seconds * 4), truncated */
	int64_t nsec;		/* wall time of the pass */
	int64_t settle_nsec;	/* wall time of the settle before it */
	int64_t cpu_nsec;	/* CPU time of the copy during the pass */
};

/* A copy's report; one atomic pipe write (< PIPE_BUF). */
struct ub_msg {
	uint32_t copy;
	uint32_t failed;
	struct ub_pass pass[NR_PASSES];
	char why[120];
};

struct ub_copy {
	int fd[2];
	char path[2][PATH_MAX];
	unsigned char *buf;
	unsigned long nbufs;	/* buffers per file: MAXBLOCKS KB / BUFSIZE */
	struct ub_msg *m;
};

/* The UnixBench tests that have a baseline (index.base). */
static const struct ub_test {
	unsigned int bufsize, maxblocks;
	const char *name;
	double baseline;	/* KBps */
} ub_tests[] = {
	{ 4096, 8000, "fsdisk", 5800.0 },
	{ 1024, 2000, "fstime", 3960.0 },
	{ 256, 500, "fsbuffer", 1655.0 },
};

static const struct ub_test *ub_find_test(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ub_tests); i++)
		if (ub_tests[i].bufsize == bufsize && ub_tests[i].maxblocks == maxblocks)
			return &ub_tests[i];
	return NULL;
}

static void ub_fail(struct ub_msg *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void ub_fail(struct ub_msg *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_why(&m->failed, m->why, sizeof(m->why), fmt, ap);
	va_end(ap);
}

/* DIR/dummyN, or DIR/dummyN-PID with -p (UnixBench since 2023). */
static int ub_path(char *buf, size_t len, int which)
{
	int n;

	if (ub_per_copy)
		n = snprintf(buf, len, "%s/dummy%d-%d", dir, which, (int)getpid());
	else
		n = snprintf(buf, len, "%s/dummy%d", dir, which);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/*
 * As UnixBench: creat() both files (emptying them under any copy already
 * using them), close them and open them again read-write.
 */
static int ub_open(struct ub_copy *c)
{
	int i, fd;

	for (i = 0; i < 2; i++) {
		if (ub_path(c->path[i], sizeof(c->path[i]), i)) {
			ub_fail(c->m, "path too long");
			return -1;
		}
		fd = creat(c->path[i], 0600);
		if (fd < 0 || close(fd)) {
			ub_fail(c->m, "creat %s: %s", c->path[i], strerror(errno));
			return -1;
		}
	}
	for (i = 0; i < 2; i++) {
		c->fd[i] = open(c->path[i], O_RDWR);
		if (c->fd[i] < 0) {
			ub_fail(c->m, "open %s: %s", c->path[i], strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void ub_close(struct ub_copy *c)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (c->fd[i] >= 0)
			close(c->fd[i]);
		/* UnixBench's clean_up(); another copy may have removed them */
		if (!ub_keep && c->path[i][0])
			unlink(c->path[i]);
	}
}

static void ub_sleep(unsigned int secs)
{
	while (secs)
		secs = sleep(secs);
}

static void ub_settle(int pass)
{
	if (ub_quick)
		return;
	sync();
	ub_sleep(ub_sleeps[pass][0]);
	sync();
	ub_sleep(ub_sleeps[pass][1]);
}

static int ub_rewind(struct ub_copy *c, int which)
{
	if (lseek(c->fd[which], 0, SEEK_SET) < 0) {
		ub_fail(c->m, "lseek %s: %s", c->path[which], strerror(errno));
		return -1;
	}
	return 0;
}

/* A partial buffer counts to the nearest 256-byte unit. */
static uint64_t ub_units(uint64_t bytes)
{
	return (bytes + UB_HALFCOUNT) / UB_COUNTSIZE;
}

/* Bytes read but not written: the write score's share of read + write. */
static uint64_t ub_share(const struct ub_msg *m, uint64_t bytes)
{
	uint64_t w = m->pass[PASS_WRITE].score, r = m->pass[PASS_READ].score;

	/* UnixBench divides by zero here when both passes moved nothing */
	return r + w ? bytes * w / (r + w) : 0;
}

/* Credit of a copy cut short after @n bytes read (@in_read) or written. */
static uint64_t ub_cut_credit(const struct ub_msg *m, uint64_t n, int in_read)
{
	if (in_read)
		return ub_units(ub_share(m, n));
	return ub_units(n + ub_share(m, bufsize - n));
}

/*
 * A short read or write: cut short by the alarm (the pass then ends with
 * part credit, 0 if the call returned EINTR) or an error (-1).
 */
static int ub_short(struct ub_copy *c, ssize_t n, int which, const char *op)
{
	if ((n < 0 && errno == EINTR) || (n >= 0 && time_up)) {
		time_up = 1;
		return 0;
	}
	if (n < 0)
		ub_fail(c->m, "%s %s: %s", op, c->path[which], strerror(errno));
	else
		ub_fail(c->m, "%s %s: %zd of %u bytes", op, c->path[which], n, bufsize);
	return -1;
}

/* Whole files of nbufs buffers: the alarm is only seen between files. */
static int ub_write_pass(struct ub_copy *c, struct ub_pass *p)
{
	unsigned long i;
	ssize_t n;

	while (!time_up) {
		for (i = 0; i < c->nbufs; i++) {
			n = write(c->fd[0], c->buf, bufsize);
			if (n == (ssize_t)bufsize) {
				p->counted += bufsize / UB_COUNTSIZE;
				continue;
			}
			if (ub_short(c, n, 0, "write"))
				return -1;
			p->counted += ub_units(n > 0 ? n : 0);
		}
		if (ub_rewind(c, 0))
			return -1;
	}
	return 0;
}

/* At the end of dummy0 (or where another copy truncated it), rewind. */
static int ub_read_pass(struct ub_copy *c, struct ub_pass *p)
{
	ssize_t n;

	if (ub_rewind(c, 0))
		return -1;
	while (!time_up) {
		n = read(c->fd[0], c->buf, bufsize);
		if (n == (ssize_t)bufsize) {
			p->counted += bufsize / UB_COUNTSIZE;
			continue;
		}
		if (n < 0) {
			if (ub_short(c, n, 0, "read"))
				return -1;
			break;
		}
		p->counted += ub_units(n);
		if (ub_rewind(c, 0))
			return -1;
	}
	return 0;
}

/*
 * Read @len bytes of dummy0 for -X, rewinding both files at its end as
 * the copy pass does; the bytes read, or -1.
 */
static ssize_t ub_read_some(struct ub_copy *c, size_t len)
{
	ssize_t n = read(c->fd[0], c->buf, len);

	if (n >= 0 && (size_t)n < len) {
		if (ub_rewind(c, 0) || ub_rewind(c, 1))
			return -1;
		n = read(c->fd[0], c->buf, len);
	}
	if (n < 0)
		ub_fail(c->m, "read %s: %s", c->path[0], strerror(errno));
	return n;
}

/*
 * -X K[:P|:rP], after K blocks: end the pass; with P, first cut one more
 * block short after P bytes as the alarm would and credit it.
 */
static int ub_cut_block(struct ub_copy *c, struct ub_pass *p)
{
	ssize_t n;

	time_up = 1;
	if (ub_partial < 0)
		return 0;
	n = ub_read_some(c, ub_partial_read ? (size_t)ub_partial : bufsize);
	if (n < 0)
		return -1;
	if (!ub_partial_read) {
		n = write(c->fd[1], c->buf, ub_partial);
		if (n < 0) {
			ub_fail(c->m, "write %s: %s", c->path[1], strerror(errno));
			return -1;
		}
	}
	p->counted += ub_cut_credit(c->m, n, ub_partial_read);
	return 0;
}

/* dummy0 to dummy1, rewinding both at the end of dummy0 or a short read. */
static int ub_copy_pass(struct ub_copy *c, struct ub_pass *p)
{
	unsigned long blocks = 0;
	ssize_t n;

	/* UnixBench rewinds only the source here */
	if (ub_rewind(c, 0))
		return -1;
	while (!time_up) {
		if (ub_stop_after && blocks == ub_stop_after)
			return ub_cut_block(c, p);
		n = read(c->fd[0], c->buf, bufsize);
		if (n < 0) {
			if (ub_short(c, n, 0, "read"))
				return -1;
			break;
		}
		if (n != (ssize_t)bufsize) {
			if (ub_rewind(c, 0) || ub_rewind(c, 1))
				return -1;
			continue;
		}
		n = write(c->fd[1], c->buf, bufsize);
		if (n == (ssize_t)bufsize) {
			p->counted += bufsize / UB_COUNTSIZE;
			blocks++;
			continue;
		}
		if (ub_short(c, n, 1, "write"))
			return -1;
		p->counted += ub_cut_credit(c->m, n > 0 ? n : 0, 0);
	}
	return 0;
}

/* Settle, then run @pass until the alarm; times and scores it. */
static void ub_timed_pass(struct ub_copy *c, int pass)
{
	struct ub_pass *p = &c->m->pass[pass];
	int64_t t0, c0;

	t0 = now_ns();
	ub_settle(pass);
	p->settle_nsec = now_ns() - t0;

	start_timer(pass == PASS_COPY ? copy_secs : rw_secs);
	c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	t0 = now_ns();
	/* a failure is recorded in c->m and ends the copy after this pass */
	if (pass == PASS_WRITE)
		ub_write_pass(c, p);
	else if (pass == PASS_READ)
		ub_read_pass(c, p);
	else
		ub_copy_pass(c, p);
	p->nsec = now_ns() - t0;
	p->cpu_nsec = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
	alarm(0);
	if (p->nsec > 0)
		p->score = (int64_t)((double)p->counted /
				     ((double)p->nsec / 1e9 * UB_COUNT_PER_K));
}

/* Body of copy @copy; never returns. */
static void __attribute__((noreturn)) ub_run_copy(unsigned int copy, int res_w)
{
	/* static, as UnixBench's buffer: the copy is a process of its own */
	static unsigned char buf[UB_MAX_BUFSIZE];
	static struct ub_msg m;
	struct ub_copy c = { .fd = { -1, -1 }, .buf = buf, .m = &m };
	unsigned int i;
	int pass;

	m.copy = copy;
	c.nbufs = (unsigned long)maxblocks * 1024 / bufsize;
	for (i = 0; i < bufsize; i++)
		c.buf[i] = i & 0xff;
	ub_open(&c);
	for (pass = 0; pass < NR_PASSES && !m.failed; pass++)
		ub_timed_pass(&c, pass);
	ub_close(&c);
	if (write_full(res_w, &m, sizeof(m)) != sizeof(m))
		_exit(3);
	_exit(m.failed);
}

/* Fork the copies one after the other, as Run does; how many started. */
static unsigned int ub_start(pid_t *pids, int res_p[2])
{
	unsigned int c;

	fflush(stdout);
	for (c = 0; c < copies; c++) {
		pids[c] = fork();
		if (pids[c] < 0) {
			ksft_print_msg("fork of copy %u: %s\n", c, strerror(errno));
			break;
		}
		if (pids[c] == 0) {
			close(res_p[0]);
			ub_run_copy(c, res_p[1]);
		}
	}
	close(res_p[1]);
	return c;
}

/* Read the copies' reports until every copy has closed the pipe. */
static int ub_collect(int fd, struct ub_msg *res, unsigned char *seen)
{
	struct ub_msg m;
	int fail = 0;
	ssize_t n;

	while ((n = read_full(fd, &m, sizeof(m))) != 0) {
		if (n != sizeof(m)) {
			ksft_print_msg("short report from a copy\n");
			return 1;
		}
		if (m.copy >= copies || seen[m.copy]) {
			ksft_print_msg("bogus report for copy %u\n", m.copy);
			fail = 1;
			continue;
		}
		m.why[sizeof(m.why) - 1] = '\0';
		res[m.copy] = m;
		seen[m.copy] = 1;
	}
	return fail;
}

static int ub_is_stall(const struct ub_pass *p, int pass)
{
	unsigned int nominal = pass == PASS_COPY ? copy_secs : rw_secs;

	return p->nsec > (int64_t)nominal * UB_STALL_FACTOR * 1000000000LL;
}

/* The lines of one copy; returns its stalls. */
static unsigned int ub_print_copy(const struct ub_msg *m)
{
	unsigned int stalls = 0;
	int pass;

	for (pass = 0; pass < NR_PASSES; pass++) {
		const struct ub_pass *p = &m->pass[pass];

		stalls += ub_is_stall(p, pass);
		ksft_print_msg("copy %u %s: settle %.3f s, pass %.9f s (nominal %u s), counted %" PRIu64 ", score %" PRId64 " KBps, cpu %.3f s\n",
			       m->copy, pass_name[pass], p->settle_nsec / 1e9, p->nsec / 1e9,
			       pass == PASS_COPY ? copy_secs : rw_secs, p->counted,
			       p->score, p->cpu_nsec / 1e9);
	}
	ksft_print_msg("copy %u: score %" PRId64 " KBps, stalls %u%s%s\n", m->copy,
		       m->pass[PASS_COPY].score, stalls, m->failed ? ", failed: " : "",
		       m->failed ? m->why : "");
	return stalls;
}

struct ub_sum {
	int64_t score, min, max;
	double kb, cpu, secs;
	unsigned int stalls, n;
};

static void ub_print_sum(const struct ub_sum *s)
{
	const struct ub_test *t = ub_find_test();

	printf("COUNT|%" PRId64 "|0|KBps\n", s->score);
	printf("TIME|%.1f\n", s->n ? s->secs / s->n : 0.0);
	ksft_print_msg("score %" PRId64 " KBps\n", s->score);
	if (t)
		ksft_print_msg("index %.1f\n", s->score / t->baseline * 10.0);
	else
		ksft_print_msg("index n/a (no UnixBench baseline for -b %u -m %u)\n",
			       bufsize, maxblocks);
	if (s->cpu > 0)
		ksft_print_msg("kb_per_cpu_second %.0f\n", s->kb / s->cpu);
	else
		ksft_print_msg("kb_per_cpu_second n/a (no CPU time measured)\n");
	ksft_print_msg("min_copy_score %" PRId64 " KBps\n", s->min);
	ksft_print_msg("max_copy_score %" PRId64 " KBps\n", s->max);
	ksft_print_msg("stalls %u\n", s->stalls);
}

/* Per-copy lines and the sums; 1 if a copy failed or did not report. */
static int ub_report(const struct ub_msg *res, const unsigned char *seen)
{
	struct ub_sum s = { .min = -1 };
	unsigned int c;
	int fail = 0;

	for (c = 0; c < copies; c++) {
		const struct ub_pass *p = &res[c].pass[PASS_COPY];

		if (!seen[c]) {
			ksft_print_msg("copy %u: no report\n", c);
			fail = 1;
			continue;
		}
		s.stalls += ub_print_copy(&res[c]);
		fail |= res[c].failed;
		s.score += p->score;
		if (s.min < 0 || p->score < s.min)
			s.min = p->score;
		if (p->score > s.max)
			s.max = p->score;
		s.kb += p->counted * (double)UB_COUNTSIZE / 1024;
		s.cpu += p->cpu_nsec / 1e9;
		s.secs += p->nsec / 1e9;
		s.n++;
	}
	ub_print_sum(&s);
	return fail;
}

static void ub_print_config(void)
{
	const struct ub_test *t = ub_find_test();

	ksft_print_msg("fstime -u: UnixBench 5.1.3 File Copy %u bufsize %u maxblocks (%s), %u copies, %s files in %s, write/read %u s, copy %u s%s\n",
		       bufsize, maxblocks, t ? t->name : "no baseline", copies,
		       ub_per_copy ? "per-copy" : "shared", dir, rw_secs, copy_secs,
		       ub_quick ? ", no settles (-q)" : "");
	if (t)
		ksft_print_msg("baseline %.0f KBps\n", t->baseline);
}

/* UnixBench mode: start the copies, collect and sum their scores. */
static int ub_main(void)
{
	struct ub_msg *res = calloc(copies, sizeof(*res));
	unsigned char *seen = calloc(copies, 1);
	pid_t *pids = calloc(copies, sizeof(*pids));
	unsigned int c, started;
	struct stat st;
	int res_p[2], fail;

	ksft_print_header();
	ksft_set_plan(1);
	ub_print_config();
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		ksft_exit_fail_msg("%s is not a directory\n", dir);
	if (!res || !seen || !pids)
		ksft_exit_fail_msg("out of memory\n");
	if (pipe(res_p))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	/* SIGALRM sets time_up; SA_RESTART, as UnixBench's signal() on Linux. */
	if (install_alarm(SA_RESTART))
		ksft_exit_fail_msg("sigaction: %s\n", strerror(errno));

	started = ub_start(pids, res_p);
	for (c = 0; c < started; c++)
		ksft_print_msg("copy %u pid %d\n", c, (int)pids[c]);
	fflush(stdout);
	if (started < copies) {
		for (c = 0; c < started; c++)
			kill(pids[c], SIGKILL);
		reap_children(pids, started);
		ksft_exit_fail_msg("could start only %u of %u copies\n", started, copies);
	}
	fail = ub_collect(res_p[0], res, seen);
	close(res_p[0]);
	fail |= reap_children(pids, copies);
	fail |= ub_report(res, seen);
	if (fail) {
		ksft_test_result_fail("fstime -u: %u copies, a copy failed\n", copies);
		return ksft_exit_fail();
	}
	ksft_test_result_pass("fstime -u: %u copies, all passes done\n", copies);
	return ksft_exit_pass();
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

/* -X K[:P|:rP] */
static void parse_cut(const char *prog, const char *s)
{
	const char *p = s;
	char *end;

	errno = 0;
	if (*p < '0' || *p > '9')
		usage_error(prog, usage, "-X: '%s' is not K, K:P or K:rP", s);
	ub_stop_after = strtoul(p, &end, 10);
	if (errno || !ub_stop_after || ub_stop_after > UINT32_MAX)
		usage_error(prog, usage, "-X: K in '%s' is not an integer in [1, %u]", s,
			    UINT32_MAX);
	if (!*end)
		return;
	if (*end != ':')
		usage_error(prog, usage, "-X: '%s' is not K, K:P or K:rP", s);
	p = end + 1;
	ub_partial_read = *p == 'r';
	p += ub_partial_read;
	if (*p < '0' || *p > '9')
		usage_error(prog, usage, "-X: '%s' is not K, K:P or K:rP", s);
	ub_partial = strtol(p, &end, 10);
	if (errno || *end || ub_partial > UB_MAX_BUFSIZE)
		usage_error(prog, usage, "-X: P in '%s' is not an integer below BUFSIZE", s);
}

/* What -u accepts: the ranges of UnixBench's fstime. */
static void check_ub_args(const char *prog)
{
	if (shared && ub_per_copy)
		usage_error(prog, usage, "-s and -p exclude each other");
	if (bufsize < UB_MIN_BUFSIZE || bufsize > UB_MAX_BUFSIZE)
		usage_error(prog, usage, "-b: with -u BUFSIZE must be in [%u, %u]",
			    UB_MIN_BUFSIZE, UB_MAX_BUFSIZE);
	if (maxblocks > UB_MAX_KB)
		usage_error(prog, usage, "-m: with -u the file size in KB must be in [1, %u]",
			    UB_MAX_KB);
	if ((unsigned long)maxblocks * 1024 < bufsize)
		usage_error(prog, usage, "-m: a file of %u KB holds no block of %u bytes",
			    maxblocks, bufsize);
	if (copy_secs > UB_MAX_SECONDS || rw_secs > UB_MAX_SECONDS)
		usage_error(prog, usage, "-t, -w: with -u SECONDS must be in [1, %u]",
			    UB_MAX_SECONDS);
	if (ub_partial >= (long)bufsize)
		usage_error(prog, usage, "-X: P must be below BUFSIZE (%u)", bufsize);
}

static void check_args(const char *prog)
{
	if (ub_mode) {
		if (!rw_secs)
			rw_secs = UB_DEF_RW_SECS;
		check_ub_args(prog);
		return;
	}
	if (ub_per_copy || ub_quick || ub_keep || ub_stop_after)
		usage_error(prog, usage, "-p, -q, -k and -X need -u");
	if ((unsigned long long)bufsize * maxblocks > MAX_FILE_SIZE)
		usage_error(prog, usage, "file of %u blocks of %u bytes is too large",
			    maxblocks, bufsize);
	if (!rw_secs)
		rw_secs = copy_secs;
}

static void parse_args(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "b:m:t:w:c:sd:upqkX:h")) != -1) {
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
		case 'u':
			ub_mode = 1;
			break;
		case 'p':
			ub_per_copy = 1;
			break;
		case 'q':
			ub_quick = 1;
			break;
		case 'k':
			ub_keep = 1;
			break;
		case 'X':
			parse_cut(argv[0], optarg);
			break;
		default:
			usage_exit(opt, argv[0], usage);
		}
	}
	no_operands(argc, argv, usage);
	check_args(argv[0]);
}

int main(int argc, char **argv)
{
	struct fs_msg res[NR_PASSES];
	int go[NR_PASSES][2];
	int *rep;
	pid_t *pids;
	unsigned char *alive;
	unsigned int c, started = 0, nfail = 0;
	struct stat st;
	int pass, exact;
	double base;

	parse_args(argc, argv);
	if (ub_mode)
		return ub_main();

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
	if (install_alarm(SA_RESTART))
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
