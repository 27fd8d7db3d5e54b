# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Part "plan" of the cluster test (sourced by node.sh; after part "ssh"):
# one campaign plan for node01 and node02, rounds 1 and 3 (two servers have
# no round 2), written once with --launcher pdsh and once with --launcher
# local: the same plan (plan.json byte for byte), two command files. Two
# "GPUs" per node, both on rxe0 (one rail), huge-page memory as D; each run
# -n 50 -s 64K with the plan's --repeat (default 3) and a 40 s run limit.
# Its files go to the same path on node02 (ssh), as on a shared file system.
PLAN=$CAMP/plan
# camp_plan ARGS...: gd_plan with the campaign plan's arguments (HACKING's
# Slurm example uses the same, with --seconds 5, which the callers give:
# gd_plan refuses it beside --tool-args' own -D, as the Slurm part's fault
# campaign has); later arguments override.
camp_plan() {
	gd_plan --servers 2 --gpus-per-server 2 --rails 1 --nic-gbps 10 \
		--campaign-repeats 1 --name camp --nic-prefix rxe --gpu-mem hugepage \
		--gid-index "$GD_GID_INDEX" --base-port 18600 --run-limit 40 \
		--tool-args "-n 50 -s 65536" "$@"
}
if [ "$GD_NODE" = node01 ]; then
	mkdir -p "$PLAN"
	camp_plan --seconds 5 --launcher pdsh --out-dir "$PLAN" >"$WORK/plan.worksheet" 2>&1
	rc=$?
	camp_plan --seconds 5 --quiet --launcher local --commands "$PLAN/local.cmds" \
		--json "$PLAN/local.json" >"$WORK/plan-local.out" 2>&1
	rc2=$?
	NEXEC=$(jq '.executions | length' "$PLAN/plan.json" 2>/dev/null)
	nrep=$(grep -c -- '--repeat=3 ' "$PLAN/plan.steps" 2>/dev/null)
	st=1
	[ $rc = 0 ] && [ $rc2 = 0 ] && [ "${NEXEC:-0}" = 8 ] && cmp -s "$PLAN/plan.json" "$PLAN/local.json" &&
		[ "$nrep" = 16 ] && grep -q '^{ on node02 && timeout -k 10 40 gd_write_bw ' "$PLAN/local.cmds" &&
		grep -q '^pdsh -w node02 "timeout -k 10 40 gd_write_bw ' "$PLAN/plan.cmds" && st=0
	tap_check $st "gd_plan for node01 and node02 (--launcher pdsh and --launcher local: the same plan.json): exit $rc/$rc2, $NEXEC executions in rounds $(jq -c '[.executions[].round] | unique' "$PLAN/plan.json" 2>/dev/null), --repeat=3 in $nrep of 16 command lines" \
		"$WORK/plan.worksheet" "$WORK/plan-local.out"
	[ $st = 0 ] || cl_bail "no campaign plan"
	to_peer "$PLAN/plan.json" "$PLAN/plan.sbatch" "$PLAN/plan.steps" "$PLAN/local.cmds" 2>"$WORK/to_peer.err"
	rc=$?
	theirs=$(ssh -y -y -i /root/.ssh/id_dropbear node02 "cd $PLAN && sha256sum plan.json plan.sbatch plan.steps local.cmds" 2>>"$WORK/to_peer.err")
	ours=$(cd "$PLAN" && sha256sum plan.json plan.sbatch plan.steps local.cmds)
	st=1
	[ $rc = 0 ] && [ "$theirs" = "$ours" ] && st=0
	tap_check $st "the plan's files are at the same path on node02 ($PLAN, copied over ssh): checksums agree" "$WORK/to_peer.err"
	[ $st = 0 ] || cl_bail "the plan could not be copied to node02"
	flag plan-done
else
	wait_flag plan-done 300 >/dev/null
fi
