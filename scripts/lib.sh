# SPDX-License-Identifier: GPL-2.0
# Common settings for the affsched scripts; source it, do not run it.

AFFSCHED_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${AFFSCHED_BUILD:-$AFFSCHED_TOP/build}
# The kernel tree the series is applied to: Debian's 5.10.y by default,
# or any git tree given with KSRC=/path (for example openEuler OLK-5.10).
KSRC=${KSRC:-$BUILD/linux}
BASE_TAG=affsched-base
BRANCH=affsched
PATCHES=${PATCHES:-$AFFSCHED_TOP/patches}
JOBS=${JOBS:-$(nproc)}

# The placeholder identity: it authors and signs off the series' own
# commits in the kernel tree (the scripts commit as it), and
# export-series.sh replaces it with the poster's identity (poster_ident).
PLACEHOLDER_NAME="Seed 4eda1ab2 maintainers"
PLACEHOLDER_EMAIL=maintainers@users.noreply.a-seed-4eda1ab2.example
export GIT_AUTHOR_NAME=${GIT_AUTHOR_NAME:-$PLACEHOLDER_NAME}
export GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL:-$PLACEHOLDER_EMAIL}
export GIT_COMMITTER_NAME=${GIT_COMMITTER_NAME:-$GIT_AUTHOR_NAME}
export GIT_COMMITTER_EMAIL=${GIT_COMMITTER_EMAIL:-$GIT_AUTHOR_EMAIL}

# poster_ident: "Name <email>" of whoever exports the series for posting:
# git's user.name and user.email as configured for this repository (or
# globally), else the placeholder.  The environment's GIT_AUTHOR_* are not
# consulted: the lines above set them for the scripts' own commits.
poster_ident() {
	local name email
	name=$(git -C "$AFFSCHED_TOP" config --get user.name 2>/dev/null || true)
	email=$(git -C "$AFFSCHED_TOP" config --get user.email 2>/dev/null || true)
	if [ -n "$name" ] && [ -n "$email" ]; then
		echo "$name <$email>"
	else
		echo "$PLACEHOLDER_NAME <$PLACEHOLDER_EMAIL>"
	fi
}

die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

log() {
	echo "==> $*" >&2
}

# vm_accel ARCH: the accelerator run-vm.sh gives a guest of ARCH: kvm,
# tcg,thread=single (every vCPU on one host thread) or tcg,thread=multi.
# KVM only for the host's own arch, when the host CPU advertises
# virtualisation and /dev/kvm is usable (some sandboxes expose a /dev/kvm
# that cannot run guests).  AFFSCHED_ACCEL=tcg|kvm overrides the choice;
# icount is single-threaded TCG (run-vm.sh adds the instruction counting).
# x86_64 guests get one TCG thread unless AFFSCHED_ACCEL=tcg-multi: QEMU
# 7.2's multi-threaded TCG can run stale code on an x86 guest after the
# kernel rewrites its own text with text_poke_bp() (the CPU that just
# patched a static key traps on the int3 it already removed, "int3: 0000
# [#1]"); flipping a vanilla tracepoint on and off under a wake-up load
# panics such a guest within seconds, and runs clean with one TCG thread.
# arm64 guests are not affected.
vm_accel() {
	local host kvm=0
	case "$(uname -m)" in
	x86_64) host=x86_64 ;;
	aarch64) host=arm64 ;;
	esac
	if [ -w /dev/kvm ]; then
		case "$host" in
		x86_64) grep -qw -e vmx -e svm /proc/cpuinfo && kvm=1 ;;
		arm64) kvm=1 ;;
		esac
	fi
	case "${AFFSCHED_ACCEL:-}" in
	kvm) kvm=1 ;;
	tcg | tcg-multi | icount) kvm=0 ;;
	"") ;;
	*) die "AFFSCHED_ACCEL must be tcg, tcg-multi, icount or kvm" ;;
	esac
	if [ "$1" = "$host" ] && [ $kvm = 1 ]; then
		echo kvm
	elif [ "${AFFSCHED_ACCEL:-}" = icount ] ||
		{ [ "$1" = x86_64 ] && [ "${AFFSCHED_ACCEL:-}" != tcg-multi ]; }; then
		echo tcg,thread=single
	else
		echo tcg,thread=multi
	fi
}

# cpu_list_expand LIST: the CPUs of a list such as "0-3,8", one per line
cpu_list_expand() {
	local part
	for part in ${1//,/ }; do
		seq "${part%-*}" "${part#*-}"
	done
}

# kernel ARCH and CROSS_COMPILE for an arch name: x86_64 or arm64
karch() {
	case "$1" in
	x86_64) echo x86 ;;
	arm64) echo arm64 ;;
	*) die "unknown arch '$1' (x86_64 or arm64)" ;;
	esac
}

kcross() {
	case "$1" in
	x86_64) echo "" ;;
	arm64) echo aarch64-linux-gnu- ;;
	*) die "unknown arch '$1' (x86_64 or arm64)" ;;
	esac
}

# Debian architecture name for an arch name
debarch() {
	case "$1" in
	x86_64) echo amd64 ;;
	arm64) echo arm64 ;;
	*) die "unknown arch '$1' (x86_64 or arm64)" ;;
	esac
}

# Kernel image built by build-kernel.sh
kimage() {
	case "$1" in
	x86_64) echo "$BUILD/obj/$1${2:+-$2}/arch/x86/boot/bzImage" ;;
	arm64) echo "$BUILD/obj/$1${2:+-$2}/arch/arm64/boot/Image" ;;
	*) die "unknown arch '$1' (x86_64 or arm64)" ;;
	esac
}

# apt_download DEBARCH DIR PKG...: download the Debian packages PKG (of
# architecture DEBARCH, added as a foreign one if needed) into DIR with
# 'apt-get download', updating the package lists once if they lack them.
apt_download() {
	local deb=$1 dir=$2
	shift 2
	dpkg --print-foreign-architectures | grep -qx "$deb" ||
		[ "$(dpkg --print-architecture)" = "$deb" ] || dpkg --add-architecture "$deb"
	(cd "$dir" && { apt-get download "$@" >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get download "$@"; }; })
}

# build_guest ARCH [VARIANT]: what a guest run needs, from nothing: the
# packages, the base tree with the series applied, and the kernel and
# module for ARCH (and VARIANT, see build-kernel.sh) and the selftests for
# ARCH (their output goes to the build logs, not to stdout).
build_guest() {
	local s=$AFFSCHED_TOP/scripts/build
	"$s/deps.sh"
	"$s/prepare-base.sh"
	"$s/apply-series.sh"
	"$s/build-kernel.sh" "$1" ${2:-} >/dev/null
	"$s/build-module.sh" "$1" ${2:-} >/dev/null
	"$s/build-selftests.sh" "$1" >/dev/null
}

# base_obj ARCH: make sure $BUILD/linux-base is a worktree of $KSRC at
# $BASE_TAG with a configured, prepared object directory for ARCH (the
# guest configuration), enough to compile single objects of the base;
# print that directory.  Used to compare objects with and without the
# series (w1-check.sh, switch-barriers.sh).
base_obj() {
	local base=$BUILD/linux-base bobj=$BUILD/obj/w1base-$1
	if [ ! -d "$base" ]; then
		git -C "$KSRC" worktree add -q --detach "$base" "$BASE_TAG" >&2
	else
		git -C "$base" checkout -q --detach "$BASE_TAG" >&2
	fi
	KSRC=$base AFFSCHED_OBJ=$bobj AFFSCHED_ALLOW_MISSING=1 AFFSCHED_PREPARE_ONLY=1 \
		"$AFFSCHED_TOP/scripts/build/build-kernel.sh" "$1" >/dev/null
	echo "$bobj"
}

# patches/series lists the patch files in the order 'git am' applies them.
# They form three series, each postable on its own; a comment line
#   # series NAME CHANGE-ID [needs PREREQUISITE...]
# starts each series' part of the list (CHANGE-ID is b4's; a PREREQUISITE
# is a series that must be applied first), and patches/NAME/ holds its
# cover letter.  In the kernel tree branch series/NAME ends at NAME's last
# patch.  scripts/build/export-series.sh --mbox makes the postable mboxes.
#
# The series have one text for both trees, except where a tree needs its
# own: patches/olk-5.10/ holds the openEuler OLK-5.10 versions of such
# patches, listed in patches/olk-5.10/series.  An OLK patch replaces the
# patch of the same number in patches/series, or is inserted at its number.
OLK_DIR=olk-5.10
# Lines of context of an OLK-5.10 patch, by number, where git's 3 would
# not apply to every OLK-5.10 state that make check checks: patch 6 uses
# the last reserved slot of task_struct, whose neighbours before it differ
# between states (testdata/olk-5.10-*/README.md).
declare -A OLK_CONTEXT=([6]=1)
SERIES_REF=series

# tree_kind DIR: "olk-5.10" for an openEuler OLK-5.10 tree (it has
# include/linux/kabi.h), "5.10" otherwise; AFFSCHED_TREE overrides.
tree_kind() {
	if [ -n "${AFFSCHED_TREE:-}" ]; then
		case "$AFFSCHED_TREE" in
		5.10 | "$OLK_DIR") echo "$AFFSCHED_TREE" ;;
		*) die "AFFSCHED_TREE must be 5.10 or $OLK_DIR (got '$AFFSCHED_TREE')" ;;
		esac
	elif [ -f "$1/include/linux/kabi.h" ]; then
		echo "$OLK_DIR"
	else
		echo 5.10
	fi
}

# series_list FILE: the entries FILE lists, one a line
series_list() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^[[:space:]]*$/d' "$1"
}

# series_headers: the "# series" lines of patches/series, without "# series "
series_headers() {
	[ -f "$PATCHES/series" ] || die "$PATCHES/series missing"
	sed -n 's/^#[[:space:]]*series[[:space:]]\{1,\}//p' "$PATCHES/series"
}

# series_names: the series of patches/series, in the order they apply
series_names() {
	series_headers | awk '{ print $1 }'
}

# series_field NAME N: field N of NAME's header (2: its change-id)
series_field() {
	series_headers | awk -v n="$1" -v f="$2" '$1 == n { print $f; exit }'
}

# series_prereqs NAME: the series NAME needs applied first, one a line
series_prereqs() {
	series_headers | awk -v n="$1" '$1 == n && $3 == "needs" { for (i = 4; i <= NF; i++) print $i; exit }'
}

# series_members NAME: the patch files of series NAME, in order
series_members() {
	awk -v n="$1" '
		/^#[ \t]*series[ \t]/ { sub(/^#[ \t]*series[ \t]+/, ""); in_n = ($1 == n); next }
		{ sub(/#.*/, ""); sub(/[ \t]+$/, "") }
		in_n && NF { print }' "$PATCHES/series"
}

# series_start NAME: where series NAME starts in the kernel tree: the
# branch of the series before it in patches/series, or the base tag.
series_start() {
	local prev=$BASE_TAG name
	while IFS= read -r name; do
		if [ "$name" = "$1" ]; then
			echo "$prev"
			return 0
		fi
		prev=$SERIES_REF/$name
	done < <(series_names)
	die "no series '$1' in patches/series"
}

# series_files KIND: the patches to apply to a KIND tree, in order, as paths
# relative to $PATCHES.  Fails if a series names a missing file or two
# patches of one series share a number.
series_files() {
	local kind=$1 p num
	local -A by_num=()
	[ -f "$PATCHES/series" ] || die "$PATCHES/series missing"
	while IFS= read -r p; do
		[ -f "$PATCHES/$p" ] || die "patches/series names $p, which does not exist"
		num=${p%%-*}
		[[ "$num" =~ ^[0-9]{4}$ ]] || die "patches/series: $p does not start with a 4-digit number"
		[ -z "${by_num[$num]:-}" ] || die "patches/series: $p and ${by_num[$num]} share number $num"
		by_num[$num]=$p
	done < <(series_list "$PATCHES/series")
	if [ "$kind" = "$OLK_DIR" ] && [ -f "$PATCHES/$OLK_DIR/series" ]; then
		local -A olk=()
		while IFS= read -r p; do
			[ -f "$PATCHES/$OLK_DIR/$p" ] ||
				die "patches/$OLK_DIR/series names $p, which does not exist"
			num=${p%%-*}
			[[ "$num" =~ ^[0-9]{4}$ ]] || die "patches/$OLK_DIR/series: $p does not start with a 4-digit number"
			[ -z "${olk[$num]:-}" ] || die "patches/$OLK_DIR/series: two patches share number $num"
			olk[$num]=1
			by_num[$num]=$OLK_DIR/$p
		done < <(series_list "$PATCHES/$OLK_DIR/series")
	fi
	[ ${#by_num[@]} -gt 0 ] || die "$PATCHES/series lists no patch"
	printf '%s\n' "${!by_num[@]}" | sort | while read -r num; do
		echo "${by_num[$num]}"
	done
}
