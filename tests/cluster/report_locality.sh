#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_report over a campaign with the locality round (gd_plan
# --locality-round, round 4): the synthetic round-4 documents carry the run
# tool's header.memory_choice / d2_memory_choice and its D2D2/D1D1
# assessment. Round 4 must be reported in its own section (per server: the
# ratio, the decision, the path classes and the findings: a near device
# that is not PIX/PXB, a far one faster or undecided, a failed run) and
# must change nothing else: gates, coverage, checklist, domains and curves
# are those of the same campaign without round 4, with or without a plan,
# and with a plan that has no round 4.
B=${GD_TOP_BUILDDIR:-.}
S=${GD_TOP_SRCDIR:-.}/tests/cluster
# configure chose the interpreter (--enable-python-tests); run by hand, any python3.
[ -z "${GD_PYTHON_WHY:-}" ] || { echo "SKIP: Python checks: $GD_PYTHON_WHY" >&2; exit 77; }
PY=${PYTHON3:-$(command -v python3)}
[ -n "$PY" ] && command -v "$PY" >/dev/null 2>&1 || { echo "SKIP: python3 not found" >&2; exit 77; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

shape="--servers 6 --gpus-per-server 2 --rails 2 --nic-gbps 400 --repeats 3 --quiet"
"$B/gd_plan" $shape --json "$T/plan0.json" || fail "gd_plan"
"$B/gd_plan" $shape --locality-round --json "$T/plan4.json" || fail "gd_plan --locality-round"
"$PY" "$S/make_corpus.py" --plan "$T/plan0.json" --out "$T/c0" \
	--envelopes --check application || fail "corpus without round 4"
# node02 runs the client of l1-node02-node05-g0-ab-r1, node05 of its
# b_to_a twin, node03 and node04 of l1-node03-node04-g0-*, node01 and
# node06 of l1-node01-node06-g0-*
"$PY" "$S/make_corpus.py" --plan "$T/plan4.json" --out "$T/c4" \
	--envelopes --check application --near-class node03:NODE \
	--far-faster node05 --loc-inconclusive node02 --loc-fail node04 ||
	fail "corpus with round 4"

"$B/gd_report" --plan "$T/plan0.json" --json "$T/r0.json" --markdown "$T/r0.md" "$T/c0"
[ $? -eq 0 ] || fail "campaign without round 4 should pass"
# A failed or odd round-4 execution is a finding, never a failed gate.
"$B/gd_report" --plan "$T/plan4.json" --json "$T/r4.json" --markdown "$T/r4.md" "$T/c4"
[ $? -eq 0 ] || fail "round 4 changed the exit status"
# The plan without round 4 still reads the round-4 documents (unplanned).
"$B/gd_report" --plan "$T/plan0.json" --json "$T/r4p0.json" --markdown /dev/null "$T/c4"
[ $? -eq 0 ] || fail "round-4 documents with a plan that has no round 4"
# No plan: the coverage gate fails (nothing is known to be intended) in
# both, the same way.
"$B/gd_report" --json "$T/n0.json" --markdown /dev/null "$T/c0"
[ $? -eq 3 ] || fail "no plan should exit 3"
"$B/gd_report" --json "$T/n4.json" --markdown /dev/null "$T/c4"
[ $? -eq 3 ] || fail "no plan with round 4 should exit 3"

"$PY" - "$T" <<'PY' || exit 1
import json, sys

T = sys.argv[1]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def load(name, corpus):
    raw = open("%s/%s.json" % (T, name)).read()
    return json.loads(raw.replace("%s/%s/" % (T, corpus), "DIR/"))


def same_but_locality(a, b, what):
    for k in a:
        if k != "inputs" and a[k] != b.get(k):
            fail("%s: '%s' differs from the campaign without round 4"
                 % (what, k))
    extra = sorted(set(b) - set(a))
    if extra != ["locality"]:
        fail("%s: keys added %s, expected ['locality']" % (what, extra))
    if b["inputs"]["unlabelled"] != 0:
        fail("%s: round-4 documents counted as unlabelled" % what)
    if any(e["round"] == 4 for e in b["executions"]):
        fail("%s: round 4 in the executions judged" % what)
    if any(k.startswith("round4") for a in b["associations"] for k in a):
        fail("%s: round 4 in the coverage matrix" % what)


r0, r4 = load("r0", "c0"), load("r4", "c4")
same_but_locality(r0, r4, "plan with round 4")
same_but_locality(r0, load("r4p0", "c4"), "plan without round 4")
same_but_locality(load("n0", "c0"), load("n4", "c4"), "no plan")
if "D1D1" in r4["curve_grid"]["phases"]:
    fail("round-4 phases in the curve grid")
for name, planned in (("r4", 6), ("r4p0", 0), ("n4", 0)):
    loc = load(name, "c4")["locality"]
    if (loc["planned"], loc["tested"], len(loc["executions"])) != \
            (planned, 6, 6):
        fail("%s: locality planned %s tested %s rows %d" %
             (name, loc["planned"], loc["tested"], len(loc["executions"])))
    if loc["round"] != 4 or loc["comparison"] != "D2D2/D1D1":
        fail("%s: locality header %s" % (name, loc))
rows = {r["server"]: r for r in r4["locality"]["executions"]}
if sorted(rows) != ["node0%d" % i for i in range(1, 7)]:
    fail("one row per server as the client: %s" % sorted(rows))
good = rows["node01"]
if (good["status"], good["decision"], good["near"], good["far"],
        good["nic"], good["partner"], good["findings"]) != \
        ("pass", "slower", {"device": 0, "path_class": "PIX"},
         {"device": 7, "path_class": "SYS"}, "mlx5_0", "node06", []):
    fail("node01 row %s" % good)
if abs(good["ratio"] - 0.62) > 1e-9 or (good["low"], good["high"]) != \
        (0.58, 0.66):
    fail("node01 ratio %s" % good)
for host, status, want in (
        ("node03", "pass", "the near device 0 is NODE to mlx5_0"),
        ("node05", "pass", "the far device 7 (SYS) is faster than the near"),
        ("node02", "pass", "is inconclusive: neither slower nor the same; "
                           "about 12 repeats")):
    r = rows[host]
    if r["status"] != status or len(r["findings"]) != 1 or \
            want not in r["findings"][0]:
        fail("%s: %s, findings %s" % (host, r["status"], r["findings"]))
bad = rows["node04"]
if bad["status"] != "failed" or "every usable device is PIX" not in \
        bad["reason"] or bad["far"]["path_class"] is not None or \
        bad["decision"] is not None or bad["findings"]:
    fail("node04 (no far device) %s" % bad)
if r4["locality"]["findings"] != 3:
    fail("findings %s, expected 3" % r4["locality"]["findings"])
PY

md=$T/r4.md
grep -q '^## Locality (round 4): far against near device$' "$md" || fail "markdown locality section"
grep -q '^6 executions, 6 of them planned, 6 with a document\. Not coverage and not a gate' "$md" ||
	fail "markdown locality counts"
grep -q '^| node01 | node06 | mlx5_0 | 0 (PIX) | 7 (SYS) | 0.62 | 0.58..0.66 | slower | pass |$' "$md" ||
	fail "markdown row of node01"
grep -q '^| node04 | node03 | mlx5_0 | 0 (PIX) | - | - | - | - | failed |$' "$md" ||
	fail "markdown row of node04"
grep -q '^- node03 (l1-node03-node04-g0-ab-r1): the near device 0 is NODE to mlx5_0' "$md" ||
	fail "markdown near finding"
grep -q '^- node04 (l1-node03-node04-g0-ba-r1): failed: ' "$md" || fail "markdown failed row"
# The locality section sits before the checklist; without round 4 there is none.
[ "$(sed -n '/^## Locality/,/^## Acceptance checklist/p' "$md" | tail -1)" = "## Acceptance checklist" ] ||
	fail "locality section not before the checklist"
! grep -q 'Locality' "$T/r0.md" || fail "locality section without round 4"
! grep -q '^- l1-' "$md" || fail "round-4 executions among those that stand out"

# A locality campaign whose every run is as expected has no finding.
"$PY" "$S/make_corpus.py" --plan "$T/plan4.json" --out "$T/ok4" --envelopes ||
	fail "clean corpus with round 4"
"$B/gd_report" --plan "$T/plan4.json" --markdown "$T/ok4.md" "$T/ok4" >/dev/null
grep -q '^None: every near device is PIX or PXB to its NIC and every far one is slower or the same\.$' "$T/ok4.md" ||
	fail "clean locality round: $(sed -n '/^Findings/,/^## Acc/p' "$T/ok4.md")"
# Round 4 left untested: reported as such, coverage still complete.
"$PY" "$S/make_corpus.py" --plan "$T/plan4.json" --out "$T/drop4" --envelopes \
	--check application --drop-round 4 || fail "corpus without its round 4"
"$B/gd_report" --plan "$T/plan4.json" --json "$T/drop4.json" --markdown "$T/drop4.md" "$T/drop4"
[ $? -eq 0 ] || fail "a missing round 4 changed the exit status"
grep -q '^6 executions, 6 of them planned, 0 with a document\.' "$T/drop4.md" ||
	fail "untested round 4 counts"
grep -q '^| node01 | node06 | - | - | - | - | - | - | untested |$' "$T/drop4.md" ||
	fail "untested round-4 row"
grep -q '^| coverage | pass | 60 of 60 planned executions' "$T/drop4.md" ||
	fail "coverage gate counted round 4"
echo "PASS: round 4 reported apart, nothing else changed"
