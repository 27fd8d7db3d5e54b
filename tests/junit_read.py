#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# A JUnit file read back as a CI system reads it, with python3-junitparser:
# one line per testcase, "NAME|RESULT|TYPE|MESSAGE" (RESULT: passed,
# failure, error, skipped), then "text|NAME|LINE" per line of its body or
# output, then "properties|NAME=VALUE,..." of each suite.
import sys

from junitparser import Error, Failure, JUnitXml, Skipped

xml = JUnitXml.fromfile(sys.argv[1])
for suite in xml:
    for case in suite:
        res = case.result
        if not res:
            print("%s|passed||" % case.name)
        text = case.system_out or ""
        for r in res:
            kind = "failure" if isinstance(r, Failure) else (
                "error" if isinstance(r, Error) else (
                    "skipped" if isinstance(r, Skipped) else "other"))
            print("%s|%s|%s|%s" % (case.name, kind, r.type, r.message))
            text += r.text or ""
        for line in text.splitlines():
            print("text|%s|%s" % (case.name, line))
    props = ",".join("%s=%s" % (p.name, p.value) for p in suite.properties())
    print("properties|%s|tests=%d failures=%d errors=%d" %
          (props, suite.tests, suite.failures, suite.errors))
