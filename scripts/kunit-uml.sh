#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the series' KUnit suites under UML with the base tree's kunit.py.
# 5.10's kunit.py has no --kunitconfig option: it reads
# <build_dir>/.kunitconfig, which is seeded here from configs/kunit.config.
# Exit status: kunit.py's (0 when every test passed).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

bdir=$BUILD/kunit-uml
mkdir -p "$bdir"
cp "$AFFSCHED_TOP/configs/kunit.config" "$bdir/.kunitconfig"
cd "$KSRC"
python3 tools/testing/kunit/kunit.py run --build_dir="$bdir" --jobs="$JOBS" \
	--timeout="${KUNIT_TIMEOUT:-300}"
