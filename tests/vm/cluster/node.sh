#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Guest script of both cluster nodes (GD_NODE says which). node01 checks and
# prints the TAP lines; node02 serves its part and prints diagnostics only.
# Parts, in order, each a barrier on the link: the paired run between the
# two rxe devices; a remote shell (dropbear, for pdsh and for gathering
# results); one campaign plan for both nodes; that plan through pdsh, through
# the local launcher and through Slurm (with and without a fault on node02's
# link); last, faults on the link itself (tc netem, eth0 down) under single
# runs. GD_CLUSTER_PARTS narrows (pdsh, local and slurm need ssh and plan).
# A node that cannot go on says so to the other (cl_bail), which then stops
# too instead of waiting for the guest timeout.
. /gd/guest-lib.sh
. "$GD_VM_PAYLOAD/cluster-lib.sh"

PARTS=${GD_CLUSTER_PARTS:-paired ssh plan pdsh local slurm netem}
WORK=/tmp/work
# Every node keeps the campaigns' files at the same paths: plan.sbatch and
# plan.steps must be readable at one path on every node.
CAMP=/tmp/campaign
mkdir -p "$WORK" "$CAMP"
gd_stage "cluster setup"
if ! cl_setup; then
	[ "$GD_NODE" = node01 ] && tap_not_ok "$GD_NODE: eth0, rxe0 on eth0 and the peer's ping"
	exit 1
fi
if [ "$GD_NODE" = node01 ]; then
	tap_ok "node01: rxe0 on eth0 with GID $GD_GID_INDEX ::ffff:$GD_NODE_ADDR, node02 ($GD_PEER_ADDR) answers ping over the link"
fi
diag "$GD_NODE: up $(cut -d' ' -f1 /proc/uptime) s after boot, rxe0 on eth0, GID index $GD_GID_INDEX"
echo 64 >/proc/sys/vm/nr_hugepages

for part in $PARTS; do
	gd_stage "part $part"
	t0=$(uptime_s)
	# (the repeat runner counts each result to the part begun before it)
	diag "$GD_NODE: part $part begins at $t0 s"
	. "$GD_VM_PAYLOAD/part-$part.sh"
	t1=$(uptime_s)
	diag "$GD_NODE: part $part took $((t1 - t0)) s"
done
cp -r "$WORK" "$GD_VM_OUT/" 2>/dev/null
cl_kernel_report
# node02 serves its flags until node01 is done with them; node01 leaves
# last, once node02 has gone (no more answers to ping).
if [ "$GD_NODE" = node01 ]; then
	flag release
	i=0
	while ping -c 1 -W 1 "$GD_PEER_ADDR" >/dev/null 2>&1 && [ $i -lt 60 ]; do
		i=$((i + 1))
		sleep 1
	done
else
	wait_flag release 300 >/dev/null
fi
exit 0
