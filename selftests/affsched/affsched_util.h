/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the affsched selftest programs: strict option
 * parsing, the SIGALRM and stop-signal flags and their handlers, clock
 * readers, EINTR-safe full reads and writes, reaping the copies of a load,
 * reading the module's debugfs file "groups", and the shared-file write
 * load whose hold ratio is known (holdratio, lockcost).
 */
#ifndef AFFSCHED_UTIL_H
#define AFFSCHED_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * A bad command line (a bad option argument, a missing or conflicting
 * option): print "@prog: ", the message @fmt and a newline, then the
 * program's @usage, to stderr.  Does not return: exits with status 2.
 */
static inline void __attribute__((noreturn, format(printf, 3, 4)))
usage_error(const char *prog, void (*usage)(FILE *, const char *), const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(stderr, prog);
	exit(2);
}

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
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max)
		usage_error(prog, usage, "-%c: '%s' is not an integer in [%u, %u]",
			    opt, s, min, max);
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
	if (optind < argc)
		usage_error(argv[0], usage, "unexpected argument '%s'", argv[optind]);
}

/*
 * Set by on_alarm(), the SIGALRM handler of the timed loads, when the
 * alarm() that times a copy or a pass goes off; the load polls it.
 */
static volatile sig_atomic_t time_up;

/* SIGALRM handler, installed by install_alarm(): sets time_up. */
static inline void on_alarm(int sig)
{
	(void)sig;
	time_up = 1;
}

/*
 * Set by on_interrupt(), installed by set_stop_handlers() for SIGINT,
 * SIGTERM and SIGHUP, so that a program stops its load and cleans up.
 */
static volatile sig_atomic_t interrupted;

/* Stop-signal handler: sets interrupted. */
static inline void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

/*
 * Install @fn (a handler, SIG_DFL or SIG_IGN) for @sig with an empty mask
 * and sa_flags @flags: SA_RESTART as signal() on Linux, or 0 so that a
 * blocked read(), write() or waitpid() fails with EINTR when it comes.
 * Return: 0, or -1 with errno set by sigaction().
 */
static inline int set_handler(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}

/*
 * Install on_alarm() for SIGALRM with sa_flags @flags (see set_handler()).
 * It does not arm the alarm: the caller calls alarm() where its timing
 * wants it.  Return: 0, or -1 with errno set.
 */
static inline int install_alarm(int flags)
{
	return set_handler(SIGALRM, on_alarm, flags);
}

/*
 * Install @fn for SIGINT, SIGTERM and SIGHUP, in that order, with no
 * flags: on_interrupt() in a program that cleans up when stopped, SIG_DFL
 * in its children.  Return: 0, or -1 with errno set at the first failure.
 */
static inline int set_stop_handlers(void (*fn)(int))
{
	if (set_handler(SIGINT, fn, 0) || set_handler(SIGTERM, fn, 0) ||
	    set_handler(SIGHUP, fn, 0))
		return -1;
	return 0;
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

/* The header line of the module's debugfs file "groups". */
#define AFFSCHED_GROUPS_HEADER	"id kind members u_permille n windows state cpus uid"
#define AFFSCHED_FILE_MAX	(1U << 20)	/* read_file()'s limit (bytes) */

/* One line of the groups file (Documentation/interface.rst). */
struct affsched_group_line {
	char id[9];		/* 8 hex digits */
	char kind[8];		/* "rwsem" or "mutex" */
	char state[8];		/* "forming", "active" or "idle" */
	unsigned int members;
	unsigned int u;		/* u_permille, 0..1000 */
	unsigned int n;
	unsigned int windows;
};

/*
 * Read all of @path (at most AFFSCHED_FILE_MAX bytes) into a malloc()ed,
 * NUL-terminated buffer.  Return: the buffer, or NULL with errno set
 * (EFBIG past the limit).
 */
static inline char *read_file(const char *path)
{
	size_t size = 4096, len = 0;
	char *buf, *nbuf;
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	buf = malloc(size);
	if (!buf) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	for (;;) {
		if (len + 1 == size) {
			err = size >= AFFSCHED_FILE_MAX ? EFBIG : ENOMEM;
			nbuf = size >= AFFSCHED_FILE_MAX ? NULL : realloc(buf, size * 2);
			if (!nbuf)
				goto fail;
			buf = nbuf;
			size *= 2;
		}
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			goto fail;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
fail:
	close(fd);
	free(buf);
	errno = err;
	return NULL;
}

/* A field of the groups file: decimal digits only, fits in 32 bits. */
static inline int groups_field_uint(const char *s, unsigned int *v)
{
	unsigned long x;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || *end || x > UINT_MAX)
		return -1;
	*v = x;
	return 0;
}

/*
 * Parse one line "id kind members u_permille n windows state cpus uid" of
 * the groups file into @g; @line is cut up.  cpus is "-" or a CPU list.
 * Return: 0 if well-formed, else -1.
 */
static inline int parse_group_line(char *line, struct affsched_group_line *g)
{
	char *f[10], *save = NULL, *tok;
	unsigned int nf = 0, i, uid;

	for (tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (nf == 10)
			return -1;
		f[nf++] = tok;
	}
	if (nf != 9 || groups_field_uint(f[8], &uid) || strlen(f[0]) != 8 ||
	    strspn(f[7], "-,0123456789") != strlen(f[7]))
		return -1;
	for (i = 0; i < 8; i++)
		if (!strchr("0123456789abcdef", f[0][i]))
			return -1;
	if (strcmp(f[1], "rwsem") && strcmp(f[1], "mutex"))
		return -1;
	if (groups_field_uint(f[2], &g->members) || groups_field_uint(f[3], &g->u) ||
	    groups_field_uint(f[4], &g->n) || groups_field_uint(f[5], &g->windows))
		return -1;
	if (g->u > 1000)
		return -1;
	if (strcmp(f[6], "forming") && strcmp(f[6], "active") && strcmp(f[6], "idle"))
		return -1;
	strcpy(g->id, f[0]);
	strcpy(g->kind, f[1]);
	strcpy(g->state, f[6]);
	return 0;
}

/*
 * Read the groups file @path: check its header and parse each line into
 * @out[0..@max - 1] (well-formed lines past @max are counted, not
 * stored).  A malformed line is skipped and the first one is described in
 * @why; @why is "" if there is none.
 * Return: the number of well-formed lines, or -1 with the reason in @why
 * if the file cannot be read or its header is missing or wrong.
 */
static inline int read_groups(const char *path, struct affsched_group_line *out,
			      unsigned int max, char *why, size_t len)
{
	char *buf, *line, *next, *copy;
	struct affsched_group_line g;
	int nr = 0;

	why[0] = '\0';
	buf = read_file(path);
	if (!buf) {
		snprintf(why, len, "cannot read the groups file: %s", strerror(errno));
		return -1;
	}
	next = strchr(buf, '\n');
	if (next)
		*next++ = '\0';
	if (!*buf && !next) {
		snprintf(why, len, "empty file, no header");
		free(buf);
		return -1;
	}
	if (strcmp(buf, AFFSCHED_GROUPS_HEADER)) {
		snprintf(why, len, "header is '%.100s'", buf);
		free(buf);
		return -1;
	}
	for (line = next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line)
			continue;
		copy = strdup(line);
		if (copy && !parse_group_line(copy, &g)) {
			if ((unsigned int)nr < max)
				out[nr] = g;
			nr++;
		} else if (!why[0]) {
			snprintf(why, len, "bad line '%.100s'", line);
		}
		free(copy);
	}
	free(buf);
	return nr;
}

/*
 * The write load: pwrite() one block to a file that the copies share, at
 * offset (i mod WRITE_LOAD_BLOCKS) * block so that the file stays small,
 * then spin @iters iterations in user space; the write holds the file's
 * inode rwsem for most of the call.
 */
#define WRITE_LOAD_BLOCKS	64

struct write_load {
	int fd;
	const char *buf;
	unsigned int block;	/* bytes per pwrite() */
	uint64_t iters;		/* spin iterations after each write */
};

/* Figures of a timed run of the write load. */
struct write_load_stats {
	uint64_t loops;
	int64_t write_ns;	/* time inside pwrite() */
	int64_t total_ns;	/* time of the whole run */
} __attribute__((aligned(64)));	/* one cache line per copy when shared */

/* The load's spin: @iters iterations of a multiply-add. */
static inline void burn(uint64_t iters)
{
	volatile uint64_t acc = 1;
	uint64_t i;

	for (i = 0; i < iters; i++)
		acc = acc * 3 + i;
}

/*
 * Run the write load @ld for @ns nanoseconds (forever if negative),
 * timing each pwrite() with CLOCK_MONOTONIC into @st, which is kept
 * current (a copy's figures are read after it is killed).
 * Return: 0, or -1 with the reason in @why.
 */
static inline int run_write_load(const struct write_load *ld, int64_t ns,
				 struct write_load_stats *st, char *why, size_t len)
{
	int64_t start, end, t0, t1;
	uint64_t i = 0;
	ssize_t n;

	memset(st, 0, sizeof(*st));
	start = now_ns();
	end = ns < 0 ? INT64_MAX : start + ns;
	t0 = start;
	while (t0 < end) {
		n = pwrite(ld->fd, ld->buf, ld->block,
			   (off_t)(i % WRITE_LOAD_BLOCKS) * ld->block);
		t1 = now_ns();
		if (n != (ssize_t)ld->block) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				snprintf(why, len, "pwrite: %s", strerror(errno));
			else
				snprintf(why, len, "pwrite: %zd of %u bytes", n, ld->block);
			return -1;
		}
		st->write_ns += t1 - t0;
		burn(ld->iters);
		t0 = now_ns();
		st->total_ns = t0 - start;
		st->loops++;
		i++;
	}
	if (!st->loops) {
		snprintf(why, len, "no loop completed");
		return -1;
	}
	return 0;
}

#endif /* AFFSCHED_UTIL_H */
