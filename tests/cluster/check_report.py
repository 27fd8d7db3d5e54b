#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Assertions over gd_report's JSON for the synthetic corpora (hand-derived
# expectations: which failure domains, which coverage cells untested).
import json
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


if __name__ == "__main__":
    report = json.load(open(sys.argv[2]))
    {"faulty": check_faulty, "clean": check_clean}[sys.argv[1]](report)
    print("ok " + sys.argv[1])
