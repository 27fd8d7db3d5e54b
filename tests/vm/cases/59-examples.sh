# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Every example in every program's --help (gdperf(7)'s TESTS section
# holds the same lines, checked by tests/man-options.sh), then every
# example in the README and in gdperf(7)'s EXAMPLES, runs on rxe0: a
# server line with the client line after it as a pair, a --loopback or
# "$ " line alone. All go through one runner, doc_examples, fed
# "role|command" lines: "server$ "/"client$ " prompts in the documents;
# in --help a line with HOST is a client, one with --loopback stands alone
# and any other is a server. What the guest cannot be is put in its
# place, and only that: mlx5_0 is rxe0, HOST is this guest's address,
# cuda:0 is the fake CUDA driver's GPU 0 (a TEST DOUBLE, lenient: host
# memory behind it; the GPU path itself is case 80's) by the peer-memory
# route (rxe cannot import a DMA-BUF, which the default route picks
# first); a line without -n or -D gets -n 20 (--help; -s 1M -q 4 at the
# default 1000 iterations took 71 s) or -n 5 (the documents, whose -a
# sweeps have rounds); an -a sweep starts at 64 KiB (--min-size=64K):
# under TCG the 15 steps below it were two thirds of this case's time
# (217 s in CI's sanitizer boot), they are every other case's subject,
# and the documents' gates judge from 64 KiB. An example passes when it
# exits 0, or 3 with its gate named when it has one (-w, -y, --max-lat,
# --expect-ratio: rxe under TCG is slower than the figures meant for a
# real NIC), or 4 with GD_GATE_UNDECIDED for a ratio gate that TCG's noise
# leaves undecided, and never prints a usage error. The documents'
# examples run in order in one directory (the README's gate example's
# documents feed its gd_compare); a gd_compare passes with exit 0, or 4
# (undecided: TCG's noise), never 3.
# gd-case-timeout-s: 600
. /gd/guest-lib.sh

FAKE=$GD_VM_PAYLOAD/libfakecuda.so
export GD_FAKE_CUDA_LENIENT=1
[ -e "$FAKE" ] && export GD_CUDA_LIBRARY=$FAKE
cd "$WORK" || exit 1

# adapt LINE: the example as it runs in this guest
adapt() {
	local l=$1
	l=$(printf '%s' "$l" | sed 's/-d mlx5_0/-d rxe0/')
	case " $l " in *" -x "*) ;; *) l=$(printf '%s' "$l" | sed 's/-d rxe0/-d rxe0 -x 1/') ;; esac
	if [ -e "$FAKE" ]; then
		l=$(printf '%s' "$l" | sed -E 's/(cuda:[0-9]+)(,| |$)/\1:peermem\2/g')
	else
		l=$(printf '%s' "$l" | sed -E 's/cuda:[0-9]+/hugepage/g')
	fi
	case " $l " in
	*" -n "* | *" -D "*) ;;
	*) l="$l -n ${EX_ITERS:-20}" ;;
	esac
	case " $l " in
	*" --min-size"*) ;;
	*" -a "*) l="$l --min-size=64K" ;;
	esac
	printf '%s' "$l"
}

# judge NAME RC OUT LINE: exit 0, or 3 with a gate's line when LINE has one
judge() {
	local name=$1 rc=$2 out=$3 line=$4 st=1
	if grep -q 'usage\|unknown option\|error: .*option' "$out"; then
		st=1
	elif [ "$rc" = 0 ]; then
		st=0
	elif [ "$rc" = 3 ] && printf '%s' "$line" | grep -Eq -- ' -w | -y |--max-lat|--expect-ratio' &&
		grep -q 'GD_GATE_FAIL' "$out"; then
		st=0
	elif [ "$rc" = 4 ] && printf '%s' "$line" | grep -q -- '--expect-ratio' &&
		grep -q 'GD_GATE_UNDECIDED' "$out"; then
		st=0
	fi
	tap_check $st "${WHERE:---help} example runs: $line (exit $rc, $(($(cut -d. -f1 /proc/uptime) - T0)) s)" "$out"
}

# doc_examples WHERE < LINES: every "role|command" line (role server,
# client or empty) as above; WHERE names where the lines came from.
doc_examples() {
	local where=$1 server="" role ex bin srv cli rc
	while IFS='|' read -r role ex; do
		n=$((n + 1))
		T0=$(cut -d. -f1 /proc/uptime)
		case $role in
		server) server=$ex ;;
		client)
			PORT=$(next_port)
			bin=${ex%% *}
			srv=$(adapt "$server")
			cli=$(adapt "$ex" | sed 's/ HOST$//; s/ HOST / /')
			PROG=$bin pair_run "ex$n" 120 ${srv#"$bin"} -p "$PORT" -- ${cli#"$bin"} -p "$PORT"
			judge "ex$n" "$CLIENT_RC" "$WORK/ex$n.client" "$server / $ex"
			[ "$SERVER_RC" = "$CLIENT_RC" ]
			tap_check $? "$where example's server: $server (exit $SERVER_RC, the client's $CLIENT_RC)" "$WORK/ex$n.server"
			server=""
			;;
		*)
			case $ex in
			gd_compare*)
				run_bounded 60 "$WORK/ex$n.out" $ex
				rc=$?
				{ [ $rc = 0 ] || [ $rc = 4 ]; } && ! grep -q 'usage\|unknown option' "$WORK/ex$n.out"
				tap_check $? "$where example runs: $ex (exit $rc: 0, or 4 undecided; never 3)" "$WORK/ex$n.out"
				;;
			*)
				run_bounded 120 "$WORK/ex$n.out" $(adapt "$ex")
				judge "ex$n" $? "$WORK/ex$n.out" "$ex"
				;;
			esac
			;;
		esac
	done
	[ -z "$server" ]
	tap_check $? "$where: every server example has its client after it"
}

echo 64 >/proc/sys/vm/nr_hugepages
n=0
for bin in gd_write_bw gd_write_lat gd_read_bw gd_read_lat gd_send_bw gd_send_lat gd_atomic_bw gd_atomic_lat; do
	$bin --help | sed -n '/^Examples:$/,/^$/p' | sed -n 's/^  \([^ ].*\)$/\1/p' |
		awk '{ r = / --loopback( |$)/ ? "" : / HOST( |$)/ ? "client" : "server"; print r "|" $0 }' >"$WORK/ex-$bin"
	WHERE="$bin --help"
	doc_examples "$WHERE" <"$WORK/ex-$bin"
done

export GD_FAKE_CUDA_GPU_COUNT=2 EX_ITERS=5
for doc in README gdperf.7; do
	f=$GD_VM_PAYLOAD/$doc
	if [ ! -f "$f" ]; then
		tap_check 1 "$doc is in the guest's payload (device-tests.tap puts it there)"
		continue
	fi
	# gdperf.7's examples are groff: \- is a minus there, and \e a
	# backslash that continues a command on the next line (80 columns)
	sed 's/\\-/-/g' "$f" | sed -e ':a' -e '/\\e$/{N;s/ *\\e\n */ /;ba' -e '}' |
		sed -En 's/^ *(server|client)?\$ (gd_.*)$/\1|\2/p' >"$WORK/ex-$doc"
	[ "$(wc -l <"$WORK/ex-$doc")" -ge 6 ]
	tap_check $? "$doc has its examples ($(wc -l <"$WORK/ex-$doc") lines)" "$WORK/ex-$doc"
	WHERE=$doc
	doc_examples "$doc" <"$WORK/ex-$doc"
done
