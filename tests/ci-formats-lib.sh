# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Sourced by tests/ci-formats.sh (saved documents) and tests/vm/
# ci-formats-cases.sh (what the guest cases wrote on rxe0): one run's
# --openmetrics and --junit files checked against its JSON document.
# The caller defines ok and fail, sets S (the source tree), py (a python3
# with junitparser) and status, and has jq, promtool and xmllint.

# gate_states DOC: "NAME STATE" per gate, as the JSON document says
gate_states() {
	jq -r '.gates[]? | "\(.gate) \(.comparison // .phase) \(.direction) " +
		(if .passed then "passed" elif .undecided then "undecided"
		 else "failed" end)' "$1"
}

# ci_formats_check NAME DOC DOCNAME JUNIT METRICS [METRICS...]: each
# METRICS file passes promtool check metrics and JUNIT the JUnit schema
# (tests/junit.xsd) and junitparser; the first METRICS file and JUNIT carry
# DOC's gate states, verdict codes and exit status, and JUNIT names the
# document as DOCNAME (the path the run was given). Work files beside JUNIT.
ci_formats_check() {
	v=$1 doc=$2 docname=$3 junit=$4
	shift 4
	metrics=$1
	for m in "$@"; do
		if promtool check metrics <"$m" >"$m.lint" 2>&1; then
			ok "$v: promtool check metrics accepts ${m##*/}"
		else
			fail "$v: promtool check metrics ${m##*/}: $(head -n 5 "$m.lint")"
		fi
	done
	if xmllint --noout --schema "$S/tests/junit.xsd" "$junit" \
		2>"$junit.xsd.err"; then
		ok "$v: the JUnit file is valid against tests/junit.xsd"
	else
		fail "$v: xmllint: $(head -n 5 "$junit.xsd.err")"
	fi
	"$py" "$S/tests/junit_read.py" "$junit" >"$junit.read" ||
		{ fail "$v: junitparser could not read the file"; return; }

	# each gate: the same state in the JSON, the gauge and the testcase
	gate_states "$doc" | while read -r gate where dir state; do
		want="$gate $where $dir"
		got=$(grep -F "$want|" "$junit.read" | cut -d'|' -f2,3)
		case $state in
		passed) exp="passed|" ;;
		failed) exp="failure|gate_failed" ;;
		undecided) exp="failure|gate_undecided" ;;
		esac
		[ "$got" = "$exp" ] ||
			echo "FAIL: $v: testcase '$want' is '$got', the document says $state"
		grep -q "^gdperf_gate_state{.*gate=\"$gate\",phase=\"$where\",direction=\"$dir\",state=\"$state\"} 1\$" \
			"$metrics" ||
			echo "FAIL: $v: no gdperf_gate_state ... state=\"$state\" 1 for $want"
	done >"$junit.gates"
	if [ -s "$junit.gates" ]; then
		cat "$junit.gates"
		status=1
	else
		ok "$v: every gate has the document's state in both files ($(gate_states "$doc" | wc -l) gates)"
	fi
	# each verdict code: 1 in the gauges; exit status the same
	for code in $(jq -r '.verdicts[]?.code' "$doc"); do
		grep -q "^gdperf_verdict_state{.*code=\"$code\"} 1\$" "$metrics" ||
			fail "$v: verdict $code is not 1 in gdperf_verdict_state"
	done
	on=$(grep -c '^gdperf_verdict_state{.*} 1$' "$metrics")
	[ "$on" -eq "$(jq '[.verdicts[]?.code] | unique | length' "$doc")" ] ||
		fail "$v: $on verdict states are 1, the document has other codes"
	es=$(jq .exit_status "$doc")
	grep -q "^gdperf_run_exit_status{.*} $es\$" "$metrics" ||
		fail "$v: gdperf_run_exit_status is not $es"
	grep -q "^properties|.*exit_status=$es," "$junit.read" ||
		fail "$v: the JUnit exit_status property is not $es"
	grep -q "^properties|document=$docname,envelope=" "$junit.read" ||
		fail "$v: the JUnit properties do not name the document first"
	ok "$v: verdicts (${on} codes) and exit status $es as in the document"
}
