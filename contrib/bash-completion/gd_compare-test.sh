#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Drives contrib/bash-completion/gd_compare the way bash does, under
# bash-completion, with the built gd_compare on PATH: its options are those
# of its option table (through the family's script it sources), --phase,
# --direction and --gate-undecided offer their words, and the positional
# arguments and --json offer run documents and files.
set -u

top_src=${GD_TOP_SRCDIR:-.}
top_build=${GD_TOP_BUILDDIR:-.}
comp="$top_src/contrib/bash-completion/gd_compare"
bc=
for f in ${GD_BASH_COMPLETION:-} /usr/share/bash-completion/bash_completion \
	/usr/local/share/bash-completion/bash_completion /etc/bash_completion; do
	[ -r "$f" ] && { bc=$f; break; }
done
if [ -z "$bc" ]; then
	echo "SKIP: bash-completion is not installed (no bash_completion script; set GD_BASH_COMPLETION)" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gd-comp-cmp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/cwd/runs" "$tmp/home"
touch "$tmp/cwd/a.json" "$tmp/cwd/b.json" "$tmp/cwd/notes.txt"
status=0
checks=0

# The completion of LINE (cursor at its end), sorted, one per line.
complete_line() {
	PATH="$top_build:$PATH" HOME="$tmp/home" BASH_COMPLETION_USER_DIR="$tmp/home/none" \
		LINE="$1" BC="$bc" COMP="$comp" bash --norc --noprofile -c '
		cd "'"$tmp/cwd"'" || exit 1
		. "$BC" >/dev/null 2>&1
		. "$COMP"
		COMP_LINE=$LINE COMP_POINT=${#LINE} COMP_WORDS=()
		read -ra parts <<<"$LINE"
		for w in "${parts[@]}"; do
			while [[ $w =~ ^([^=:]*)([=:]+)(.*)$ ]]; do
				[[ ${BASH_REMATCH[1]} ]] && COMP_WORDS+=("${BASH_REMATCH[1]}")
				COMP_WORDS+=("${BASH_REMATCH[2]}")
				w=${BASH_REMATCH[3]}
			done
			[[ $w ]] && COMP_WORDS+=("$w")
		done
		[[ $LINE == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_gd_compare "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" \
			"${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
		[[ ${#COMPREPLY[@]} -gt 0 ]] && printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort
		exit 0'
}

expect() {
	local line=$1 got want
	shift
	got=$(complete_line "$line" | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | LC_ALL=C sort | tr '\n' ' ')
	[ "$#" -eq 0 ] && want=
	checks=$((checks + 1))
	[ "$got" = "$want" ] || { echo "FAIL: '$line<TAB>' offers '$got', expected '$want'"; status=1; }
}

[ -x "$top_build/gd_compare" ] || { echo "FAIL: $top_build/gd_compare not built"; exit 1; }
# the long options of its struct gd_opt table, "=" where they take a value
opts=$(awk -F'"' '/^\t\{ "[^"]+", (0|'\''.'\''), GD_OPT_(NOARG|ARG),/ {
	print "--" $2 ($3 ~ /GD_OPT_ARG/ ? "=" : "") }' "$top_src/src/tools/compare/gd_compare.c")
[ "$(echo "$opts" | wc -l)" -ge 8 ] || { echo "FAIL: gd_compare's option table not found"; exit 1; }
# shellcheck disable=SC2086 # one word per option
expect 'gd_compare --' $opts
expect 'gd_compare --phase ' HH DD HD DH
expect 'gd_compare --phase=D' DD DH
expect 'gd_compare --gate-undecided ' fail pass
expect 'gd_compare --direction=' forward reverse bidir
expect 'gd_compare ' a.json b.json runs
expect 'gd_compare a.json ' a.json b.json runs
expect 'gd_compare --json ' a.json b.json notes.txt runs
[ $status -eq 0 ] && echo "PASS: gd_compare completion: $checks lines complete as its option table and run documents say"
exit $status
