#!/usr/bin/env python3
"""Builds tiny stand-in wheels for `gpudoctor setup --apply`'s tests: a local index without the network.

usage: make_standin_wheels.py OUTDIR NAME==VERSION...

Each wheel is pure Python (py3-none-any) and holds NAME/__init__.py and NAME/version.py with __version__, so
gpudoctor's probe reads it like the real package; torchvision and torchaudio require the torch named beside
them (Requires-Dist: torch==VERSION), as the real ones pin their torch.
"""
import base64
import hashlib
import os
import sys
import zipfile


def record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def build(outdir, name, version, requires):
    dist_info = f"{name}-{version}.dist-info"
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    metadata += "".join(f"Requires-Dist: {r}\n" for r in requires)
    files = {
        f"{name}/__init__.py": f"from .version import __version__\n",
        f"{name}/version.py": f"__version__ = '{version}'\ncuda = None\nhip = None\n",
        f"{dist_info}/METADATA": metadata,
        f"{dist_info}/WHEEL": "Wheel-Version: 1.0\nGenerator: gpudoctor-tests\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
    }
    record = [record_line(p, d.encode()) for p, d in files.items()] + [f"{dist_info}/RECORD,,"]
    files[f"{dist_info}/RECORD"] = "\n".join(record) + "\n"
    path = os.path.join(outdir, f"{name}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(path, "w") as z:
        for p, d in files.items():
            z.writestr(p, d)
    return path


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    specs = [a.split("==", 1) for a in argv[2:]]
    torch = next((v for n, v in specs if n == "torch"), None)
    for name, version in specs:
        requires = [f"torch=={torch}"] if torch and name != "torch" else []
        print(build(outdir, name, version, requires))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
