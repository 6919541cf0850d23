#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-selftests.sh ARCH: build selftests/affsched (static binaries) for
# ARCH into build/selftests/ARCH; fails on any compiler warning.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

arch=${1:-}
[ -n "$arch" ] || die "usage: build-selftests.sh x86_64|arm64"
cross=$(kcross "$arch")
out=$BUILD/selftests/$arch
rm -rf "$out"
mkdir -p "$out"
make -C "$AFFSCHED_TOP/selftests/affsched" KSRC="$KSRC" CC="${cross}gcc" \
	OUTPUT="$out/bin" INSTALL_PATH="$out" all install 2>&1 | tee "$out.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || die "selftests build failed for $arch"
! grep -q 'warning:' "$out.log" || die "selftests build for $arch has warnings"
rm -rf "$out/bin"
