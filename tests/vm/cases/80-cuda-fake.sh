# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The cuda memory backend on rxe0 with the fake CUDA driver, a TEST DOUBLE
# whose "device memory" is host memory: it proves our control flow (route
# choice, registration, errors, completion method), never a GPU path.
# Also the CUDA-absent message with no driver at all.
. /gd/guest-lib.sh

FAKE=$GD_VM_PAYLOAD/libfakecuda.so
# The fake driver's LENIENT mode: rxe (Soft-RoCE) pins and reads a
# registered buffer with the CPU, which the strict fake's PROT_NONE device
# pointers forbid; lenient, its device memory is plain host memory.
export GD_FAKE_CUDA_LENIENT=1
# 100 x 64 KiB: enough to be a real transfer, about a second under TCG.
ITERS=100
SIZE=65536

# cuda_run NAME DRIVER PROG ARGS...: PROG --loopback on rxe0 with
# GD_CUDA_LIBRARY=DRIVER ("" unsets it); sets RC, output in $WORK/NAME.txt,
# JSON in $WORK/NAME.json.
cuda_run() {
	rname=$1
	driver=$2
	prog=$3
	shift 3
	if [ -n "$driver" ]; then
		run_bounded 90 "$WORK/$rname.txt" env GD_CUDA_LIBRARY="$driver" \
			"$prog" --loopback -d rxe0 -x 1 "$@" \
			--out_json_file="$WORK/$rname.json"
	else
		run_bounded 90 "$WORK/$rname.txt" env -u GD_CUDA_LIBRARY \
			"$prog" --loopback -d rxe0 -x 1 "$@" \
			--out_json_file="$WORK/$rname.json"
	fi
	RC=$?
}

# check NAME FILTER DESCRIPTION: one TAP line for a jq check of NAME.json,
# with the document's essentials as diagnostics when it fails.
check() {
	st=1
	json_ok "$WORK/$1.json" "$2" && st=0
	tap_check $st "$3" "$WORK/$1.txt"
	[ $st = 0 ] || json_diag "$WORK/$1.json"
}

# jq: phase P (by name) ran ok with one SIZE x ITERS bandwidth row.
bw_phase_ok() {
	echo "(.phases[] | select(.name == \"$1\") | .status == \"ok\"
		and (.results | length) == 1
		and .results[0].size_bytes == $SIZE
		and .results[0].iterations == $ITERS
		and .results[0].bw_avg_MiBps > 0)"
}

if [ ! -f "$FAKE" ]; then
	tap_skip "fake CUDA driver cases" "$FAKE not in the payload (make check builds tests/fake_cuda/libfakecuda.so)"
else
	# (a) peer-memory route: ibv_reg_mr on the fake "device" pointer; rxe
	# pins it like any user memory. Write pushes into the server's buffer,
	# read pulls into the client's, so --verify checks both receivers.
	for prog in gd_write_bw gd_read_bw; do
		n=peermem_${prog#gd_}
		counters_snapshot "$WORK/$n.hw0"
		cuda_run "$n" "$FAKE" $prog -n $ITERS -s $SIZE \
			--mem=cuda:0:peermem --phases=HH,DD --verify
		counters_snapshot "$WORK/$n.hw1"
		check "$n" "$RC == 0 and .exit_status == 0 and .error == null
			and [.phases[].name] == [\"HH\", \"DD\"]
			and $(bw_phase_ok HH) and $(bw_phase_ok DD)" \
			"$prog --mem=cuda:0:peermem --phases=HH,DD --verify (fake driver): exit $RC, both phases ok with $SIZE B x $ITERS rows"
		check "$n" '.phases[1].memory as $m
			| all($m.local, $m.remote; .kind == "cuda" and .route == "peermem"
				and .registered == true and .cpu_accessible == false
				and .route_evidence.route == "peermem"
				and .route_evidence.possible == true
				and (.route_evidence.why | startswith("requested (:peermem)"))
				and (.gpu.name | test("test double")))
			and all(.phases[0].memory.local, .phases[0].memory.remote;
				.kind == "host" and .route == "plain")' \
			"$prog: DD registered through the peermem route on both sides (fake GPU named as a test double), HH through plain host memory"
		check "$n" "all(.phases[].steps[]; .size_bytes == $SIZE and .status == \"ok\"
				and .verify.ok == true and .verify.checked_bytes == $SIZE)" \
			"$prog --verify: the receiver checked all $SIZE bytes in HH and DD and found no mismatch"
		grep -q 'DD *ok *local cuda (peermem); remote cuda (peermem)' "$WORK/$n.txt"
		tap_check $? "$prog text report: route summary says DD ok, cuda (peermem) on both sides" "$WORK/$n.txt"
		moved=$(counters_moved "$WORK/$n.hw0" "$WORK/$n.hw1" \
			retry_exceeded_err retry_rnr_exceeded_err send_err)
		st=$?
		[ $st = 0 ] && ! json_ok "$WORK/$n.json" \
			'all(.phases[].counters[]; .errors_moved == [])' && st=1
		tap_check $st "$prog cuda run: no *_exceeded_err or send_err moved, errors_moved empty on both ends ${moved:+($moved)}"
	done

	# (b) DMA-BUF: the fake driver exports a memfd, rxe has no dma-buf
	# import, so ibv_reg_dmabuf_mr fails with EOPNOTSUPP. Only DD fails;
	# HH in the same invocation reports, and the exit status is 1.
	n=dmabuf
	cuda_run $n "$FAKE" gd_write_bw -n $ITERS -s $SIZE --mem=cuda:0:dmabuf --phases=HH,DD
	check $n "$RC == 1 and .exit_status == 1 and .error == null and $(bw_phase_ok HH)" \
		"gd_write_bw --mem=cuda:0:dmabuf --phases=HH,DD: exit $RC (a phase failed), HH still ok with its row"
	check $n '.phases[1] | .name == "DD" and .status == "failed" and .results == []
		and .error.stage == "register"
		and (.error.message | contains("ibv_reg_dmabuf_mr")
			and contains("errno 95 (EOPNOTSUPP")
			and contains("rxe0 lacks DMA-BUF support"))' \
		"DD failed at the register stage with the decoded message: ibv_reg_dmabuf_mr, errno 95 (EOPNOTSUPP), rxe0 lacks DMA-BUF support"
	if json_ok "$WORK/$n.json" '.phases[1].error.errno_name == "EOPNOTSUPP"'; then
		tap_ok "DD phase error.errno_name is EOPNOTSUPP"
	else
		tap_not_ok "DD phase error.errno_name is EOPNOTSUPP (is $(jq -r '.phases[1].error.errno_name' "$WORK/$n.json" 2>/dev/null))"
	fi
	check $n 'any(.verdicts[]; .code == "GD_GPU_REG_FAIL" and .severity == "error")' \
		"dmabuf run: verdict GD_GPU_REG_FAIL (host passes, device registration fails)"
	grep -q 'lacks DMA-BUF support' "$WORK/$n.txt"
	tap_check $? "dmabuf run: stderr names the missing DMA-BUF support" "$WORK/$n.txt"
	check $n '(.header.route_why | startswith("requested (:dmabuf) although rxe0 cannot import a dma-buf"))
		and (.header.route_error | contains("ibv_reg_dmabuf_mr"))' \
		"dmabuf run: the header's route_why is the route record's reason, kept when the registration failed, route_error its error"

	# (f) the default route with the fake's H200-like DMA-BUF attribute 1:
	# auto asks rxe0 as NCCL does (ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0)),
	# rxe answers EOPNOTSUPP, so auto picks peer-memory when a peer-memory
	# module is loaded (a fixture /sys/module/nvidia_peermem) without a
	# DMA-BUF attempt; without one, no route and DD fails saying why.
	# Registrations ask for relaxed ordering (rxe accepts the optional
	# flag); MLX5_SCATTER_TO_CQE=0 is set before the device is opened.
	fx=$WORK/root
	mkdir -p "$fx/sys/module/nvidia_peermem"
	n=auto_fallback
	export GD_SYSFS_ROOT=$fx
	cuda_run $n "$FAKE" gd_write_bw -n $ITERS -s $SIZE \
		--mem=cuda:0 --phases=HH,DD --verify
	unset GD_SYSFS_ROOT
	check $n "$RC == 0 and $(bw_phase_ok DD)
		and all(.phases[1].memory.local, .phases[1].memory.remote;
			.route == \"peermem\" and .route_evidence.route == \"peermem\"
			and (.route_evidence.attempts | length) == 1
			and .route_evidence.attempts[0].route == \"peermem\"
			and .route_evidence.attempts[0].ok == true
			and (.route_evidence.why_not.dmabuf
				| contains(\"rxe0 cannot import a dma-buf: ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) answered errno 95 (EOPNOTSUPP)\"))
			and (.route_evidence.facts.nic_dma_buf | startswith(\"not supported: \"))
			and (.route_evidence.facts.kernel_hint | startswith(\"kernel \"))
			and .gpu.verify_read_back == \"cuFlushGPUDirectRDMAWrites\")" \
		"auto route, DMA-BUF attribute 1, rxe0's probe answers EOPNOTSUPP: peermem on both sides without a DMA-BUF attempt, the probe and the kernel hint recorded, DD verified after the flush"
	check $n '(.header.pcie_relaxed_ordering | startswith("on"))
		and (.header.mlx5_scatter_to_cqe | startswith("0 (set by gdperf"))' \
		"header: relaxed ordering on, MLX5_SCATTER_TO_CQE=0 set by gdperf"
	n=auto_nofallback
	cuda_run $n "$FAKE" gd_write_bw -n $ITERS -s $SIZE --mem=cuda:0 --phases=HH,DD
	check $n "$RC == 1 and $(bw_phase_ok HH)
		and (.phases[1] | .status == \"failed\"
			and (.error.message | contains(\"no supported GPU registration route\")
				and contains(\"rxe0 cannot import a dma-buf: ibv_reg_dmabuf_mr\")))" \
		"auto route without a peer-memory module: no route, DD fails naming rxe0's answer to the DMA-BUF probe"
	n=relaxed_off
	export MLX5_SCATTER_TO_CQE=1
	cuda_run $n "$FAKE" gd_write_bw \
		-n $ITERS -s $SIZE --mem=cuda:0:peermem --phases=DD --disable_pcie_relaxed
	unset MLX5_SCATTER_TO_CQE
	check $n "$RC == 0 and .header.pcie_relaxed_ordering == \"off (--disable_pcie_relaxed)\"
		and (.header.mlx5_scatter_to_cqe | startswith(\"1 (set by the user and kept\"))" \
		"--disable_pcie_relaxed recorded as off; a user's MLX5_SCATTER_TO_CQE=1 kept and recorded"
	check $n '.header.pcie_relaxed_ordering_nic | startswith("unknown (rxe0")' \
		"rxe0 has no PCI function: relaxed ordering on the NIC is unknown, and the header says why"
	grep -q '^ RO requested *: off (--disable_pcie_relaxed)$' "$WORK/$n.txt" &&
		grep -q '^ RO on the NIC *: unknown (rxe0' "$WORK/$n.txt"
	tap_check $? "text header: 'RO requested: off (--disable_pcie_relaxed)' and 'RO on the NIC: unknown (rxe0 ...)'" "$WORK/$n.txt"
	n=hostonly
	run_bounded 90 "$WORK/$n.txt" env -u GD_CUDA_LIBRARY gd_write_bw --loopback \
		-d rxe0 -x 1 -n $ITERS -s $SIZE --out_json_file="$WORK/$n.json"
	RC=$?
	check $n "$RC == 0 and .header.mlx5_scatter_to_cqe == null
		and (.envelope.registration_route[0].evidence.why_not.dmabuf
			| contains(\"no CUDA driver (libcuda.so.1 not found), not probed\"))" \
		"host-only run: MLX5_SCATTER_TO_CQE untouched; route record says no CUDA driver was found, not probed"

	# (h) the start barrier: the server's buffer (fake GPU memory, filled
	# through a copy made 300 ms slow) must be prepared before the client,
	# on host memory, starts writing into it. With a one-way "go" the
	# client's data landed first and the server's fill overwrote it.
	n=barrier
	export GD_FAKE_CUDA_HTOD_DELAY_MS=300
	cuda_run $n "$FAKE" gd_write_bw -n 20 -s 65536 --mem=cuda:0:peermem \
		--phases=HD --verify
	unset GD_FAKE_CUDA_HTOD_DELAY_MS
	check $n "$RC == 0 and .phases[0].status == \"ok\"
		and all(.phases[0].steps[]; .verify.ok == true)" \
		"gd_write_bw --phases=HD --verify with a slow server-side fill: exit $RC, the client waited for the server"

	# (g) small sizes 2 B .. 64 KiB into GPU memory (the sizes scatter-to-CQE
	# would copy with the CPU on mlx5): send and write, verified.
	for prog in gd_send_bw gd_write_bw; do
		n=small_${prog#gd_}
		cuda_run $n "$FAKE" $prog -n 20 -a --max-size=65536 \
			--mem=cuda:0:peermem --phases=DD --verify
		check $n "$RC == 0 and (.phases[0].results | length) == 16
			and .phases[0].results[0].size_bytes == 2
			and all(.phases[0].steps[]; .verify.ok == true)" \
			"$prog -a 2 B..64 KiB into fake GPU memory (peermem): 16 sizes, all verified"
	done

	# (d) write latency with device memory: the CPU cannot poll GPU memory,
	# so every phase (HH too, for a like-for-like pair) uses write with
	# immediate and polls the receive CQ.
	n=wlat_cuda
	cuda_run $n "$FAKE" gd_write_lat -n $ITERS --mem=cuda:0:peermem
	check $n "$RC == 0 and $(gd_json_lat_filter 2 $ITERS) and [.phases[].name] == [\"HH\", \"DD\"]
		and all(.phases[]; .status == \"ok\"
			and .completion_method == \"write-with-immediate, receive completion polled\")" \
		"gd_write_lat --mem=cuda:0:peermem: exit $RC, HH and DD ok, both report write-with-immediate completion"
	grep -q '^ *Completion *: write-with-immediate' "$WORK/$n.txt"
	tap_check $? "gd_write_lat text header names the write-with-immediate completion" "$WORK/$n.txt"
	# Without device memory the same tool polls the last byte (perftest's way).
	n=wlat_host
	run_bounded 90 "$WORK/$n.txt" gd_write_lat --loopback -d rxe0 -x 1 -n $ITERS \
		--out_json_file="$WORK/$n.json"
	RC=$?
	check $n "$RC == 0 and [.phases[].name] == [\"HH\"]
		and .phases[0].completion_method == \"write, last byte of the buffer polled\"" \
		"gd_write_lat host only: exit $RC, completion is the polled last byte"

	# (e) inline data is read by the CPU at post time: refused with GPU memory
	# before any device work (no phase, no header), on both loopback ends.
	n=inline
	cuda_run $n "$FAKE" gd_write_lat -n $ITERS -I 64 --mem=cuda:0:peermem
	st=1
	[ $RC != 0 ] && json_ok "$WORK/$n.json" ".exit_status == $RC and .phases == []
		and .error.errno_name == \"EINVAL\"
		and (.error.message | contains(\"inline data is copied by the CPU and cannot come from GPU memory\"))" &&
		grep -q 'error: -I 64: inline data .*drop -I' "$WORK/$n.txt" && st=0
	tap_check $st "gd_write_lat -I 64 --mem=cuda:0:peermem refused (exit $RC): 'inline data ... cannot come from GPU memory; drop -I'" "$WORK/$n.txt"
	[ $st = 0 ] || json_diag "$WORK/$n.json"
	if [ $RC = 2 ]; then
		tap_ok "-I with GPU memory is bad input: exit status 2"
	else
		tap_not_ok "-I with GPU memory is bad input: exit status 2 (got $RC)"
	fi
fi

# (c) No CUDA driver in the guest: the default libcuda.so.1 cannot be
# loaded. DD fails with the CUDA-absent message; HH still runs and reports.
n=nocuda
cuda_run $n "" gd_write_bw -n $ITERS -s $SIZE --mem=cuda:0
check $n "$RC == 1 and .exit_status == 1 and [.phases[].name] == [\"HH\", \"DD\"]
	and $(bw_phase_ok HH)
	and (.phases[1] | .status == \"failed\" and .results == []
		and (.error.message | contains(\"CUDA driver not available (libcuda.so.1: \")))" \
	"no CUDA driver, --mem=cuda:0: exit $RC, HH ok, DD failed with 'CUDA driver not available (libcuda.so.1: ...)'"
grep -q 'CUDA driver not available (libcuda.so.1: .*host memory still works' "$WORK/$n.txt"
tap_check $? "no CUDA driver: stderr says the driver is missing and host memory still works" "$WORK/$n.txt"
n=nocuda_path
cuda_run $n /nonexistent gd_write_bw -n $ITERS -s $SIZE --mem=cuda:0
check $n "$RC == 1 and $(bw_phase_ok HH)
	and (.phases[1].error.message | contains(\"CUDA driver not available (/nonexistent: \"))" \
	"GD_CUDA_LIBRARY=/nonexistent: exit $RC, HH ok, DD names the library it could not load"
exit 0
