#!/usr/bin/env python3
"""Writes a Python wheel that holds the gpudoctor binary, so `pip install`, `pipx install` and `uvx`
put `gpudoctor` on PATH (the binary is the wheel's one script: <name>-<ver>.data/scripts/).

    make_wheel.py --binary build/release/src/gpudoctor --platform manylinux_2_34_x86_64 \
                  --version 0.1.0 --readme README.md --out build/packages

Only the standard library: zipfile for the archive, hashlib for RECORD (PEP 427, PEP 376). The
platform tag is given, not guessed: manylinux_2_34_x86_64 for the Linux binary (glibc floor checked by
packaging/check_glibc.sh), win_amd64 for the mingw-w64 .exe. Prints the wheel's path."""

import argparse
import base64
import hashlib
import os
import re
import sys
import zipfile

NAME = "gpudoctor"
SUMMARY = "What your GPUs can do for deep learning, and how to fix what stops them (AMD ROCm, NVIDIA CUDA)"
# The license of the LICENSE file beside README.md (dev.sh passes the file with --license-file).
LICENSE = "MIT"
# The project's public addresses, one `Label = URL` a line (none until the repository is published): each
# becomes a Project-URL line of METADATA. The .deb reads its Homepage from the same file.
PROJECT_URLS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "project_urls.txt")
CLASSIFIERS = [
    "Environment :: Console",
    "License :: OSI Approved :: MIT License",
    "Intended Audience :: Developers",
    "Intended Audience :: Science/Research",
    "Operating System :: POSIX :: Linux",
    "Operating System :: Microsoft :: Windows",
    "Topic :: System :: Hardware",
    "Topic :: Scientific/Engineering :: Artificial Intelligence",
]
# A fixed time for every archive entry: the same inputs give the same wheel, byte for byte.
ZIP_TIME = (2026, 1, 1, 0, 0, 0)


def record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def read_project_urls(path):
    """The (label, URL) pairs of a project_urls.txt, in its order; exits with the line at fault when one
    is not `Label = URL` with an http(s) URL (core metadata: a label of at most 32 characters)."""
    urls = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            label, sep, url = (part.strip() for part in line.partition("="))
            if not sep or not label or len(label) > 32 or "," in label or not re.fullmatch(r"https?://\S+", url):
                sys.exit(f"make_wheel.py: {path}:{number}: expected `Label = https://...` "
                         f"(a label of at most 32 characters, no comma), found: {line}")
            urls.append((label, url))
    return urls


def metadata(version, readme_text, license_text, project_urls):
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {version}",
        f"Summary: {SUMMARY}",
        f"License: {LICENSE}",
        "Requires-Python: >=3.7",
        "Keywords: gpu,rocm,cuda,pytorch,diagnostics,deep-learning",
    ]
    lines += [f"Project-URL: {label}, {url}" for label, url in project_urls]
    lines += [f"Classifier: {c}" for c in CLASSIFIERS]
    if license_text is not None:
        lines.append("License-File: LICENSE")
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + readme_text


def wheel_file(tag):
    return f"Wheel-Version: 1.0\nGenerator: gpudoctor packaging/make_wheel.py\nRoot-Is-Purelib: false\nTag: {tag}\n"


def add(zf, records, path, data, executable=False):
    info = zipfile.ZipInfo(path, date_time=ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = ((0o100755 if executable else 0o100644) & 0xFFFF) << 16
    zf.writestr(info, data)
    records.append(f"{path},{record_hash(data)},{len(data)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True, help="the gpudoctor executable (gpudoctor or gpudoctor.exe)")
    ap.add_argument("--platform", required=True, help="platform tag: manylinux_2_34_x86_64 or win_amd64")
    ap.add_argument("--version", required=True, help="PEP 440 version (the CMake project version)")
    ap.add_argument("--readme", required=True, help="README.md, the long description")
    ap.add_argument("--license-file", help="LICENSE, when the project has one")
    ap.add_argument("--out", required=True, help="folder to write the wheel into")
    ap.add_argument("--project-urls", default=PROJECT_URLS_FILE, metavar="FILE",
                    help="the project's addresses, `Label = URL` a line (default: packaging/project_urls.txt)")
    args = ap.parse_args()

    if not re.fullmatch(r"[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?", args.version):
        sys.exit(f"make_wheel.py: '{args.version}' is not a PEP 440 release version")
    if not re.fullmatch(r"(manylinux_[0-9]+_[0-9]+_x86_64|win_amd64)", args.platform):
        sys.exit(f"make_wheel.py: unsupported platform tag '{args.platform}'")
    with open(args.binary, "rb") as f:
        binary = f.read()
    with open(args.readme, encoding="utf-8") as f:
        readme_text = f.read()
    project_urls = read_project_urls(args.project_urls)
    license_text = None
    if args.license_file:
        with open(args.license_file, "rb") as f:
            license_text = f.read()

    tag = f"py3-none-{args.platform}"
    exe = "gpudoctor.exe" if args.platform.startswith("win") else "gpudoctor"
    data_dir = f"{NAME}-{args.version}.data"
    info_dir = f"{NAME}-{args.version}.dist-info"
    os.makedirs(args.out, exist_ok=True)
    wheel_path = os.path.join(args.out, f"{NAME}-{args.version}-{tag}.whl")

    records = []
    with zipfile.ZipFile(wheel_path, "w") as zf:
        add(zf, records, f"{data_dir}/scripts/{exe}", binary, executable=True)
        meta = metadata(args.version, readme_text, license_text, project_urls)
        add(zf, records, f"{info_dir}/METADATA", meta.encode())
        add(zf, records, f"{info_dir}/WHEEL", wheel_file(tag).encode())
        if license_text is not None:
            add(zf, records, f"{info_dir}/LICENSE", license_text)
        record_path = f"{info_dir}/RECORD"
        record = "\n".join(records + [f"{record_path},,"]) + "\n"
        info = zipfile.ZipInfo(record_path, date_time=ZIP_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = (0o100644 & 0xFFFF) << 16
        zf.writestr(info, record)
    print(wheel_path)


if __name__ == "__main__":
    main()
