#!/usr/bin/env python3
"""The skips of one gtest run against tests/allowed_skips.txt: prints every skipped test whose reason the list
does not allow for that run, and exits 1 when there is one (0 when every skip is allowed; 2 when the XML or the
list cannot be read). `./dev.sh test` runs it on each run's results.xml.

    tests/check_skips.py RUN RESULTS_XML [ALLOW_LIST]    RUN: linux or windows
"""
import os
import sys
import xml.etree.ElementTree as ET

RUNS = ("all", "linux", "windows")


def read_allow_list(path):
    rules = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            runs, sep, prefix = line.partition(" | ")
            if not sep or runs not in RUNS or not prefix.strip():
                raise ValueError(f"{path}:{number}: not 'RUNS | MESSAGE PREFIX' with RUNS one of {RUNS}: {line}")
            rules.append((runs, prefix.strip()))
    return rules


def skip_reason(message):
    """GoogleTest writes "file:line\\n[Skipped\\n]MESSAGE"; the reason is MESSAGE."""
    lines = message.split("\n")
    if lines and ":" in lines[0]:
        lines = lines[1:]
    if lines and lines[0] == "Skipped":
        lines = lines[1:]
    return "\n".join(lines).strip()


def skipped_tests(xml_path):
    for case in ET.parse(xml_path).getroot().iter("testcase"):
        if case.get("result") != "skipped" and case.find("skipped") is None:
            continue
        element = case.find("skipped")
        message = "" if element is None else (element.get("message") or element.text or "")
        yield f"{case.get('classname')}.{case.get('name')}", skip_reason(message)


def main(argv):
    if len(argv) not in (3, 4) or argv[1] not in ("linux", "windows"):
        print(__doc__, file=sys.stderr)
        return 2
    run, xml_path = argv[1], argv[2]
    allow_path = argv[3] if len(argv) == 4 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                             "allowed_skips.txt")
    try:
        rules = [prefix for runs, prefix in read_allow_list(allow_path) if runs in ("all", run)]
        skipped = list(skipped_tests(xml_path))
    except (OSError, ValueError, ET.ParseError) as e:
        print(f"check_skips: {e}", file=sys.stderr)
        return 2
    bad = [(name, reason) for name, reason in skipped if not any(reason.startswith(p) for p in rules)]
    for name, reason in bad:
        print(f"skipped for a reason {os.path.basename(allow_path)} does not allow ({run}): {name}: "
              f"{reason or '(no reason given)'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
