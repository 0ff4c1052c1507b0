#!/usr/bin/env python3
"""Generates data/gpus_nvidia_ids.toml and data/gpus_amd_ids.toml: every NVIDIA GPU since Maxwell
and every AMD id of libdrm's amdgpu.ids, each with its architecture.

Why a script: the id lists are long and change every month; copying them by hand loses ids and
invents typos. The PCI ids and names come from the public lists (pci.ids, amdgpu.ids); the chip ->
architecture tables below are gpudoctor's own, each row with its source. Ids already in the
hand-written files (gpus_nvidia.toml, gpus_amd.toml, gpus_amd_gcn.toml, gpus_amd_instinct.toml,
which carry figures and revision names checked by a person) are left to those files.

Usage (docs/knowledge-base.md, "GPU ids"):
    tools/gen_gpu_ids.py --pci-ids pci.ids --amdgpu-ids amdgpu.ids --data data --checked 2026-12-03
where pci.ids is https://github.com/pciutils/pciids/blob/master/pci.ids (Debian: /usr/share/misc/pci.ids
from `pciutils`/`hwdata`, older) and amdgpu.ids is libdrm's data/amdgpu.ids (Debian:
/usr/share/libdrm/amdgpu.ids from `libdrm-common`, older). It prints what it left out and why.
"""

import argparse
import re
import sys
from collections import OrderedDict

PCI_IDS_URL = "https://github.com/pciutils/pciids/blob/master/pci.ids"
AMDGPU_IDS_URL = "https://gitlab.freedesktop.org/mesa/drm/-/blob/main/data/amdgpu.ids"
CUDA_GPUS_URL = "https://developer.nvidia.com/cuda-gpus"
LLVM_AMDGPU_URL = "https://llvm.org/docs/AMDGPUUsage.html"
KFD_DEVICE_URL = "https://github.com/torvalds/linux/blob/master/drivers/gpu/drm/amd/amdkfd/kfd_device.c"

# ---- NVIDIA: chip (the codename pci.ids puts first) -> compute capability -------------------------
# Sources: NVIDIA's CUDA GPU list (developer.nvidia.com/cuda-gpus) and the knowledge facts sheet
# section 6.2 (compute capability by family). A chip not listed here is left out and printed.
NVIDIA_CHIPS = OrderedDict([
    # chip: (cc, architecture, confirmed, note)
    ("GM107", ("5.0", "Maxwell", True, "")),
    ("GM108", ("5.0", "Maxwell", True, "")),
    ("GM200", ("5.2", "Maxwell", True, "")),
    ("GM204", ("5.2", "Maxwell", True, "")),
    ("GM206", ("5.2", "Maxwell", True, "")),
    ("GP100", ("6.0", "Pascal", True, "")),
    ("GP102", ("6.1", "Pascal", True, "")),
    ("GP104", ("6.1", "Pascal", True, "")),
    ("GP106", ("6.1", "Pascal", True, "")),
    ("GP107", ("6.1", "Pascal", True, "")),
    ("GP108", ("6.1", "Pascal", True, "")),
    ("GV100", ("7.0", "Volta", True, "")),
    ("TU102", ("7.5", "Turing", True, "")),
    ("TU104", ("7.5", "Turing", True, "")),
    ("TU106", ("7.5", "Turing", True, "")),
    ("TU116", ("7.5", "Turing", True, "")),
    ("TU117", ("7.5", "Turing", True, "")),
    ("GA100", ("8.0", "Ampere", True, "")),
    ("GA102", ("8.6", "Ampere", True, "")),
    ("GA103", ("8.6", "Ampere", True, "")),
    ("GA104", ("8.6", "Ampere", True, "")),
    ("GA106", ("8.6", "Ampere", True, "")),
    ("GA107", ("8.6", "Ampere", True, "")),
    ("AD102", ("8.9", "Ada Lovelace", True, "")),
    ("AD103", ("8.9", "Ada Lovelace", True, "")),
    ("AD104", ("8.9", "Ada Lovelace", True, "")),
    ("AD106", ("8.9", "Ada Lovelace", True, "")),
    ("AD107", ("8.9", "Ada Lovelace", True, "")),
    ("GH100", ("9.0", "Hopper", True, "")),
    ("GB100", ("10.0", "Blackwell", True, "")),
    ("GB102", ("10.0", "Blackwell", True, "")),
    ("GB110", ("10.3", "Blackwell", True, "")),
    ("GB10B", ("11.0", "Blackwell", True, "")),
    ("GB202", ("12.0", "Blackwell", True, "")),
    ("GB203", ("12.0", "Blackwell", True, "")),
    ("GB205", ("12.0", "Blackwell", True, "")),
    ("GB206", ("12.0", "Blackwell", True, "")),
    ("GB207", ("12.0", "Blackwell", True, "")),
    ("GB20B", ("12.1", "Blackwell", True, "")),
])
# Chips that are SoC GPUs sharing the system's memory (no VRAM of their own): written `integrated = true`.
NVIDIA_INTEGRATED = {
    "GB10B": "Jetson Thor",
    "GB20B": "DGX Spark's GB10 and the RTX Spark N1X",
}
NVIDIA_INTEGRATED_NOTE = ("an SoC GPU sharing the system's memory with the CPU (unified memory), as third-party "
                          "copies of NVIDIA's product pages say (NVIDIA's own pages were not read)")
# pci.ids spells variants of a chip with a suffix: GL (professional), GLM (professional mobile),
# M (mobile), BM (mobile refresh).
NVIDIA_SUFFIXES = ("", "GL", "GLM", "M", "BM")
# Functions of a GPU board that are not the GPU itself.
NVIDIA_NOT_GPU = re.compile(r"NVSwitch|Audio|USB|UCSI|Controller|bridge|Root|host|SATA", re.I)

# ---- AMD: chip codename (pci.ids, first word or two) -> LLVM gfx target --------------------------
# Sources: LLVM's AMDGPU processor table (AMDGPUUsage), the KFD gfx_target_version switch
# (kfd_device.c) and the knowledge facts sheet 1.1. Board codenames of the GCN era map to their die.
AMD_CHIPS = OrderedDict([
    # codename: (gfx, integrated, confirmed, note)
    ("Tahiti", ("gfx600", False, True, "")),
    ("Malta", ("gfx600", False, True, "")),
    ("Neptune", ("gfx600", False, True, "")),
    ("Pitcairn", ("gfx601", False, True, "")),
    ("Curacao", ("gfx601", False, True, "")),
    ("Trinidad", ("gfx601", False, True, "")),
    ("Wimbledon", ("gfx601", False, True, "")),
    ("Cape Verde", ("gfx601", False, True, "")),
    ("Venus", ("gfx601", False, True, "")),
    ("Heathrow", ("gfx601", False, True, "")),
    ("Chelsea", ("gfx601", False, True, "")),
    ("Oland", ("gfx602", False, True, "")),
    ("Mars", ("gfx602", False, True, "")),
    ("Opal", ("gfx602", False, True, "")),
    ("Sun", ("gfx602", False, True, "")),
    ("Jet", ("gfx602", False, True, "")),
    ("Hainan", ("gfx602", False, True, "")),
    ("Kaveri", ("gfx700", True, True, "")),
    ("Hawaii", ("gfx701", False, True, "")),
    ("Vesuvius", ("gfx701", False, True, "")),
    ("Kabini", ("gfx703", True, True, "")),
    ("Temash", ("gfx703", True, True, "")),
    ("Mullins", ("gfx703", True, True, "")),
    ("Bonaire", ("gfx704", False, True, "")),
    ("Saturn", ("gfx704", False, True, "")),
    ("Tobago", ("gfx704", False, True, "")),
    ("Carrizo", ("gfx801", True, True, "")),
    ("Wani", ("gfx801", True, True, "")),
    ("Topaz", ("gfx802", False, True, "")),
    ("Meso", ("gfx802", False, True, "")),
    ("Iceland", ("gfx802", False, True, "")),
    ("Tonga", ("gfx802", False, True, "")),
    ("Amethyst", ("gfx802", False, True, "")),
    ("Stoney", ("gfx810", True, True, "")),
    ("Fiji", ("gfx803", False, True, "")),
    ("Ellesmere", ("gfx803", False, True, "")),
    ("Baffin", ("gfx803", False, True, "")),
    ("Lexa", ("gfx803", False, True, "")),
    ("Polaris", ("gfx803", False, True, "")),
    ("Vega 10", ("gfx900", False, True, "")),
    ("Vega 12", ("gfx904", False, True, "")),
    ("Vega 20", ("gfx906", False, True, "")),
    ("Navi 10", ("gfx1010", False, True, "")),
    ("TDC-150", ("gfx1010", False, False, "a Navi 10 board (RX 5700 XTB / 5700B) by its amdgpu.ids names")),
    ("Navi 12", ("gfx1011", False, True, "")),
    ("Navi 14", ("gfx1012", False, True, "")),
    ("Navi 21", ("gfx1030", False, True, "")),
    ("Navi 22", ("gfx1031", False, True, "")),
    ("Navi 23", ("gfx1032", False, True, "")),
    ("Navi 24", ("gfx1034", False, True, "")),
    ("Van Gogh", ("gfx1033", True, True, "")),
    ("Sephiroth", ("gfx1033", True, False, "the 6 nm Van Gogh of the Steam Deck OLED; gfx1033 not confirmed")),
    ("Navi 31", ("gfx1100", False, True, "")),
    ("Navi 32", ("gfx1101", False, True, "")),
    ("Navi 33", ("gfx1102", False, True, "")),
    ("Navi 44", ("gfx1200", False, True, "")),
    ("Navi 48", ("gfx1201", False, True, "")),
    ("Arcturus", ("gfx908", False, True, "")),
    ("Aldebaran", ("gfx90a", False, True, "")),
])
# Instinct ids whose pci.ids line names no chip: matched on the amdgpu.ids product name.
AMD_PRODUCTS = [
    (re.compile(r"Instinct MI30[08]"), "Aqua Vanjaram", "gfx942"),
    (re.compile(r"Instinct MI35"), "MI350", "gfx950"),
]

NVIDIA_SOURCES = [CUDA_GPUS_URL, PCI_IDS_URL]
NVIDIA_INTEGRATED_SOURCES = {
    "GB10B": ["https://www.nvidia.com/en-us/autonomous-machines/embedded-systems/jetson-thor/"],
    "GB20B": ["https://www.nvidia.com/en-us/products/workstations/dgx-spark/",
              "https://learn.arm.com/learning-paths/laptops-and-desktops/dgx_spark_llamacpp/1a_gb10_setup/"],
}
AMD_SOURCES = [AMDGPU_IDS_URL, PCI_IDS_URL, LLVM_AMDGPU_URL]


def read_pci_vendor(path, vendor):
    """{device_id: text} for one vendor block of pci.ids (device lines only, not subsystems)."""
    out = {}
    inside = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            if not line.startswith("\t"):
                inside = line.startswith(vendor + "  ")
                continue
            if inside and not line.startswith("\t\t"):
                m = re.match(r"\t([0-9a-fA-F]{4})  (.*)$", line.rstrip("\n"))
                if m:
                    out[int(m.group(1), 16)] = m.group(2).strip()
    return out


def read_amdgpu_ids(path):
    """{device_id: [(revision, name)]} in file order."""
    out = OrderedDict()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"([0-9A-Fa-f]{4}),\s*([0-9A-Fa-f]{2}),\s*(.+)$", line.rstrip("\n"))
            if not m:
                continue
            name = m.group(3).strip()
            if name.startswith("AMD "):
                name = name[4:]
            out.setdefault(int(m.group(1), 16), []).append((int(m.group(2), 16), name))
    return out


def ids_in(path, key):
    found = set()
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"\s*" + key + r"\s*=\s*0x([0-9A-Fa-f]+)", line)
                if m:
                    found.add(int(m.group(1), 16))
    except FileNotFoundError:
        pass
    return found


def gfx_targets_in(path):
    names = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'name\s*=\s*"(gfx[0-9a-f]+)"', line)
            if m:
                names.add(m.group(1))
    return names


def toml_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def sources(urls):
    return "[" + ", ".join(toml_string(u) for u in urls) + "]"


def nvidia_chip_of(text):
    """('GA106', 'GeForce RTX 3060') from 'GA106 [GeForce RTX 3060]'; None when not a GPU we map."""
    m = re.match(r"([A-Z0-9]+)(?:\s*/\s*[^\[]*)?\s*(?:\[(.*)\])?\s*$", text)
    if not m:
        return None
    token, name = m.group(1), m.group(2)
    for chip in sorted(NVIDIA_CHIPS, key=len, reverse=True):
        if token.startswith(chip) and token[len(chip):] in NVIDIA_SUFFIXES:
            if name and NVIDIA_NOT_GPU.search(name):
                return None
            return chip, name
    return None


def generate_nvidia(pci, curated, checked, left_out):
    by_chip = OrderedDict((c, []) for c in NVIDIA_CHIPS)
    for device_id in sorted(pci):
        text = pci[device_id]
        hit = nvidia_chip_of(text)
        if hit is None:
            if re.match(r"(GM|GP|GV|TU|GA|AD|GH|GB|GR)\d", text) and not NVIDIA_NOT_GPU.search(text):
                left_out.append("10de:%04x %s (chip not in the table, or not a GPU function)" % (device_id, text))
            continue
        if device_id in curated:
            continue
        chip, name = hit
        by_chip[chip].append((device_id, name or (chip + " (unnamed in pci.ids)")))
    lines = [
        "# Generated by tools/gen_gpu_ids.py from pci.ids; do not edit by hand (see docs/knowledge-base.md).",
        "# Every NVIDIA GPU since Maxwell that pci.ids names with its chip, grouped by chip, with the chip's",
        "# compute capability. Ids with figures live in gpus_nvidia.toml and are left out here.",
        "#",
        "# [[nvidia_chip]]  chip (pci.ids codename), cc, devices = [{ device_id, name }]",
        "",
    ]
    count = 0
    for chip, devices in by_chip.items():
        if not devices:
            continue
        cc, _arch, confirmed, note = NVIDIA_CHIPS[chip]
        lines.append("[[nvidia_chip]]")
        lines.append("chip = " + toml_string(chip))
        lines.append("cc = " + toml_string(cc))
        if chip in NVIDIA_INTEGRATED:
            lines.append("integrated = true")
        lines.append("devices = [")
        for device_id, name in devices:
            lines.append("  { device_id = 0x%04X, name = %s }," % (device_id, toml_string(name)))
            count += 1
        lines.append("]")
        if chip in NVIDIA_INTEGRATED:
            confirmed = False
            note = NVIDIA_INTEGRATED[chip] + ": " + NVIDIA_INTEGRATED_NOTE + ("; " + note if note else "")
        if not confirmed:
            lines.append("confirmed = false")
            lines.append("note = " + toml_string(note))
        lines.append("source = " + sources(NVIDIA_SOURCES + NVIDIA_INTEGRATED_SOURCES.get(chip, [])))
        lines.append("checked = " + checked)
        lines.append("")
    return "\n".join(lines), count


def amd_chip_of(pci_text, names):
    for pattern, chip, gfx in AMD_PRODUCTS:
        if any(pattern.search(n) for _, n in names):
            return chip, gfx, False, True, ""
    if pci_text is None:
        return None
    head = pci_text.split("[")[0].strip()
    for codename in sorted(AMD_CHIPS, key=len, reverse=True):
        if head.startswith(codename):
            gfx, integrated, confirmed, note = AMD_CHIPS[codename]
            return codename, gfx, integrated, confirmed, note
    return None


def device_name(pci_text, names):
    if pci_text and "[" in pci_text:
        return pci_text[pci_text.index("[") + 1:pci_text.rindex("]")].strip()
    distinct = list(OrderedDict((n, None) for _, n in names))
    return distinct[0] if len(distinct) == 1 else " / ".join(distinct[:3])


def generate_amd(amdgpu, pci, curated, known_gfx, checked, left_out):
    lines = [
        "# Generated by tools/gen_gpu_ids.py from amdgpu.ids and pci.ids; do not edit by hand",
        "# (see docs/knowledge-base.md). Every id of libdrm's amdgpu.ids that the hand-written files",
        "# (gpus_amd.toml, gpus_amd_gcn.toml, gpus_amd_instinct.toml) do not hold, with its chip (pci.ids)",
        "# and gfx target (the chip table in the script). Same fields as gpus_amd.toml.",
        "",
    ]
    count = 0
    for device_id, names in amdgpu.items():
        if device_id in curated:
            continue
        pci_text = pci.get(device_id)
        hit = amd_chip_of(pci_text, names)
        if hit is None:
            left_out.append("1002:%04x %s (no chip codename in the table)" % (device_id, pci_text or names[0][1]))
            continue
        chip, gfx, integrated, confirmed, note = hit
        if gfx not in known_gfx:
            left_out.append("1002:%04x %s (%s: %s is not in gfx_targets.toml)" %
                            (device_id, names[0][1], chip, gfx))
            continue
        lines.append("[[amd_device]]")
        lines.append("device_id = 0x%04X" % device_id)
        lines.append("name = " + toml_string(device_name(pci_text, names)))
        lines.append("chip = " + toml_string(chip))
        lines.append("gfx = " + toml_string(gfx))
        if integrated:
            lines.append("integrated = true")
        # amdgpu.ids may give one revision two names (1002:6646 rev 0x80: R9 M385 and R9 M470X): one
        # revision entry with both names, as a revision is listed once.
        rev_names = OrderedDict()
        for rev, name in names:
            if name not in rev_names.setdefault(rev, []):
                rev_names[rev].append(name)
        by_name = OrderedDict()
        for rev, rev_list in rev_names.items():
            by_name.setdefault(" / ".join(rev_list), []).append(rev)
        lines.append("revisions = [")
        for name, revs in by_name.items():
            rev_text = "0x%02X" % revs[0] if len(revs) == 1 else "[" + ", ".join("0x%02X" % r for r in revs) + "]"
            lines.append("  { revision = %s, name = %s }," % (rev_text, toml_string(name)))
        lines.append("]")
        if not confirmed:
            lines.append("confirmed = false")
            lines.append("note = " + toml_string(note))
        lines.append("source = " + sources(AMD_SOURCES))
        lines.append("checked = " + checked)
        lines.append("")
        count += 1
    return "\n".join(lines), count


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--pci-ids", required=True)
    p.add_argument("--amdgpu-ids", required=True)
    p.add_argument("--data", default="data", help="the data folder to write into (and read curated ids from)")
    p.add_argument("--checked", required=True, help="the date the inputs were read, YYYY-MM-DD")
    a = p.parse_args()
    if not re.match(r"^\d{4}-\d{2}-\d{2}$", a.checked):
        sys.exit("--checked must be YYYY-MM-DD")

    left_out = []
    nv_pci = read_pci_vendor(a.pci_ids, "10de")
    nv_curated = ids_in(a.data + "/gpus_nvidia.toml", "device_id")
    nv_text, nv_count = generate_nvidia(nv_pci, nv_curated, a.checked, left_out)

    amd_pci = read_pci_vendor(a.pci_ids, "1002")
    amd_curated = set()
    for name in ("gpus_amd.toml", "gpus_amd_gcn.toml", "gpus_amd_instinct.toml"):
        amd_curated |= ids_in(a.data + "/" + name, "device_id")
    known_gfx = gfx_targets_in(a.data + "/gfx_targets.toml")
    amd_text, amd_count = generate_amd(read_amdgpu_ids(a.amdgpu_ids), amd_pci, amd_curated, known_gfx,
                                       a.checked, left_out)

    with open(a.data + "/gpus_nvidia_ids.toml", "w", encoding="utf-8") as f:
        f.write(nv_text)
    with open(a.data + "/gpus_amd_ids.toml", "w", encoding="utf-8") as f:
        f.write(amd_text)
    print("wrote %d NVIDIA devices (%d curated ids kept in gpus_nvidia.toml), %d AMD devices" %
          (nv_count, len(nv_curated), amd_count))
    for line in left_out:
        print("left out: " + line)


if __name__ == "__main__":
    main()
