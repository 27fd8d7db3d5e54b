#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Every launch file gd_plan writes, for a table of cluster shapes (odd server
# count with the locality round, one rail, 8 by 8, 512 servers, a loopback
# host, a host list with racks and dotted names) and every launcher (ssh, pdsh, clush, local
# command files; the Slurm batch script and its steps file): the whole file
# parses (sh -n, bash -n), so does every command line inside it (each remote
# command of a command file, each COMMAND of the steps file, parsed one by
# one), shellcheck finds no error (-S error), and the batch script stays a
# few KiB whatever the cluster's size (Slurm refuses scripts above
# max_script_size, 4 MB by default). Without shellcheck the parse checks
# still run, then the test skips (77) saying so.
B=${GD_TOP_BUILDDIR:-.}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
SC=$(command -v shellcheck)

# parse_lines SHELL FILE WHAT: every line of FILE parses on its own in
# SHELL, as the body of a function (defined, never run), all in one process.
parse_lines() {
	"$1" -c 'n=0
	while IFS= read -r line; do
		n=$((n + 1))
		eval "gd_lint_() {
$line
}" 2>/dev/null || { echo "line $n: $line"; exit 1; }
	done' <"$2" >"$T/bad" || fail "$3: a line does not parse in $1: $(cut -c1-300 "$T/bad")"
}

# sample FILE: every line up to the first "# round", then the first eight
# lines after each "# round" marker.
sample() {
	awk '/^# round/ { k = 9 } !seen_round && !/^# round/ { print; next }
		{ seen_round = 1 } k > 0 { print; k-- }' "$1"
}

check_sc() { # SHELL FILE WHAT
	[ -n "$SC" ] || return 0
	"$SC" -S error -s "$1" "$2" >"$T/sc" 2>&1 || {
		head -40 "$T/sc"
		fail "$3: shellcheck -S error"
	}
}

# shape NAME GD_PLAN_ARGS...: all launch files of one cluster shape.
shape() {
	name=$1
	shift
	d=$T/$name
	mkdir -p "$d"
	"$B/gd_plan" "$@" --nic-gbps 100 --quiet \
		--slurm "$d/plan.sbatch" >"$d/out" 2>&1 || fail "$name: gd_plan $*: $(cat "$d/out")"
	# Above ~150 KB shellcheck gets slow (16 MB: minutes, gigabytes):
	# a sample then, as the lines of a step differ only in names and numbers.
	big=0
	[ "$(wc -c <"$d/plan.steps")" -gt 150000 ] && big=1
	# The batch script: whole-file parse and size.
	bash -n "$d/plan.sbatch" || fail "$name: plan.sbatch does not parse in bash"
	check_sc bash "$d/plan.sbatch" "$name: plan.sbatch"
	sz=$(wc -c <"$d/plan.sbatch")
	[ "$sz" -lt 4096 ] || fail "$name: plan.sbatch is $sz bytes; it must stay small (< 4 KiB)"
	echo "$name: plan.sbatch $sz bytes, plan.steps $(wc -c <"$d/plan.steps") bytes"
	# The steps file: its COMMAND column, one command per line, as the
	# batch script's gd_step evals it (bash).
	awk '!/^#/ { $1 = $2 = $3 = $4 = $5 = $6 = $7 = ""; sub(/^ +/, ""); print }' \
		"$d/plan.steps" >"$d/steps.cmds"
	[ -s "$d/steps.cmds" ] || fail "$name: no commands in plan.steps"
	parse_lines bash "$d/steps.cmds" "$name: plan.steps"
	if [ $big = 1 ]; then
		awk '!/^#/ && !seen[$1 " " $2]++' "$d/plan.steps" | head -64 |
			awk '{ $1 = $2 = $3 = $4 = $5 = $6 = $7 = ""; sub(/^ +/, ""); print }' >"$d/steps.sc"
	else
		cp "$d/steps.cmds" "$d/steps.sc"
	fi
	check_sc bash "$d/steps.sc" "$name: plan.steps commands"
	for l in ssh pdsh clush local; do
		c=$d/$l.cmds
		"$B/gd_plan" "$@" --nic-gbps 100 --quiet --launcher $l \
			--commands "$c" >"$d/out" 2>&1 || fail "$name: gd_plan --launcher $l: $(cat "$d/out")"
		sh -n "$c" || fail "$name: the $l command file does not parse in sh"
		bash -n "$c" || fail "$name: the $l command file does not parse in bash"
		grep -v '^#' "$c" >"$d/$l.lines"
		parse_lines bash "$d/$l.lines" "$name: $l command file"
		# What a remote shell runs: the quoted command after the host.
		grep -o '\(ssh -n\|pdsh -w\|clush -w\) [^ ]* "[^"]*"' "$c" |
			sed 's/^[a-z]* -[nw] [^ ]* "//; s/"$//' >"$d/$l.remote"
		if [ $l != local ] && ! grep -q -- '--loopback' "$c"; then
			[ -s "$d/$l.remote" ] || fail "$name: no remote commands found in the $l file"
			parse_lines bash "$d/$l.remote" "$name: $l remote commands"
		fi
		if [ $big = 1 ]; then
			sample "$c" >"$d/$l.sc"
		else
			cp "$c" "$d/$l.sc"
		fi
		check_sc sh "$d/$l.sc" "$name: $l command file"
	done
}

shape odd --servers 5 --gpus-per-server 4 --rails 2 --locality-round
shape one-rail --servers 4 --gpus-per-server 4 --rails 1
shape 8x8 --servers 8 --gpus-per-server 8 --rails 8
shape 512 --servers 512 --gpus-per-server 8 --rails 8 --repeats 1
shape loopback --servers 2 --gpus-per-server 1 --rails 1 --loopback-host vm \
	--gpu-mem none --nic-prefix rxe --gid-index 1 --tool-args '-n 5'
printf '%s\n' 'h1 rack=r1' 'h2.dc1 rack=r1 0:mlx5_3:0' 'x-9 rack=r2' >"$T/hosts.txt"
shape hosts --hosts "$T/hosts.txt" --gpus-per-server 2 --rails 2 --tool-args '-D 2 --timeout=20000'

# Constant size: the 512-server script is the 8-server one with a longer
# node list and name.
a=$(wc -c <"$T/8x8/plan.sbatch")
b=$(wc -c <"$T/512/plan.sbatch")
[ $((b - a)) -lt 16 ] || fail "plan.sbatch grows with the cluster: $a bytes for 8 servers, $b for 512"
grep -q '^#SBATCH --nodelist=node\[001-512\]$' "$T/512/plan.sbatch" || fail "512 servers: node list not folded"
grep -q '^#SBATCH --nodelist=h1,h2.dc1,x-9$' "$T/hosts/plan.sbatch" || fail "host list: node list $(grep nodelist "$T/hosts/plan.sbatch")"

if [ -z "$SC" ]; then
	echo "SKIP: sh -n, bash -n and per-line parse checks passed; shellcheck is not installed (apt-get install shellcheck)"
	exit 77
fi
echo "PASS: every launch file and command line parses and passes shellcheck -S error ($("$SC" --version | sed -n 's/^version: //p'))"
