#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Validates gdperf's JSON documents against schemas/*.schema.json (draft
# 2020-12), each document by its own "schema" string, then proves the
# validator bites: mutated copies of one valid document of each kind (an
# unknown enum value, a missing required key, a wrong type, an exit status
# that is not documented) must fail, and so must every document with any
# one of its booleans (each kind of them, over all the inputs) given as
# the string "yes" or as 1.
# The envelope a run document embeds is checked against gd_doctor's
# schema's $defs/envelope (gdperf.envelope/1, the same object).
# Usage: validate.py SCHEMA_DIR --require run,plan,fleet,... PATH...
import argparse
import copy
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("SKIP: the python3 jsonschema module is not installed "
          "(Debian/Ubuntu: python3-jsonschema)", file=sys.stderr)
    sys.exit(77)


def validator(s, store):
    """A draft 2020-12 validator of @s whose $refs to other schemas (by
    their $id) resolve among @store: with the referencing library where
    jsonschema has it (4.18 on), else with the older RefResolver."""
    V = jsonschema.Draft202012Validator
    try:
        import referencing
        import referencing.jsonschema
    except ImportError:
        return V(s, resolver=jsonschema.RefResolver.from_schema(
            s, store=dict(store)))
    reg = referencing.Registry().with_resources(
        (i, referencing.Resource.from_contents(
            x, default_specification=referencing.jsonschema.DRAFT202012))
        for i, x in store.items())
    return V(s, registry=reg)


ENVELOPE = "urn:gdperf:schema:gdperf.doctor/1#/$defs/envelope"


def check_bundled(docs):
    """A schema's $defs/run_X is a copy of the run schema's $defs/X (so
    that the file resolves alone): the two must agree, $comment aside."""
    run = [x for x in docs.values()
           if x["properties"]["schema"]["const"].startswith("gdperf.run/")]
    for name, s in docs.items():
        for key, d in s.get("$defs", {}).items():
            if not key.startswith("run_") or not run:
                continue
            want = run[0]["$defs"].get(key[4:])
            got = {k: v for k, v in d.items() if k != "$comment"}
            if got != want:
                print("FAIL: %s: $defs/%s is not a copy of %s's $defs/%s: "
                      "copy it again" % (name, key, run[0]["$id"], key[4:]))
                sys.exit(1)


def load_schemas(d):
    """Schema string -> validator, from each file's properties.schema;
    "gdperf.envelope/1" -> the validator of $defs/envelope of the doctor
    schema, when there is one."""
    docs, store, out = {}, {}, {}
    for name in sorted(os.listdir(d)):
        if not name.endswith(".schema.json"):
            continue
        with open(os.path.join(d, name)) as f:
            s = json.load(f)
        jsonschema.Draft202012Validator.check_schema(s)
        docs[name] = s
        store[s["$id"]] = s
    for name, s in docs.items():
        # each file alone, as check-jsonschema --schemafile FILE reads it:
        # a $ref to another file's $id would be unresolvable there
        out[s["properties"]["schema"]["const"]] = (name, validator(s, {}))
    check_bundled(docs)
    doctor = store.get(ENVELOPE.split("#")[0])
    if doctor:
        # The doctor schema itself, rooted at its envelope: its own
        # "#/$defs/..." references then resolve in it with jsonschema's
        # older RefResolver too (Debian 12's 4.10), which resolved them
        # against a bare {"$ref": ENVELOPE} wrapper and failed.
        out["gdperf.envelope/1"] = (
            "gdperf.doctor.schema.json#/$defs/envelope",
            validator({"$schema": doctor["$schema"], "$id": doctor["$id"],
                       "$defs": doctor["$defs"],
                       "$ref": "#/$defs/envelope"}, store))
    return out


def paths(args):
    for p in args:
        if os.path.isdir(p):
            for root, _, files in sorted(os.walk(p)):
                for f in sorted(files):
                    if f.endswith(".json"):
                        yield os.path.join(root, f)
        else:
            yield p


def family(schema):
    return schema.split("/")[0] if isinstance(schema, str) else None


def mutable(doc):
    """Has every part that mutations() changes."""
    if doc["schema"].startswith("gdperf.run/"):
        return bool(doc.get("phases")) and "role" in doc
    if doc["schema"].startswith("gdperf.plan/"):
        return bool(doc.get("executions")) and bool(doc.get("steps"))
    if doc["schema"].startswith("gdperf.compare/"):
        c = doc.get("comparisons") or [{}]
        return all(bool(c[0].get(k)) for k in ("comparison", "gates",
                                                "verdicts"))
    if doc["schema"].startswith("gdperf.doctor/"):
        e = doc["envelope"]
        devs = e["rdma"]["devices"]
        return bool(devs) and bool(devs[0]["ports"]) and \
            bool(e["topology"].get("map")) and \
            bool(e["registration_route"]) and bool(e["findings"])
    return bool(doc.get("executions")) and \
        bool(doc.get("acceptance", {}).get("checklist"))


def mutations(kind, doc):
    """(what, mutated copy) pairs that the schema of @kind must refuse."""
    def m(fn):
        d = copy.deepcopy(doc)
        fn(d)
        return d
    if kind == "gdperf.run":
        out = [("phase status 'bogus'",
                m(lambda d: d["phases"][0].update(status="bogus"))),
               ("no role", m(lambda d: d.pop("role"))),
               ("exit_status a string",
                m(lambda d: d.update(exit_status="0"))),
               ("exit_status 99 (not a documented status)",
                m(lambda d: d.update(exit_status=99))),
               ("gates[].passed \"yes\"",
                m(lambda d: d.update(gates=[{"gate": "min_bw",
                                             "passed": "yes"}]))),
               ("gates[].undecided 1",
                m(lambda d: d.update(gates=[{"gate": "expect_ratio",
                                             "undecided": 1}]))),
               ("options.verify \"yes\"",
                m(lambda d: d["options"].update(verify="yes"))),
               ("verdict code GD_NOPE",
                m(lambda d: d.update(verdicts=[{"code": "GD_NOPE",
                                                "severity": "info",
                                                "summary": "x"}]))),
               ("units.bw 'MB/s'",
                m(lambda d: d["units"].update(bw="MB/s"))),
               ("schema gdperf.run/3",
                m(lambda d: d.update(schema="gdperf.run/3"))),
               ("an options key in another style ('ib-dev')",
                m(lambda d: d["options"].update({"ib-dev": "mlx5_0"}))),
               ("a test key in another style ('noPeak')",
                m(lambda d: d["test"].update({"noPeak": False})))]
        return out
    if kind == "gdperf.plan":
        return [("direction 'sideways'",
                 m(lambda d: d["executions"][0].update(
                     direction="sideways"))),
                ("no config.servers", m(lambda d: d["config"].pop("servers"))),
                ("seconds_source 'magic'",
                 m(lambda d: d["config"].update(seconds_source="magic"))),
                ("step round 7", m(lambda d: d["steps"][0].update(round=7))),
                ("an unknown execution key",
                 m(lambda d: d["executions"][0].update(extra=1)))]
    if kind == "gdperf.fleet":
        return [("execution status 'maybe'",
                 m(lambda d: d["executions"][0].update(status="maybe"))),
                ("no pass", m(lambda d: d.pop("pass"))),
                ("domain unit 'rack'",
                 m(lambda d: d["domains"].append(
                     {"unit": "rack", "name": "r1", "evidence": "e",
                      "action": "a"}))),
                ("checklist status 'done'",
                 m(lambda d: d["acceptance"]["checklist"][0].update(
                     status="done")))]
    if kind == "gdperf.compare":
        c = lambda d: d["comparisons"][0]  # noqa: E731
        return [("mode 'sideways'",
                 m(lambda d: c(d).update(mode="sideways"))),
                ("no options.gate_undecided",
                 m(lambda d: d["options"].pop("gate_undecided"))),
                ("exit_status 5 (not in the table of gdperf(7))",
                 m(lambda d: d.update(exit_status=5))),
                ("exit_status 99", m(lambda d: d.update(exit_status=99))),
                ("a gate's passed \"yes\"",
                 m(lambda d: c(d)["gates"][0].update(passed="yes"))),
                ("verdict code GD_NOPE (the run schema's $defs)",
                 m(lambda d: c(d)["verdicts"][0].update(code="GD_NOPE"))),
                ("a two-run record's code GD_GPU_SLOWER (the run's words)",
                 m(lambda d: c(d).update(code="GD_GPU_SLOWER")
                   if c(d)["mode"] == "candidate_vs_baseline"
                   else c(d).update(overall=None))),
                ("a two-run record without its code",
                 m(lambda d: c(d).pop("code")
                   if c(d)["mode"] == "candidate_vs_baseline"
                   else c(d).update(code="GD_REGRESSION"))),
                ("the overall ratio \"0.7\"",
                 m(lambda d: c(d).get("overall", {}).update(ratio="0.7")
                   if c(d).get("overall")
                   else c(d).update(overall={"ratio": "0.7"}))),
                ("comparison row measure 'bytes' (the run schema's $defs)",
                 m(lambda d: c(d)["comparison"][0].update(measure="bytes"))),
                ("gate decision 'maybe'",
                 m(lambda d: c(d)["gates"][0].update(decision="maybe"))),
                ("baseline schema gdperf.run/1",
                 m(lambda d: c(d)["baseline"].update(
                     schema="gdperf.run/1"))),
                ("an error at stage 'later'",
                 m(lambda d: d["errors"].append(
                     {"input": "x.json", "stage": "later",
                      "message": "m"}))),
                ("an unknown key", m(lambda d: d.update(extra=1)))]
    if kind == "gdperf.doctor":
        e = lambda d: d["envelope"]  # noqa: E731
        rt = lambda d: e(d)["registration_route"][0]  # noqa: E731
        out = [("finding severity 'fatal'",
                m(lambda d: e(d)["findings"][0].update(severity="fatal"))),
               ("no envelope.host", m(lambda d: e(d).pop("host"))),
               ("envelope schema gdperf.envelope/2",
                m(lambda d: e(d).update(schema="gdperf.envelope/2"))),
               ("exit_status 2", m(lambda d: d.update(exit_status=2))),
               ("exit_status 1 (the table's 3 for an error finding)",
                m(lambda d: d.update(exit_status=1))),
               ("path class 'FAR'",
                m(lambda d: e(d)["topology"]["map"][0].update(
                    path_class="FAR"))),
               ("active_mtu_bytes 1000",
                m(lambda d: e(d)["rdma"]["devices"][0]["ports"][0].update(
                    active_mtu_bytes=1000))),
               ("route possible flipped",
                m(lambda d: rt(d).update(possible=not rt(d)["possible"]))),
               ("memlock soft_bytes a string",
                m(lambda d: e(d)["host"]["memlock"].update(
                    soft_bytes="8M")))]
        if (e(doc).get("gpu") or {}).get("gpus"):
            gpu0 = lambda d: e(d)["gpu"]["gpus"][0]  # noqa: E731
            out += [("GPU compute_capability 9",
                     m(lambda d: gpu0(d).update(compute_capability=9))),
                    ("an unknown GPU key",
                     m(lambda d: gpu0(d).update(extra=1)))]
        return out
    return []


def bool_paths(doc, path=()):
    """The path of every boolean in @doc, in document order."""
    if isinstance(doc, bool):
        yield path
    elif isinstance(doc, dict):
        for k, v in doc.items():
            yield from bool_paths(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from bool_paths(v, path + (i,))


def set_path(doc, path, value):
    d = copy.deepcopy(doc)
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return d


def bool_shapes(doc, seen):
    """Each boolean of @doc whose shape (its path, array indices as *) is
    not in @seen yet: seen[shape] = (doc, path)."""
    for p in bool_paths(doc):
        shape = "/".join("*" if isinstance(k, int) else k for k in p)
        seen.setdefault(shape, (doc, p))


def check_booleans(valid, seen):
    """Every boolean the valid documents hold is a boolean in the schema:
    a document with one of them as the string "yes", or as 1, must be
    refused by @valid (each shape once, on the first document that has
    it). Returns the shapes the schema let through."""
    return [shape for shape, (doc, p) in sorted(seen.items())
            if any(valid(set_path(doc, p, bad)) for bad in ("yes", 1))]


def doc_valid(schemas, s):
    """Is a document of schema @s valid: for a run, its embedded envelope
    too, against the doctor schema's $defs/envelope."""
    v = schemas[s][1]
    env = schemas.get("gdperf.envelope/1", (None, None))[1]
    if family(s) != "gdperf.run" or not env:
        return v.is_valid
    return lambda d: v.is_valid(d) and (
        not isinstance(d.get("envelope"), dict) or
        d["envelope"].get("schema") != "gdperf.envelope/1" or
        env.is_valid(d["envelope"]))


def check_envelope(schemas, p, doc):
    """The envelope a run document embeds, against the doctor schema's
    $defs/envelope; None when there is none to check."""
    env = doc.get("envelope")
    if "gdperf.envelope/1" not in schemas or not isinstance(env, dict) or \
            env.get("schema") != "gdperf.envelope/1":
        return None
    name, v = schemas["gdperf.envelope/1"]
    errs = sorted(v.iter_errors(env), key=lambda e: [str(k) for k in e.path])
    for e in errs[:3]:
        print("FAIL: %s: its envelope against %s: at /envelope/%s: %s" % (
            p, name, "/".join(map(str, e.path)), e.message[:300]))
    return not errs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("schemas")
    ap.add_argument("--require", default="")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    schemas = load_schemas(a.schemas)
    families = {family(s) for s in schemas}
    counts, uncovered, failed, first, envelopes = {}, {}, 0, {}, 0
    shapes = {}
    for p in paths(a.paths):
        try:
            with open(p) as f:
                doc = json.load(f)
        except ValueError as e:
            print("FAIL: %s: not JSON: %s" % (p, e))
            failed += 1
            continue
        s = doc.get("schema") if isinstance(doc, dict) else None
        if s not in schemas:
            if family(s) in families:
                print("FAIL: %s: schema %r has no schema file here (%s)"
                      % (p, s, ", ".join(sorted(schemas))))
                failed += 1
            else:
                uncovered[s] = uncovered.get(s, 0) + 1
            continue
        name, v = schemas[s]
        errs = sorted(v.iter_errors(doc),
                      key=lambda e: [str(k) for k in e.path])
        for e in errs[:3]:
            print("FAIL: %s against %s: at /%s: %s" % (
                p, name, "/".join(map(str, e.path)), e.message[:300]))
        failed += bool(errs)
        counts[s] = counts.get(s, 0) + 1
        if family(s) == "gdperf.run":
            ok = check_envelope(schemas, p, doc)
            if ok is not None:
                envelopes += 1
                failed += not ok
        if not errs:
            bool_shapes(doc, shapes.setdefault(s, {}))
        if not errs and family(s) not in first and mutable(doc):
            first[family(s)] = doc
    for s, n in sorted(counts.items()):
        print("ok - %d %s document(s) valid" % (n, s))
    if envelopes:
        print("ok - %d embedded envelope(s) valid against %s"
              % (envelopes, schemas["gdperf.envelope/1"][0]))
    for s, n in sorted(uncovered.items(), key=str):
        print("# %d %s document(s) without a schema file, not checked"
              % (n, s))
    for kind in filter(None, a.require.split(",")):
        if "gdperf." + kind not in first:
            print("FAIL: no valid gdperf.%s document to mutate among the "
                  "inputs" % kind)
            failed += 1
    for kind, doc in sorted(first.items()):
        v = schemas[doc["schema"]][1]
        for what, bad in mutations(kind, doc):
            if v.is_valid(bad):
                print("FAIL: %s with %s still validates: the schema is "
                      "too loose" % (kind, what))
                failed += 1
            else:
                print("ok - %s with %s is refused" % (kind, what))
    for s, seen in sorted(shapes.items()):
        loose = check_booleans(doc_valid(schemas, s), seen)
        if loose:
            print("FAIL: %s: %d of %d boolean(s) still validate as \"yes\" "
                  "or 1: %s" % (s, len(loose), len(seen), ", ".join(loose)))
            failed += 1
        else:
            print("ok - %s: each of its %d kinds of boolean, as \"yes\" or "
                  "1, is refused" % (s, len(seen)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
