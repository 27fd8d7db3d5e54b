# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Part "local" of the cluster test (sourced by node.sh; after "pdsh"): the
# same plan's local-launcher command file, started on both nodes at once
# with no remote shell (each node runs its own side of every execution,
# chosen by host name), then gd_report over the results with the plan: the
# same outcome as the pdsh campaign (pass, every execution's status, the
# coverage gate, no failure domain).
RES=$CAMP/local
D=$WORK/local
mkdir -p "$D" "$RES"
if [ "$GD_NODE" = node01 ]; then
	wait_flag local-ready 120 >/dev/null
	flag local-go
	t0=$(uptime_s)
	RESULTS=$RES run_bounded 600 "$D/cmds.out" sh "$PLAN/local.cmds"
	rc=$?
	wait_flag local-done 600 "$D/node02.rc" >/dev/null
	t1=$(uptime_s)
	gather "$RES"
	gst=$?
	n=$(ls "$RES"/*.json 2>/dev/null | grep -v '/doctor-' | grep -vc '\.server\.json$')
	st=1
	[ $rc = 0 ] && [ "$(cat "$D/node02.rc")" = 0 ] && [ $gst = 0 ] && [ "$n" = "$NEXEC" ] && st=0
	tap_check $st "the plan's local command file ran on both nodes at once in $((t1 - t0)) s: exit $rc on node01, $(cat "$D/node02.rc") on node02, $n of $NEXEC client documents" \
		"$D/cmds.out" "$RES.gather.err"
	run_bounded 120 "$D/report.md" gd_report --plan "$PLAN/plan.json" \
		--json "$D/report.json" --max-cv 1 --min-deviation 0.9 "$RES"
	rc=$?
	report_outcome "$D/report.json" >"$D/outcome"
	st=1
	[ $rc = "$(cat "$WORK/pdsh/report.rc" 2>/dev/null)" ] && [ -s "$D/outcome" ] &&
		cmp -s "$D/outcome" "$WORK/pdsh/outcome" && st=0
	tap_check $st "gd_report over the local-launcher campaign: exit $rc and the same outcome as through pdsh ($(cut -c1-200 "$D/outcome"))" "$D/report.md"
	[ $st = 0 ] || diag "pdsh outcome: $(cut -c1-400 "$WORK/pdsh/outcome")"
	flag local-checked
else
	flag local-ready
	wait_flag local-go 120 >/dev/null
	RESULTS=$RES run_bounded 600 "$D/cmds.out" sh "$PLAN/local.cmds"
	echo $? >"$D/rc"
	flag local-done "$D/rc"
	wait_flag local-checked 300 >/dev/null
fi
