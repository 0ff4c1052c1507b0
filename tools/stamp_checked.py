#!/usr/bin/env python3
"""Adds `checked = DATE` to every [[entry]] of the given data/*.toml files that has none.

Why a script: `checked` is the day a person last compared an entry with its `source`. When a whole
file was written (or re-read) on one day, stamping its undated entries by hand is slow and error
prone; this does exactly that and nothing else. Entries that already carry a `checked` keep it.

The line goes after the entry's last key (before the blank lines and comments that lead into the
next entry), so an entry stays one block. Only top-level [[arrays of tables]] are handled, which is
what data/ uses; a [sub.table] header inside an entry is refused, since a key after it would land in
the sub-table.

Usage (docs/knowledge-base.md, "Refreshing the data"):
    tools/stamp_checked.py --date 2026-12-02 data/gpus_amd.toml data/gpus_nvidia.toml
It prints how many entries of each file it stamped.
"""

import argparse
import datetime
import re
import sys

ENTRY = re.compile(r"^\[\[[A-Za-z0-9_.]+\]\]\s*(#.*)?$")
SUBTABLE = re.compile(r"^\[[^\[]")
CHECKED = re.compile(r"^checked\s*=")


def stamp(lines, date):
    """Returns (new lines, number of entries stamped)."""
    out = []
    block = None  # lines of the current entry, or None before the first entry
    stamped = 0

    def flush():
        nonlocal stamped
        if block is None:
            return
        if not any(CHECKED.match(l) for l in block):
            # The last key line: skip trailing blank and comment lines.
            last = len(block) - 1
            while last > 0 and (not block[last].strip() or block[last].lstrip().startswith("#")):
                last -= 1
            block.insert(last + 1, "checked = " + date + "\n")
            stamped += 1
        out.extend(block)

    for number, line in enumerate(lines, 1):
        if ENTRY.match(line):
            flush()
            block = [line]
        elif SUBTABLE.match(line):
            raise ValueError("line %d: sub-table '%s' is not supported" % (number, line.strip()))
        elif block is None:
            out.append(line)
        else:
            block.append(line)
    flush()
    return out, stamped


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--date", required=True, help="the day the entries were checked, YYYY-MM-DD")
    parser.add_argument("files", nargs="+", help="data/*.toml files to stamp in place")
    args = parser.parse_args()
    try:
        datetime.date.fromisoformat(args.date)
    except ValueError:
        sys.exit("--date must be YYYY-MM-DD, got '%s'" % args.date)
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        try:
            new, count = stamp(lines, args.date)
        except ValueError as e:
            sys.exit("%s: %s" % (path, e))
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(new)
        print("%s: %d entries stamped checked = %s" % (path, count, args.date))


if __name__ == "__main__":
    main()
