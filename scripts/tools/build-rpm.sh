#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-rpm.sh - build the kmod RPM (module/affsched.spec) of affsched.ko.
#
# Usage: build-rpm.sh [--kdir DIR [--kversion RELEASE]] [x86_64|arm64]
#
# Against the kernel that build-kernel.sh built in build/obj/ARCH (x86_64 by
# default), or with --kdir against any kernel build tree: kernel-devel's
# /usr/src/kernels/<release> on openEuler, where this script works as it
# does here.  The release is the tree's include/config/kernel.release
# unless --kversion gives it; the spec checks that the module's vermagic
# matches.  Makes the source tarball from the working tree, runs rpmbuild
# with its topdir in build/rpm, and prints the binary RPM's path last.
# Where rpm's database knows no packages (Debian), rpmbuild runs with
# --nodeps: the packages of BuildRequires are not in it.
#
# Exit status: 0 built, 1 build failed or no kernel tree, 2 bad arguments.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage() {
	sed -n 's/^# \{0,1\}//; 4,18p' "$0"
}

bad() {
	echo "${0##*/}: $*" >&2
	echo "usage: ${0##*/} [--kdir DIR [--kversion RELEASE]] [x86_64|arm64]" >&2
	exit 2
}

kdir= kversion= arch=
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help)
		usage
		exit 0
		;;
	--kdir | --kversion)
		[ $# -ge 2 ] && [ -n "$2" ] || bad "$1 needs a value"
		if [ "$1" = --kdir ]; then kdir=$2; else kversion=$2; fi
		shift 2
		;;
	--kdir=* | --kversion=*)
		[ -n "${1#*=}" ] || bad "${1%%=*} needs a value"
		if [ "${1%%=*}" = --kdir ]; then kdir=${1#*=}; else kversion=${1#*=}; fi
		shift
		;;
	-*) bad "unknown option '$1'" ;;
	*)
		[ -z "$arch" ] || bad "one ARCH only (got '$arch' and '$1')"
		case "$1" in
		x86_64 | arm64) arch=$1 ;;
		*) bad "unknown arch '$1' (x86_64 or arm64)" ;;
		esac
		shift
		;;
	esac
done
arch=${arch:-x86_64}
[ -z "$kversion" ] || [ -n "$kdir" ] || bad "--kversion needs --kdir"

command -v rpmbuild >/dev/null || die "rpmbuild not found: install rpm (scripts/build/deps.sh; openEuler: dnf install rpm-build)"

if [ -z "$kdir" ]; then
	kdir=$BUILD/obj/$arch
	[ -f "$kdir/Module.symvers" ] ||
		die "no built kernel in $kdir: run 'make kernel ARCH=$arch' (or scripts/build/build-kernel.sh $arch) first"
fi
abs=$(cd "$kdir" 2>/dev/null && pwd) || die "no such directory: $kdir"
kdir=$abs
[ -f "$kdir/Makefile" ] || die "$kdir is not a kernel build tree (no Makefile)"
if [ -z "$kversion" ]; then
	if [ -s "$kdir/include/config/kernel.release" ]; then
		kversion=$(cat "$kdir/include/config/kernel.release")
	else
		kversion=$(make -s -C "$kdir" kernelrelease)
	fi
fi
[ -n "$kversion" ] || die "cannot tell the kernel release of $kdir (use --kversion)"

opts=(--define "_topdir $BUILD/rpm" --define "kversion $kversion" --define "kdir $kdir")
# A cross build for arm64, the way build-module.sh does it.
rpmarch=$arch
[ "$arch" = arm64 ] && rpmarch=aarch64
kmake=""
if [ "$rpmarch" != "$(uname -m)" ]; then
	kmake="ARCH=$(karch "$arch") CROSS_COMPILE=$(kcross "$arch")"
	opts+=(--target "$rpmarch" --define "kmake_args $kmake")
fi
rpm -q rpm >/dev/null 2>&1 || opts+=(--nodeps)

spec=$AFFSCHED_TOP/module/affsched.spec
version=$(awk '$1 == "Version:" { print $2; exit }' "$spec")
[ -n "$version" ] || die "no Version: in $spec"
top=$BUILD/rpm
rm -rf "$top/BUILD" "$top/BUILDROOT"
mkdir -p "$top/SOURCES" "$top/SPECS"

# The source tarball, from the working tree: what the spec builds and ships.
files=(module/Kbuild module/Makefile module/affsched.c module/dkms.conf
	module/affsched.spec module/affsched-modprobe.conf
	README.md Documentation/interface.rst Documentation/tools.rst)
for f in "${files[@]}"; do
	[ -f "$AFFSCHED_TOP/$f" ] || die "missing $f"
done
mtime=$(git -C "$AFFSCHED_TOP" log -1 --format=%ct 2>/dev/null || echo 0)
tarball=$top/SOURCES/affsched-$version.tar.gz
tar -C "$AFFSCHED_TOP" --sort=name --owner=0 --group=0 --numeric-owner \
	--mtime="@$mtime" --transform="s,^,affsched-$version/," -cf - "${files[@]}" |
	gzip -n >"$tarball"
cp "$spec" "$top/SPECS/"

log "rpmbuild kmod-affsched $version for $kversion against $kdir${kmake:+ ($kmake)}"
rpmbuild -ba "${opts[@]}" "$top/SPECS/affsched.spec" >"$top/rpmbuild.log" 2>&1 ||
	{ tail -n 30 "$top/rpmbuild.log" >&2; die "rpmbuild failed (log: $top/rpmbuild.log)"; }

rpm=$(sed -n 's/^Wrote: \(.*\/kmod-affsched-[^/]*\.rpm\)$/\1/p' "$top/rpmbuild.log" | grep -v '\.src\.rpm$' | tail -n 1)
[ -n "$rpm" ] && [ -f "$rpm" ] || die "rpmbuild wrote no binary RPM (log: $top/rpmbuild.log)"
sed -n 's/^Wrote: /wrote /p' "$top/rpmbuild.log" >&2
echo "$rpm"
