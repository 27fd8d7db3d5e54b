#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_report's ratio gate held to the run's standard (issue 46): every
# round of every repeat judged by the run's rule. Four one-repeat
# documents that each pass on their own give a decided, passed gate (exit
# 0); one series' DD at 0.7 from 1 MiB up exits 3 naming it and "from
# 1 MiB"; a noisy campaign that cannot be decided exits 4 naming what
# would settle each series (--gate-undecided); with one repeat each
# series is decided as gd_compare decides its run alone; three repeats
# are judged as clusters of their rounds.
B=${GD_TOP_BUILDDIR:-.}
S=${GD_TOP_SRCDIR:-.}/tests/cluster
[ -z "${GD_PYTHON_WHY:-}" ] || { echo "SKIP: Python checks: $GD_PYTHON_WHY" >&2; exit 77; }
PY=${PYTHON3:-$(command -v python3)}
if [ -z "$PY" ] || ! command -v "$PY" >/dev/null 2>&1; then
	echo "SKIP: python3 not found" >&2
	exit 77
fi
B=$(cd "$B" && pwd) && S=$(cd "$S" && pwd) || exit 1
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1

# report NAME DIR [OPTIONS]: the exit status into NAME.rc
report() {
	name=$1 dir=$2 && shift 2
	"$B/gd_report" --plan plan.json --expect-ratio 0.8 --json "$name.json" \
		--markdown "$name.md" "$@" "$dir" 2>"$name.err"
	echo $? >"$name.rc"
}
rc() { cat "$1.rc"; }
# jq-like: the ratio gate's KEY (a dotted path) of NAME.json
gate() {
	"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
g = [g for g in d["acceptance"]["gates"] if g["name"] == "ratio"][0]
for k in sys.argv[2].split("."):
    g = g[int(k)] if isinstance(g, list) else g[k]
print(g)' "$1.json" "$2"
}

"$B/gd_plan" --servers 2 --gpus-per-server 1 --rails 1 --nic-gbps 400 \
	--campaign-repeats 1 --quiet --json plan.json || fail "gd_plan"
[ "$("$PY" -c 'import json; print(len(json.load(open("plan.json"))["executions"]))')" = 4 ] ||
	fail "the plan has not four executions"

# Four one-repeat documents of three rounds, each not below on its own.
"$PY" "$S/make_rounds.py" --plan plan.json --out ok || fail "make_rounds ok"
for f in ok/*-r1.json; do
	"$B/gd_compare" -q --expect-ratio=0.8 --gate-from=64K "$f" ||
		fail "$f: the run alone is not 'not below' (exit $?)"
done
report ok ok
[ "$(rc ok)" = 0 ] || fail "ok: exit $(rc ok), not 0: $(cat ok.err)"
[ "$(gate ok state)" = passed ] || fail "ok: ratio gate $(gate ok state)"
[ "$(gate ok counts.not_below)" = 4 ] && [ "$(gate ok counts.by_rounds)" = 4 ] ||
	fail "ok: not 4 series not below by their rounds: $(gate ok counts)"
grep -q 'Verdict: PASS (exit 0)' ok.md || fail "ok: Markdown verdict"
echo "ok 1 - four one-repeat documents: decided, passed, exit 0"

# One series' DD at 0.7 from 1 MiB up.
ex=c1-node01-node02-g0-ab-r1
"$PY" "$S/make_rounds.py" --plan plan.json --out slow \
	--slow "$ex:0.7:1048576" || fail "make_rounds slow"
report slow slow --junit slow.xml
[ "$(rc slow)" = 3 ] || fail "slow: exit $(rc slow), not 3"
# its JUnit: a testcase per series and device phase judged, the slow one
# a failure saying where its curves part, every other one passed
[ "$(grep -c '<testcase classname="gd_report.ratio"' slow.xml)" = "$(gate slow counts.assessed)" ] ||
	fail "slow: $(grep -c '<testcase classname="gd_report.ratio"' slow.xml) series testcases, not counts.assessed $(gate slow counts.assessed)"
grep -A1 "<testcase classname=\"gd_report.ratio\" name=\"$ex DD\"" slow.xml |
	grep -q '<failure type="series_slower" message="[^"]*from 1 MiB up' ||
	fail "slow: $ex DD is not a series_slower failure from 1 MiB up in its JUnit"
[ "$(grep -c 'type="series_' slow.xml)" = 1 ] ||
	fail "slow: another series than $ex DD failed in its JUnit"
grep "gate ratio" slow.err | grep "$ex" | grep -q 'from 1 MiB' ||
	fail "slow: stderr does not name $ex and 'from 1 MiB': $(cat slow.err)"
[ "$(gate slow slower.0.execution)" = "$ex" ] &&
	[ "$(gate slow slower.0.from_bytes)" = 1048576 ] ||
	fail "slow: the JSON's slower[0] is not $ex from 1 MiB"
[ "$(gate slow counts.slower_series)" = 1 ] || fail "slow: more than one series listed"
echo "ok 2 - DD at 0.7 from 1 MiB up in one series: exit 3, named"

# A noisy one-repeat campaign: undecided, exit 4, with what would settle it.
"$PY" "$S/make_rounds.py" --plan plan.json --out noisy --cv 0.25 ||
	fail "make_rounds noisy"
report noisy noisy
[ "$(rc noisy)" = 4 ] || fail "noisy: exit $(rc noisy), not 4: $(cat noisy.err)"
grep -q 'UNDECIDED (exit 4): gate ratio: .*c1-node01-node02-g0-ab-r1 DD (.*rounds, --repeat=' noisy.err ||
	fail "noisy: stderr does not name the series and its rounds: $(cat noisy.err)"
[ "$(gate noisy state)" = undecided ] && [ "$(gate noisy undecided_policy)" = fail ] ||
	fail "noisy: state $(gate noisy state), policy $(gate noisy undecided_policy)"
grep -q 'Verdict: UNDECIDED (exit 4)' noisy.md || fail "noisy: Markdown verdict"
for p in fail undecided; do
	report "noisy-$p" noisy --gate-undecided=$p --junit "noisy-$p.xml"
	[ "$(rc "noisy-$p")" = 4 ] && [ "$(gate "noisy-$p" undecided_policy)" = $p ] ||
		fail "--gate-undecided=$p: exit $(rc "noisy-$p")"
	# the CI formats read the same state: a failure or an error whose
	# body names each undecided series
	kind=failure && [ $p = undecided ] && kind=error
	grep -q "<$kind type=\"gate_undecided\"" "noisy-$p.xml" &&
		grep -q '^c1-node01-node02-g0-ab-r1 DD (.*--repeat=' "noisy-$p.xml" ||
		fail "--gate-undecided=$p: the JUnit file has no $kind naming the series"
	# and each undecided series its own, saying what would settle it
	grep -A1 '<testcase classname="gd_report.ratio" name="c1-node01-node02-g0-ab-r1 DD"' "noisy-$p.xml" |
		grep -q "<$kind type=\"series_undecided\" message=\"[^\"]*--repeat=" ||
		fail "--gate-undecided=$p: c1-node01-node02-g0-ab-r1 DD is not its own $kind with the rounds to settle it"
done
report noisy-pass noisy --gate-undecided=pass
[ "$(rc noisy-pass)" = 0 ] && [ "$(gate noisy-pass pass)" = True ] ||
	fail "--gate-undecided=pass: exit $(rc noisy-pass)"
report noisy-bad noisy --gate-undecided=maybe
[ "$(rc noisy-bad)" = 2 ] && grep -q "fail, pass, undecided" noisy-bad.err ||
	fail "--gate-undecided=maybe: exit $(rc noisy-bad)"
# a slow series beside undecided ones fails the gate (3)
report mixed slow --gate-undecided=pass
[ "$(rc mixed)" = 3 ] || fail "slow with --gate-undecided=pass: exit $(rc mixed)"
echo "ok 3 - a noisy campaign: undecided, exit 4, --gate-undecided"

# With one repeat a series is decided as its run alone is (gd_compare
# RUN.json), both directions together, over a campaign of mixed truths.
"$B/gd_plan" --servers 4 --gpus-per-server 2 --rails 1 --nic-gbps 400 \
	--campaign-repeats 1 --quiet --json plan4.json || fail "gd_plan 4"
"$PY" "$S/make_rounds.py" --plan plan4.json --out mix --cv 0.04 --dd 0.88 --reverse \
	--slow c1-node01-node04-g0-ab-r1:0.6:65536 \
	--slow c1-node02-node03-g1-ab-r1:0.7:1048576 || fail "make_rounds mix"
"$B/gd_report" --plan plan4.json --expect-ratio 0.8 --json mix.json mix \
	>/dev/null 2>&1
for f in mix/*-r1.json; do
	"$B/gd_compare" -q --expect-ratio=0.8 --gate-from=64K --json="$f.cmp" "$f"
done
"$PY" - mix.json mix <<'EOF' || fail "one repeat: gd_report's decisions are not the run's"
import glob, json, os, sys
g = [g for g in json.load(open(sys.argv[1]))["acceptance"]["gates"]
     if g["name"] == "ratio"][0]
own = {}
for rec in g["slower"] + g["undecided_series"]:
    own[(rec["execution"], rec["phase"])] = rec["decision"]
seen, bad, n = set(), [], 0
for f in sorted(glob.glob(os.path.join(sys.argv[2], "*-r1.json"))):
    ex = os.path.basename(f)[:-5]
    run = json.load(open(f + ".cmp"))["comparisons"][0]["statistics"]
    if len(run["assessments"]) != 2:
        bad.append("%s: %d assessments" % (ex, len(run["assessments"])))
    for a in run["assessments"]:
        ph = "DD" if a["direction"] == "forward" else "DD:rev"
        d = a["decision"]
        mine = own.get((ex, ph), "not_below")
        seen.add(d)
        n += 1
        if d != mine:
            bad.append("%s %s: run %s, gd_report %s" % (ex, ph, d, mine))
print("# %d assessments of %d series alike, decisions %s" %
      (n, g["counts"]["series"], sorted(seen)))
if bad or len(seen) < 2:
    print("\n".join(bad) or "fewer than two kinds of decision")
    sys.exit(1)
EOF
echo "ok 4 - one repeat: every series decided as its run alone"

# Three repeats: each a cluster of its rounds.
"$B/gd_plan" --servers 2 --gpus-per-server 1 --rails 1 --nic-gbps 400 \
	--campaign-repeats 3 --quiet --json plan3.json || fail "gd_plan 3"
cp plan3.json plan.json
"$PY" "$S/make_rounds.py" --plan plan.json --out rep3 || fail "make_rounds rep3"
report rep3 rep3
[ "$(gate rep3 counts.by_repeats)" -gt 0 ] && [ "$(gate rep3 counts.not_below)" = "$(gate rep3 counts.assessed)" ] ||
	fail "three repeats: $(gate rep3 counts)"
gate rep3 method | grep -q 'each repeat a cluster of its rounds' ||
	fail "three repeats: the method does not say how repeats are judged"
echo "ok 5 - three repeats: judged as clusters of their rounds"
echo "1..5"
