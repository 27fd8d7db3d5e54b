#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Variants of the compare fixture (a real gd_write_bw document) for
# gd_compare's documents in validate.sh, as tests/compare-tool.sh makes
# them with jq: slow (bandwidth from 64 KiB up times 0.7), lat (the same
# curve as a latency test), lat-slow (its latency from 64 KiB up / 0.7),
# small (the DD phase cut to its three smallest sizes).
# Usage: variants.py SWEEP.json OUTDIR
import copy
import json
import os
import sys


def rows(doc):
    """Every result row and per-round sample, with its phase."""
    for ph in doc["phases"]:
        for r in ph.get("results", []):
            yield ph, r
            for s in r.get("samples", []) if isinstance(
                    r.get("samples"), list) else []:
                yield ph, s


def slow(doc, k=0.7):
    d = copy.deepcopy(doc)
    for _, r in rows(d):
        if r["size_bytes"] >= 65536:
            for key in ("bw_avg_MiBps", "bw_peak_MiBps"):
                if key in r:
                    r[key] *= k
    return d


def lat(doc):
    d = copy.deepcopy(doc)
    d["tool"] = "gd_write_lat"
    d.setdefault("test", {}).update(measure="lat", verb="write")

    def one(r, keep):
        o = {"size_bytes": r["size_bytes"], "iterations": r["iterations"],
             "lat_typical_us": 1e6 / r["bw_avg_MiBps"],
             "lat_p99_us": 1.5e6 / r["bw_avg_MiBps"]}
        o.update({k: r[k] for k in keep if k in r})
        return o
    for ph in d["phases"]:
        ph["results"] = [
            dict(one(r, ("repeats", "median_repeat")),
                 samples=[one(s, ("repeat",)) for s in r.get("samples", [])])
            for r in ph["results"]]
    return d


def lat_slow(doc):
    d = copy.deepcopy(doc)
    for _, r in rows(d):
        if r["size_bytes"] >= 65536:
            r["lat_typical_us"] /= 0.7
    return d


def small(doc):
    d = copy.deepcopy(doc)
    for ph in d["phases"]:
        if ph.get("placement") == "DD":
            ph["results"] = ph["results"][:3]
    return d


def main():
    with open(sys.argv[1]) as f:
        sweep = json.load(f)
    out = sys.argv[2]
    la = lat(sweep)
    for name, doc in (("slow", slow(sweep)), ("lat", la),
                      ("lat-slow", lat_slow(la)), ("small", small(sweep))):
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(doc, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
