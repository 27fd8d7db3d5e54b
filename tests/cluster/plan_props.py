#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Schedule properties over a gd_plan JSON plan: no server in two pairs of a
# step, every association covered in both directions with every repeat in
# round 1, round 2 pairs differ from round 1 where possible, round 3 runs
# every lane of a pair in one step, the worksheet count matches, and the
# locality round (round 4, only with --locality-round) runs every round-1
# pair in its own step, both directions, once, on GPU 0's NIC.
import json
import sys


def fail(msg):
    print("FAIL: %s: %s" % (sys.argv[1], msg))
    sys.exit(1)


plan = json.load(open(sys.argv[1]))
cfg = plan["config"]
n, gps, reps = cfg["servers"], cfg["gpus_per_server"], cfg["repeats"]
hosts = [h["name"] for h in plan["hosts"]]
for s in plan["steps"]:
    seen = [h for p in s["pairs"] for h in p]
    if len(seen) != len(set(seen)):
        fail("round %d step %d uses a server twice" % (s["round"], s["step"]))
    if s["round"] == 1 and len(s["pairs"]) > n // 2:
        fail("too many pairs in a step")
ex = plan["executions"]
r1 = [e for e in ex if e["round"] == 1]
cover = {}
for e in r1:
    for host in (e["server_a"], e["server_b"]):
        key = (host, e["gpu"], e["direction"])
        cover.setdefault(key, set()).add(e["repeat"])
for host in hosts:
    for g in range(gps):
        for d in ("a_to_b", "b_to_a"):
            if cover.get((host, g, d)) != set(range(1, reps + 1)):
                fail("%s gpu%d %s repeats %s" % (host, g, d,
                                                cover.get((host, g, d))))
slots = n // 2 + n % 2
if len(r1) != slots * gps * 2 * reps:
    fail("round-1 executions %d" % len(r1))
if plan["worksheet"]["executions"] != len(r1):
    fail("worksheet executions %s vs %d" % (plan["worksheet"]["executions"],
                                           len(r1)))
ids = [e["id"] for e in ex]
if len(ids) != len(set(ids)):
    fail("duplicate execution ids")
steps = {}
for e in ex:
    steps.setdefault((e["round"], e["step"]), []).append(e)
for (rnd, step), es in steps.items():
    if rnd == 3 and len({e["direction"] for e in es}) != 1:
        fail("round 3 step %d mixes directions" % step)
    ports = set()
    for e in es:
        # round 3 runs a step's executions at once: a host (or the
        # loopback host) must never serve two of them on one port
        k = (cfg["loopback_host"] or e["server_a"], e["port"])
        if rnd == 3 and k in ports:
            fail("round 3 step %d reuses port %s" % (step, k))
        ports.add(k)
if n > 3:
    p1 = {tuple(p) for s in plan["steps"] if s["round"] == 1 for p in s["pairs"]}
    p2 = [tuple(p) for s in plan["steps"] if s["round"] == 2 for p in s["pairs"]]
    if not p2 or all(p in p1 for p in p2):
        fail("round 2 has no new partners")
    if sum(p in p1 for p in p2) > 1:
        fail("round 2 repeats %d round-1 pairs" % sum(p in p1 for p in p2))
r4 = [e for e in ex if e["round"] == 4]
if not cfg.get("locality_round"):
    if r4 or any(s["round"] == 4 for s in plan["steps"]):
        fail("round 4 without --locality-round")
else:
    assoc0 = {h["name"]: h["associations"][0] for h in plan["hosts"]}
    want = {(s["step"], a, b, d) for s in plan["steps"] if s["round"] == 1
            for a, b in s["pairs"] for d in ("a_to_b", "b_to_a")}
    got = [(e["step"], e["server_a"], e["server_b"], e["direction"])
           for e in r4]
    if sorted(got) != sorted(want):
        fail("round 4 %s, expected the round-1 pairs %s" % (got, want))
    for e in r4:
        if (e["gpu"], e["repeat"]) != (0, 1) or not e["id"].startswith("l"):
            fail("round 4 execution %s" % e)
        if (e["nic_a"], e["rail"]) != (assoc0[e["server_a"]]["nic"],
                                       assoc0[e["server_a"]]["rail"]):
            fail("round 4 %s is not on GPU 0's NIC" % e["id"])
    clients = {e["server_a"] if e["direction"] == "a_to_b"
               else e["server_b"] for e in r4}
    if clients != set(hosts):
        fail("round 4 leaves servers out as clients: %s" %
             sorted(set(hosts) - clients))
    if ex[-len(r4):] != r4:
        fail("round 4 does not come last")
print("ok %s: %d executions" % (sys.argv[1], len(ex)))
