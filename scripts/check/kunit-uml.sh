#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the series' KUnit suites under UML with the base tree's kunit.py.
# 5.10's kunit.py has no --kunitconfig option: it reads
# <build_dir>/.kunitconfig, which is seeded here from configs/kunit.config.
#
# kunit-uml.sh [run|build|exec]: run (the default) configures, builds and
# runs; build only configures and builds (make check builds in the
# background, where a run's timeout could expire on a starved CPU); exec
# runs what build built and parses the results.
# Exit status: kunit.py's (0 when every test passed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

step=${1:-run}
bdir=$BUILD/kunit-uml
kunit() {
	python3 tools/testing/kunit/kunit.py "$@"
}
cd "$KSRC"
case "$step" in
run | build)
	mkdir -p "$bdir"
	cp "$AFFSCHED_TOP/configs/kunit.config" "$bdir/.kunitconfig"
	;;
esac
case "$step" in
run) kunit run --build_dir="$bdir" --jobs="$JOBS" --timeout="${KUNIT_TIMEOUT:-300}" ;;
build)
	kunit config --build_dir="$bdir"
	kunit build --build_dir="$bdir" --jobs="$JOBS"
	;;
exec)
	[ -x "$bdir/linux" ] || die "no UML kernel in $bdir (kunit-uml.sh build)"
	kunit exec --build_dir="$bdir" --timeout="${KUNIT_TIMEOUT:-300}"
	;;
*) die "usage: kunit-uml.sh [run|build|exec]" ;;
esac
