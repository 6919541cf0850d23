#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-hackbench.sh - Debian's hackbench (rt-tests) for a guest.
#
# Usage: fetch-hackbench.sh x86_64|arm64 OUTDIR
#
# Takes rt-tests and libc6 of ARCH from Debian with 'apt-get download' and
# puts into OUTDIR hackbench, the C library it needs and the dynamic loader
# as ld.so, so that a busybox guest runs it as
#   OUTDIR/ld.so --library-path OUTDIR OUTDIR/hackbench ARGS
# The packages are kept in build/cache/hackbench-DEBARCH.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: fetch-hackbench.sh x86_64|arm64 OUTDIR"
arch=$1 out=$2
deb=$(debarch "$arch")
case "$arch" in
arm64) loader=ld-linux-aarch64.so.1 ;;
x86_64) loader=ld-linux-x86-64.so.2 ;;
esac

cache=$BUILD/cache/hackbench-$deb
if [ ! -x "$cache/bin/hackbench" ]; then
	rm -rf "$cache"
	mkdir -p "$cache/bin"
	apt_download "$deb" "$cache" "rt-tests:$deb" "libc6:$deb"
	for p in "$cache"/*.deb; do
		dpkg-deb -x "$p" "$cache/root"
	done
	lib=$(dirname "$(find "$cache/root" -name libc.so.6 | head -n 1)")
	[ -f "$lib/libc.so.6" ] && [ -f "$lib/$loader" ] || die "libc6:$deb has no libc.so.6 or $loader"
	cp "$cache/root/usr/bin/hackbench" "$lib/$loader" "$lib/libc.so.6" "$lib/libpthread.so.0" \
		"$cache/bin/"
	mv "$cache/bin/$loader" "$cache/bin/ld.so"
	rm -rf "$cache/root" "$cache"/*.deb
fi
mkdir -p "$out"
cp -a "$cache/bin/." "$out/"
