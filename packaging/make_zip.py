#!/usr/bin/env python3
"""Writes the Windows download: a zip holding gpudoctor.exe (self-contained: mingw-w64 -static), the
README and, when the project has one, the license, all in one folder named like the zip.

    make_zip.py --exe build/windows/src/gpudoctor.exe --version 0.1.0 --readme README.md --out build/packages

Prints the zip's path."""

import argparse
import os
import zipfile

ZIP_TIME = (2026, 1, 1, 0, 0, 0)  # fixed: the same inputs give the same zip


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--readme", required=True)
    ap.add_argument("--license-file")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    folder = f"gpudoctor-{args.version}-windows-x86_64"
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, folder + ".zip")
    files = [(args.exe, "gpudoctor.exe"), (args.readme, "README.md")]
    if args.license_file:
        files.append((args.license_file, "LICENSE.txt"))
    with zipfile.ZipFile(path, "w") as zf:
        for source, name in files:
            with open(source, "rb") as f:
                info = zipfile.ZipInfo(f"{folder}/{name}", date_time=ZIP_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = (0o100644 & 0xFFFF) << 16
                zf.writestr(info, f.read())
    print(path)


if __name__ == "__main__":
    main()
