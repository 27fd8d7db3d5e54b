#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Labelled synthetic corpus for gd_report's tests: one gdperf.run/1 document
# per side of every execution of a gd_plan JSON plan, bandwidth curves with
# deterministic noise, and injected faults whose failure domain is known.
import argparse
import json
import os
import random

SIZES = [4096, 65536, 262144, 1048576]
HH_MIBPS = {4096: 9000.0, 65536: 40000.0, 262144: 45000.0, 1048576: 46000.0}
DD_OVER_HH = 0.95


def factors(ex, args):
    """Multipliers (HH, DD) for the faults this execution touches."""
    hh = dd = 1.0
    ends = (ex["server_a"], ex["server_b"])
    for spec in args.slow_assoc:
        host, gpu = spec.split(":")
        if host in ends and ex["gpu"] == int(gpu):
            dd *= 0.5                   # GPU path only: host memory fine
    if ex["rail"] in args.bad_rail:
        hh *= 0.6
        dd *= 0.6
    for host in args.bad_server:
        if host in ends:
            hh *= 0.55
            dd *= 0.55
    return hh, dd


def phase(name, scale, rng):
    rows = []
    for size in SIZES:
        bw = HH_MIBPS[size] * scale * (1 + rng.uniform(-0.015, 0.015))
        rows.append({"size_bytes": size, "iterations": 5000,
                     "bw_peak_MiBps": bw * 1.02, "bw_avg_MiBps": bw,
                     "bw_avg_Gbps": bw * 1048576 * 8 / 1e9,
                     "msg_rate_Mpps": bw * 1048576 / size / 1e6})
    return {"name": name, "placement": name, "direction": "forward",
            "status": "ok", "error": None, "memory": {},
            "results": rows, "counters": {}}


def document(ex, role, host, hh, dd, rng):
    labels = {"plan": "corpus", "exec": ex["id"], "round": ex["round_name"],
              "step": str(ex["step"]), "repeat": str(ex["repeat"]),
              "server_a": ex["server_a"], "server_b": ex["server_b"],
              "gpu": str(ex["gpu"]), "nic": ex["nic_a"],
              "rail": str(ex["rail"]), "direction": ex["direction"]}
    doc = {"schema": "gdperf.run/1", "tool": "gd_write_bw",
           "version": "0.1.0", "command_line": ["gd_write_bw"],
           "hostname": host, "role": role, "labels": labels,
           "test": {"verb": "write", "measure": "bw", "connection": "RC",
                    "qps": 1, "sizes_bytes": SIZES},
           "units": {"size": "bytes", "bw": "MiB/s", "msg_rate": "Mpps",
                     "lat": "usec"},
           "phases": [phase("HH", hh, rng), phase("DD", dd * DD_OVER_HH,
                                                   rng)],
           "error": None, "exit_status": 0}
    return doc


def envelope(host):
    return {"schema": "gdperf.run/1", "tool": "gd_doctor",
            "hostname": host,
            "envelope": {"host": {"hostname": host},
                         "gpu_nic_map": [{"gpu": 0, "nic": "mlx5_0",
                                          "path_class": "PIX"}],
                         "findings": []}}


def dropped(ex, args):
    if ex["round"] in args.drop_round:
        return True
    for spec in args.drop:
        host, gpu, rnd = spec.split(":")
        if (host in (ex["server_a"], ex["server_b"]) and
                ex["gpu"] == int(gpu) and ex["round"] == int(rnd)):
            return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plan", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--slow-assoc", action="append", default=[])
    ap.add_argument("--bad-rail", action="append", type=int, default=[])
    ap.add_argument("--bad-server", action="append", default=[])
    ap.add_argument("--drop-round", action="append", type=int, default=[])
    ap.add_argument("--drop", action="append", default=[],
                    help="HOST:GPU:ROUND executions left untested")
    ap.add_argument("--envelopes", action="store_true")
    ap.add_argument("--check", action="append", default=[])
    args = ap.parse_args()
    plan = json.load(open(args.plan))
    os.makedirs(args.out, exist_ok=True)
    for ex in plan["executions"]:
        if dropped(ex, args):
            continue
        rng = random.Random("%d-%s" % (args.seed, ex["id"]))
        hh, dd = factors(ex, args)
        client, server = ex["server_a"], ex["server_b"]
        if ex["direction"] == "b_to_a":
            client, server = server, client
        for role, host, suffix in (("client", client, ""),
                                   ("server", server, ".server")):
            path = os.path.join(args.out, ex["id"] + suffix + ".json")
            with open(path, "w") as f:
                json.dump(document(ex, role, host, hh, dd, rng), f)
    if args.envelopes:
        for h in plan["hosts"]:
            with open(os.path.join(args.out, "doctor-%s.json" % h["name"]),
                      "w") as f:
                json.dump(envelope(h["name"]), f)
    for item in args.check:
        doc = {"schema": "gdperf.run/1", "tool": "acceptance",
               "labels": {"check": item}, "error": None, "exit_status": 0}
        with open(os.path.join(args.out, "check-%s.json" % item), "w") as f:
            json.dump(doc, f)


if __name__ == "__main__":
    main()
