# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# node01's side of part "slurm" (sourced): the campaigns through sbatch and
# their reports, and sbatch --test-only on a 512-server plan.

# plan NAME: gd_plan for the two nodes into $D/NAME (rounds 1 to 3).
plan() {
	run_bounded 60 "$D/$1.worksheet" gd_plan --servers 2 --gpus-per-server 1 \
		--rails 1 --nic-gbps 10 --repeats 2 --seconds 1 --name "$1" \
		--nic-prefix rxe --gpu-mem hugepage --gid-index "$GD_GID_INDEX" \
		--base-port 18700 --tool-args "-n 50 -s 65536" --out-dir "$D/$1"
}

# campaign NAME: submit $D/NAME/plan.sbatch from $CAMP/NAME, wait for the
# job, gather node02's documents; sets JOB, JSTATE, RES, NEXEC, NDOCS.
campaign() {
	local i
	mkdir -p "$CAMP/$1"
	pdsh -w node01,node02 "mkdir -p $CAMP/$1" >/dev/null 2>&1
	NEXEC=$(jq '.executions | length' "$D/$1/plan.json" 2>/dev/null)
	JOB=$(cd "$CAMP/$1" && sbatch --parsable "$D/$1/plan.sbatch" 2>"$D/$1.sbatch.err")
	JOB=${JOB%%;*}
	i=0
	JSTATE=NONE
	while [ -n "$JOB" ] && [ $i -lt 600 ]; do
		JSTATE=$(scontrol show job "$JOB" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
		case $JSTATE in PENDING | RUNNING | COMPLETING | CONFIGURING | "") ;; *) break ;; esac
		i=$((i + 1))
		sleep 1
	done
	RES=$CAMP/$1/results/$JOB
	mkdir -p "$RES"
	ssh -y -y -i /root/.ssh/id_dropbear node02 "tar -C $RES -cf - ." 2>"$D/$1.gather.err" | tar -C "$RES" -xf -
	NDOCS=$(ls "$RES"/*.json 2>/dev/null | grep -vc '\.server\.json$')
	diag "campaign $1: job $JOB $JSTATE after $i s, $NDOCS of $NEXEC client documents"
	diag_file "$CAMP/$1/slurm-$JOB.out" "slurm-$JOB.out"
}

plan ok
st=$?
tap_check $st "gd_plan writes plan.sbatch for node01 and node02, rounds $(jq -c '[.executions[].round] | unique' "$D/ok/plan.json" 2>/dev/null)" \
	"$D/ok.worksheet"
campaign ok
st=1
[ "$JSTATE" = COMPLETED ] && [ "$NDOCS" = "$NEXEC" ] && st=0
tap_check $st "sbatch plan.sbatch: job $JOB $JSTATE, $NDOCS of $NEXEC client documents (node02's gathered over ssh)" \
	"$D/ok.sbatch.err" "$D/ok.gather.err"
[ $st = 0 ] || slurm_logs
run_bounded 120 "$D/ok.report.md" gd_report --plan "$D/ok/plan.json" \
	--json "$D/ok.report.json" --max-cv 1 --min-deviation 0.5 "$RES"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$D/ok.report.json" ".pass == true
	and (.executions | length) == $NEXEC
	and ([.executions[] | select(.status == \"pass\")] | length) == $NEXEC
	and any(.acceptance.gates[]; .name == \"coverage\" and .pass == true)
	and (.domains | length) == 0" && st=0
tap_check $st "gd_report over the Slurm campaign with the plan: exit $rc, $NEXEC of $NEXEC planned executions present and passed, coverage complete, no failure domain" "$D/ok.report.md"
[ $st = 0 ] || jq -c '{pass, gates: .acceptance.gates, ex: [.executions[] | {id, status, reason}]}' "$D/ok.report.json" 2>&1 | cut -c1-3000 | sed 's/^/# /'

# The fault campaign: node02 downs its eth0 during one of its client runs.
plan fault
flag slurm-fault-armed
campaign fault
wait_flag slurm-fault-exec 300 "$D/fault-exec" >/dev/null
fexec=$(sed -n 's/^exec=//p' "$D/fault-exec")
diag "node02 downed eth0 during execution ${fexec:-?}"
run_bounded 120 "$D/fault.report.md" gd_report --plan "$D/fault/plan.json" \
	--json "$D/fault.report.json" --max-cv 1 --min-deviation 0.5 "$RES"
rc=$?
st=1
[ $rc = 3 ] && [ -n "$fexec" ] && json_ok "$D/fault.report.json" ".pass == false
	and any(.executions[]; .id == \"$fexec\" and .status != \"pass\")
	and any(.domains[]; tostring | test(\"node02\"))" && st=0
tap_check $st "fault on node02's link during $fexec: gd_report exit $rc, that execution not passed, a failure domain naming node02" "$D/fault.report.md"
diag "fault campaign domains: $(jq -c '.domains' "$D/fault.report.json" 2>&1 | cut -c1-1500)"
diag "fault campaign executions: $(jq -c '[.executions[] | {id, status, reason}]' "$D/fault.report.json" 2>&1 | cut -c1-1500)"

# 512 servers: Slurm's own check of the batch script (size limit, syntax
# of the #SBATCH lines, node list); the nodes do not exist here, so the
# answer is either a start estimate or a refusal that names the node list,
# never one about the script itself.
run_bounded 120 "$D/p512.worksheet" gd_plan --servers 512 --gpus-per-server 8 \
	--rails 8 --nic-gbps 400 --repeats 1 --seconds 10 --name big --quiet \
	--gpu-mem none --out-dir "$D/p512"
sz=$(wc -c <"$D/p512/plan.sbatch" 2>/dev/null)
(cd "$CAMP" && sbatch --test-only "$D/p512/plan.sbatch") >"$D/p512.test-only" 2>&1
rc=$?
st=1
grep -qi 'script.*size\|too large\|max_script_size' "$D/p512.test-only" || st=0
tap_check $st "sbatch --test-only on the 512-server plan.sbatch ($sz bytes): status $rc, no refusal of the script itself" "$D/p512.test-only"
diag "sbatch --test-only (512 servers): $(head -3 "$D/p512.test-only" | tr '\n' ' ')"
