#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# A metrics file read back as a collector reads it, with
# python3-prometheus-client: a file that ends in "# EOF" by its OpenMetrics
# parser, any other by its Prometheus text parser (--prom to insist on
# it, e.g. for a scrape). One line per sample, "NAME{k="v",...} VALUE", the
# labels sorted and those with empty values dropped (Prometheus reads an
# empty label as no label). Exit 1 with the parser's error on a bad file,
# or on a sample seen twice.
import sys

from prometheus_client.openmetrics.parser import \
    text_string_to_metric_families as om_families
from prometheus_client.parser import \
    text_string_to_metric_families as prom_families


def main():
    args = sys.argv[1:]
    prom = args and args[0] == "--prom"
    if prom:
        args = args[1:]
    text = open(args[0], encoding="utf-8").read()
    parse = om_families
    if prom or not text.endswith("# EOF\n"):
        parse = prom_families
    seen = set()
    try:
        for fam in parse(text):
            for s in fam.samples:
                labels = ",".join('%s="%s"' % (k, v)
                                  for k, v in sorted(s.labels.items()) if v)
                key = "%s{%s}" % (s.name, labels)
                if key in seen:
                    print("%s: sample %s twice" % (args[0], key),
                          file=sys.stderr)
                    return 1
                seen.add(key)
                print("%s %s" % (key, repr(float(s.value))))
    except ValueError as e:
        print("%s: %s" % (args[0], e), file=sys.stderr)
        return 1
    return 0


sys.exit(main())
