#!/usr/bin/env python3
"""junit_merge.py: one JUnit report from the `hpmctl validate --junit` files
of several boards on several hosts (docs/hil.md, Many hosts, one report).

  tools/junit_merge.py -o MERGED.xml REPORT.xml...

Each report's <testsuite> goes into MERGED.xml as it is, named after its
board, with two more properties when it lacks them:

  board.serial  the report's board.serial property (make hil and the
                labgrid test set it), else the report's file name without
                .xml (make hil names them SERIAL.xml)
  board.host    the report's board.host property, else the HOST of a
                tcp:HOST:PORT or rfc2217:HOST:PORT board.link, else the
                testsuite's hostname (the machine hpmctl ran on)

and every test case's classname is prefixed with SERIAL@HOST, so that a CI
server lists each board's failures under its own name. The totals of the
<testsuites> root are the sums. Two reports of the same board on the same
host are an error (exit 1), as is a file that is not such a report; bad
arguments exit 2. Python 3 standard library only.
"""
import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET

COUNTS = ("tests", "failures", "errors", "skipped")


class Bad(Exception):
    pass


def board_of(path, suite, props):
    """(serial, host) of one report."""
    serial = props.get("board.serial") or re.sub(r"\.xml$", "", os.path.basename(path))
    host = props.get("board.host")
    if not host:
        m = re.match(r"(?:tcp|rfc2217):(?:\[([^\]]+)\]|([^:]+)):\d+$", props.get("board.link", ""))
        host = (m.group(1) or m.group(2)) if m else suite.get("hostname")
    if not serial or not host:
        raise Bad("%s: no board serial or host (validate --junit-property board.serial=SERIAL)" % path)
    return serial, host


def read(path):
    """The <testsuite>s of one validate --junit report."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise Bad("%s: %s" % (path, e.strerror if isinstance(e, OSError) else "not XML: %s" % e))
    suites = root.findall("testsuite") if root.tag == "testsuites" else [root] if root.tag == "testsuite" else []
    if not suites or any(s.get("name") is None or s.get("tests") is None for s in suites):
        raise Bad("%s: not a JUnit report (no <testsuite> with a name and counts)" % path)
    return suites


def merge(paths):
    out = ET.Element("testsuites", name="hpm-overlay boards")
    seen = {}
    total = dict.fromkeys(COUNTS, 0)
    seconds = 0.0
    for path in paths:
        for suite in read(path):
            props_el = suite.find("properties")
            if props_el is None:
                props_el = ET.Element("properties")
                suite.insert(0, props_el)
            props = {p.get("name"): p.get("value") for p in props_el.findall("property")}
            serial, host = board_of(path, suite, props)
            if (serial, host) in seen:
                raise Bad("%s and %s are both board %s on %s" % (seen[(serial, host)], path, serial, host))
            seen[(serial, host)] = path
            for name, value in (("board.serial", serial), ("board.host", host)):
                if name not in props:
                    ET.SubElement(props_el, "property", name=name, value=value)
            board = "%s@%s" % (serial, host)
            suite.set("name", "%s: %s" % (board, suite.get("name")))
            suite.set("id", str(len(out)))
            for case in suite.findall("testcase"):
                case.set("classname", "%s.%s" % (board, case.get("classname", "")))
            for k in COUNTS:
                total[k] += int(suite.get(k, "0"))
            seconds += float(suite.get("time", "0"))
            out.append(suite)
    for k in COUNTS:
        out.set(k, str(total[k]))
    out.set("time", "%.3f" % seconds)
    return out


def main():
    ap = argparse.ArgumentParser(prog="junit_merge.py",
                                 description="merge hpmctl validate --junit reports of several boards")
    ap.add_argument("-o", "--output", required=True, help="the merged report")
    ap.add_argument("reports", nargs="+", metavar="REPORT.xml")
    a = ap.parse_args()
    try:
        root = merge(a.reports)
    except Bad as e:
        print("junit_merge.py: %s" % e, file=sys.stderr)
        return 1
    ET.indent(root, space="  ")
    tmp = a.output + ".tmp"
    try:
        ET.ElementTree(root).write(tmp, encoding="UTF-8", xml_declaration=True)
        os.replace(tmp, a.output)
    except OSError as e:
        print("junit_merge.py: cannot write %s: %s" % (a.output, e.strerror), file=sys.stderr)
        return 1
    print("junit_merge.py: %s: %d boards, %s test cases, %s failures, %s errors, %s skipped"
          % (a.output, len(root), root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
