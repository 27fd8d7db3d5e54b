# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_doctor in the Soft-RoCE guest: a real inventory of rxe0 and the guest,
# parsed back from --json; the memlock finding for an unprivileged user with
# a low limit; --diff between the two envelopes.
. /gd/guest-lib.sh

D=$WORK/doctor
run_bounded 60 "$D.txt" gd_doctor --memlock-need=1M --json="$D.json"
rc=$?
st=1
# No GPU in the guest is a warning only, so the exit status is 0.
[ $rc = 0 ] && json_ok "$D.json" '.schema == "gdperf.doctor/1" and .exit_status == 0
	and .envelope.schema == "gdperf.envelope/1"' && st=0
tap_check $st "gd_doctor --json in the guest: exit $rc, a gdperf.doctor/1 document" "$D.txt"

dev='.envelope.rdma.devices[] | select(.name == "rxe0")'
st=1
json_ok "$D.json" "[$dev] | length == 1" && st=0
tap_check $st "doctor inventory of rxe0" "$D.txt"
st=1
json_ok "$D.json" "$dev | .ports[0].port == 1 and .ports[0].state == \"ACTIVE\"
	and .ports[0].link_layer == \"Ethernet\" and .ports[0].active_mtu_bytes == 1024
	and .pci_bus_id == null" && st=0
tap_check $st "rxe0 port 1: ACTIVE, Ethernet, active MTU 1024 bytes, no PCI function" "$D.txt"
[ $st = 0 ] || diag "$(jq -c "$dev | .ports" "$D.json" 2>&1 | cut -c1-600)"
# GID 1 is the IPv4-mapped address of dummy0 (10.0.2.15 = 0a00:020f), RoCE v2.
st=1
json_ok "$D.json" "$dev | .ports[0].gids | any(.gid == \"0000:0000:0000:0000:0000:ffff:0a00:020f\"
	and .type == \"RoCE v2\" and .netdev == \"dummy0\")" && st=0
tap_check $st "rxe0 GID table lists ::ffff:10.0.2.15 as RoCE v2 on dummy0" "$D.txt"
st=1
json_ok "$D.json" '.envelope.rdma.rdma_core_version != null
	and (.envelope.rdma.providers | index("rxe") != null)' && st=0
tap_check $st "rdma-core version and the rxe provider are recorded"
st=1
json_ok "$D.json" ".envelope.host.kernel.release == \"$(uname -r)\"
	and .envelope.host.memlock.need_bytes == 1048576
	and .envelope.host.memlock.covers_need == true
	and .envelope.host.container.detected == false" && st=0
tap_check $st "guest kernel $(uname -r), memlock covers 1 MiB for root, not a container"
st=1
json_ok "$D.json" '.envelope.gpu.driver.loaded == false
	and any(.envelope.findings[]; .id == "cuda-driver-missing" and .severity == "warning")
	and all(.envelope.findings[]; .severity != "error")' && st=0
tap_check $st "no GPU: a cuda-driver-missing warning and no error-level finding" "$D.txt"

L=$WORK/doctor_low
run_bounded 60 "$L.txt" su -s /bin/sh gduser -c \
	"ulimit -l 64 && gd_doctor --memlock-need=1M --json=$L.json"
rc=$?
st=1
[ $rc = 3 ] && json_ok "$L.json" '.envelope.host.memlock.soft_bytes == 65536
	and any(.envelope.findings[]; .id == "memlock-too-low" and .severity == "error")' && st=0
tap_check $st "as gduser with ulimit -l 64: exit $rc and a memlock-too-low error" "$L.txt"

run_bounded 30 "$WORK/doctor_diff.txt" gd_doctor --diff "$D.json" "$L.json"
rc=$?
st=1
[ $rc = 3 ] && grep -q '^host.memlock.soft_bytes: [0-9]* | 65536$' "$WORK/doctor_diff.txt" && st=0
tap_check $st "gd_doctor --diff names the memlock difference (exit $rc)" "$WORK/doctor_diff.txt"
exit 0
