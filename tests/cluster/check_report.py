#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Assertions over gd_report's JSON for the synthetic corpora (hand-derived
# expectations: which failure domains, which coverage cells untested), and
# an independent re-computation of every execution's status and every
# coverage cell from the documents (the straightforward scans gd_report's
# indexes replace).
import json
import math
import os
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def cells(rep):
    return {(a["server"], a["gpu"]): a for a in rep["associations"]}


def check_faulty(rep):
    got = sorted((d["unit"], d["name"]) for d in rep["domains"])
    want = sorted([("rail", "rail 2"), ("server", "node06"),
                   ("association", "node03:gpu1")])
    if got != want:
        fail("domains %s, expected %s" % (got, want))
    for d in rep["domains"]:
        if "quarantine only" not in d["action"]:
            fail("action for %s: %s" % (d["name"], d["action"]))
    assoc = [d for d in rep["domains"] if d["unit"] == "association"][0]
    if "GPU-memory path slow" not in assoc["evidence"]:
        fail("association evidence lacks the GPU path: " + assoc["evidence"])
    c = cells(rep)
    # round 3 was never run; node07:gpu3 and its round-2 partner's gpu3
    # (node08) were left out of round 2
    if any(a["round3"] != "untested" for a in c.values()):
        fail("round 3 should be untested everywhere")
    for key in (("node07", 3), ("node08", 3)):
        if c[key]["round2"] != "untested":
            fail("%s round2 is %s" % (key, c[key]["round2"]))
    if c[("node07", 2)]["round2"] != "fail":      # rail 2 is slow
        fail("node07:gpu2 round2 " + c[("node07", 2)]["round2"])
    if c[("node01", 0)]["round1"] != "pass":
        fail("node01:gpu0 round1 " + c[("node01", 0)]["round1"])
    if c[("node06", 0)]["round1"] != "fail":
        fail("node06:gpu0 round1 " + c[("node06", 0)]["round1"])
    gates = {g["name"]: g["pass"] for g in rep["acceptance"]["gates"]}
    if gates != {"coverage": False, "executions": False,
                 "repeatability": True, "ratio": True}:
        fail("gates %s" % gates)
    items = {i["item"]: i["status"] for i in rep["acceptance"]["checklist"]}
    if items["inventory"] != "satisfied" or items["concurrency"] != "open" \
            or items["pair coverage"] != "open" \
            or items["application"] != "open":
        fail("checklist %s" % items)
    if rep["pass"]:
        fail("faulty corpus passed")


def check_clean(rep):
    if rep["domains"]:
        fail("clean corpus has domains %s" % rep["domains"])
    if not rep["pass"]:
        fail("clean corpus did not pass: %s" % rep["acceptance"]["gates"])
    if any(a["round%d" % r] != "pass" for a in rep["associations"]
           for r in (1, 2, 3)):
        fail("clean corpus has a cell that is not pass")
    items = {i["item"]: i["status"] for i in rep["acceptance"]["checklist"]}
    for k in ("inventory", "mapping", "connectivity", "registration",
              "pair coverage", "concurrency", "application"):
        if items[k] != "satisfied":
            fail("clean: %s is %s" % (k, items[k]))
    for k in ("isolation", "recovery", "handover"):
        if items[k] != "open":
            fail("clean: %s is %s without evidence" % (k, items[k]))
    # 12 servers x 4 GPUs = 48 associations; round 1: 6 pairs x 4 GPUs x
    # 2 directions x 3 repeats = 144 executions
    if len(rep["associations"]) != 48:
        fail("associations %d" % len(rep["associations"]))
    r1 = [e for e in rep["executions"] if e["round"] == 1]
    if len(r1) != 144:
        fail("round-1 executions %d" % len(r1))


def median(v):
    s = sorted(v)
    n = len(s)
    if not n:
        return math.nan
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def mad(v):
    m = median(v)
    return median([abs(x - m) for x in v])


def outlier(x, med, dev_mad, k=3.5, min_dev=0.10):
    if math.isnan(x) or math.isnan(med) or med == 0:
        return False
    dev = med - x                       # bandwidth: lower is worse
    return dev > k * 1.4826 * dev_mad and dev > min_dev * abs(med)


def read_runs(plan, corpus):
    runs = {e["id"]: {"e": e, "measure": None, "server": False}
            for e in plan["executions"]}
    for name in sorted(os.listdir(corpus)):
        doc = json.load(open(os.path.join(corpus, name)))
        ex = doc.get("labels", {}).get("exec")
        if ex not in runs:
            continue
        if doc.get("role") == "server":
            runs[ex]["server"] = True
            continue
        ok = doc["exit_status"] == 0 and not doc.get("error")
        phases = {}
        for ph in doc["phases"]:
            ok = ok and ph["status"] == "ok"
            phases.setdefault(ph["name"], [(r["size_bytes"], r["bw_avg_MiBps"])
                                           for r in ph["results"]])
        runs[ex]["measure"] = {"ok": ok and bool(doc["phases"]),
                               "phases": phases}
    return [runs[e["id"]] for e in plan["executions"]]


def judged(curve, gate_from=65536):
    last = len(curve) - 1
    return [(s, v) for i, (s, v) in enumerate(curve)
            if s >= gate_from or (i == last and s < gate_from)]


def good(run):
    return run["measure"] is not None and run["measure"]["ok"]


def groups(runs):
    g = {}
    for r in runs:
        if not good(r):
            continue
        cls = r["e"]["round"] == 3
        for name, curve in r["measure"]["phases"].items():
            for s, v in curve:
                g.setdefault((cls, r["e"]["rail"], name, s), []).append(v)
    return {k: (median(v), mad(v), len(v)) for k, v in g.items()}


def slow_rails(runs, g, rails):
    ref = next((r for r in runs if good(r) and r["e"]["round"] != 3), None)
    bad = set()
    if ref is None or rails < 3:
        return bad
    for name, curve in ref["measure"]["phases"].items():
        out, n = [0] * rails, 0
        for s, _ in judged(curve):
            meds = [g.get((False, k, name, s), (math.nan,))[0]
                    for k in range(rails)]
            m, d = median(meds), mad(meds)
            n += 1
            for k in range(rails):
                out[k] += outlier(meds[k], m, d)
        bad |= {k for k in range(rails) if n and out[k] * 2 >= n}
    return bad


def status(r, g, bad_rails):
    if r["measure"] is None:
        return "failed" if r["server"] else "untested"
    if not r["measure"]["ok"]:
        return "failed"
    cls = r["e"]["round"] == 3
    for name, curve in r["measure"]["phases"].items():
        js = [(s, v) for s, v in judged(curve)
              if g.get((cls, r["e"]["rail"], name, s), (0, 0, 0))[2] >= 3]
        out = sum(outlier(v, *g[(cls, r["e"]["rail"], name, s)][:2])
                  for s, v in js)
        if js and out * 2 >= len(js):
            return "outlier"
    return "outlier" if r["e"]["rail"] in bad_rails else "pass"


def check_reference(rep, plan_path, corpus):
    plan = json.load(open(plan_path))
    runs = read_runs(plan, corpus)
    g = groups(runs)
    bad_rails = slow_rails(runs, g, plan["config"]["rails"])
    got = {e["id"]: e["status"] for e in rep["executions"]}
    want = {r["e"]["id"]: status(r, g, bad_rails) for r in runs}
    wrong = [k for k in want if got.get(k) != want[k]]
    if wrong or len(got) != len(want):
        fail("%d of %d execution statuses differ from the reference, e.g. "
             "%s: %s, expected %s" % (len(wrong), len(want), wrong[:1],
                                      [got.get(k) for k in wrong[:1]],
                                      [want[k] for k in wrong[:1]]))
    cells = {}
    for r in runs:
        e = r["e"]
        for host in {e["server_a"], e["server_b"]}:
            c = cells.setdefault((host, e["gpu"], e["round"]), [0, 0, 0])
            st = want[e["id"]]
            c[0] += 1
            c[1] += st != "untested"
            c[2] += st in ("failed", "outlier")
    for a in rep["associations"]:
        for rnd in (1, 2, 3):
            c = cells.get((a["server"], a["gpu"], rnd))
            exp = None if c is None else \
                "untested" if not c[1] else "fail" if c[2] else \
                "pass" if c[1] == c[0] else "partial"
            if a["round%d" % rnd] != exp:
                fail("%s:gpu%d round %d is %s, expected %s" %
                     (a["server"], a["gpu"], rnd, a["round%d" % rnd], exp))
    print("reference: %d executions, %d associations agree" %
          (len(want), len(rep["associations"])))


def check_large(rep):
    got = sorted((d["unit"], d["name"]) for d in rep["domains"])
    want = sorted([("rail", "rail 6"), ("server", "node17"),
                   ("association", "node05:gpu3")])
    if got != want:
        fail("domains %s, expected %s" % (got, want))
    if len(rep["associations"]) != 24 * 8:
        fail("associations %d" % len(rep["associations"]))
    gates = {g["name"]: g for g in rep["acceptance"]["gates"]}
    if gates["coverage"]["pass"] or not gates["repeatability"]["pass"]:
        fail("gates %s" % gates)
    ratio = gates["ratio"]
    # node05:gpu3's series are slower than R: round 1 (two directions)
    # by its three repeats, the single round-2 and round-3 repeats by the
    # band interval over their three sizes; nothing else is
    slower = ratio["slower"]
    if ratio["pass"] or ratio["counts"]["slower"] != 6 or len(slower) != 6:
        fail("ratio gate %s" % ratio["detail"])
    for s in slower:
        if "node05" not in s["execution"] or "-g3-" not in s["execution"] \
                or s["high"] >= 0.8:
            fail("slower series %s" % s)
    if sum(s["replicates"] == "repeats" for s in slower) != 2 or \
            "method" not in ratio:
        fail("ratio counts %s" % ratio["counts"])


def check_ratio(rep, want_slower):
    ratio = [g for g in rep["acceptance"]["gates"] if g["name"] == "ratio"][0]
    rpt = [g for g in rep["acceptance"]["gates"]
           if g["name"] == "repeatability"][0]
    if "method" not in ratio or "lower bound" not in ratio["method"] or \
            "cluster of its rounds" not in ratio["method"] or \
            "Benjamini-Hochberg" not in ratio["method"] or "method" not in rpt:
        fail("gates do not name their method: %s %s" % (ratio, rpt))
    if ratio["counts"]["slower"] != want_slower or \
            ratio["pass"] != (want_slower == 0):
        fail("ratio gate: %s" % ratio["detail"])
    for s in ratio["slower"]:
        if "node03" not in s["execution"] or "-g1-" not in s["execution"]:
            fail("slower series %s is not node03:gpu1's" % s)


if __name__ == "__main__":
    report = json.load(open(sys.argv[2]))
    if sys.argv[1] == "reference":
        check_reference(report, sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "ratio":
        check_ratio(report, int(sys.argv[3]))
    else:
        {"faulty": check_faulty, "clean": check_clean,
         "large": check_large}[sys.argv[1]](report)
    print("ok " + sys.argv[1])
