// SPDX-License-Identifier: GPL-2.0
/*
 * as_user: run a program as another user, with no supplementary groups.
 *
 * Usage: as_user UID PROG [ARG...]
 *
 * Sets the real, effective and saved group and user ids to UID (a
 * number; the group id is the same number), then execs PROG, searched in
 * PATH.  The test guests' busybox has no setpriv --reuid and no passwd
 * file for su; on a full system "setpriv --reuid=UID --regid=UID
 * --clear-groups" does the same.  Needs root (CAP_SETUID, CAP_SETGID).
 * Exit status: PROG's; 2 on bad arguments; 1 if the ids cannot be set or
 * PROG cannot be run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long uid;
	char *end;

	if (argc < 3) {
		fprintf(stderr, "usage: %s UID PROG [ARG...]\n", argv[0]);
		return 2;
	}
	errno = 0;
	uid = strtoul(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || uid >= (unsigned long)(uid_t)-1) {
		fprintf(stderr, "%s: bad UID '%s'\n", argv[0], argv[1]);
		return 2;
	}
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid)) {
		fprintf(stderr, "%s: cannot become uid %lu: %s\n", argv[0], uid, strerror(errno));
		return 1;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "%s: %s: %s\n", argv[0], argv[2], strerror(errno));
	return 1;
}
