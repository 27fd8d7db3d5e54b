#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Schedule properties for even, odd and rack-labelled clusters, checked by
# plan_props.py over gd_plan's JSON; launch files checked for their shape.
B=${GD_TOP_BUILDDIR:-.}
S=${GD_TOP_SRCDIR:-.}/tests/cluster
# configure chose the interpreter (--enable-python-tests); run by hand, any python3.
[ -z "${GD_PYTHON_WHY:-}" ] || { echo "SKIP: Python checks: $GD_PYTHON_WHY" >&2; exit 77; }
python3() { "${PYTHON3:-$(command -v python3 || echo python3)}" "$@"; }
command -v "${PYTHON3:-python3}" >/dev/null 2>&1 || { echo "SKIP: python3 not found" >&2; exit 77; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for spec in "2 1 1 1" "3 2 2 1" "5 4 2 2" "8 8 8 3" "9 2 1 3" "32 8 8 3"; do
	set -- $spec
	"$B/gd_plan" --servers $1 --gpus-per-server $2 --rails $3 --repeats $4 \
		--nic-gbps 100 --quiet --json "$T/p$1.json" || fail "gd_plan $spec"
	python3 "$S/plan_props.py" "$T/p$1.json" || exit 1
done

# Racks: round 2 must pick the step with the most cross-rack pairs.
printf '%s\n' 'h1 rack=r1' 'h2 rack=r1' 'h3 rack=r2' 'h4 rack=r2 0:mlx5_4:0' > "$T/hosts"
"$B/gd_plan" --hosts "$T/hosts" --gpus-per-server 1 --rails 1 --nic-gbps 100 \
	--quiet --out-dir "$T/racks" || fail "gd_plan --hosts"
python3 "$S/plan_props.py" "$T/racks/plan.json" || exit 1
python3 - "$T/racks/plan.json" <<'PY' || fail "rack-aware round 2"
import json, sys
p = json.load(open(sys.argv[1]))
rack = {h["name"]: h["rack"] for h in p["hosts"]}
r2 = [q for s in p["steps"] if s["round"] == 2 for q in s["pairs"]]
assert all(rack[a] != rack[b] for a, b in r2), r2
assert p["hosts"][3]["associations"][0]["nic"] == "mlx5_4"
PY

# Launch files: 4 servers, 1 GPU: round 1 = 2 pairs x 2 directions x 1
# repeat; one srun per pair and step, with explicit node lists.
"$B/gd_plan" --servers 4 --gpus-per-server 1 --rails 1 --nic-gbps 100 \
	--repeats 1 --quiet --out-dir "$T/l" || fail "gd_plan launch files"
# The batch script reads its job steps from plan.steps: one srun per
# distinct ROUND STEP NODE_A NODE_B there.
n=$(awk '!/^#/ { print $1, $2, $3, $4 }' "$T/l/plan.steps" | sort -u | wc -l)
# round 1: 2 pairs; round 2: 2 pairs; round 3: 2 steps x 2 pairs
[ "$n" = 8 ] || fail "expected 8 job steps, got $n"
grep -q '^1 1 node01 node04 serial node01 client timeout -k 10 600 gd_write_bw .*out_json_file=\$RESULTS/c1-node01-node04-g0-ab-r1.json' "$T/l/plan.steps" ||
	fail "client side of the first execution in the steps file"
grep -q '^3 1 node01 node04 concurrent node04 server ' "$T/l/plan.steps" ||
	fail "round 3 lines of the steps file are not concurrent"
grep -q '^#SBATCH --nodelist=node\[01-04\]$' "$T/l/plan.sbatch" ||
	fail "batch script node list not folded"
! grep -q 'gd_write_bw' "$T/l/plan.sbatch" || fail "batch script holds command lines"
sh -n "$T/l/plan.cmds" || fail "command file is not valid sh"
bash -n "$T/l/plan.sbatch" || fail "batch script is not valid bash"
lines=$(grep '^ssh -n ' "$T/l/plan.cmds" | grep -vc 'gd_doctor ')
[ "$lines" = 8 ] || fail "expected 8 serial command lines (rounds 1-2), got $lines"
# before round 1, one gd_doctor envelope per server, started in the background
[ "$(grep -c '^ssh -n node0[1-4] "gd_doctor --json=$RESULTS/doctor-node0[1-4].json >/dev/null" &$' "$T/l/plan.cmds")" = 4 ] ||
	fail "expected one gd_doctor line per server before round 1"
[ "$(sed -n '/gd_doctor/,/^# round 1 /p' "$T/l/plan.cmds" | tail -n 2 | head -n 1)" = wait ] ||
	fail "the envelopes should be waited for before round 1"
grep -q '^DOCTOR=gd_doctor$' "$T/l/plan.sbatch" && grep -q 'srun .*--job-name="$PLAN-doctor"' "$T/l/plan.sbatch" ||
	fail "batch script: one gd_doctor job step before the rounds"
lines=$(grep -c '^{ ssh -n .*; } &$' "$T/l/plan.cmds")
[ "$lines" = 4 ] || fail "expected 4 concurrent lines (round 3), got $lines"
# Every run bounded (--run-limit, default 300 + 10 x 30 s), -D 5 (30 s over
# 1 size x 2 phases x 3 rounds) and with the
# plan's --repeat (default 3).
grep -q '^ssh -n node04 "timeout -k 10 600 gd_write_bw -d mlx5_0 -p 18515 -D 5 --repeat=3 --mem=cuda:0 --phases=HH,DD --out_json_file=$RESULTS/c1-node01-node04-g0-ab-r1.server.json' "$T/l/plan.cmds" ||
	fail "server side of the first execution"
[ "$(grep -o 'timeout -k 10 600 gd_write_bw [^"]* --repeat=3 ' "$T/l/plan.cmds" | wc -l)" = 24 ] ||
	fail "every side of the 12 executions should be bounded and repeated"
"$B/gd_plan" --servers 4 --gpus-per-server 1 --rails 1 --nic-gbps 100 \
	--repeats 1 --repeat 1 --run-limit 0 --quiet --slurm "$T/r1.sbatch" || fail "--repeat 1 --run-limit 0"
! grep -q -- '--repeat=\|timeout ' "$T/r1.steps" || fail "--repeat 1 and --run-limit 0 should leave both out"
python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["config"]
assert (c["repeat_per_run"], c["run_limit_s"]) == (3, 600), c' "$T/l/plan.json" ||
	fail "plan.json config: repeat_per_run 3, run_limit_s 600"
grep -q '\-\-label direction=a_to_b node04"; wait$' "$T/l/plan.cmds" ||
	fail "client side names the server host last"

# Loopback: every server on one host, --loopback runs, one line each.
"$B/gd_plan" --servers 2 --gpus-per-server 1 --rails 1 --nic-gbps 100 \
	--repeats 2 --quiet --loopback-host vm --nic-prefix rxe --gpu-mem none \
	--tool-args '-n 5' --gid-index 1 --commands "$T/lb.cmds" || fail "loopback"
grep -q '^timeout -k 10 600 gd_write_bw -d rxe0 -x 1 -p 18516 -n 5 --repeat=3 --loopback --out_json_file=\$RESULTS/c1-node01-node02-g0-ba-r1.json' "$T/lb.cmds" ||
	fail "loopback command line: $(sed -n 10p "$T/lb.cmds")"
dups=$(grep -o ' -p [0-9]*' "$T/lb.cmds" | sort | uniq -d)
[ -z "$dups" ] || fail "loopback executions share ports: $dups"
[ "$(grep -c -- ' --loopback ' "$T/lb.cmds")" = 6 ] || fail "loopback plan should have 6 runs (4 in round 1, 2 in round 3)"
# --auth-key PATH: every side of every run names the key file; a relative
# path is refused (each node reads it wherever its run starts).
"$B/gd_plan" --servers 4 --gpus-per-server 1 --rails 1 --nic-gbps 100 \
	--repeats 1 --quiet --auth-key /etc/gdperf.key --slurm "$T/auth.sbatch" \
	--commands "$T/auth.cmds" || fail "--auth-key"
runs=$(grep -o ' gd_write_bw [^"]*' "$T/auth.cmds" | wc -l)
keyed=$(grep -o ' gd_write_bw -d mlx5_0 -p [0-9]* --auth-key=/etc/gdperf.key ' "$T/auth.cmds" | wc -l)
[ "$runs" -gt 0 ] && [ "$keyed" = "$runs" ] || fail "--auth-key: $keyed of $runs command lines name the key file"
[ "$(grep -c -- '--auth-key=/etc/gdperf.key ' "$T/auth.steps")" = "$runs" ] ||
	fail "--auth-key: the Slurm steps file should name the key file in every one of its $runs runs"
"$B/gd_plan" --servers 4 --gpus-per-server 1 --rails 1 --nic-gbps 100 \
	--quiet --auth-key gdperf.key --commands "$T/rel.cmds" 2>"$T/rel.err"
[ $? = 2 ] && grep -q 'not an absolute path' "$T/rel.err" || fail "--auth-key: a relative path should be refused (exit 2)"
# Locality round (--locality-round, round 4): the round-1 pairs on GPU 0's
# NIC, both directions, once; near against far device, the device backend's
# own name (never a fixed one), the usual labels and --repeat.
for spec in "2 1 1" "5 4 2" "8 8 8"; do
	set -- $spec
	"$B/gd_plan" --servers $1 --gpus-per-server $2 --rails $3 --repeats 2 \
		--nic-gbps 100 --quiet --locality-round --json "$T/loc$1.json" ||
		fail "gd_plan --locality-round $spec"
	python3 "$S/plan_props.py" "$T/loc$1.json" || exit 1
done
"$B/gd_plan" --servers 5 --gpus-per-server 4 --rails 2 --nic-gbps 100 \
	--repeats 1 --locality-round --out-dir "$T/loc" >"$T/loc.txt" ||
	fail "gd_plan --locality-round --out-dir"
dev=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["config"]["gpu_mem"])' "$T/loc/plan.json")
grep -q '^  round 4 locality     2 steps, 6 executions$' "$T/loc.txt" ||
	fail "worksheet schedule lacks round 4: $(grep 'round 4' "$T/loc.txt")"
grep -q "picks $dev:near and $dev:far" "$T/loc.txt" || fail "worksheet does not name the devices of round 4"
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["config"]["locality_round"] is True' \
	"$T/loc/plan.json" || fail "plan.json config.locality_round"
[ "$(grep -c '^# round 4 locality step ' "$T/loc/plan.cmds")" = 2 ] || fail "round 4 steps in plan.cmds"
# round 3 (concurrent) is waited for before round 4 starts
grep -B1 '^# round 4 locality step 1$' "$T/loc/plan.cmds" | grep -q '^wait$' ||
	fail "round 4 starts before round 3's last step ended"
r4=$(grep -A99 '^# round 4 locality step 1$' "$T/loc/plan.cmds" | grep '^ssh -n ')
[ "$(echo "$r4" | wc -l)" = 6 ] || fail "expected 6 round-4 lines, got: $r4"
mem="--mem=$dev:near,$dev:far --phases=HH,D1D1,D2D2"
[ "$(echo "$r4" | grep -o -- "--repeat=3 $mem --out_json_file=" | wc -l)" = 12 ] ||
	fail "every side of round 4 should run $mem with --repeat=3"
echo "$r4" | grep -q -- '--out_json_file=$RESULTS/l1-node02-node05-g0-ab-r1.json --label plan=plan --label exec=l1-node02-node05-g0-ab-r1 --label round=locality --label step=1 --label repeat=1 --label server_a=node02 --label server_b=node05 --label gpu=0 --label nic=mlx5_0 --label rail=0 --label direction=a_to_b node05"; wait$' ||
	fail "round-4 client side and its labels"
# the bye server (node01) meets its round-1 partner in step 2
echo "$r4" | grep -q 'exec=l2-node01-node03-g0-ba-r1 ' || fail "round 4 for the bye's pair"
! grep -v 'round=locality' "$T/loc/plan.cmds" | grep -q -- ':near' || fail "near/far outside round 4"
[ "$(grep -c '^4 [12] node0[0-9] node0[0-9] serial node0[0-9] \(server\|client\) .*--label round=locality ' "$T/loc/plan.steps")" = 12 ] ||
	fail "round 4 in plan.steps: 6 executions x 2 sides, serial"
sh -n "$T/loc/plan.cmds" || fail "locality command file is not valid sh"
bash -n "$T/loc/plan.sbatch" || fail "locality batch script is not valid bash"
printf 'servers = 4\ngpus-per-server = 1\nrails = 1\nnic-gbps = 100\nlocality-round = yes\n' >"$T/loc.conf"
"$B/gd_plan" --config "$T/loc.conf" --quiet --csv "$T/loc.csv" || fail "locality-round = yes"
[ "$(grep -c '^l[0-9]-.*,4,locality,' "$T/loc.csv")" = 4 ] || fail "config locality-round = yes: round 4 in the CSV"
printf 'locality-round = no\n' >>"$T/loc.conf"
"$B/gd_plan" --config "$T/loc.conf" --quiet --csv "$T/loc.csv" || fail "locality-round = no"
! grep -q ',locality,' "$T/loc.csv" || fail "locality-round = no still plans round 4"
printf 'locality-round = maybe\n' >>"$T/loc.conf"
"$B/gd_plan" --config "$T/loc.conf" --quiet 2>"$T/err"
[ $? = 2 ] && grep -q -- '--locality-round' "$T/err" || fail "locality-round = maybe: $(cat "$T/err")"
"$B/gd_plan" --servers 4 --gpus-per-server 1 --rails 1 --nic-gbps 100 \
	--locality-round --gpu-mem none --quiet 2>"$T/err"
[ $? = 2 ] && grep -q -- "--locality-round: --gpu-mem 'none' is not device memory" "$T/err" ||
	fail "--locality-round with --gpu-mem none: $(cat "$T/err")"
echo "PASS: schedule properties and launch files"
