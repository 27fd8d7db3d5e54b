#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Labelled synthetic corpus for gd_report's tests: one gdperf.run/4 document
# (the shape the gd_* binaries write; tests/schemas.sh validates it) per
# side of every execution of a gd_plan JSON plan, bandwidth curves with
# deterministic noise, injected faults whose failure domain is known, and
# gd_doctor's documents (gdperf.doctor/1).
# Locality (round 4) executions get HH, D1D1 and D2D2 phases, the run tool's
# header.memory_choice / d2_memory_choice and its D2D2/D1D1 assessment, with
# their own injected findings (keyed by the server running the client).
import argparse
import json
import os
import random

SIZES = [4096, 65536, 262144, 1048576]
HH_MIBPS = {4096: 9000.0, 65536: 40000.0, 262144: 45000.0, 1048576: 46000.0}
DD_OVER_HH = 0.95
# The run schema the gd_* binaries write (src/report/report.c) and
# schemas/gdperf.run.schema.json describes; gd_doctor's own document.
RUN_SCHEMA = "gdperf.run/4"
DOCTOR_SCHEMA = "gdperf.doctor/1"


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
    nic = ex["nic_a"] if host == ex["server_a"] else ex["nic_b"]
    doc = {"schema": RUN_SCHEMA, "tool": "gd_write_bw",
           "version": "0.1.0",
           "command_line": ["gd_write_bw", "-d", nic, "-a",
                            "--out_json_file=%s.json" % ex["id"]],
           "started_at": "2026-01-01T00:00:00Z",
           "hostname": host, "role": role, "labels": labels,
           "options": {"ib_dev": nic, "ib_port": 1, "port": ex["port"],
                       "connection": "RC", "all": True, "repeat": 1,
                       "phases": "HH,DD", "report_gbits": False},
           "test": {"verb": "write", "measure": "bw", "connection": "RC",
                    "qps": 1, "all": True, "phases": "HH,DD",
                    "no_interleave": False,
                    "min_size_bytes": SIZES[0],
                    "max_size_bytes": SIZES[-1]},
           "header": {"device": nic, "port": 1, "role": role},
           "endpoints": {"local": {"device": nic, "port": 1}},
           "units": {"size": "bytes", "bw": "MiB/s", "msg_rate": "Mpps",
                     "lat": "usec"},
           "phases": [phase("HH", hh, rng), phase("DD", dd * DD_OVER_HH,
                                                   rng)],
           "error": None, "exit_status": 0}
    return doc


def choice(cls, dev, nic, far):
    why = ("the least local of 8 device(s) with a registration route "
           "(the nearest is PIX)" if far else
           "the nearest of 8 device(s) with a registration route")
    return ("%s by the GPU-to-NIC map: device %d (0000:%02x:00.0) is %s to "
            "%s, %s" % (cls, dev, 0x1a + dev, cls, nic, why))


def assessment(cmp, decision, ratio, low, high, needed=0):
    return {"comparison": cmp, "direction": "forward",
            "figure": "bandwidth ratio X/HH", "floor": 0.9,
            "decision": decision, "sizes": len(SIZES), "rounds": 3,
            "ratio": ratio, "interval": {"replicates": "rounds", "n": 3,
                                         "confidence": 0.95, "low": low,
                                         "high": high},
            "repeats_needed": needed}


def locality(doc, client, nic, args):
    """Round 4 as the run tool writes it for --mem=DEV:near,DEV:far."""
    near_cls, far_ratio = "PIX", 0.62
    for spec in args.near_class:
        host, cls = spec.split(":")
        if host == client:
            near_cls = cls
    d2 = assessment("D2D2/D1D1", "slower", 0.62, 0.58, 0.66)
    if client in args.far_faster:
        far_ratio = 1.3
        d2 = assessment("D2D2/D1D1", "no_difference", 1.3, 1.21, 1.39)
    if client in args.loc_inconclusive:
        far_ratio = 0.93
        d2 = assessment("D2D2/D1D1", "inconclusive", 0.93, 0.71, 1.22, 12)
    hh = doc["phases"][0]
    rng = random.Random("loc-%s" % doc["labels"]["exec"])
    doc["header"] = {"device": nic,
                     "memory_choice": choice(near_cls, 0, nic, False),
                     "d2_memory_choice": choice("SYS", 7, nic, True)}
    doc["phases"] = [hh, phase("D1D1", DD_OVER_HH, rng),
                     phase("D2D2", DD_OVER_HH * far_ratio, rng)]
    doc["statistics"] = {"repeats": 3, "assessments": [
        assessment("D1D1/HH", "no_difference", 0.95, 0.93, 0.97),
        assessment("D2D2/HH", "slower", 0.95 * far_ratio, 0.5, 0.6), d2]}
    if client in args.loc_fail:
        del doc["header"]["d2_memory_choice"]
        del doc["statistics"]
        doc["phases"][2].update({"status": "failed", "results": [],
                                 "error": {"message": "--mem=...:far: every "
                                           "usable device is PIX to %s, so "
                                           "none is less local than the "
                                           "nearest" % nic}})
        doc["exit_status"] = 1
        doc["error"] = {"code": -19, "errno_name": "ENODEV",
                        "message": "phase D2D2 failed"}


def envelope(host):
    return {"schema": DOCTOR_SCHEMA, "tool": "gd_doctor",
            "version": "0.1.0", "command_line": ["gd_doctor", "--json"],
            "exit_status": 0,
            "envelope": {"schema": "gdperf.envelope/1",
                         "host": {"hostname": host},
                         # where gd_doctor writes the map (one row per GPU)
                         "topology": {"map": [{"pci_order": 0,
                                               "nearest": {"nic": "mlx5_0",
                                                           "path": "PIX"}}]},
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
    ap.add_argument("--near-class", action="append", default=[],
                    help="HOST:CLASS near path class of HOST's round-4 run")
    ap.add_argument("--far-faster", action="append", default=[],
                    help="HOST whose round-4 far device is the faster")
    ap.add_argument("--loc-inconclusive", action="append", default=[])
    ap.add_argument("--loc-fail", action="append", default=[],
                    help="HOST whose round-4 run finds no far device")
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
            doc = document(ex, role, host, hh, dd, rng)
            if ex["round"] == 4 and role == "client":
                nic = ex["nic_a"] if host == ex["server_a"] else ex["nic_b"]
                locality(doc, host, nic, args)
            with open(path, "w") as f:
                json.dump(doc, f)
    if args.envelopes:
        for h in plan["hosts"]:
            with open(os.path.join(args.out, "doctor-%s.json" % h["name"]),
                      "w") as f:
                json.dump(envelope(h["name"]), f)
    for item in args.check:
        doc = {"schema": RUN_SCHEMA, "tool": "acceptance",
               "labels": {"check": item}, "error": None, "exit_status": 0}
        with open(os.path.join(args.out, "check-%s.json" % item), "w") as f:
            json.dump(doc, f)


if __name__ == "__main__":
    main()
