# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Part "slurm" of the cluster test (sourced by node.sh; after "ssh" and
# "plan", and "pdsh" whose outcome it compares): munge and Slurm from
# Debian's packages, slurmctld on node01, slurmd on both. node01 submits the
# campaign plan's plan.sbatch (its plan.steps at the same path on both
# nodes), waits for it and runs gd_report: exit 0, the pdsh campaign's
# outcome. A second campaign of the same plan runs with
# node02's packets dropped in the middle of two of its runs (the fault below):
# gd_report exit 3, naming the failure domain. Then sbatch --test-only on a
# 512-server plan (check-slurm.sh).
D=$WORK/slurm
mkdir -p "$D" /etc/slurm /etc/munge /var/lib/munge /var/log/munge \
	/run/munge /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
chmod 0700 /etc/munge /var/lib/munge /var/log/munge
chmod 0755 /run/munge
# slurmd 22.05 loads a cgroup plugin even with proctrack/linuxproc and
# task/none. Without systemd (IgnoreSystemd=yes) cgroup/v2 makes the stepd
# scope itself, /sys/fs/cgroup/system.slice/<node>_slurmstepd.scope, with
# one mkdir: the slice must exist, with the controllers enabled on the way
# down (cgroup.subtree_control), or slurmd dies with "Could not create scope
# directory". systemd would have made both.
mkdir -p /sys/fs/cgroup
grep -q ' /sys/fs/cgroup ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
mkdir -p /sys/fs/cgroup/system.slice
for c in $(cat /sys/fs/cgroup/cgroup.controllers); do
	echo "+$c" >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	echo "+$c" >/sys/fs/cgroup/system.slice/cgroup.subtree_control 2>/dev/null
done
diag "$GD_NODE: cgroup2 controllers for system.slice: $(cat /sys/fs/cgroup/system.slice/cgroup.subtree_control)"
printf 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\n' >/etc/slurm/cgroup.conf
# node[001-512] exist only for sbatch --test-only on the 512-server plan:
# CLOUD nodes (powered down, resumed by ResumeProgram when a job gets them)
# make a real will-run answer; FUTURE or DOWN nodes are refused before the
# batch script is looked at ("Requested node configuration is not
# available").
cat >/etc/slurm/slurm.conf <<EOC
ClusterName=gdvm
SlurmctldHost=node01(10.0.3.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/linear
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SlurmctldTimeout=120
SlurmdTimeout=120
MessageTimeout=30
KillWait=5
MinJobAge=600
SuspendProgram=/bin/true
ResumeProgram=/bin/true
SuspendTime=600
SuspendExcNodes=node[01-02]
ResumeTimeout=300
TreeWidth=65533
# One vCPU per guest; a plan step runs a server and a client task per node.
SlurmdParameters=config_overrides
NodeName=node01 NodeAddr=10.0.3.1 CPUs=4 RealMemory=100 State=UNKNOWN
NodeName=node02 NodeAddr=10.0.3.2 CPUs=4 RealMemory=100 State=UNKNOWN
NodeName=node[001-512] CPUs=8 RealMemory=100 State=CLOUD
PartitionName=gd Nodes=node[01-02] Default=YES MaxTime=INFINITE State=UP
PartitionName=big Nodes=node[001-512] MaxTime=INFINITE State=UP
EOC

start_munge() {
	chmod 0400 /etc/munge/munge.key
	munged --force >"$D/munged.out" 2>&1 || cl_bail "munged did not start: $(head -3 "$D/munged.out" | tr '\n' ' ')"
}

slurm_logs() {
	diag_file /var/log/slurm/slurmctld.log slurmctld.log
	diag_file /var/log/slurm/slurmd.log "slurmd.log($GD_NODE)"
}

# The fault (node02): the fault campaign's coverage runs of GPU 1,
# c1-...-g1-ab-r1 (node02 serves) and then c1-...-g1-ba-r1 (node02's
# client), each lose the link in the middle of their measurement: once the
# run's side channel is established on node02 (TCP port 18601, GPU 1's) and
# 3 s more have passed (the fault plan's runs measure for 6 s: -D 3, two
# phases), everything node02 sends is dropped (tc netem loss 100% on eth0)
# until node02's side of that run has ended.
# Not "ip link set eth0 down": under an initiator (node02 is the client in
# the second run) rxe's packets then stay in virtio-net's transmit ring, the
# run ends and frees its QP, and "ip link set eth0 up" frees those packets:
# Debian's 6.1 guest panicked in rxe_skb_tx_dtor() there (a CI run of
# 198c4c1; part-netem.sh cuts only under the acknowledging end for the same
# reason). A qdisc drops before the ring, while the QP still lives.
# Both runs fail on both ends; every other run of the plan is untouched, so
# gd_report sees two of GPU 1's four executions bad and GPU 0's all good.
# (A link that is down before a run connects would do as well, but a run
# that fails before its side channel is up writes its document without the
# plan's labels, and gd_report cannot tell which execution it was.)
FAULT_A=c1-node01-node02-g1-ab-r1
FAULT_B=c1-node01-node02-g1-ba-r1
FAULT_PORT=$(printf '%04X' 18601)
running() { # EXEC: a process of that execution runs on this node
	ps -o args 2>/dev/null | grep '^timeout \|^gd_write_bw ' | grep -q "exec=$1 "
}
connected() { # an established TCP connection from or to FAULT_PORT
	awk -v p=":$FAULT_PORT" '$4 == "01" && (substr($2, length($2) - 4) == p ||
		substr($3, length($3) - 4) == p) { f = 1 } END { exit !f }' /proc/net/tcp
}
# cut_link EXEC: node02's packets dropped in the middle of EXEC's run, let
# through again when it ended.
cut_link() {
	local i=0 t0
	until running "$1" && connected; do
		i=$((i + 1))
		if [ $((i % 10)) = 0 ]; then
			peer_aborted && cl_bail "$GD_PEER gave up ($(cat /tmp/peer-abort)) before the fault"
			peer_get slurm-fault-over /tmp/flag.over &&
				{ echo "the fault campaign ended before $1 ran on node02"; return 1; }
		fi
		[ $i -gt 1500 ] && { echo "no connected run of $1 within 300 s"; return 1; }
		usleep 200000
	done
	sleep 3
	running "$1" || { echo "$1 ended within 3 s of connecting: too short to cut"; return 1; }
	"$CL_TC" qdisc add dev eth0 root netem loss 100% ||
		{ echo "tc qdisc add dev eth0 root netem loss 100% failed"; return 1; }
	t0=$(uptime_s)
	echo "eth0 drops all 3 s into $1 (uptime $t0 s)"
	while running "$1"; do usleep 200000; done
	echo "qdisc: $("$CL_TC" -s qdisc show dev eth0 | tr '\n' ' ')"
	"$CL_TC" qdisc del dev eth0 root
	echo "eth0 passes again after $(($(uptime_s) - t0)) s, when node02's side of $1 had ended"
	i=0
	until ping -c 1 -W 1 "$GD_PEER_ADDR" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -gt 30 ] && { echo "node01 does not answer ping after the qdisc went"; return 1; }
	done
}
inject_fault() {
	cut_link $FAULT_A && cut_link $FAULT_B || return 1
	echo "rxe0 $(cat /sys/class/infiniband/rxe0/ports/1/state), GID $GD_GID_INDEX $(cat /sys/class/infiniband/rxe0/ports/1/gids/$GD_GID_INDEX)"
}

if [ "$GD_NODE" = node01 ]; then
	mungekey -c -k /etc/munge/munge.key >"$D/mungekey.out" 2>&1
	base64 /etc/munge/munge.key >"$D/munge.key.b64"
	flag slurm-munge-key "$D/munge.key.b64"
	start_munge
	slurmctld >"$D/slurmctld.out" 2>&1
	slurmd >"$D/slurmd.out" 2>&1
	wait_flag slurm-slurmd 120 >/dev/null
	i=0
	until [ "$(sinfo -h -p gd -N -o '%N %t' 2>/dev/null | grep -c ' idle$')" = 2 ]; do
		i=$((i + 1))
		[ $i -gt 60 ] && break
		sleep 1
	done
	sinfo -p gd -N -o '%N %t %c' >"$D/sinfo.txt" 2>&1
	st=1
	[ "$(grep -c ' idle ' "$D/sinfo.txt")" = 2 ] && st=0
	tap_check $st "Slurm: slurmctld on node01, slurmd on node01 and node02 (cgroup/v2 without systemd), both nodes idle after $i s" "$D/sinfo.txt"
	if [ $st != 0 ]; then
		slurm_logs
		cl_bail "the Slurm cluster never came up"
	fi
	. "$GD_VM_PAYLOAD/check-slurm.sh"
	flag slurm-done
else
	wait_flag slurm-munge-key 300 "$D/munge.key.b64" >/dev/null
	base64 -d "$D/munge.key.b64" >/etc/munge/munge.key
	start_munge
	slurmd >"$D/slurmd.out" 2>&1 || { slurm_logs; cl_bail "slurmd did not start"; }
	flag slurm-slurmd
	wait_flag slurm-fault-armed 900 >/dev/null
	inject_fault >"$D/fault.log" 2>&1
	sed 's/^/# node02 fault: /' "$D/fault.log"
	flag slurm-fault-done "$D/fault.log"
	wait_flag slurm-done 900 >/dev/null
fi
