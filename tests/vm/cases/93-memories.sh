# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Several device memories in one run (--mem=A,B: D1, D2): each against HH
# and D2 against D1, both directions, over rxe0 with real traffic; two fake
# GPUs (a TEST DOUBLE, lenient: backed by host memory); two registration routes of
# one GPU; and cuda:near, which needs a GPU-to-NIC map rxe0 is not in.
. /gd/guest-lib.sh

echo 64 >/proc/sys/vm/nr_hugepages
FAKE=$GD_VM_PAYLOAD/libfakecuda.so
# The fake driver's LENIENT mode: rxe (Soft-RoCE) pins and reads a
# registered buffer with the CPU, which the strict fake's PROT_NONE device
# pointers forbid; lenient, its device memory is plain host memory.
export GD_FAKE_CUDA_LENIENT=1

out=$WORK/two
run_bounded 140 "$out.txt" gd_write_bw --loopback -d rxe0 -x 1 -s 65536 -n 100 \
	--repeat=3 --mem=hugepage,host --reverse --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" '.exit_status == 0
	and [.phases[].name] == ["HH", "D1D1", "D2D2", "HH:rev", "D1D1:rev", "D2D2:rev"]
	and all(.phases[]; .status == "ok" and (.steps | length) == 3)
	and ([.phases[] | select(.placement == "D1D1") | .memory.local.kind] | unique) == ["hugepage"]
	and ([.phases[] | select(.placement == "D2D2") | .memory.remote.kind] | unique) == ["host"]
	and .header.memory == "D1 hugepage, D2 host"' && st=0
tap_check $st "--mem=hugepage,host --repeat=3 --reverse: exit $rc, phases HH D1D1 D2D2 both ways, D1 huge pages and D2 host memory on both ends" "$out.txt"
check_rows() {
	json_ok "$out.json" 'all(.comparison[]; (.ratios | keys) == ["D1D1/HH", "D2D2/D1D1", "D2D2/HH"]
		and all(.ratios[]; . > 0)
		and (.ratio_intervals | keys) == ["D1D1/HH", "D2D2/D1D1", "D2D2/HH"])
	and ([.statistics.assessments[].comparison] | sort) ==
		["D1D1/HH", "D1D1/HH", "D2D2/D1D1", "D2D2/D1D1", "D2D2/HH", "D2D2/HH"]
	and all(.gates[]?; .comparison | test("/HH$"))'
}
check_rows
tap_check $? "comparison: D1D1/HH, D2D2/HH and D2D2/D1D1 with intervals in both directions, six assessments, gates against HH only" "$out.txt"
grep -q '^ *D2D2/D1D1' "$out.txt" || grep -q 'D2D2/D1D1' "$out.txt"
tap_check $? "text report: the D2D2/D1D1 column" "$out.txt"

if [ -f "$FAKE" ]; then
	out=$WORK/two_gpus
	GD_CUDA_LIBRARY=$FAKE GD_FAKE_CUDA_GPU_COUNT=2 run_bounded 120 "$out.txt" \
		gd_write_bw --loopback -d rxe0 -x 1 -s 65536 -n 100 \
		--mem=cuda:0:peermem,cuda:1:peermem --out_json_file="$out.json"
	rc=$?
	st=1
	[ $rc = 0 ] && json_ok "$out.json" '[.phases[].name] == ["HH", "D1D1", "D2D2"]
		and all(.phases[]; .status == "ok")
		and ([.phases[1].memory.local.gpu.index, .phases[2].memory.local.gpu.index] == [0, 1])
		and (.comparison[0].ratios | has("D2D2/D1D1"))' && st=0
	tap_check $st "two fake GPUs (test double): --mem=cuda:0:peermem,cuda:1:peermem, exit $rc, D1D1 on GPU 0 and D2D2 on GPU 1, compared" "$out.txt"

	# one GPU, two routes: rxe cannot import a DMA-BUF, so D1 fails its
	# phases with the route's reason while the peer-memory D2 runs
	out=$WORK/routes
	GD_CUDA_LIBRARY=$FAKE run_bounded 120 "$out.txt" \
		gd_write_bw --loopback -d rxe0 -x 1 -s 65536 -n 100 \
		--mem=cuda:0:dmabuf,cuda:0:peermem --out_json_file="$out.json"
	rc=$?
	st=1
	[ $rc = 1 ] && json_ok "$out.json" '[.phases[].status] == ["ok", "failed", "ok"]
		and .phases[1].error.stage == "register"
		and (.phases[1].error.message | test("dma-?buf|DMA-BUF"; "i"))
		and .phases[2].memory.local.route == "peermem"' && st=0
	tap_check $st "one GPU, two routes (cuda:0:dmabuf,cuda:0:peermem): exit $rc, D1 (DMA-BUF, which rxe cannot import) fails at registration, D2 (peer-memory) runs" "$out.txt"

	out=$WORK/near
	GD_CUDA_LIBRARY=$FAKE run_bounded 120 "$out.txt" \
		gd_write_bw --loopback -d rxe0 -x 1 -s 65536 -n 50 \
		--mem=cuda:near --out_json_file="$out.json"
	rc=$?
	st=1
	[ $rc = 1 ] && json_ok "$out.json" '.phases[0].status == "ok" and .phases[1].status == "failed"
		and (.phases[1].error.message | test("GPU-to-NIC map")) and (.phases[1].error.message | test("rxe0"))' && st=0
	tap_check $st "--mem=cuda:near on rxe0 (no PCI device, in no GPU-to-NIC map): exit $rc, HH ok, DD says why no GPU could be chosen" "$out.txt"
else
	tap_skip "two fake GPUs, two routes, cuda:near" "$FAKE not in the payload"
fi

# A client with device memory against a server without: the client says,
# before the first step, that DD will not run and what to add on the
# server; HH still runs; the phase is reported as not configured (exit 1).
PORT=$(next_port)
PROG=gd_write_bw pair_run noserver 120 -d rxe0 -x 1 -p "$PORT" -- \
	-d rxe0 -x 1 -p "$PORT" -s 65536 -n 50 --mem=hugepage --out_json_file="$WORK/noserver.json"
st=1
[ "$CLIENT_RC" = 1 ] &&
	grep -q 'phase DD will not run: the server has no device memory configured (no --mem); start the server with --mem=hugepage as well' \
		"$WORK/noserver.client" &&
	json_ok "$WORK/noserver.json" '.phases[0].status == "ok"
		and any(.verdicts[]; .code == "GD_PHASE_NOT_CONFIGURED")' && st=0
tap_check $st "client --mem=hugepage, server without --mem: exit $CLIENT_RC, one line before the run says to start the server with --mem=hugepage, HH ok" \
	"$WORK/noserver.client"
exit 0
