#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The layers of src/, checked on the built objects (nm): no two files call
each other, directly or around a loop, and a folder calls only folders of a
lower layer. Prints the file and folder graph it found.

usage: layers.py BUILDDIR
"""
import collections
import glob
import os
import subprocess
import sys

# Lower number = lower layer; a call may only go down (or stay in a folder).
RANKS = {
    "util": 0,
    "transport": 1, "mem": 1, "report": 1,
    "envelope": 2,
    "engine": 3,
    "bin": 4, "tools/doctor": 4, "tools/cluster": 4,
}


def folder(path):
    parts = path.split("/")
    return "/".join(parts[1:3]) if parts[1] == "tools" else parts[1]


def source_name(obj):
    d, base = os.path.split(obj)
    # automake prefixes per-target objects: libgdperf_la-error.o, gd_doctor-main.o
    if "-" in base:
        base = base.split("-", 1)[1]
    return os.path.join(d, base[:-2] + ".c")


def graph(builddir):
    objs = [o for o in glob.glob(os.path.join(builddir, "src", "**", "*.o"),
                                 recursive=True) if "/.libs/" not in o]
    defs, uses = {}, collections.defaultdict(set)
    for o in objs:
        f = source_name(os.path.relpath(o, builddir))
        out = subprocess.run(["nm", o], check=True, capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "TDBR":
                defs[p[2]] = f
            elif len(p) == 2 and p[0] == "U":
                uses[f].add(p[1])
    edges = collections.defaultdict(set)
    for f, us in uses.items():
        for u in us:
            if u in defs and defs[u] != f:
                edges[f].add(defs[u])
    return sorted(set(defs.values()) | set(uses)), edges


def cycles(nodes, edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in nodes:
        if v not in index:
            visit(v)
    return out


def main():
    nodes, edges = graph(sys.argv[1])
    if len(nodes) < 40:
        print(f"FAIL: only {len(nodes)} source files found under "
              f"{sys.argv[1]}/src: was the tree built?")
        return 1
    bad = []
    for comp in cycles(nodes, edges):
        bad.append("call cycle: " + " <-> ".join(comp))
    folders = collections.defaultdict(set)
    for a, bs in edges.items():
        for b in bs:
            fa, fb = folder(a), folder(b)
            if fa == fb:
                continue
            folders[fa].add(fb)
            if fa not in RANKS or fb not in RANKS:
                bad.append(f"{a} -> {b}: folder without a layer in RANKS")
            elif RANKS[fb] >= RANKS[fa]:
                bad.append(f"{a} -> {b}: {fa} calls {fb}, not a lower layer")
    for fa in sorted(folders):
        print(f"# {fa} -> {', '.join(sorted(folders[fa]))}")
    for b in bad:
        print("FAIL:", b)
    if bad:
        return 1
    print(f"PASS: {len(nodes)} files, no call cycle, every folder calls "
          f"only lower layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
