# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Part "slurm" of the cluster test (sourced by node.sh; after part "pdsh",
# whose ssh it uses to gather node02's documents): munge and Slurm from
# Debian's packages, slurmctld on node01, slurmd on both. node01 submits
# gd_plan's plan.sbatch (rounds 1 to 3), waits for it and runs gd_report:
# exit 0. A second campaign runs while node02 takes its eth0 down for a
# while: gd_report exit 3, naming the failure domain. Then sbatch
# --test-only on a 512-server plan.
D=$WORK/slurm
CAMP=/tmp/campaign/slurm
mkdir -p "$D" "$CAMP" /etc/slurm /etc/munge /var/lib/munge /var/log/munge \
	/run/munge /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
chmod 0700 /etc/munge /var/lib/munge /var/log/munge
chmod 0755 /run/munge
# slurmd 22.05 needs a cgroup plugin even with proctrack/linuxproc; without
# systemd in the guest, cgroup/v2 creates its own hierarchy.
mkdir -p /sys/fs/cgroup
grep -q ' /sys/fs/cgroup ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
printf 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\n' >/etc/slurm/cgroup.conf
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
# One vCPU per guest; a plan step runs a server and a client task per node.
SlurmdParameters=config_overrides
NodeName=node01 NodeAddr=10.0.3.1 CPUs=4 RealMemory=100 State=UNKNOWN
NodeName=node02 NodeAddr=10.0.3.2 CPUs=4 RealMemory=100 State=UNKNOWN
PartitionName=gd Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOC

start_munge() {
	chmod 0400 /etc/munge/munge.key
	munged --force >"$D/munged.out" 2>&1 || { diag "$GD_NODE: munged did not start"; diag_file "$D/munged.out"; }
}

slurm_logs() {
	diag_file /var/log/slurm/slurmctld.log slurmctld.log
	diag_file /var/log/slurm/slurmd.log "slurmd.log($GD_NODE)"
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
	until [ "$(sinfo -h -N -o '%N %t' 2>/dev/null | grep -c ' idle$')" = 2 ]; do
		i=$((i + 1))
		[ $i -gt 120 ] && break
		sleep 1
	done
	sinfo -N -o '%N %t %c' >"$D/sinfo.txt" 2>&1
	st=1
	[ "$(grep -c ' idle ' "$D/sinfo.txt")" = 2 ] && st=0
	tap_check $st "Slurm: slurmctld on node01, slurmd on node01 and node02, both nodes idle after $i s" "$D/sinfo.txt"
	if [ $st = 0 ]; then
		. "$GD_VM_PAYLOAD/check-slurm.sh"
	else
		slurm_logs
		flag slurm-fault-armed
		tap_not_ok "Slurm campaigns not run: the Slurm cluster never came up"
	fi
	flag slurm-done
else
	wait_flag slurm-munge-key 300 "$D/munge.key.b64" >/dev/null
	base64 -d "$D/munge.key.b64" >/etc/munge/munge.key
	start_munge
	slurmd >"$D/slurmd.out" 2>&1
	flag slurm-slurmd
	# The fault: once a run of the 'fault' campaign is moving data on this
	# node, eth0 goes down for GD_FAULT_DOWN_S seconds.
	wait_flag slurm-fault-armed 900 >/dev/null
	i=0
	until ps -o args 2>/dev/null | grep -q '^gd_write_bw .*--label plan=fault .* node01$'; do
		i=$((i + 1))
		[ $i -gt 1200 ] && break
		usleep 250000
	done
	sleep 3
	diag "node02: fault: eth0 down for ${GD_FAULT_DOWN_S:-20} s during $(ps -o args | grep -o 'exec=[^ ]*' | head -1)"
	ps -o args | grep -o 'exec=[^ ]*' | head -1 >"$D/fault-exec"
	ip link set dev eth0 down
	sleep "${GD_FAULT_DOWN_S:-20}"
	ip link set dev eth0 up
	diag "node02: fault over, eth0 up"
	flag slurm-fault-exec "$D/fault-exec"
	wait_flag slurm-done 1200 >/dev/null
fi
