#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Run documents with their rounds (--repeat=N: each row's "samples", one
# per round, as the gd_* binaries write them) for every execution of a
# gd_plan JSON plan: HH and DD bandwidth over 4 KiB..8 MiB with seeded
# log-normal noise per figure, optionally one execution's DD slower from a
# size up. gd_report's campaign decision is read against them
# (tests/cluster/report_decide.sh).
import argparse
import json
import math
import os
import random

SIZES = [4096] + [65536 << k for k in range(8)]  # 4 KiB, 64 KiB..8 MiB
HH_MIBPS = 46000.0


def noisy(rng, mean, cv):
    s = math.sqrt(math.log(1 + cv * cv))
    return mean * math.exp(rng.gauss(0, s) - s * s / 2)


def phase(name, ratio_of, rounds, cv, rng, direction="forward"):
    rows = []
    for size in SIZES:
        base = HH_MIBPS * min(1.0, size / 65536.0) * ratio_of(size)
        samples = []
        for k in range(rounds):
            bw = noisy(rng, base, cv)
            samples.append({"size_bytes": size, "iterations": 1000,
                            "bw_avg_MiBps": bw, "repeat": k + 1})
        med = sorted(s["bw_avg_MiBps"] for s in samples)[rounds // 2]
        row = {"size_bytes": size, "iterations": 1000,
               "bw_avg_MiBps": med}
        if rounds > 1:
            row.update({"repeats": rounds, "samples": samples})
        rows.append(row)
    return {"name": name + (":rev" if direction == "reverse" else ""),
            "placement": name, "direction": direction,
            "status": "ok", "error": None, "memory": {}, "results": rows}


def document(ex, role, host, phases, rounds):
    labels = {"plan": "rounds", "exec": ex["id"], "round": ex["round_name"],
              "step": str(ex["step"]), "repeat": str(ex["repeat"]),
              "server_a": ex["server_a"], "server_b": ex["server_b"],
              "gpu": str(ex["gpu"]), "nic": ex["nic_a"],
              "rail": str(ex["rail"]), "direction": ex["direction"]}
    return {"schema": "gdperf.run/4", "tool": "gd_write_bw",
            "version": "0.1.0",
            "command_line": ["gd_write_bw", "-a", "--repeat=%d" % rounds],
            "started_at": "2026-01-01T00:00:00Z", "hostname": host,
            "role": role, "labels": labels,
            "options": {"ib_dev": ex["nic_a"], "repeat": rounds,
                        "phases": "HH,DD", "all": True},
            "test": {"verb": "write", "measure": "bw", "connection": "RC",
                     "qps": 1, "all": True, "phases": "HH,DD"},
            "header": {"device": ex["nic_a"], "port": 1, "role": role},
            "units": {"size": "bytes", "bw": "MiB/s"},
            "phases": phases, "error": None, "exit_status": 0}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plan", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cv", type=float, default=0.01,
                    help="each figure's noise, a coefficient of variation")
    ap.add_argument("--dd", type=float, default=0.95, help="DD/HH")
    ap.add_argument("--reverse", action="store_true",
                    help="HH:rev and DD:rev too (the reverse direction)")
    ap.add_argument("--slow", action="append", default=[],
                    help="EXEC:RATIO:FROM_BYTES, that execution's DD/HH "
                         "from a size up")
    args = ap.parse_args()
    plan = json.load(open(args.plan))
    slow = {}
    for spec in args.slow:
        ex, ratio, frm = spec.split(":")
        slow[ex] = (float(ratio), int(frm))
    os.makedirs(args.out, exist_ok=True)
    for ex in plan["executions"]:
        rng = random.Random("%d-%s" % (args.seed, ex["id"]))
        low = slow.get(ex["id"])

        def dd(size, low=low):
            return low[0] if low and size >= low[1] else args.dd
        phases = [phase("HH", lambda s: 1.0, args.rounds, args.cv, rng),
                  phase("DD", dd, args.rounds, args.cv, rng)]
        if args.reverse:
            phases += [phase("HH", lambda s: 1.0, args.rounds, args.cv, rng,
                             "reverse"),
                       phase("DD", lambda s: args.dd, args.rounds, args.cv,
                             rng, "reverse")]
        client, server = ex["server_a"], ex["server_b"]
        if ex["direction"] == "b_to_a":
            client, server = server, client
        for role, host, suffix in (("client", client, ""),
                                   ("server", server, ".server")):
            path = os.path.join(args.out, ex["id"] + suffix + ".json")
            with open(path, "w") as f:
                json.dump(document(ex, role, host, phases, args.rounds), f)


if __name__ == "__main__":
    main()
