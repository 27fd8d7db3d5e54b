#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The layers of src/, checked on the built objects (nm) and the sources:
no two files call each other, directly or around a loop; a folder calls
only folders of a lower layer, and includes headers only from those (a
header that points upward is a call waiting to happen); and the layers a
run's library is made of print nothing themselves: every line goes through
the report layer; and no function in src/ is longer than MAX_FUNCTION
lines. Prints the file and folder graphs it found.

usage: layers.py BUILDDIR
"""
import collections
import glob
import os
import re
import subprocess
import sys

SRCDIR = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))

# Lower number = lower layer; a call may only go down (or stay in a folder).
RANKS = {
    "util": 0,
    "transport": 1, "mem": 1, "report": 1,
    "envelope": 2,
    "engine": 3,
    # the command line: option table, --help, gd_main (the engine reaches
    # the table's wire codec only through the hooks in gd_opts.ops)
    "cli": 4,
    "tools/doctor": 4, "tools/cluster": 4, "tools/compare": 4,
    "bin": 5,
}


# Folders whose objects may not import stdio's printing functions: what
# they have to say goes through the report layer (or gd_err, which main
# prints through it).
QUIET = ("cli", "engine", "transport", "mem", "envelope")
PRINTING = {
    "printf", "fprintf", "vprintf", "vfprintf", "dprintf", "vdprintf",
    "puts", "fputs", "fputs_unlocked", "putchar", "putchar_unlocked",
    "putc", "putc_unlocked", "fputc", "fputc_unlocked", "fwrite",
    "fwrite_unlocked", "perror", "__printf_chk", "__fprintf_chk",
    "__vprintf_chk", "__vfprintf_chk", "__dprintf_chk",
}
# The exceptions, each with why.
PRINTING_OK = {
    "src/cli/options_help.c":
        "--help is printed to the stream gd_main hands it, before any run "
        "or report exists",
}

# A function's body, from its opening brace in column 0 to its closing
# one, may span at most this many lines (STYLE.md aims at 60).
MAX_FUNCTION = 100

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder(path):
    """'src/engine/x.c' -> 'engine'; 'src/tools/doctor/x.c' -> 'tools/doctor'."""
    parts = path.split("/")
    return "/".join(parts[1:3]) if parts[1] == "tools" else parts[1]


def header_folder(include):
    """'engine/opts.h' -> 'engine'; 'tools/doctor/output.h' -> ..."""
    return folder("src/" + include)


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
        # An object whose source is gone (a renamed file) is stale.
        if not os.path.exists(os.path.join(SRCDIR, f)):
            continue
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
    return sorted(set(defs.values()) | set(uses)), edges, uses


def include_edges():
    """(file, included header) for every quoted #include under src/."""
    out = []
    for path in sorted(glob.glob(os.path.join(SRCDIR, "src", "**", "*.[ch]"),
                                 recursive=True)):
        f = os.path.relpath(path, SRCDIR)
        with open(path, encoding="utf-8", errors="replace") as fh:
            for inc in INCLUDE.findall(fh.read()):
                out.append((f, inc))
    return out


def check_includes(bad):
    folders = collections.defaultdict(set)
    for f, inc in include_edges():
        fa, fb = folder(f), header_folder(inc)
        if fa == fb:
            continue
        folders[fa].add(fb)
        if fa not in RANKS or fb not in RANKS:
            bad.append(f"{f} includes {inc}: folder without a layer in RANKS")
        elif RANKS[fb] >= RANKS[fa]:
            bad.append(f"{f} includes {inc}: {fa} includes from {fb}, "
                       "not a lower layer")
    for fa in sorted(folders):
        print(f"# {fa} includes {', '.join(sorted(folders[fa]))}")


def check_printing(uses, bad):
    for f in sorted(uses):
        if folder(f) not in QUIET:
            continue
        printing = sorted(uses[f] & PRINTING)
        if not printing:
            continue
        if f in PRINTING_OK:
            print(f"# {f} prints ({', '.join(printing)}): {PRINTING_OK[f]}")
            continue
        bad.append(f"{f} calls {', '.join(printing)}: {folder(f)} prints "
                   "through the report layer (gd_report_notice, "
                   "gd_report_error), never to a stream itself")


def check_function_length(bad):
    """Every function body under src/ (braces in column 0) is at most
    MAX_FUNCTION lines."""
    n = 0
    for path in sorted(glob.glob(os.path.join(SRCDIR, "src", "**", "*.c"),
                                 recursive=True)):
        f = os.path.relpath(path, SRCDIR)
        start = None
        with open(path, encoding="utf-8", errors="replace") as fh:
            for no, line in enumerate(fh, 1):
                if line.startswith("{"):
                    start = no
                elif line.startswith("}") and start is not None:
                    n += 1
                    if no - start > MAX_FUNCTION:
                        bad.append(f"{f}:{start}: a function of "
                                   f"{no - start} lines, more than "
                                   f"{MAX_FUNCTION}: split it")
                    start = None
    return n


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
    nodes, edges, uses = graph(sys.argv[1])
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
    check_includes(bad)
    check_printing(uses, bad)
    nfunc = check_function_length(bad)
    for b in bad:
        print("FAIL:", b)
    if bad:
        return 1
    print(f"PASS: {len(nodes)} files, no call cycle, every folder calls "
          f"and includes only lower layers, {', '.join(QUIET)} print only "
          f"through the report layer, none of {nfunc} functions longer "
          f"than {MAX_FUNCTION} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
