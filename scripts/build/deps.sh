#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the build, the VMs, the tests and the user
# tools (rpmbuild for make rpm, matplotlib for the pictures, trace-cmd to
# read trace.dat files, b4 to take the series as a maintainer would) need.
# Idempotent: does nothing when everything is already present.
set -euo pipefail

pkgs=(
	build-essential bc bison flex libssl-dev libelf-dev cpio xz-utils kmod
	python3-ply python3-git python-is-python3
	rsync python3 git
	spin unifdef b4
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	qemu-system-x86 qemu-system-arm
	linux-source-5.10
	rpm python3-matplotlib trace-cmd
)

need=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
done
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing packages (${need[*]}); run as root or install them" >&2
	exit 1
fi

# linux-source-5.10 (5.10.y) lives in Debian's bullseye suite.
if ! grep -rqs 'bullseye' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	cat >/etc/apt/sources.list.d/affsched-bullseye.sources <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bullseye
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	# keep bullseye from replacing any bookworm package
	cat >/etc/apt/preferences.d/affsched-bullseye <<'PIN'
Package: *
Pin: release n=bullseye
Pin-Priority: 100
PIN
fi
# busybox-static for both guests is fetched by scripts/build/mkinitramfs.sh with
# 'apt-get download' (the two arches of it cannot be installed side by side).
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}"
