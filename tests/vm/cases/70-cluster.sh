# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Cluster tools end to end on rxe0: a tiny gd_plan (two "servers" mapped to
# the guest itself, --loopback runs) executed by its own command file, real
# result documents, and gd_report aggregating them against the plan.
. /gd/guest-lib.sh

P=$WORK/plan
R=$WORK/results
mkdir -p "$P"
# 2 servers, 1 GPU, 1 rail, 2 repeats: round 1 = 1 pair x 1 lane x 2
# directions x 2 repeats = 4 runs; round 3 = 2 one-direction steps = 2 runs.
run_bounded 30 "$P/worksheet.txt" gd_plan --servers 2 --gpus-per-server 1 \
	--rails 1 --nic-gbps 100 --repeats 2 --seconds 1 --name vm \
	--loopback-host guest --nic-prefix rxe --gpu-mem none \
	--gid-index ${GD_VM_GID_INDEX:-1} --base-port 18700 \
	--tool-args "-n 20" --out-dir "$P"
rc=$?
st=1
[ $rc = 0 ] && [ -s "$P/plan.cmds" ] && [ -s "$P/plan.json" ] &&
	[ "$(jq '.executions | length' "$P/plan.json")" = 6 ] && st=0
tap_check $st "gd_plan tiny loopback plan: exit $rc, 6 executions" "$P/worksheet.txt"

RESULTS=$R run_bounded 240 "$P/cmds.out" sh "$P/plan.cmds"
rc=$?
n=$(ls "$R"/*.json 2>/dev/null | grep -vc '/doctor-')
env=$(ls "$R"/doctor-*.json 2>/dev/null | wc -l)
st=1
[ $rc = 0 ] && [ "$n" = 6 ] && [ "$env" = 1 ] && st=0
tap_check $st "the plan's command file ran: exit $rc, $n of 6 result documents and $env of 1 gd_doctor envelope (the loopback host's)" "$P/cmds.out"

st=1
json_ok "$R/c1-node01-node02-g0-ba-r2.json" '.schema == "gdperf.run/4" and
	.role == "loopback" and .labels.exec == "c1-node01-node02-g0-ba-r2" and
	.labels.round == "coverage" and .labels.direction == "b_to_a" and
	.labels.repeat == "2" and .labels.rail == "0"' && st=0
tap_check $st "result documents carry the plan's labels" "$R/c1-node01-node02-g0-ba-r2.json"

# Identical loopback runs differ by 10% or more under TCG; this case checks
# the plumbing (plan -> launch -> documents -> report), so the outlier floor
# is raised above that noise. The outlier logic has its own corpus test.
run_bounded 60 "$P/report.md" gd_report --plan "$P/plan.json" \
	--json "$P/report.json" --max-cv 1 --min-deviation 0.5 "$R"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$P/report.json" '.pass == true and
	([.executions[] | select(.status == "pass")] | length) == 6 and
	(.associations[] | select(.server == "node01" and .gpu == 0) |
	 .round1 == "pass" and .round3 == "pass") and
	(.acceptance.checklist[] | select(.item == "connectivity") |
	 .status == "satisfied") and
	(.acceptance.checklist[] | select(.item == "handover") |
	 .status == "open")' && st=0
tap_check $st "gd_report over the guest's results: exit $rc, every execution passes, coverage complete" \
	"$P/report.md"

rm -f "$R/c1-node01-node02-g0-ab-r1.json"
run_bounded 60 "$P/report2.md" gd_report --plan "$P/plan.json" \
	--json "$P/report2.json" --max-cv 1 --min-deviation 0.5 "$R"
rc=$?
st=1
[ $rc = 3 ] && json_ok "$P/report2.json" '.pass == false and
	([.executions[] | select(.status == "untested")] | length) == 1 and
	(.acceptance.gates[] | select(.name == "coverage") | .pass == false)' &&
	st=0
tap_check $st "a missing result document fails the coverage gate: exit $rc" "$P/report2.md"
exit 0
