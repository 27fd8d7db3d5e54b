#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_plan worksheets against golden files (32x8x8 and an odd 5-server
# cluster; the header names the --repeat every run gets), the nine figures
# of the 32x8x8 case checked one by one, --seconds as each run's -D (or
# --tool-args' own -D counted), --campaign-repeats and its
# deprecated alias --repeats (which warns), every option in gd_plan(1),
# nonsense input rejected with exit 2 and the option named, every run's
# command line through the benchmark's --dry-run (refused with its
# message), generated host names said to be, and output folders made.
B=${GD_TOP_BUILDDIR:-.}
G=${GD_TOP_SRCDIR:-.}/tests/cluster/golden
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$B/gd_plan" --servers 32 --gpus-per-server 8 --rails 8 --nic-gbps 400 \
	--repeats 3 --seconds 30 > "$T/32.txt" || fail "gd_plan 32x8x8"
diff -u "$G/plan-32x8x8.txt" "$T/32.txt" || fail "32x8x8 worksheet differs"
# 16 pairs x 8 rails x 2 directions x 3 repeats = 768; 768 x 30 s = 6.4 h;
# one step: 48 executions per pair x 30 s = 24 min; 400/8 = 50 GB/s;
# x 8 rails = 400 GB/s; x 32 servers = 12.8 TB/s
for want in '256  GPUs' '256  associations' '16  pairs' '768  executions' \
	'6.4  serial hours' '24  ideal concurrent minutes' '50  GB/s per port' \
	'400  GB/s per server' '12.8  TB/s endpoint sum'; do
	grep -q "^ *$want " "$T/32.txt" || fail "missing '$want'"
done

"$B/gd_plan" --servers 5 --gpus-per-server 4 --rails 2 --nic-gbps 200 \
	--repeats 2 --seconds 10 > "$T/5.txt" || fail "gd_plan 5x4x2"
diff -u "$G/plan-5x4x2.txt" "$T/5.txt" || fail "5x4x2 worksheet differs"
# 2 disjoint pairs + the bye's pair = 3 slots x 4 GPUs x 2 x 2 = 48
grep -q '^ *48  executions' "$T/5.txt" || fail "odd executions"
grep -q 'bye: 5 servers is odd; node01 rests' "$T/5.txt" || fail "bye line"

# The same through a config file.
printf 'servers = 32\ngpus-per-server = 8 # per node\nrails = 8\nnic-gbps = 400\n' > "$T/c.conf"
"$B/gd_plan" --config "$T/c.conf" > "$T/c.txt" || fail "--config"
diff -u "$G/plan-32x8x8.txt" "$T/c.txt" || fail "--config worksheet differs"

# --campaign-repeats is the name of the campaign's repeats; --repeats, and
# the config key repeats, its deprecated alias: the same plan either way.
"$B/gd_plan" --servers 32 --gpus-per-server 8 --rails 8 --nic-gbps 400 \
	--campaign-repeats 3 --seconds 30 > "$T/cr.txt" || fail "--campaign-repeats"
diff -u "$G/plan-32x8x8.txt" "$T/cr.txt" || fail "--campaign-repeats worksheet differs"
for key in repeats campaign-repeats; do
	printf 'servers = 5\ngpus-per-server = 4\nrails = 2\nnic-gbps = 200\nseconds = 10\n%s = 2\n' \
		"$key" > "$T/$key.conf"
	"$B/gd_plan" --config "$T/$key.conf" > "$T/$key.txt" || fail "config key $key"
	diff -u "$G/plan-5x4x2.txt" "$T/$key.txt" || fail "config key $key: worksheet differs"
done
"$B/gd_plan" --help | grep -q '^ *--repeats=N  .*deprecated alias of --campaign-repeats' ||
	fail "--help does not call --repeats a deprecated alias"

# --seconds-from: the seconds per execution are a run's time account
# (wall_s 45 -> 768 x 45 s = 9.6 serial hours), and the worksheet names
# where they came from; a document without an account, or not a run
# document, is refused with the file named.
printf '{"schema": "gdperf.run/3", "time_account": {"wall_s": 45.0, "steps": {"window_s": 36.0}}}' >"$T/run.json"
"$B/gd_plan" --servers 32 --gpus-per-server 8 --rails 8 --nic-gbps 400 \
	--campaign-repeats 3 --seconds-from "$T/run.json" > "$T/sf.txt" || fail "--seconds-from"
grep -q '^ *9.6  serial hours' "$T/sf.txt" || fail "--seconds-from: 9.6 serial hours"
grep -q "^45 s per execution\|, 45 s per execution" "$T/sf.txt" || fail "--seconds-from: 45 s per execution"
grep -q "the time account of $T/run.json, 80% of it in measured windows" "$T/sf.txt" ||
	fail "--seconds-from: the worksheet names the run and its window share"
printf '{"schema": "gdperf.run/2"}' >"$T/old.json"
printf '{"schema": "gdperf.fleet/1"}' >"$T/fleet.json"
for f in old fleet missing; do
	"$B/gd_plan" --servers 4 --gpus-per-server 1 --rails 1 --seconds-from "$T/$f.json" \
		>"$T/sf-$f.out" 2>&1 && fail "--seconds-from $f.json accepted"
	grep -q -- "--seconds-from.*$T/$f.json" "$T/sf-$f.out" || fail "--seconds-from $f.json: the file is not named"
done
grep -q 'no time_account' "$T/sf-old.out" || fail "--seconds-from: a run without an account"

# --seconds is each run's -D: 30 s over 1 size x 2 phases x 3 rounds is
# -D 5 in every command (once), and the hours are those commands' (5 x 6 =
# 30 s); --tool-args' own -D is kept and counted instead (-a: 23 sizes x 2
# phases x 3 rounds x 1 s = 138 s, 768 x 138 s = 29.44 h: the README's
# example, 6.4 h before); with -n, or a tool without -D, no -D is added
# and --seconds stays the (named) guess; host memory only is one phase.
sh32="--servers 32 --gpus-per-server 8 --rails 8 --nic-gbps 400 --seconds 30"
"$B/gd_plan" $sh32 --quiet --commands "$T/d.cmds" --json "$T/d.json" || fail "gd_plan -D"
n=$(grep -c ' gd_write_bw -d mlx5_[0-7] -p [0-9]* -D 5 --repeat=3 .* gd_write_bw -d mlx5_[0-7] -p [0-9]* -D 5 --repeat=3 ' "$T/d.cmds")
all=$(grep -c 'gd_write_bw' "$T/d.cmds")
[ "$n" = "$all" ] && [ "$n" -ge 768 ] || fail "--seconds 30: $n of $all command lines with -D 5 on both sides"
[ "$(grep -o ' -D ' "$T/d.cmds" | wc -l)" = $((2 * all)) ] || fail "a side with two -D"
tr -d ' \n' <"$T/d.json" | grep -q '"seconds_per_execution":30.0,"seconds_source":"seconds","run_duration_s":5,"run_steps":6,' ||
	fail "plan.json: seconds_source, run_duration_s, run_steps"
"$B/gd_plan" ${sh32% --seconds 30} --tool-args '-a -D 1' --commands "$T/a.cmds" >"$T/a.txt" || fail "-a -D 1"
grep -q '^ *29.44  serial hours' "$T/a.txt" || fail "-a -D 1: 29.44 serial hours"
grep -q "138 s per execution" "$T/a.txt" && grep -q "^(seconds per execution: --tool-args' -D x 138 steps: 23 size(s) x 2 phase(s) x 3 round(s))$" "$T/a.txt" ||
	fail "-a -D 1: the worksheet does not say 138 s from --tool-args' -D"
grep -q 'gd_write_bw -d mlx5_0 -p 18515 -a -D 1 --repeat=3 --mem' "$T/a.cmds" || fail "-a -D 1: the command line"
"$B/gd_plan" $sh32 --tool-args '-n 50 -s 65536' --run-limit 40 --commands "$T/n.cmds" >"$T/n.txt" || fail "-n 50"
grep -q ' -D ' "$T/n.cmds" && fail "-n 50: gd_plan added -D"
grep -q 'timeout -k 10 40 gd_write_bw -d mlx5_0 -p 18515 -n 50 -s 65536 --repeat=3 ' "$T/n.cmds" || fail "-n 50: the command line"
grep -q '^ *6.4  serial hours' "$T/n.txt" && grep -q '^(seconds per execution: --seconds, a guess: --tool-args give -n' "$T/n.txt" ||
	fail "-n 50: --seconds is not the named guess"
"$B/gd_plan" $sh32 --tool gd_write_lat --commands "$T/l.cmds" >"$T/l.txt" || fail "gd_write_lat"
grep -q ' -D ' "$T/l.cmds" && fail "gd_write_lat has no -D, gd_plan added one"
grep -q '^(seconds per execution: --seconds, a guess: gd_write_lat has no -D' "$T/l.txt" || fail "gd_write_lat: the guess is not named"
"$B/gd_plan" $sh32 --gpu-mem none --seconds 10 --commands "$T/h.cmds" >"$T/h.txt" || fail "--gpu-mem none"
grep -q '^ *1.92  serial hours' "$T/h.txt" && grep -q 'gd_write_bw -d mlx5_0 -p 18515 -D 3 --repeat=3 --out_json_file' "$T/h.cmds" ||
	fail "--gpu-mem none --seconds 10: -D 3 x 3 steps, 768 x 9 s = 1.92 h"

# Every option of gd_plan's option table has its entry in gd_plan(1).
M=${GD_TOP_SRCDIR:-.}/man/gd_plan.1
for o in $(awk -F'"' '/^\t+\{ "[^"]+", (no|required|optional)_argument/ { print $2 }' \
	"${GD_TOP_SRCDIR:-.}/src/tools/cluster/gd_plan.c"); do
	pat=$(printf '%s' "--$o" | sed 's/-/\\\\-/g')
	grep -q "^\.B[IR]\{0,1\} .*$pat\( \|\$\)" "$M" || fail "gd_plan(1) has no entry for --$o"
done

bad() { # expected-option args...
	opt=$1; shift
	"$B/gd_plan" "$@" > /dev/null 2> "$T/err"
	rc=$?
	[ $rc -eq 2 ] || fail "'$*' exit $rc, expected 2"
	grep -q -- "$opt" "$T/err" || fail "'$*' message lacks $opt: $(cat "$T/err")"
}
base="--servers 4 --gpus-per-server 8 --nic-gbps 400"
bad --rails $base --rails 0
bad --rails $base --rails 3
bad --seconds $base --rails 8 --seconds -5
bad --servers --servers abc --gpus-per-server 8 --rails 8 --nic-gbps 400
bad --servers --servers 1 --gpus-per-server 8 --rails 8 --nic-gbps 400
bad --nic-gbps --servers 4 --gpus-per-server 8 --rails 8
bad --repeats $base --rails 8 --repeats 2x
bad --campaign-repeats $base --rails 8 --campaign-repeats 0
bad --launcher $base --rails 8 --launcher rsh
bad --repeat $base --rails 8 --repeat 0
bad --repeat $base --rails 8 --repeat 65
bad --run-limit $base --rails 8 --run-limit -1
# What the plan sets in every run, --tool-args may not give, in any
# spelling the benchmarks take; the refusal names gd_plan's own option.
for a in '-p 9999=--base-port' '-p9999=--base-port' '--port=9999=--base-port' \
	'--port 9999=--base-port' '-ap 1=--base-port' '-d mlx5_3=--hosts associations' \
	'--ib_dev mlx5_3=--hosts associations' '--ib-dev=mlx5_3=--hosts associations' \
	'-x 3=--gid-index' '-ax3=--gid-index' '--gid_index=3=--gid-index' \
	'--mem=host=--gpu-mem' '--mem host=--gpu-mem' '--phases=HH,DX=--gpu-mem' \
	'--phases HH=--gpu-mem' '--out_json_file=x.json=--results-dir' \
	'--out-json-file x.json=--results-dir' '--json=x.json=--results-dir' \
	'--label a=b=--name' '--label=a=b=--name' '-n 5 --repeat=2=--repeat' \
	'--repeat 2=--repeat' '--auth-key=/k=--auth-key' '--auth_key /k=--auth-key'; do
	args=${a%=*} want="gd_plan ${a##*=} instead"
	bad "$want" $base --rails 8 --tool-args "$args"
	grep -q -- "^gd_plan: error: --tool-args: '$args' gives .*, which the plan sets in every run: give $want" "$T/err" ||
		fail "--tool-args '$args': $(cat "$T/err")"
done
# A letter that takes no value lets the next one be an option (-ap: -p);
# after one that takes a value, the rest of the word is that value. Every
# one-letter option of the benchmarks' table, both ways.
tab=${GD_TOP_SRCDIR:-.}/src/cli/options_table.c
for l in $(sed -n "s/^\t{ \"[^\"]*\", '\(.\)', GD_T_FLAG.*/\1/p" "$tab"); do
	bad 'gd_plan --base-port instead' $base --rails 8 --tool-args "-${l}p 1"
done
for l in $(sed -n "s/^\t{ \"[^\"]*\", '\(.\)', GD_T_[A-Z0-9]*[^G],.*/\1/p" "$tab" | grep -v '^[pdx]$'); do
	"$B/gd_plan" $base --rails 8 --quiet --tool-args "-${l}p" 2>"$T/err"
	grep -q 'which the plan sets' "$T/err" && fail "--tool-args '-${l}p': p is -$l's value: $(cat "$T/err")"
done
# What the plan leaves to the user passes, through the benchmark's parser.
"$B/gd_plan" $base --rails 8 --quiet --tool-args '-a -n 200 -F' 2>"$T/err"
grep -q 'which the plan sets' "$T/err" && fail "'-a -n 200' refused: $(cat "$T/err")"
bad --tool-args $base --rails 8 --repeat 2 --tool-args '--run_infinitely'
bad '--tool-args -D' $base --rails 8 --tool-args '-D 0'
bad '--tool-args --max-size' $base --rails 8 --tool-args '-a --max-size=4X'
# --seconds and --tool-args' -D both set a run's length: refused at once
bad "--seconds 30 and --tool-args' -D 1" $sh32 --tool-args '-a -D 1'

# Each distinct command line goes through the benchmark's --dry-run: a
# line every run would refuse is refused with the benchmark's own message,
# before the worksheet, and nothing is written.
bad 'gd_write_bw: error: unknown option --frobnicate' $base --rails 8 \
	--tool-args '--frobnicate -s abc' --commands "$T/refused.cmds"
[ -e "$T/refused.cmds" ] && fail "a refused plan wrote its command file"
bad 'gd_write_lat: error: -D/--duration does not apply to gd_write_lat' $base \
	--rails 8 --tool gd_write_lat --tool-args '-D 5'
bad "would reject the test: field 'max-qps': ours=32 theirs=16" $base --rails 8 \
	--tool-args '-q 32'
bad 'gd_no_such_bench is neither beside gd_plan' $base --rails 8 --tool gd_no_such_bench
"$B/gd_plan" $base --rails 8 --tool-args '-q 32 --max-qps=32' --quiet ||
	fail "-q 32 with the --max-qps the servers will have"
"$B/gd_plan" $base --rails 8 --tool /no/such/dir/gd_read_bw --quiet --commands "$T/p.cmds" &&
	grep -q 'timeout -k 10 600 /no/such/dir/gd_read_bw -d ' "$T/p.cmds" ||
	fail "--tool as a path of the nodes: checked with the gd_read_bw beside gd_plan"

# --repeats, the deprecated alias, warns and names both meanings
"$B/gd_plan" $base --rails 8 --repeats 5 --repeat 5 --quiet 2>"$T/alias.err" ||
	fail "--repeats 5 --repeat 5"
grep -q 'warning: --repeats is the deprecated alias of --campaign-repeats (5 runs of each round-1 execution); the rounds inside one run are --repeat (now 5)' "$T/alias.err" ||
	fail "--repeats does not warn: $(cat "$T/alias.err")"

# Generated host names are said to be generated, in the worksheet and the
# launch files; a --hosts list is not. Output folders are made.
"$B/gd_plan" $base --rails 8 --slurm "$T/s3/camp.sbatch" \
	--commands "$T/c/d/plan.cmds" --out-dir "$T/o/p" >"$T/gen.txt" ||
	fail "--slurm s3/camp.sbatch: the folders are not made"
[ -s "$T/s3/camp.sbatch" ] && [ -s "$T/s3/camp.steps" ] && [ -s "$T/o/p/plan.json" ] ||
	fail "the plan's files in new folders"
note='host names node01..node04 are generated (--host-prefix node, --nic-prefix mlx5_): no --hosts list was given'
grep -qF "($note" "$T/gen.txt" || fail "the worksheet does not say the names are generated"
for f in "$T/s3/camp.sbatch" "$T/c/d/plan.cmds"; do
	grep -qF "# Note: $note" "$f" || fail "$f does not say the names are generated"
done
sed -n '/^#SBATCH --nodelist=node\[01-04\]$/{n;p;}' "$T/s3/camp.sbatch" | grep -qF "# Note: $note" ||
	fail "the note is not under the batch script's node list"
printf 'gpu-a rack=r1\ngpu-b rack=r1\ngpu-c rack=r2\ngpu-d rack=r2\n' >"$T/hosts"
"$B/gd_plan" --hosts "$T/hosts" --gpus-per-server 8 --rails 8 --nic-gbps 400 \
	--commands "$T/h.cmds" >"$T/h.txt" || fail "--hosts"
grep -q 'generated' "$T/h.txt" "$T/h.cmds" && fail "a --hosts plan calls its names generated"
echo "PASS: golden worksheets and input checks"
