#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The examples of the tools' pages, gd_compare(1), gd_doctor(1), gd_plan(1)
# and gd_report(1), read from their groff source and run: every gd_* command
# line of their .nf blocks, and an "Example: OPTIONS prints FIGURES" sentence
# with the figures checked. Each is judged by its page's EXIT STATUS; a usage
# error always fails. One line per example: PASS/FAIL, page, command, exit.
# shellcheck disable=SC2317 # the make_* functions are called as "make_$maker"
set -u
S=$(cd "${GD_TOP_SRCDIR:-.}" && pwd)
B=$(cd "${GD_TOP_BUILDDIR:-.}" && pwd)
# The gd_report examples read a corpus that make_corpus.py writes, and the
# --peer example connects to a python3 listener.
[ -z "${GD_PYTHON_WHY:-}" ] || { echo "SKIP: Python checks: $GD_PYTHON_WHY" >&2; exit 77; }
PY=${PYTHON3:-$(command -v python3 || echo python3)}
command -v "$PY" >/dev/null 2>&1 || { echo "SKIP: python3 not found" >&2; exit 77; }
PAGES="gd_compare gd_doctor gd_plan gd_report"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gd-manex.XXXXXX") || exit 1
listener=
trap '[ -z "$listener" ] || kill "$listener" 2>/dev/null; rm -rf "$tmp"' EXIT
status=0
TAB=$(printf '\t')

# The only changes made to a page's command before it runs, applied
# literally: PAGE (* for every page), FROM, TO, and why a machine without
# RDMA, GPU or cluster needs it. @TMP@ is the page's temporary directory,
# @PORT@ the local listener's port, @PLANARGS@ the options of the last
# gd_plan example run.
SUBST="\
*	/shared/	@TMP@/shared/	no shared file system here: the page's temporary directory stands for it
gd_plan	results/JOBID	results/4242	no Slurm job: a made-up job id, its results a corpus of the plan (FILES)
gd_report	results/JOBID	results/4242	no Slurm job: a made-up job id, its results a corpus of the plan (FILES)
gd_plan	gd_plan ... 	gd_plan @PLANARGS@ 	the page elides the options of its gd_plan example above with ...
gd_doctor	node16:18515	127.0.0.1:@PORT@	no node16, and gd_write_bw cannot listen without an RDMA device: a local TCP listener stands for the side channel, which --peer only connects to (gd_doctor(1))"

# The files the examples read, made in the current directory before the
# first command that names them: PAGE, PATH, MAKER (a make_* function).
# Besides these, every directory under the stand-in /shared/ that a command
# names exists, as on a cluster.
FILES="\
gd_compare	golden/node07.json	sweep
gd_compare	today/node07.json	sweep
gd_compare	nodeA.json	sweep
gd_compare	nodeB.json	sweep
gd_compare	run.json	sweep
gd_doctor	rails.txt	rails
gd_doctor	node07.json	doctor_live
gd_doctor	node08.json	doctor_fixture
gd_report	plan/plan.json	plan
gd_plan	hosts.txt	hosts
gd_plan	results/4242	corpus
gd_report	results/4242	corpus"

# What else an example must show, beyond its exit status: PAGE, a fragment
# of the command, a shell test run in the example's directory ($out: its
# stdout and stderr).
CHECKS="\
gd_doctor	--peer=	grep -q 'bootstrap-ok' \"\$out\"
gd_doctor	--diff	grep -Eq '^[1-9][0-9]* differences$' \"\$out\"
gd_doctor	--json=	test -s \"/shared/env/\$(hostname).json\"
gd_compare	--json cmp.json	grep -q '\"gdperf.compare/1\"' cmp.json
gd_plan	--out-dir	grep -q '^gd_plan worksheet' \"\$out\"
gd_plan	--commands plan/local.cmds	test -s plan/local.cmds
gd_plan	--hosts hosts.txt	test -s campaign/camp.sbatch && test -s campaign/camp.steps && ! grep -q generated campaign/camp.sbatch
gd_report	--markdown report.md	test -s report.md
gd_report	--json fleet.json	grep -q '\"gdperf.fleet/1\"' fleet.json
gd_report	--plots plots	test -s plots/rails.gp"

# The exit statuses an example may end with (each page's EXIT STATUS): a
# comparison of copies of one run, or of the fixture run (DD at 0.97 x HH)
# against a floor of 0.95, is not slower (0) or undecided (4); the
# doctor reports error-level findings (3) on a machine without RDMA; a
# fleet report may fail its gates (3) or leave its ratio gate undecided
# (4: the corpus has one round per run).
allowed() {
	case $1 in
	gd_compare) echo "0 4" ;;
	gd_doctor) echo "0 3" ;;
	gd_plan) echo "0" ;;
	gd_report) echo "0 3 4" ;;
	esac
}

make_sweep() { cp "$S/tests/fixtures/compare/write_bw-sweep.json" "$1"; }
make_rails() { cp "$S/tests/doctor/fixtures/rails.txt" "$1"; }
make_doctor_live() { "$B/gd_doctor" --json="$1" >/dev/null; [ -s "$1" ]; }
# Another node: the fixture tree of an 8-GPU dual-socket server.
make_doctor_fixture() {
	"$B/gd_doctor" --root="$S/tests/doctor/fixtures/root" \
		--topology-xml="$S/tests/doctor/fixtures/dual-socket-8gpu.xml" \
		--json="$1" >/dev/null
	[ -s "$1" ]
}
make_hosts() {
	printf '%s\n' 'gpu-a01 rack=r1' 'gpu-a02 rack=r1' \
		'gpu-b01 rack=r2 7:mlx5_9:7' 'gpu-b02 rack=r2' >"$1"
}
make_plan() {
	"$B/gd_plan" --servers 4 --gpus-per-server 2 --rails 2 --nic-gbps 400 \
		--quiet --out-dir "$(dirname "$1")"
}
make_corpus() {
	"$PY" "$S/tests/cluster/make_corpus.py" --plan plan/plan.json \
		--out "$1" --envelopes >/dev/null
}

# groff source of page $1 to logical lines of its .nf blocks, joined at a
# trailing \\ or \e and unescaped: "BLOCK<TAB>SECTION<TAB>TEXT". Only
# blocks with a gd_* command, or in EXAMPLES, are kept.
nf_lines() {
	awk -v tab="$TAB" '
	function plain(s) {
		gsub(/\\f(\[[^]]*\]|\([A-Za-z][A-Za-z]|[A-Za-z1-4])/, "", s)
		gsub(/\\-/, "-", s); gsub(/\\e/, "\\", s); gsub(/\\\\/, "\\", s)
		return s
	}
	function flush(i) {
		if (keep || sect == "EXAMPLES")
			for (i = 1; i <= n; i++) print blk tab sect tab line[i]
		n = 0; keep = 0
	}
	/^\.SH / { sect = substr($0, 5); gsub(/"/, "", sect); next }
	/^\.nf/ { nf = 1; blk++; n = 0; buf = ""; next }
	/^\.fi/ { if (nf) flush(); nf = 0; next }
	!nf || /^\.\\"/ { next }
	{
		s = $0
		if (buf != "") sub(/^[ \t]+/, "", s)
		if (s ~ /(\\\\|\\e)$/) {
			s = substr(s, 1, length(s) - 2)
			sub(/[ \t]+$/, "", s)
			buf = buf s " "
			next
		}
		t = plain(buf s); buf = ""
		line[++n] = t
		w = t; sub(/^[ \t]*([A-Za-z_][A-Za-z0-9_]*=[^ \t]*[ \t]+)*/, "", w)
		if (w ~ /^gd_[a-z_]+([ \t]|$)/) keep = 1
	}' "$1"
}

# The text of $2 with page $1's substitutions, literal, then the
# placeholders; the rows used are noted in $tmp/used.
subst() {
	printf '%s\n' "$SUBST" | PAGE=$1 CMD=$2 PTMP=$ptmp PORT=$port \
		PLANARGS=$planargs awk -F "$TAB" -v used="$tmp/used" '
	function lit(s, from, to,   i, r) {
		r = ""
		while ((i = index(s, from)) > 0) {
			r = r substr(s, 1, i - 1) to
			s = substr(s, i + length(from))
		}
		return r s
	}
	BEGIN { cmd = ENVIRON["CMD"] }
	($1 == "*" || $1 == ENVIRON["PAGE"]) && index(cmd, $2) {
		cmd = lit(cmd, $2, $3)
		print $1 "\t" $2 >>used
	}
	END {
		cmd = lit(cmd, "@TMP@", ENVIRON["PTMP"])
		cmd = lit(cmd, "@PORT@", ENVIRON["PORT"])
		print lit(cmd, "@PLANARGS@", ENVIRON["PLANARGS"])
	}'
}

# The first word of command $1 after its VAR=VALUE assignments.
program() {
	printf '%s\n' "$1" | awk '{
		for (i = 1; i <= NF && $i ~ /^[A-Za-z_][A-Za-z0-9_]*=/; i++) ;
		print $i }'
}

# Before command $2 of page $1 runs in $cwd: the stand-in /shared/
# directories it names, and the FILES it names that are not there yet.
prepare() {
	for p in $(printf '%s\n' "$2" | grep -o "$ptmp/shared/[^ ]*"); do
		mkdir -p "$(dirname "$p")" || return 1
	done
	printf '%s\n' "$FILES" | while IFS=$TAB read -r fpage path maker; do
		[ "$fpage" = "$1" ] || continue
		case " $2 " in *" $path "* | *"=$path "*) ;; *) continue ;; esac
		[ -e "$cwd/$path" ] && continue
		(cd "$cwd" && mkdir -p "$(dirname "$path")" && "make_$maker" "$path") ||
			{ echo "make_$maker $path failed"; return 1; }
		printf '%s\t%s\n' "$fpage" "$path" >>"$tmp/made"
	done
}

# judge PAGE CMD RC OUT ERR: the exit status the page allows, no usage
# error, the CHECKS rows that apply; prints the example's line.
judge() {
	prog=$(program "$2") why=
	case " $(allowed "$prog") " in
	*" $3 "*) ;;
	*) why=" (allowed: $(allowed "$prog"))" ;;
	esac
	grep -Eiq 'usage|unknown option|unrecognized option|invalid option|bad option|see gd_[a-z_]+ --help' "$5" &&
		why="$why (usage error: $(head -n 1 "$5"))"
	while IFS=$TAB read -r cpage frag test; do
		[ "$cpage" = "$1" ] || continue
		case $2 in *"$frag"*) ;; *) continue ;; esac
		printf '%s\t%s\n' "$cpage" "$frag" >>"$tmp/checked"
		test=$(subst "$1" "$test")
		# shellcheck disable=SC2034 # $out is read by the eval'd test
		(cd "$cwd" && out=$4 && eval "$test") 2>/dev/null ||
			why="$why (check failed: $test)"
	done <<-CHECKS_END
	$CHECKS
	CHECKS_END
	if [ -z "$why" ]; then
		echo "PASS: $1: $2 (exit $3)"
	else
		echo "FAIL: $1: $2 (exit $3)$why"
		sed 's/^/    | /' "$4" | tail -n 5
		status=1
	fi
}

# run PAGE CMD: one gd_* command of the page, in $cwd, the built programs
# first in PATH.
run() {
	nrun=$((nrun + 1))
	o=$ptmp/.out.$nrun
	if ! msg=$(prepare "$1" "$2"); then
		echo "FAIL: $1: $2 (not run: $msg)"
		status=1
		return
	fi
	(cd "$cwd" && PATH="$B:$PATH" sh -c "$2") </dev/null >"$o.o" 2>"$o.e"
	rc=$?
	cat "$o.o" "$o.e" >"$o"
	n=$((n + 1))
	judge "$1" "$2" "$rc" "$o" "$o.e"
	[ "$(program "$2")" != gd_plan ] || planargs=${2#*gd_plan }
}

# line PAGE TEXT: a logical line of an example block. "cd DIR && REST"
# moves the page's later examples to DIR, then REST is a line of its own.
# Lines whose program is not a gd_* one (sbatch, scontrol, pdsh, sh of a
# launch file) need Slurm, a cluster or RDMA devices: listed, not run.
line() {
	text=$(printf '%s\n' "$2" | sed 's/^[[:space:]]*//')
	[ -n "$text" ] || return 0
	text=$(subst "$1" "$text")
	case $text in
	"cd "*)
		dir=${text#cd }
		rest=
		case $dir in *" && "*) rest=${dir#* && } dir=${dir%% && *} ;; esac
		case $dir in /*) ;; *) dir=$cwd/$dir ;; esac
		if ! cwd=$(cd "$dir" && pwd); then
			echo "FAIL: $1: cd $dir: no such directory"
			status=1
		fi
		[ -z "$rest" ] || line "$1" "$rest"
		return 0
		;;
	esac
	case $(program "$text") in
	gd_*) run "$1" "$text" ;;
	*) echo "NOT RUN: $1: $text (not a gd_* program: needs Slurm, a cluster or RDMA devices)" ;;
	esac
}

# "Example: \fBOPTIONS\fR prints FIGURES." in page $1's running text:
# "OPTIONS<TAB>FIGURES", unescaped.
sentences() {
	awk '
	/^\./ { if (p != "") print p; p = ""; next }
	{ p = p " " $0 }
	END { if (p != "") print p }' "$1" | awk -v tab="$TAB" '
	{
		s = $0
		while ((i = index(s, "Example: \\fB")) > 0) {
			s = substr(s, i + 12)
			j = index(s, "\\fR prints ")
			if (!j) break
			opts = substr(s, 1, j - 1)
			figs = substr(s, j + 11)
			if (match(figs, /\.( |$)/)) figs = substr(figs, 1, RSTART - 1)
			gsub(/\\-/, "-", opts)
			print opts tab figs
		}
	}'
}

# The sentence's options run with the page's program; each "NUMBER LABEL"
# of FIGURES must be a line of its output.
sentence() {
	run "$1" "$1 $2"
	printf '%s\n' "$3" | sed 's/, and /\n/g; s/ and /\n/g; s/, /\n/g' >"$ptmp/figs"
	bad=0
	while read -r num label; do
		awk -v num="$num" -v lab="$label" '
		{ sub(/^ +/, "") }
		index($0, num " ") == 1 {
			r = substr($0, length(num) + 1); sub(/^ +/, "", r)
			if (index(r, lab) == 1) found = 1
		}
		END { exit !found }' "$o" && continue
		echo "FAIL: $1: the page says it prints \"$num $label\"; it does not"
		bad=1
		status=1
	done <"$ptmp/figs"
	[ "$bad" -eq 1 ] ||
		echo "PASS: $1: the $(wc -l <"$ptmp/figs") figures the page says it prints: $3"
}

# The stand-in side channel of gd_doctor --peer: accepts and closes.
"$PY" -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
while True:
    s.accept()[0].close()
' >"$tmp/port" &
listener=$!
# python's start on a busy machine: up to 30 s (a hang guard, not a bound)
for _ in $(seq 300); do
	[ -s "$tmp/port" ] && break
	sleep 0.1
done
port=$(cat "$tmp/port")
[ -n "$port" ] || { echo "FAIL: the local listener did not start"; exit 1; }

: >"$tmp/used"
: >"$tmp/made"
: >"$tmp/checked"
planargs=
nrun=0
for page in $PAGES; do
	src=$S/man/$page.1
	ptmp=$tmp/$page
	cwd=$ptmp
	n=0
	mkdir -p "$ptmp"
	nf_lines "$src" >"$ptmp/.lines" || exit 1
	while IFS=$TAB read -r _ _ text; do
		line "$page" "$text"
	done <"$ptmp/.lines"
	sentences "$src" >"$ptmp/.sentences"
	while IFS=$TAB read -r opts figs; do
		sentence "$page" "$opts" "$figs"
	done <"$ptmp/.sentences"
	echo "$page: $n example(s) run"
	if [ "$n" -eq 0 ]; then
		echo "FAIL: $page: no example found in $src (EXAMPLES .nf block)"
		status=1
	fi
done

# A row of the tables that no example used is stale: the page changed.
printf '%s\n' "$SUBST" | while IFS=$TAB read -r spage from _ _; do
	grep -qxF "$spage$TAB$from" "$tmp/used" ||
		{ echo "FAIL: substitution '$from' ($spage) applies to no example"; echo x >>"$tmp/stale"; }
done
printf '%s\n' "$FILES" | while IFS=$TAB read -r fpage path maker; do
	grep -qxF "$fpage$TAB$path" "$tmp/made" ||
		{ echo "FAIL: file $path ($fpage) is named by no example"; echo x >>"$tmp/stale"; }
done
printf '%s\n' "$CHECKS" | while IFS=$TAB read -r cpage frag _; do
	grep -qxF "$cpage$TAB$frag" "$tmp/checked" ||
		{ echo "FAIL: check '$frag' ($cpage) applies to no example"; echo x >>"$tmp/stale"; }
done
[ ! -e "$tmp/stale" ] || status=1
exit $status
