#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# export-series.sh: export the commits affsched-base..affsched of $KSRC into
# patches/ with 'git format-patch': one file per commit, numbered in apply
# order, and patches/series listing them.  Its "# series NAME CHANGE-ID
# [needs PREREQUISITE...]" lines are kept, each before the first patch of
# branch series/NAME (see lib.sh): they mark the three series.
# Deterministic: the same commits give byte-identical files (no dates or
# versions that depend on the machine or the time of export).
#
# export-series.sh --mbox [DIR] writes each series as it is posted, into
# DIR (default build/mbox): DIR/NAME/ with a cover letter (subject and text
# from patches/NAME/cover-letter.txt) and the series' patches numbered
# from 1, and DIR/NAME.mbx, the same as one b4-compatible mbox.  Each file
# has a Message-Id, the patches reply to the cover letter, headers are
# one line each (b4 0.12's am cannot copy a folded From: or Subject:), and
# the cover letter ends with base-commit (the base tag's commit),
# change-id, and for each prerequisite series its change-id and its
# patches' patch-ids (git patch-id --stable).
#
# export-series.sh --olk [N...] exports the openEuler OLK-5.10 versions of
# the patches numbered N (default: those patches/olk-5.10/series lists)
# from branch $OLK_BRANCH (affsched) of the OLK tree $OLK_TREE (build/olk,
# which scripts/check/olk-apply-check.sh makes with the series applied) into
# patches/olk-5.10/, with the same fixed settings, and writes its series.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# The poster: the placeholder identity of the kernel tree's commits
# becomes theirs in every From: and Signed-off-by: (see poster_ident in
# lib.sh).  Other authors (a backport's upstream author) stay.
POSTER=$(poster_ident)
[[ "$POSTER" =~ ^[^\<\>]+\ \<[^\<\>\ ]+@[^\<\>\ ]+\>$ ]] ||
	die "git user.name/user.email give '$POSTER', not 'Name <user@domain>'"

# sign_as DIR: in every DIR/*.patch, the placeholder's From: and
# Signed-off-by: lines become the poster's.  One line per From: header (b4
# 0.12's am cannot copy a folded one); a non-ASCII name is RFC 2047-encoded
# in the header, as git does.
sign_as() {
	python3 - "$1" "$PLACEHOLDER_NAME <$PLACEHOLDER_EMAIL>" "$POSTER" <<'PY'
import email.header, glob, os, re, sys
d, old, new = sys.argv[1:]
name, addr = new.rsplit(' <', 1)
try:
    name.encode('ascii')
    hdr = new
except UnicodeEncodeError:
    hdr = email.header.Header(name, 'utf-8').encode() + ' <' + addr
for path in sorted(glob.glob(os.path.join(d, '*.patch'))):
    s = open(path, encoding='utf-8').read()
    head, body = s.split('\n\n', 1)
    head = re.sub(r'^From: ' + re.escape(old.split(' <')[0]) + r'\s+<' +
                  re.escape(old.split(' <')[1]), 'From: ' + hdr.replace('\\', '\\\\'),
                  head, flags=re.M)
    body = body.replace('\nSigned-off-by: ' + old + '\n', '\nSigned-off-by: ' + new + '\n')
    open(path, 'w', encoding='utf-8').write(head + '\n\n' + body)
PY
}

# fmt_patch GIT_DIR OUT_DIR ARGS...: git format-patch with fixed settings,
# so that the user's git configuration does not leak in, signed by the
# poster.
fmt_patch() {
	local dir=$1 out=$2
	shift 2
	git -C "$dir" -c core.abbrev=12 -c diff.renames=true -c format.signature= \
		-c format.coverFromDescription=message -c format.useAutoBase=false \
		format-patch -q --zero-commit --no-signature -o "$out" "$@"
	sign_as "$out"
}

if [ "${1:-}" = --olk ]; then
	shift
	olk_tree=${OLK_TREE:-$BUILD/olk}
	olk_branch=${OLK_BRANCH:-$BRANCH}
	nums=("$@")
	if [ ${#nums[@]} -eq 0 ] && [ -f "$PATCHES/$OLK_DIR/series" ]; then
		mapfile -t nums < <(series_list "$PATCHES/$OLK_DIR/series" | sed 's/-.*//')
	fi
	[ ${#nums[@]} -gt 0 ] || die "--olk: no patch numbers given and no patches/$OLK_DIR/series"
	git -C "$olk_tree" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1 ||
		die "no $BASE_TAG tag in $olk_tree (run scripts/check/olk-apply-check.sh)"
	mapfile -t commits < <(git -C "$olk_tree" rev-list --reverse "$BASE_TAG..$olk_branch")
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for n in "${nums[@]}"; do
		[[ "$n" =~ ^[0-9]+$ ]] && [ "$((10#$n))" -ge 1 ] &&
			[ "$((10#$n))" -le ${#commits[@]} ] ||
			die "--olk: no patch $n on $olk_branch of $olk_tree (${#commits[@]} commits)"
		ctx=()
		[ -z "${OLK_CONTEXT[$((10#$n))]:-}" ] || ctx=("-U${OLK_CONTEXT[$((10#$n))]}")
		fmt_patch "$olk_tree" "$tmp" "${ctx[@]}" --start-number "$((10#$n))" -1 \
			"${commits[$((10#$n - 1))]}"
	done
	mkdir -p "$PATCHES/$OLK_DIR"
	rm -f "$PATCHES/$OLK_DIR"/*.patch
	cp "$tmp"/*.patch "$PATCHES/$OLK_DIR/"
	{
		echo "# OLK-5.10 versions: each replaces the patch of its number in ../series"
		(cd "$tmp" && ls ./*.patch | sed 's|^\./||')
	} >"$PATCHES/$OLK_DIR/series"
	log "exported ${#nums[@]} OLK-5.10 patch(es) to $PATCHES/$OLK_DIR"
	exit 0
fi

git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1 ||
	die "no $BASE_TAG tag in $KSRC"
mapfile -t names < <(series_names)
[ ${#names[@]} -gt 0 ] || die "patches/series has no '# series NAME CHANGE-ID' line"
# Each series' branch must follow the one before it; the last is affsched.
prev=$BASE_TAG
for name in "${names[@]}"; do
	ref=$SERIES_REF/$name
	git -C "$KSRC" rev-parse -q --verify "refs/heads/$ref" >/dev/null ||
		die "no branch $ref in $KSRC (scripts/build/apply-series.sh makes one per series)"
	git -C "$KSRC" merge-base --is-ancestor "$prev" "$ref" ||
		die "branch $ref does not contain $prev: the series must stack in the order of patches/series"
	[ "$(git -C "$KSRC" rev-list --count "$prev..$ref")" -gt 0 ] ||
		die "branch $ref has no commits on top of $prev"
	prev=$ref
done
[ "$(git -C "$KSRC" rev-parse "$prev")" = "$(git -C "$KSRC" rev-parse "$BRANCH")" ] ||
	die "branch $BRANCH is not where the last series ($prev) ends"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "${1:-}" = --mbox ]; then
	out=${2:-$BUILD/mbox}
	base=$(git -C "$KSRC" rev-parse "$BASE_TAG^{commit}")
	for name in "${names[@]}"; do
		ref=$SERIES_REF/$name
		cover=$PATCHES/$name/cover-letter.txt
		[ -f "$cover" ] || die "$cover missing (first line: subject, then the text)"
		change=$(series_field "$name" 2)
		[[ "$change" =~ ^[0-9]{8}-[a-z0-9-]+-[0-9a-f]{12}$ ]] ||
			die "patches/series: $name needs a change-id YYYYMMDD-slug-<12 hex digits> (got '$change')"
		fmt_patch "$KSRC" "$tmp/$name" --cover-letter "$(series_start "$name")..$ref"
		{
			echo "base-commit: $base"
			echo "change-id: $change"
			while IFS= read -r pre; do
				pre_change=$(series_field "$pre" 2)
				[ -n "$pre_change" ] || die "patches/series: $name needs $pre, which it does not list"
				echo "prerequisite-change-id: $pre_change:v1"
				git -C "$KSRC" log --reverse -p --format='commit %H' \
					"$(series_start "$pre")..$SERIES_REF/$pre" |
					git patch-id --stable | awk '{ print "prerequisite-patch-id: " $1 }'
			done < <(series_prereqs "$name")
		} >"$tmp/$name.trailers"
		subject=$(head -n 1 "$cover")
		date=$(git -C "$KSRC" log -1 --format=%aD "$ref")
		domain=$(echo "$POSTER" | sed 's/.*@//; s/>$//')
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
	done
	rm -rf "$out"
	mkdir -p "$out"
	for name in "${names[@]}"; do
		cp -a "$tmp/$name" "$out/"
		cat "$tmp/$name"/*.patch >"$out/$name.mbx"
	done
	log "wrote ${#names[@]} series as mboxes to $out"
	exit 0
fi

fmt_patch "$KSRC" "$tmp/all" "$BASE_TAG..$BRANCH"
mapfile -t files < <(cd "$tmp/all" && ls ./*.patch | sed 's|^\./||')
# patches/series: the files, each series' header before its first patch.
{
	echo "# affsched: the patches in the order 'git am' applies them (scripts/build/apply-series.sh),"
	echo "# as three series, each postable on its own (export-series.sh --mbox):"
	echo "#   # series NAME CHANGE-ID [needs PREREQUISITE...]"
	i=0
	for name in "${names[@]}"; do
		echo "# series $(series_headers | awk -v n="$name" '$1 == n { print; exit }')"
		n=$(git -C "$KSRC" rev-list --count "$(series_start "$name")..$SERIES_REF/$name")
		for ((k = 0; k < n; k++)); do
			echo "${files[$i]}"
			i=$((i + 1))
		done
	done
} >"$tmp/series"
rm -f "$PATCHES"/*.patch
cp "$tmp/all"/*.patch "$PATCHES"/
cp "$tmp/series" "$PATCHES/series"
log "exported ${#files[@]} patches in ${#names[@]} series to $PATCHES"
