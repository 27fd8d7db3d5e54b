# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# node01's side of part "slurm" (sourced): the campaign plan through sbatch,
# without and with the fault, their reports, and sbatch --test-only on a
# 512-server plan.

# campaign NAME PLANDIR: sbatch PLANDIR/plan.sbatch from $CAMP/NAME (the
# submit directory, at the same path on node02: the job steps run there and
# write results/JOBID under it), wait for the job, gather node02's
# documents; sets JOB, JSTATE, RES, NDOCS, WAITED.
campaign() {
	local i
	mkdir -p "$CAMP/$1"
	ssh -y -y -i /root/.ssh/id_dropbear node02 "mkdir -p $CAMP/$1" >/dev/null 2>&1
	JOB=$(cd "$CAMP/$1" && sbatch --parsable "$2/plan.sbatch" 2>"$D/$1.sbatch.err")
	JOB=${JOB%%;*}
	i=0
	JSTATE=NONE
	while [ -n "$JOB" ] && [ $i -lt 600 ]; do
		JSTATE=$(scontrol show job "$JOB" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
		case $JSTATE in PENDING | RUNNING | COMPLETING | CONFIGURING | "") ;; *) break ;; esac
		i=$((i + 1))
		[ $((i % 10)) = 0 ] && peer_aborted && cl_bail "$GD_PEER gave up ($(cat /tmp/peer-abort)) during the Slurm job $JOB"
		sleep 1
	done
	WAITED=$i
	RES=$CAMP/$1/results/$JOB
	mkdir -p "$RES"
	gather "$RES"
	NDOCS=$(ls "$RES"/*.json 2>/dev/null | grep -v '/doctor-' | grep -vc '\.server\.json$')
	diag "campaign $1: job $JOB $JSTATE after $i s, $NDOCS of $NEXEC client documents"
	diag_file "$CAMP/$1/slurm-$JOB.out" "slurm-$JOB.out"
}

# report NAME PLANDIR: gd_report over campaign NAME's results with the plan.
report() {
	run_bounded 120 "$D/$1.report.md" gd_report --plan "$2/plan.json" \
		--json "$D/$1.report.json" --max-cv 1 --min-deviation 0.9 "$RES"
	RC=$?
	report_outcome "$D/$1.report.json" >"$D/$1.outcome"
}

campaign ok "$PLAN"
st=1
[ "$JSTATE" = COMPLETED ] && [ "$NDOCS" = "$NEXEC" ] && st=0
tap_check $st "sbatch plan.sbatch (plan.steps at $PLAN on both nodes): job $JOB $JSTATE in $WAITED s, $NDOCS of $NEXEC client documents (node02's gathered over ssh)" \
	"$D/ok.sbatch.err" "$RES.gather.err"
[ $st = 0 ] || slurm_logs
report ok "$PLAN"
st=1
[ $RC = 0 ] && json_ok "$D/ok.report.json" ".pass == true
	and (.executions | length) == $NEXEC
	and ([.executions[] | select(.status == \"pass\")] | length) == $NEXEC
	and any(.acceptance.gates[]; .name == \"coverage\" and .pass == true)
	and (.domains | length) == 0" && cmp -s "$D/ok.outcome" "$WORK/pdsh/outcome" && st=0
tap_check $st "gd_report over the Slurm campaign with the plan: exit $RC, $NEXEC of $NEXEC planned executions present and passed, coverage complete, no failure domain: the pdsh campaign's outcome" "$D/ok.report.md"
# The batch script's first job step left one gd_doctor envelope per node:
# the inventory item holds; no GPU in these guests, so mapping stays open
# and says so.
st=1
[ -s "$RES/doctor-node01.json" ] && [ -s "$RES/doctor-node02.json" ] &&
	json_ok "$D/ok.report.json" '[.acceptance.checklist[] | select(.item == "inventory")][0].status == "satisfied"
	and ([.acceptance.checklist[] | select(.item == "mapping")][0] | .status == "open" and (.evidence | test("no GPU")))' && st=0
tap_check $st "Slurm campaign: gd_doctor's envelopes of node01 and node02 in the results; gd_report's inventory item satisfied, mapping open for want of a GPU" "$D/ok.report.md"
# back to the host with this part's work, for the schema check there
cp "$RES"/doctor-node01.json "$RES"/doctor-node02.json "$D/" 2>/dev/null
[ $st = 0 ] || diag "outcome: $(cut -c1-600 "$D/ok.outcome"); pdsh: $(cut -c1-600 "$WORK/pdsh/outcome" 2>/dev/null)"

# The plan again as plan "fault", node02's packets dropped in the middle of two of
# its runs: each run measures for 6 s (-D 3, two phases, one round), so the
# cut, 3 s after the run connected, lands inside the measurement. A run
# limit of 90 s, not 40: beside a busy CPU and two more guests, a round-3
# run of this plan was still measuring when 40 s ended it (SIGTERM), while
# the faulted runs end on their own 10 s completion timeout either way.
FPLAN=$CAMP/fault-plan
camp_plan --name fault --repeat 1 --run-limit 90 --tool-args "-D 3 -s 65536" --launcher pdsh \
	--quiet --out-dir "$FPLAN" >"$D/fault-plan.out" 2>&1 &&
	to_peer "$FPLAN/plan.json" "$FPLAN/plan.sbatch" "$FPLAN/plan.steps" 2>>"$D/fault-plan.out" ||
	cl_bail "no fault plan: $(head -3 "$D/fault-plan.out" | tr '\n' ' ')"
flag slurm-fault-armed
campaign fault "$FPLAN"
flag slurm-fault-over
wait_flag slurm-fault-done 300 "$D/fault.log" >/dev/null
diag_file "$D/fault.log" "node02 fault"
report fault "$FPLAN"
st=1
[ $RC = 3 ] && [ "$JSTATE" = COMPLETED ] && json_ok "$D/fault.report.json" ".pass == false
	and ([.executions[] | select(.status != \"pass\") | .id] | sort) == [\"$FAULT_A\", \"$FAULT_B\"]
	and ([.executions[] | select(.status == \"pass\")] | length) == $NEXEC - 2
	and [.domains[] | {unit, name}] == [{\"unit\": \"unresolved pair\", \"name\": \"node01:gpu1 or node02:gpu1\"}]" && st=0
tap_check $st "fault: node02's packets dropped (netem loss 100%) in the middle of $FAULT_A and of $FAULT_B (job $JOB $JSTATE): gd_report exit $RC, exactly those two executions failed, one failure domain: node01:gpu1 or node02:gpu1 (two servers cannot separate them: gd_report asks for a retest with new partners)" "$D/fault.report.md"
diag "fault campaign domains: $(jq -c '[.domains[] | {unit, name, evidence, action}]' "$D/fault.report.json" 2>&1 | cut -c1-1500)"
diag "fault campaign executions: $(jq -c '[.executions[] | {id, status}]' "$D/fault.report.json" 2>&1 | cut -c1-1500)"

# 512 servers, 8 GPUs each (4,096 GPUs): Slurm's own check of the batch
# script (size below max_script_size, #SBATCH lines, node list) against
# node[001-512], defined as CLOUD nodes of partition big; then the same
# script padded past 4 MB, which --test-only must refuse, so a pass above
# is Slurm having looked at the script.
P512=$CAMP/p512
mkdir -p "$P512"
run_bounded 120 "$D/p512.out" gd_plan --servers 512 --gpus-per-server 8 \
	--rails 8 --nic-gbps 400 --campaign-repeats 1 --seconds 10 --name big --quiet \
	--gpu-mem none --slurm "$P512/plan.sbatch"
sz=$(wc -c <"$P512/plan.sbatch" 2>/dev/null)
(cd "$P512" && sbatch --test-only -p big plan.sbatch) >"$D/p512.test-only" 2>&1
rc=$?
st=1
[ $rc = 0 ] && [ "${sz:-0}" -lt 4096 ] &&
	grep -q 'to start at .* using 4096 processors on nodes node\[001-512\] in partition big' "$D/p512.test-only" && st=0
tap_check $st "sbatch --test-only -p big on the 512-server plan.sbatch ($sz bytes, plan.steps $(wc -c <"$P512/plan.steps") bytes): status $rc, $(head -1 "$D/p512.test-only")" "$D/p512.out" "$D/p512.test-only"
cp "$P512/plan.sbatch" "$P512/padded.sbatch"
head -c 4300000 /dev/zero | tr '\0' 'x' | fold -w 100 | sed 's/^/# /' >>"$P512/padded.sbatch"
(cd "$P512" && sbatch --test-only -p big padded.sbatch) >"$D/p512-padded.test-only" 2>&1
rc=$?
st=1
[ $rc != 0 ] && [ "$(wc -c <"$P512/padded.sbatch")" -gt 4194304 ] &&
	! grep -q 'to start at' "$D/p512-padded.test-only" && st=0
tap_check $st "the same script padded to $(wc -c <"$P512/padded.sbatch") bytes: sbatch --test-only refuses it (status $rc: $(head -1 "$D/p512-padded.test-only"))" "$D/p512-padded.test-only"
