#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Drives contrib/bash-completion/gdperf the way bash does (COMP_WORDS split
# at COMP_WORDBREAKS, COMP_CWORD, COMP_LINE) under bash-completion, against
# the built programs and a fixture /sys and /proc tree. Checks that each
# program is offered exactly the options of its option table (for the
# benchmarks the entries of src/cli/options_table.c that apply to the
# program's test, for the other four their struct gd_opt tables; an entry
# flagged deprecated there is an alias no longer offered), with the same
# "takes an argument" reading, and that option values complete: a value of
# a fixed set (--output, -c, --rate_limit_type, --help=...) is offered
# exactly where the program itself accepts it.
set -u

top_src=${GD_TOP_SRCDIR:-.}
top_build=${GD_TOP_BUILDDIR:-.}
comp="$top_src/contrib/bash-completion/gdperf"
progs=${GD_PROGRAMS:-}
[ -n "$progs" ] || { echo "FAIL: GD_PROGRAMS is empty; run through make check"; exit 1; }

bc=
for f in ${GD_BASH_COMPLETION:-} /usr/share/bash-completion/bash_completion \
	/usr/local/share/bash-completion/bash_completion /etc/bash_completion; do
	[ -r "$f" ] && { bc=$f; break; }
done
if [ -z "$bc" ]; then
	echo "SKIP: bash-completion is not installed (no bash_completion script; set GD_BASH_COMPLETION)" >&2
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gd-comp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
checks=0

fail() {
	echo "FAIL: $*"
	status=1
}

# Fixture: three RDMA devices (mlx5_1 has one port), two NVIDIA GPUs,
# and a working directory with files of the kinds the options take.
for d in mlx5_0/ports/1 mlx5_0/ports/2 mlx5_1/ports/1 rxe0/ports/1; do
	mkdir -p "$tmp/root/sys/class/infiniband/$d"
done
mkdir -p "$tmp/root/proc/driver/nvidia/gpus/0000:3b:00.0" \
	"$tmp/root/proc/driver/nvidia/gpus/0000:86:00.0"
mkdir -p "$tmp/cwd/results" "$tmp/home"
touch "$tmp/cwd/a.json" "$tmp/cwd/curve.svg" "$tmp/cwd/topo.xml" "$tmp/cwd/hosts.txt"
printf '192.0.2.1 node-a\n192.0.2.2 node-b\n' >"$tmp/hosts"

# The option table of a program, "OPTION ARG" per line, ARG y or n, read
# from the source the binary was built from; for a benchmark only the
# entries that apply to its test.
table() {
	case $1 in
	gd_doctor) src=$top_src/src/tools/doctor/main.c ;;
	gd_plan) src=$top_src/src/tools/cluster/gd_plan.c ;;
	gd_report) src=$top_src/src/tools/cluster/gd_report.c ;;
	gd_compare) src=$top_src/src/tools/compare/gd_compare.c ;;
	*)
		# An entry runs from its '\t{ "' line to its '},' line; it is
		# the program's when its GD_AP_* tokens name the program's
		# verb, measure, both, or all (src/cli/options_priv.h).
		awk -v prog="$1" '
		function applies(e, v, m) {
			return e ~ ("[^A-Z_]GD_AP_(ALL|" v "|" m "|" v "_" m ")[^A-Z_]")
		}
		BEGIN { split(prog, p, "_"); verb = toupper(p[2]); meas = toupper(p[3]) }
		/gd_opt_table\[\] = \{/ { t = 1; next }
		t && /^};/ { exit }
		t && /^\t\{ "/ { first = $0; entry = ""; open = 1 }
		t && open { entry = entry " " $0 }
		t && open && /\},$/ {
			open = 0
			if (!applies(entry, verb, meas)) next
			split(first, f, "\""); rest = substr(first, index(first, "\", ") + 3)
			split(rest, a, ", "); arg = a[2] == "GD_T_FLAG" ? "n" : "y"
			print "--" f[2], arg
			# an optional argument attaches to the letter (-hall)
			if (entry ~ /GD_F_OPTARG/) arg = "n"
			if (a[1] ~ /^'\''.'\''$/) print "-" substr(a[1], 2, 1), arg
		}' "$top_src/src/cli/options_table.c"
		return
		;;
	esac
	# The entries of its struct gd_opt table (src/util/opt.h), each from
	# its '\t{ "' line to its '},' line: NAME, LETTER, ARG, ...; one
	# flagged GD_OPT_DEPRECATED is an alias no longer offered.
	awk -v offered="${2-}" '
	/^static const struct gd_opt [a-z_]+\[\] = \{/ { t = 1; next }
	t && /^};/ { exit }
	t && /^\t\{ "/ { entry = ""; open = 1 }
	t && open { entry = entry " " $0 }
	t && open && /\},$/ {
		open = 0
		if (offered && entry ~ /GD_OPT_DEPRECATED/) next
		split(entry, q, "\""); rest = substr(entry, index(entry, "\", ") + 3)
		split(rest, a, ", "); arg = a[2] == "GD_OPT_NOARG" ? "n" : "y"
		print "--" q[2], arg
		if (a[1] ~ /^'\''.'\''$/) print "-" substr(a[1], 2, 1), arg
	}' "$src"
}

# Run the completion for LINE (the cursor at its end) in bash with
# bash-completion loaded; print COMPREPLY sorted, one per line.
complete_line() {
	PATH="$top_build:$PATH" HOME="$tmp/home" HOSTFILE="$tmp/hosts" \
		BASH_COMPLETION_USER_DIR="$tmp/home/none" \
		_gdperf_root="$tmp/root" LINE="$1" BC="$bc" COMP="$comp" \
		bash --norc --noprofile -c '
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
		_gdperf "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" \
			"${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
		[[ ${#COMPREPLY[@]} -gt 0 ]] && printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort
		exit 0'
}

# expect LINE WORD... : the completion of LINE is exactly WORDs.
expect() {
	local line=$1 got want
	shift
	got=$(complete_line "$line" | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | LC_ALL=C sort | tr '\n' ' ')
	[ "$#" -eq 0 ] && want=
	checks=$((checks + 1))
	[ "$got" = "$want" ] || fail "'$line<TAB>' offers '$got', expected '$want'"
}

# What the completion itself read from --help: "OPTION KIND META".
parsed() {
	PATH="$top_build:$PATH" COMP="$comp" P="$1" bash --norc --noprofile -c '
		. "$COMP"
		_gdperf_options "$P"'
}

# 1. Every program: offered options == its option table, both ways.
n=0
for prog in $progs; do
	prog=${prog%.exe}
	[ -x "$top_build/$prog" ] || { fail "$top_build/$prog not built"; continue; }
	table "$prog" | LC_ALL=C sort -u >"$tmp/table"
	[ "$(wc -l <"$tmp/table")" -ge 4 ] || { fail "$prog: option table not found in the sources"; continue; }
	table "$prog" offered | LC_ALL=C sort -u >"$tmp/offered"
	grep '^--' "$tmp/offered" | cut -d' ' -f1 >"$tmp/want-long"
	cut -d' ' -f1 "$tmp/offered" | LC_ALL=C sort >"$tmp/want-all"
	complete_line "$prog --" | sed 's/=$//' | LC_ALL=C sort >"$tmp/got-long"
	complete_line "$prog -" | sed 's/=$//' | LC_ALL=C sort >"$tmp/got-all"
	checks=$((checks + 2))
	for kind in long all; do
		d=$(diff "$tmp/want-$kind" "$tmp/got-$kind" | grep '^[<>]' | tr '\n' ' ')
		[ -z "$d" ] || fail "$prog: $kind options offered differ from the option table (< table only, > completion only): $d"
	done
	# Argument or not, as the table says (gd_doctor --diff is a flag whose
	# metavariables A.json B.json are its positional envelopes).
	parsed "$prog" | awk '{ print $1, ($2 == "n" ? "n" : "y") }' |
		LC_ALL=C sort -u >"$tmp/got-args"
	[ "$prog" = gd_doctor ] && sed -i 's/^--diff y$/--diff n/' "$tmp/got-args"
	d=$(diff "$tmp/table" "$tmp/got-args" | grep '^[<>]' | tr '\n' ' ')
	[ -z "$d" ] || fail "$prog: argument-taking options differ from the option table: $d"
	n=$((n + 1))
done
[ "$n" -ge 11 ] || fail "only $n programs checked; GD_PROGRAMS='$progs'"

# 2. The value completers name only options some program has.
for prog in $progs; do table "${prog%.exe}"; done | cut -d' ' -f1 | LC_ALL=C sort -u >"$tmp/all-options"
grep -v '^[[:space:]]*#' "$comp" | grep -o -- '--[a-z][a-z0-9_-]*' | LC_ALL=C sort -u >"$tmp/named"
d=$(LC_ALL=C comm -23 "$tmp/named" "$tmp/all-options" | tr '\n' ' ')
[ -z "$d" ] || fail "$comp names options no program has: $d"

# 3. Values.
expect 'gd_write_bw -d ' mlx5_0 mlx5_1 rxe0
expect 'gd_write_bw --ib-dev=mlx' mlx5_0 mlx5_1
expect 'gd_read_lat -d mlx5_1 -i ' 1
expect 'gd_read_lat --ib-port=' 1 2
expect 'gd_send_bw --connection=' RC UC UD
expect 'gd_send_bw -c U' UC UD
expect 'gd_write_bw --connection=' RC UC
expect 'gd_atomic_lat -A ' CMP_AND_SWAP FETCH_AND_ADD
expect 'gd_atomic_bw --atomic_type=C' CMP_AND_SWAP
expect 'gd_write_lat --report-' --report-counters= --report-cycles --report-histogrm --report-unsorted
expect 'gd_write_bw --report' --report-both --report-counters= --report_gbits
expect 'gd_write_bw --mem=' host hugepage mmap: cuda:0 cuda:1 cuda:0000:3b:00.0 cuda:0000:86:00.0 cuda:near cuda:far
# a list: the second memory after the comma, the first kept
expect 'gd_write_bw --mem=host,' host,host host,hugepage host,mmap: host,cuda:0 host,cuda:1 host,cuda:0000:3b:00.0 host,cuda:0000:86:00.0 host,cuda:near host,cuda:far
expect 'gd_write_bw --mem=cuda:near,cuda:f' far
expect 'gd_write_bw --mem=cuda:0,cuda:1:' auto dmabuf peermem
expect 'gd_write_bw --mem=mmap:h' hosts.txt
expect 'gd_write_bw --mem=cuda:1:' auto dmabuf peermem
expect 'gd_write_bw --mem=cuda:0000:86:00.0:p' peermem
expect 'gd_write_bw --mem=h' host hugepage
expect 'gd_write_bw --use_cuda_bus_id=0000:8' 86:00.0
expect 'gd_atomic_bw --phases=HH,D' HH,DD HH,DH
expect 'gd_write_lat --output=' latency
expect 'gd_write_bw --output=' bandwidth message_rate
expect 'gd_send_bw --rate_limit_type=' SW
expect 'gd_send_bw --rate_units=' M g p
expect 'gd_read_lat --help=' all
expect 'gd_write_bw --progress=' auto line none
expect 'gd_write_bw --br' --brief
expect 'gd_write_bw --out_json_file=' a.json curve.svg hosts.txt results topo.xml
expect 'gd_write_bw --plot=' curve.svg results
expect 'gd_write_bw --counters-root=' results
expect 'gd_write_bw --size ' 
expect 'gd_write_bw -s 4K --ib' --ib-dev= --ib-port=
expect 'gd_write_bw node-' node-a node-b
expect 'gd_doctor --topology-xml=' results topo.xml
expect 'gd_doctor --diff ' a.json results
expect 'gd_doctor --diff a.json ' a.json results
expect 'gd_plan --tool gd_write_' gd_write_bw gd_write_lat
expect 'gd_plan --launcher ' clush local pdsh ssh
expect 'gd_plan --gpu-mem n' none
expect 'gd_plan --hosts h' hosts.txt
# --repeats, the deprecated alias of --campaign-repeats, is not offered;
# --repeat (rounds inside a run) is another option
expect 'gd_plan --repeat' --repeat=
expect 'gd_plan --camp' --campaign-repeats=
parsed gd_plan | grep -q '^--repeats r N d$' ||
	fail "gd_plan --repeats is not read as a deprecated option taking N"
expect 'gd_report --plots ' results
expect 'gd_report --plan ' a.json results
expect 'gd_report ' results

# 4. The values of every option that takes one word of a fixed set, on
# every benchmark that has it: offered exactly where the program accepts
# them. The set is what the program's own refusal of a bogus value names
# ("accepted values A, B, C"), or else the option table's metavariable
# (g|M|p, SW, all); each of its values is tried on the program itself
# (--dry-run --loopback, with the option it needs), exit 0 or refused.
enum_values() { # PROG OPTION NEEDS: the set, one per line
	# shellcheck disable=SC2086 # NEEDS is one option or none
	"$top_build/$1" --dry-run --loopback $3 "$2=@bogus" 2>&1 >/dev/null |
		sed -n 's/.* is not one of the accepted values //p' | sed 's/, /\n/g' >"$tmp/set"
	[ -s "$tmp/set" ] && { cat "$tmp/set"; return; }
	awk -v o="\"${2#--}\"" '$0 ~ "^\t\\{ " o "," { getline nx; print $0 nx }' \
		"$top_src/src/cli/options_table.c" | sed -n 's/.*GD_T_[A-Z0-9]*, OFF([a-z_]*), [^,]*, [^,]*,[[:space:]]*"\([^"]*\)".*/\1/p' |
		tr '|' '\n'
}
for prog in $progs; do
	prog=${prog%.exe}
	case $prog in gd_doctor | gd_plan | gd_report | gd_compare) continue ;; esac
	table "$prog" | cut -d' ' -f1 >"$tmp/opts"
	for e in '--output' '--connection' '--atomic_type' '--gate-undecided --expect-ratio=0.8' \
		'--progress' '--rate_limit_type --rate_limit=10' '--rate_units --rate_limit=1000' '--help'; do
		opt=${e%% *} needs=
		[ "$opt" = "$e" ] || needs=${e#* }
		grep -qx -- "$opt" "$tmp/opts" || continue
		enum_values "$prog" "$opt" "$needs" >"$tmp/universe"
		[ -s "$tmp/universe" ] || { fail "$prog $opt: no set of values found"; continue; }
		: >"$tmp/accepted"
		while read -r v; do
			# shellcheck disable=SC2086 # $needs is one option or none
			"$top_build/$prog" --dry-run --loopback $needs "$opt=$v" >/dev/null 2>&1 &&
				echo "$v" >>"$tmp/accepted"
		done <"$tmp/universe"
		LC_ALL=C sort -o "$tmp/accepted" "$tmp/accepted"
		complete_line "$prog $opt=" >"$tmp/offered-values"
		checks=$((checks + 1))
		cmp -s "$tmp/accepted" "$tmp/offered-values" ||
			fail "$prog $opt=: offers '$(tr '\n' ' ' <"$tmp/offered-values")', the program accepts '$(tr '\n' ' ' <"$tmp/accepted")' of '$(tr '\n' ' ' <"$tmp/universe")'"
	done
done

[ $status -eq 0 ] && echo "PASS: $checks completions of $n programs; options match the option tables both ways"
exit $status
