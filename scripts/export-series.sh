#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Export the kernel tree's series to patches/: for each series NAME of
# patches/series (in order), the commits from the previous series' branch
# (the base tag for the first) to branch series/NAME of $KSRC, with
# 'git format-patch', into patches/NAME/: one file per commit, numbered
# from 1, a cover letter (subject and text from patches/NAME/cover-letter.txt)
# and patches/NAME/series.  The last series' branch must be branch affsched.
#
# The files are a b4-compatible mbox when concatenated (0000 first): each
# has a Message-Id, the patches reply to the cover letter, and the cover
# letter ends with base-commit (the base tag's commit), change-id (from
# patches/series), and for each prerequisite series its change-id and the
# patch-ids (git patch-id --stable) of its patches.  Deterministic: the same
# commits give byte-identical files (no dates or versions that depend on
# the machine or the time of export).
#
# export-series.sh --olk [NAME/N...] exports the openEuler OLK-5.10 versions
# of patch N of series NAME (default: those patches/olk-5.10/series lists)
# from branch $OLK_BRANCH (affsched) of the OLK tree $OLK_TREE (build/olk,
# which scripts/olk-apply-check.sh makes with the series applied) into
# patches/olk-5.10/NAME/, with the same fixed settings, and writes its
# series.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# fmt_patch GIT_DIR OUT_DIR ARGS...: git format-patch with fixed settings,
# so that the user's git configuration does not leak in.
fmt_patch() {
	local dir=$1 out=$2
	shift 2
	git -C "$dir" -c core.abbrev=12 -c diff.renames=true -c format.signature= \
		-c format.coverFromDescription=message -c format.useAutoBase=false \
		format-patch -q --zero-commit --no-signature -o "$out" "$@"
}

if [ "${1:-}" = --olk ]; then
	shift
	olk_tree=${OLK_TREE:-$BUILD/olk}
	olk_branch=${OLK_BRANCH:-$BRANCH}
	ids=("$@")
	if [ ${#ids[@]} -eq 0 ] && [ -f "$PATCHES/$OLK_DIR/series" ]; then
		mapfile -t ids < <(series_list "$PATCHES/$OLK_DIR/series" | sed 's/^\([^/]*\)\/0*\([0-9][0-9]*\)-.*/\1\/\2/')
	fi
	[ ${#ids[@]} -gt 0 ] || die "--olk: no NAME/N given and no patches/$OLK_DIR/series"
	git -C "$olk_tree" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1 ||
		die "no $BASE_TAG tag in $olk_tree (run scripts/olk-apply-check.sh)"
	mapfile -t commits < <(git -C "$olk_tree" rev-list --reverse "$BASE_TAG..$olk_branch")
	# The OLK tree's commits are series_files olk-5.10, in that order.
	mapfile -t applied < <(series_files "$OLK_DIR")
	[ ${#applied[@]} -eq ${#commits[@]} ] ||
		die "--olk: $olk_branch of $olk_tree has ${#commits[@]} commits, the OLK-5.10 series ${#applied[@]}"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	out=()
	for id in "${ids[@]}"; do
		[[ "$id" =~ ^([a-z0-9-]+)/([0-9]+)$ ]] || die "--olk: '$id' is not NAME/N"
		name=${BASH_REMATCH[1]}
		n=$((10#${BASH_REMATCH[2]}))
		num=$(printf '%04d' "$n")
		k=-1
		for i in "${!applied[@]}"; do
			case ${applied[$i]} in
			"$name/$num"-* | "$OLK_DIR/$name/$num"-*) k=$i ;;
			esac
		done
		[ "$k" -ge 0 ] || die "--olk: no patch $n of series $name in the OLK-5.10 series"
		mkdir -p "$tmp/out/$name"
		rm -rf "$tmp/one"
		fmt_patch "$olk_tree" "$tmp/one" --start-number "$n" -1 "${commits[$k]}"
		f=$(cd "$tmp/one" && ls)
		mv "$tmp/one/$f" "$tmp/out/$name/"
		out+=("$name/$f")
	done
	rm -rf "${PATCHES:?}/$OLK_DIR"
	mkdir -p "$PATCHES/$OLK_DIR"
	cp -a "$tmp/out"/. "$PATCHES/$OLK_DIR/"
	{
		echo "# OLK-5.10 versions: each replaces the patch of its number in ../NAME/series"
		printf '%s\n' "${out[@]}" | sort
	} >"$PATCHES/$OLK_DIR/series"
	log "exported ${#ids[@]} OLK-5.10 patch(es) to $PATCHES/$OLK_DIR"
	exit 0
fi

git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1 ||
	die "no $BASE_TAG tag in $KSRC"
mapfile -t names < <(series_names)
[ ${#names[@]} -gt 0 ] || die "patches/series lists no series"
base=$(git -C "$KSRC" rev-parse "$BASE_TAG^{commit}")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prev=$BASE_TAG
total=0
for name in "${names[@]}"; do
	ref=$SERIES_REF/$name
	git -C "$KSRC" rev-parse -q --verify "refs/heads/$ref" >/dev/null ||
		die "no branch $ref in $KSRC (scripts/apply-series.sh makes one per series)"
	git -C "$KSRC" merge-base --is-ancestor "$prev" "$ref" ||
		die "branch $ref does not contain $prev: the series must stack in the order of patches/series"
	n=$(git -C "$KSRC" rev-list --count "$prev..$ref")
	[ "$n" -gt 0 ] || die "branch $ref has no commits on top of $prev"
	cover=$PATCHES/$name/cover-letter.txt
	[ -f "$cover" ] || die "$cover missing (first line: subject, then the text)"
	change=$(series_field "$name" 2)
	[[ "$change" =~ ^[0-9]{8}-[a-z0-9-]+-[0-9a-f]{12}$ ]] ||
		die "patches/series: $name needs a change-id YYYYMMDD-slug-<12 hex digits> (got '$change')"
	fmt_patch "$KSRC" "$tmp/$name" --cover-letter "$prev..$ref"

	# The cover letter's trailers: base, change-id, prerequisites.
	{
		echo "base-commit: $base"
		echo "change-id: $change"
		while IFS= read -r pre; do
			[ -n "$pre" ] || continue
			pre_change=$(series_field "$pre" 2)
			[ -n "$pre_change" ] || die "patches/series: $name needs $pre, which it does not list"
			echo "prerequisite-change-id: $pre_change:v1"
			pre_prev=$(series_start "$pre")
			git -C "$KSRC" log --reverse -p --format='commit %H' "$pre_prev..$SERIES_REF/$pre" |
				git patch-id --stable | awk '{ print "prerequisite-patch-id: " $1 }'
		done < <(series_prereqs "$name")
	} >"$tmp/$name.trailers"

	subject=$(head -n 1 "$cover")
	date=$(git -C "$KSRC" log -1 --format=%aD "$ref")
	domain=$(git -C "$KSRC" log -1 --format=%ae "$ref" | sed 's/.*@//')
	python3 - "$tmp/$name" "$cover" "$subject" "$date" "$change" "$domain" \
		"$tmp/$name.trailers" <<'PY'
import os, re, sys
d, cover, subject, date, change, domain, trailers = sys.argv[1:]
text = open(cover).read().split('\n', 1)[1].strip('\n')
tail = open(trailers).read()

def msgid(i):
    return f'<{change}-v1-{i}@{domain}>'

for f in sorted(os.listdir(d)):
    i = int(f.split('-', 1)[0])
    path = os.path.join(d, f)
    s = open(path).read()
    if i == 0:
        s = s.replace('*** SUBJECT HERE ***', subject, 1)
        s = s.replace('*** BLURB HERE ***', text, 1)
        s = s.rstrip('\n') + '\n\n' + tail
        s = '\n'.join('Date: ' + date if l.startswith('Date: ') else l
                      for l in s.split('\n'))
    head, body = s.split('\n\n', 1)
    # One line per header: git folds long ones, and b4 0.12's am cannot
    # copy a folded From: or Subject:.
    head = re.sub(r'\n[ \t]+', ' ', head)
    head += '\nMessage-Id: ' + msgid(i)
    if i:
        head += '\nIn-Reply-To: ' + msgid(0) + '\nReferences: ' + msgid(0)
    open(path, 'w').write(head + '\n\n' + body)
PY
	total=$((total + n))
	prev=$ref
done
[ "$(git -C "$KSRC" rev-parse "$prev")" = "$(git -C "$KSRC" rev-parse "$BRANCH")" ] ||
	die "branch $BRANCH is not where the last series ($prev) ends"

for name in "${names[@]}"; do
	mkdir -p "$PATCHES/$name"
	rm -f "$PATCHES/$name"/*.patch
	cp "$tmp/$name"/*.patch "$PATCHES/$name/"
	{
		echo "# series $name, in the order 'git am' applies it (scripts/apply-series.sh)"
		(cd "$tmp/$name" && ls ./*.patch | sed 's|^\./||' | grep -v '^0000-cover-letter')
	} >"$PATCHES/$name/series"
done
log "exported ${#names[@]} series ($total patches) with their cover letters to $PATCHES"
