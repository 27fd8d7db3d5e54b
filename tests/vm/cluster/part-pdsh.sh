# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Part "pdsh" of the cluster test (sourced by node.sh): a remote shell on
# both nodes (dropbear, key made on node01 and handed to node02 over the
# link), then gd_plan's pdsh command file for the two nodes, rounds 1 to 3,
# run from node01 with pdsh's ssh rcmd module, and gd_report over the
# results with the plan.
# Each node writes its own documents under the same absolute path; after
# the plan node01 copies node02's over ssh, standing in for the shared file
# system the command file asks for.
D=$WORK/pdsh
mkdir -p "$D" /root/.ssh /etc/dropbear
chmod 0700 /root/.ssh
printf '/bin/sh\n/bin/bash\n' >/etc/shells
# dropbear gives remote commands PATH=/usr/bin:/bin, as sshd would for an
# installed package: our programs go there too.
for p in /gd/bin/gd_*; do ln -sf "$p" "/usr/bin/${p##*/}"; done
ln -sf dbclient /usr/bin/ssh
# pdsh's ssh module runs "ssh" with these arguments (dbclient's spelling).
PDSH_RCMD_TYPE=ssh
PDSH_SSH_ARGS="-y -y -i /root/.ssh/id_dropbear -l%u %h"
export PDSH_RCMD_TYPE PDSH_SSH_ARGS
start_sshd() {
	dropbear -R -E -p 22 -P /run/dropbear.pid 2>"$D/dropbear.err" ||
		{ diag "$GD_NODE: dropbear did not start"; diag_file "$D/dropbear.err"; }
}

if [ "$GD_NODE" = node01 ]; then
	dropbearkey -t ed25519 -f /root/.ssh/id_dropbear >/dev/null 2>&1
	dropbearkey -y -f /root/.ssh/id_dropbear 2>/dev/null | grep '^ssh-' >"$D/id.pub"
	cp "$D/id.pub" /root/.ssh/authorized_keys
	chmod 0600 /root/.ssh/authorized_keys
	flag pdsh-key "$D/id.pub"
	start_sshd
	wait_flag pdsh-sshd 120 >/dev/null
	run_bounded 60 "$D/hostname.txt" pdsh -w node01,node02 hostname
	rc=$?
	st=1
	[ $rc = 0 ] && grep -qx 'node01: node01' "$D/hostname.txt" &&
		grep -qx 'node02: node02' "$D/hostname.txt" && st=0
	tap_check $st "pdsh (ssh rcmd, dropbear on both nodes) runs hostname on node01 and node02: exit $rc" "$D/hostname.txt"

	RES=/tmp/campaign/pdsh
	run_bounded 60 "$D/worksheet.txt" gd_plan --servers 2 --gpus-per-server 1 \
		--rails 1 --nic-gbps 10 --repeats 2 --seconds 1 --name pdsh \
		--nic-prefix rxe --gpu-mem hugepage --gid-index "$GD_GID_INDEX" \
		--base-port 18600 --tool-args "-n 50 -s 65536" --launcher pdsh \
		--results-dir "$RES" --out-dir "$D/plan"
	rc=$?
	nexec=$(jq '.executions | length' "$D/plan/plan.json" 2>/dev/null)
	st=1
	[ $rc = 0 ] && [ "${nexec:-0}" -gt 0 ] && grep -q '^pdsh -w node02 ' "$D/plan/plan.cmds" &&
		[ "$(jq '[.executions[].round] | unique | length' "$D/plan/plan.json")" -ge 2 ] && st=0
	tap_check $st "gd_plan for node01 and node02 (--launcher pdsh, huge-page D memory): exit $rc, $nexec executions in rounds $(jq -c '[.executions[].round] | unique' "$D/plan/plan.json" 2>/dev/null)" "$D/worksheet.txt"

	pdsh -w node01,node02 "mkdir -p $RES" >"$D/mkdir.txt" 2>&1
	t0=$(cut -d. -f1 /proc/uptime)
	RESULTS=$RES run_bounded 600 "$D/cmds.out" sh "$D/plan/plan.cmds"
	rc=$?
	t1=$(cut -d. -f1 /proc/uptime)
	ssh -y -y -i /root/.ssh/id_dropbear node02 "tar -C $RES -cf - ." 2>"$D/gather.err" | tar -C "$RES" -xf -
	gst=$?
	n=$(ls "$RES"/*.json 2>/dev/null | grep -vc '\.server\.json$')
	st=1
	[ $rc = 0 ] && [ $gst = 0 ] && [ "$n" = "$nexec" ] && st=0
	tap_check $st "the pdsh command file ran in $((t1 - t0)) s: exit $rc, $n of $nexec client documents (node02's gathered over ssh: status $gst)" \
		"$D/cmds.out" "$D/gather.err"
	diag "documents per node: node01 wrote $(grep -l '"hostname": *"node01"' "$RES"/*.json 2>/dev/null | wc -l), node02 wrote $(grep -l '"hostname": *"node02"' "$RES"/*.json 2>/dev/null | wc -l)"

	# TCG timing noise between identical runs is far above a real
	# cluster's; these checks are about the plumbing, as in cases/70-cluster.
	run_bounded 120 "$D/report.md" gd_report --plan "$D/plan/plan.json" \
		--json "$D/report.json" --max-cv 1 --min-deviation 0.5 "$RES"
	rc=$?
	st=1
	[ $rc = 0 ] && json_ok "$D/report.json" ".pass == true
		and ([.executions[] | select(.status == \"pass\")] | length) == $nexec
		and (.executions | length) == $nexec
		and any(.acceptance.gates[]; .name == \"coverage\" and .pass == true)" && st=0
	tap_check $st "gd_report over the pdsh campaign with the plan: exit $rc, $nexec of $nexec planned executions present and passed, coverage complete" "$D/report.md"
	[ $st = 0 ] || jq -c '{pass, gates: .acceptance.gates, ex: [.executions[] | {exec, status}]}' "$D/report.json" 2>&1 | cut -c1-2000 | sed 's/^/# /'
	flag pdsh-done
else
	wait_flag pdsh-key 300 /root/.ssh/authorized_keys >/dev/null
	chmod 0600 /root/.ssh/authorized_keys
	start_sshd
	flag pdsh-sshd
	wait_flag pdsh-done 900 >/dev/null
fi
