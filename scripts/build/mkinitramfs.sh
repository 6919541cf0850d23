#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh ARCH OUT.cpio.gz PAYLOAD_DIR
#
# Build a busybox initramfs for a QEMU guest.  /init mounts proc, sys,
# devtmpfs, debugfs and a tmpfs on /tmp, runs /payload/run.sh (from
# PAYLOAD_DIR) with its output on the console between the lines
# AFFSCHED-BEGIN and "AFFSCHED-EXIT <status>", and powers the guest off.
# busybox-static for ARCH is taken from Debian with 'apt-get download'.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || die "usage: mkinitramfs.sh x86_64|arm64 OUT.cpio.gz PAYLOAD_DIR"
arch=$1 out=$2 payload=$3
deb=$(debarch "$arch")
[ -f "$payload/run.sh" ] || die "$payload/run.sh missing"

cache=$BUILD/cache/busybox-$deb
if [ ! -x "$cache/bin/busybox" ]; then
	mkdir -p "$cache"
	apt_download "$deb" "$cache" "busybox-static:$deb"
	dpkg-deb -x "$cache"/busybox-static_*.deb "$cache/root"
	mkdir -p "$cache/bin"
	cp "$cache/root/bin/busybox" "$cache/bin/busybox"
	rm -rf "$cache/root" "$cache"/*.deb
fi

root=$(mktemp -d)
# mktemp makes it 0700, which would become /: tests that run as another
# user (scope_test.sh) need to reach /payload and /bin.
chmod 755 "$root"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,root,etc,lib/modules,payload}
cp "$cache/bin/busybox" "$root/bin/busybox"
cp -a "$payload"/. "$root/payload/"
cat >"$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s
export PATH=/sbin:/bin:/usr/sbin:/usr/bin HOME=/root
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs -o size=75% tmp /tmp
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
ln -s /proc/self/fd /dev/fd 2>/dev/null
echo "AFFSCHED-BEGIN"
cd /payload && sh ./run.sh </dev/null 2>&1
echo "AFFSCHED-EXIT $?"
sync
poweroff -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) >"$out"
