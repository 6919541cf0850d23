// SPDX-License-Identifier: GPL-2.0
/*
 * numa_touch: a task whose memory is on one NUMA node and which may run
 * anywhere, so that NUMA balancing keeps trying to move it to that node.
 *
 * Usage: numa_touch [-n NODE] [-m MB] [-t SECONDS]
 *
 * Binds itself to NODE's CPUs (/sys/devices/system/node/nodeNODE/cpulist,
 * default node 0), writes every page of MB MiB (default 16) so that they
 * are allocated there, then allows every CPU it was started with and
 * writes the pages again and again for SECONDS (default 10).  Once NUMA
 * balancing's scanner has marked the pages, each pass takes hinting faults
 * on them, and a copy the load balancer has put on another node asks to
 * migrate to NODE (task_numa_migrate()).  numa_test.sh runs several beside
 * a placed affsched group.
 * Prints "numa_touch: PASSES passes" on stdout.  Exit status: 0; 2 on bad
 * arguments; 1 if the node's CPUs cannot be read or set, or no memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Parse a cpulist ("0-3,8") into @set; 0 or -1 on a malformed list. */
static int parse_cpulist(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a >= CPU_SETSIZE)
			return -1;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= CPU_SETSIZE)
				return -1;
			s = end;
		}
		for (; a <= b; a++)
			CPU_SET(a, set);
		if (*s == ',')
			s++;
	}
	return CPU_COUNT(set) ? 0 : -1;
}

static unsigned long arg(const char *name, const char *s, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > max) {
		fprintf(stderr, "numa_touch: bad %s '%s' (0 to %lu)\n", name, s, max);
		exit(2);
	}
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long node = 0, mb = 16, secs = 10, passes = 0;
	long page = sysconf(_SC_PAGESIZE);
	cpu_set_t all, local;
	char path[64], list[4096];
	size_t len, off;
	double end;
	FILE *f;
	char *mem;
	int opt;

	while ((opt = getopt(argc, argv, "n:m:t:")) != -1) {
		switch (opt) {
		case 'n': node = arg("node", optarg, 1023); break;
		case 'm': mb = arg("size", optarg, 4096); break;
		case 't': secs = arg("time", optarg, 3600); break;
		default:
			fprintf(stderr, "usage: %s [-n NODE] [-m MB] [-t SECONDS]\n", argv[0]);
			return 2;
		}
	}
	if (optind != argc || !mb) {
		fprintf(stderr, "usage: %s [-n NODE] [-m MB (1 or more)] [-t SECONDS]\n", argv[0]);
		return 2;
	}
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%lu/cpulist", node);
	f = fopen(path, "r");
	if (!f || !fgets(list, sizeof(list), f) || parse_cpulist(list, &local)) {
		fprintf(stderr, "numa_touch: cannot read the CPUs of node %lu from %s\n", node, path);
		return 1;
	}
	fclose(f);
	if (sched_getaffinity(0, sizeof(all), &all) ||
	    sched_setaffinity(0, sizeof(local), &local)) {
		fprintf(stderr, "numa_touch: cannot bind to node %lu: %s\n", node, strerror(errno));
		return 1;
	}
	len = mb << 20;
	mem = malloc(len);
	if (!mem) {
		fprintf(stderr, "numa_touch: no memory for %lu MB\n", mb);
		return 1;
	}
	for (off = 0; off < len; off += page)
		mem[off] = 1;
	if (sched_setaffinity(0, sizeof(all), &all)) {
		fprintf(stderr, "numa_touch: cannot unbind: %s\n", strerror(errno));
		return 1;
	}
	end = now() + secs;
	while (now() < end) {
		for (off = 0; off < len; off += page)
			mem[off]++;
		passes++;
	}
	printf("numa_touch: %lu passes\n", passes);
	return 0;
}
