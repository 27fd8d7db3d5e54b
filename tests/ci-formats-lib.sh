# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Sourced by tests/ci-formats.sh (saved documents) and tests/vm/
# ci-formats-cases.sh (what the guest cases wrote on rxe0): one run's
# --openmetrics and --junit files checked against its JSON document.
# The caller defines ok and fail, sets S (the source tree), py (a python3
# with junitparser and prometheus_client) and status, and has jq, promtool
# and xmllint. With GD_JUNIT_JENKINS_XSD (or tests/junit-jenkins.xsd in the
# tree), each JUnit file is validated against the Jenkins plugin's schema
# too.

# gate_states DOC: "NAME WHERE DIRECTION STATE POLICY" per gate, as the
# JSON document says (POLICY: its --gate-undecided, "fail" by default)
gate_states() {
	jq -r '.gates[]? | "\(.gate) \(.comparison // .phase) \(.direction) " +
		(if .passed then "passed" elif .undecided then "undecided"
		 else "failed" end) + " \(.undecided_policy // "fail")"' "$1"
}

# the Jenkins junit plugin's own schema, where the tree or the caller has it
jenkins_xsd=${GD_JUNIT_JENKINS_XSD:-$S/tests/junit-jenkins.xsd}

# metrics_check NAME FILE: promtool check metrics accepts FILE, and
# prometheus_client reads it (OpenMetrics' parser when it ends in # EOF,
# the Prometheus text parser otherwise; no sample twice) into FILE.read
metrics_check() {
	if promtool check metrics <"$2" >"$2.lint" 2>&1; then
		ok "$1: promtool check metrics accepts ${2##*/}"
	else
		fail "$1: promtool check metrics ${2##*/}: $(head -n 5 "$2.lint")"
	fi
	if "$py" "$S/tests/metrics_read.py" "$2" >"$2.read" 2>"$2.err"; then
		ok "$1: prometheus_client reads ${2##*/} ($(tail -n 1 "$2" | grep -q '^# EOF$' && echo OpenMetrics || echo Prometheus text), $(wc -l <"$2.read") samples)"
	else
		fail "$1: prometheus_client ${2##*/}: $(head -n 3 "$2.err")"
	fi
}

# junit_check NAME FILE: tests/junit.xsd and, where present, Jenkins'
junit_check() {
	if xmllint --noout --schema "$S/tests/junit.xsd" "$2" \
		2>"$2.xsd.err"; then
		ok "$1: the JUnit file is valid against tests/junit.xsd"
	else
		fail "$1: xmllint: $(head -n 5 "$2.xsd.err")"
	fi
	[ -f "$jenkins_xsd" ] || return 0
	if xmllint --noout --schema "$jenkins_xsd" "$2" 2>"$2.jxsd.err"; then
		ok "$1: the JUnit file is valid against the Jenkins schema"
	else
		fail "$1: xmllint (Jenkins schema): $(head -n 5 "$2.jxsd.err")"
	fi
}

# ci_formats_check NAME DOC DOCNAME JUNIT METRICS [METRICS...]: each
# METRICS file passes metrics_check and JUNIT junit_check and junitparser;
# the first METRICS file and JUNIT carry DOC's gate states, verdict codes
# and exit status, and JUNIT names the document as DOCNAME (the path the
# run was given). Work files beside JUNIT.
ci_formats_check() {
	v=$1 doc=$2 docname=$3 junit=$4
	shift 4
	metrics=$1
	for m in "$@"; do
		metrics_check "$v" "$m"
	done
	junit_check "$v" "$junit"
	"$py" "$S/tests/junit_read.py" "$junit" >"$junit.read" ||
		{ fail "$v: junitparser could not read the file"; return; }

	# each gate: the same state in the JSON, the gauge and the testcase
	gate_states "$doc" | while read -r gate where dir state pol; do
		want="$gate $where $dir"
		got=$(grep -F "$want|" "$junit.read" | grep -v '^text|' |
			cut -d'|' -f2,3)
		# an undecided gate: a failure (fail), an error (undecided)
		case $state:$pol in
		passed:*) exp="passed|" ;;
		failed:*) exp="failure|gate_failed" ;;
		undecided:undecided) exp="error|gate_undecided" ;;
		undecided:*) exp="failure|gate_undecided" ;;
		esac
		[ "$got" = "$exp" ] ||
			echo "FAIL: $v: testcase '$want' is '$got', the document says $state"
		# a ratio gate's comparison is "comparison", as on gdperf_ratio
		case $where in
		*/*) key=comparison ;;
		*) key=phase ;;
		esac
		grep -q "^gdperf_gate_state{.*gate=\"$gate\",$key=\"$where\",direction=\"$dir\",state=\"$state\"} 1\$" \
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
