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

# Identity for commits the scripts make in the kernel tree and for the
# cover letter's From: the one that authors and signs off every patch.
export GIT_AUTHOR_NAME=${GIT_AUTHOR_NAME:-Seed 4eda1ab2 maintainers}
export GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL:-maintainers@users.noreply.a-seed-4eda1ab2.example}
export GIT_COMMITTER_NAME=${GIT_COMMITTER_NAME:-$GIT_AUTHOR_NAME}
export GIT_COMMITTER_EMAIL=${GIT_COMMITTER_EMAIL:-$GIT_AUTHOR_EMAIL}

die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

log() {
	echo "==> $*" >&2
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
	local s=$AFFSCHED_TOP/scripts
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
		"$AFFSCHED_TOP/scripts/build-kernel.sh" "$1" >/dev/null
	echo "$bobj"
}

# patches/ holds three series, each postable on its own: one folder each
# with its patches, its own 'series' file and cover-letter.txt.
# patches/series lists the folders in the order they apply, one a line:
#   NAME CHANGE-ID [PREREQUISITE...]
# (CHANGE-ID is b4's; a PREREQUISITE is the NAME of a series that must be
# applied first).  In the kernel tree branch series/NAME ends at NAME's
# last patch, and branch affsched at the last series' last patch.
#
# The series have one text for both trees, except where a tree needs its
# own: patches/olk-5.10/NAME/ holds the openEuler OLK-5.10 versions of such
# patches of series NAME, listed in patches/olk-5.10/series as NAME/FILE.
# An OLK patch replaces the patch of the same number in NAME, or is
# inserted at its number.
OLK_DIR=olk-5.10
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

# series_names: the series of patches/series, in the order they apply
series_names() {
	[ -f "$PATCHES/series" ] || die "$PATCHES/series missing"
	series_list "$PATCHES/series" | awk '{ print $1 }'
}

# series_field NAME N: field N of NAME's line in patches/series (2: its
# change-id, 3...: its prerequisites); empty if there is none.
series_field() {
	series_list "$PATCHES/series" | awk -v n="$1" -v f="$2" '$1 == n { print $f; exit }'
}

# series_prereqs NAME: the series NAME needs applied first, one a line
series_prereqs() {
	series_list "$PATCHES/series" | awk -v n="$1" '$1 == n { for (i = 3; i <= NF; i++) print $i; exit }'
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

# series_files KIND [NAME]: the patches to apply to a KIND tree (all
# series, or only NAME), in order, as paths relative to $PATCHES.  Fails if
# a series names a missing file or two patches of one series share a number.
series_files() {
	local kind=$1 only=${2:-} name p num
	local -a names
	local -A by_num olk
	mapfile -t names < <(series_names)
	[ ${#names[@]} -gt 0 ] || die "$PATCHES/series lists no series"
	for name in "${names[@]}"; do
		[[ "$name" =~ ^[a-z0-9][a-z0-9-]*$ ]] || die "patches/series: bad series name '$name'"
		[ -z "$only" ] || [ "$only" = "$name" ] || continue
		[ -f "$PATCHES/$name/series" ] || die "$PATCHES/$name/series missing"
		by_num=()
		while IFS= read -r p; do
			[ -f "$PATCHES/$name/$p" ] || die "patches/$name/series names $p, which does not exist"
			num=${p%%-*}
			[[ "$num" =~ ^[0-9]{4}$ ]] || die "patches/$name/series: $p does not start with a 4-digit number"
			[ -z "${by_num[$num]:-}" ] || die "patches/$name/series: $p and ${by_num[$num]} share number $num"
			by_num[$num]=$name/$p
		done < <(series_list "$PATCHES/$name/series")
		if [ "$kind" = "$OLK_DIR" ] && [ -f "$PATCHES/$OLK_DIR/series" ]; then
			olk=()
			while IFS= read -r p; do
				[ "${p%%/*}" = "$name" ] || continue
				[ -f "$PATCHES/$OLK_DIR/$p" ] ||
					die "patches/$OLK_DIR/series names $p, which does not exist"
				num=${p#*/}
				num=${num%%-*}
				[[ "$num" =~ ^[0-9]{4}$ ]] || die "patches/$OLK_DIR/series: $p does not start with NAME/ and a 4-digit number"
				[ -z "${olk[$num]:-}" ] || die "patches/$OLK_DIR/series: two patches of $name share number $num"
				olk[$num]=1
				by_num[$num]=$OLK_DIR/$p
			done < <(series_list "$PATCHES/$OLK_DIR/series")
		fi
		[ ${#by_num[@]} -gt 0 ] || die "$PATCHES/$name/series lists no patch"
		printf '%s\n' "${!by_num[@]}" | sort | while read -r num; do
			echo "${by_num[$num]}"
		done
	done
	if [ -n "$only" ]; then
		printf '%s\n' "${names[@]}" | grep -qx "$only" || die "no series '$only' in patches/series"
	fi
	return 0
}
