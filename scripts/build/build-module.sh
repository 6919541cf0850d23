#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh ARCH [VARIANT]
#
# Build module/ out of tree (kbuild, M=) against the kernel built by
# build-kernel.sh, in build/module/ARCH[-VARIANT] so that the source folder
# stays clean.  W=1 by default; the build fails on any warning.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

arch=${1:-}
variant=${2:-}
[ -n "$arch" ] || die "usage: build-module.sh x86_64|arm64 [debug|kcsan|bench]"
karch=$(karch "$arch")
cross=$(kcross "$arch")
obj=$BUILD/obj/$arch${variant:+-$variant}
[ -f "$obj/Module.symvers" ] || die "no built kernel in $obj (scripts/build/build-kernel.sh $arch $variant)"
out=$BUILD/module/$arch${variant:+-$variant}
mkdir -p "$out"
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' --exclude='.*' \
	--exclude=modules.order --exclude=Module.symvers \
	"$AFFSCHED_TOP/module/" "$out/"
make -s -C "$obj" ARCH="$karch" CROSS_COMPILE="$cross" M="$out" W="${W:-1}" modules \
	2>&1 | tee "$out/build.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || die "module build failed for $arch"
if grep -q 'warning:' "$out/build.log"; then
	die "module build for $arch has warnings (see above)"
fi
echo "$out/affsched.ko"
