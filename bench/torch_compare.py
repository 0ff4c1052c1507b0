#!/usr/bin/env python3
"""gpudoctor bench beside PyTorch on the same GPU: reads a `gpudoctor bench --json` document, measures the
same operations with PyTorch, and prints one table with the ratios and the targets of issue 6.

  fp32 triad      a = b + s * c on 1 GiB tensors (torch.add(b, c, alpha=s, out=a)), CUDA events; bytes moved
                  3 x 1 GiB; against gpudoctor's memory.triad point at 1 GiB per array     target >= 0.98x
  bf16 GEMM       8192^3, torch.matmul(a, b, out=c) on inputs uniform in [-1, 1); 2 n^3 flops; against
                  gemm.bf16's point at 8192                                              target >= 0.97x
  pinned H2D      1 GiB from pinned host memory, dev.copy_(host, non_blocking=True) between CUDA events;
                  against transfer.h2d_pinned's point at 1 GiB                           target >= 0.98x
  launch submit   gpudoctor's launch path against the bare driver launch, both measured by gpudoctor's own
                  harness (latency.submit / latency.driver_submit at one block)          target within 10%

Each PyTorch figure is the best of its timed runs, queued back to back with CUDA events between them, after
untimed warm-up runs: the way gpudoctor times its own. The median is printed beside it. A benchmark, not a test: it prints figures and exits 0 when every target is met,
1 otherwise.

  python3 bench/torch_compare.py bench.json [--json out.json]
"""

import argparse
import json
import statistics
import sys

GIB = 1 << 30


def timed(torch, fn, warmup, reps):
    """Best and median milliseconds of fn(), the runs queued back to back with a CUDA event between each two,
    as gpudoctor times its own (bench/bench_support.h): no launch gap enters either side's figures."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    events = [torch.cuda.Event(enable_timing=True) for _ in range(reps + 1)]
    events[0].record()
    for i in range(reps):
        fn()
        events[i + 1].record()
    events[-1].synchronize()
    times = [events[i].elapsed_time(events[i + 1]) for i in range(reps)]
    return min(times), statistics.median(times)


def torch_figures():
    import torch

    dev = torch.device("cuda")
    out = {"torch_version": torch.__version__, "device": torch.cuda.get_device_name(0)}

    n = GIB // 4
    b = torch.rand(n, device=dev)
    c = torch.rand(n, device=dev)
    a = torch.empty(n, device=dev)
    s = 0.4
    best, median = timed(torch, lambda: torch.add(b, c, alpha=s, out=a), 5, 50)
    torch.cuda.synchronize()
    ref = b[:1024] + s * c[:1024]
    assert torch.allclose(a[:1024], ref), "torch triad result is wrong"
    out["triad"] = {"best_gbs": 3 * GIB / (best * 1e6), "median_gbs": 3 * GIB / (median * 1e6)}
    del a, b, c

    m = 8192
    x = (torch.rand(m, m, device=dev) * 2 - 1).to(torch.bfloat16)
    y = (torch.rand(m, m, device=dev) * 2 - 1).to(torch.bfloat16)
    z = torch.empty(m, m, device=dev, dtype=torch.bfloat16)
    best, median = timed(torch, lambda: torch.matmul(x, y, out=z), 3, 10)
    flops = 2.0 * m * m * m
    out["gemm_bf16"] = {"best_tflops": flops / (best * 1e9), "median_tflops": flops / (median * 1e9)}
    del x, y, z

    host = torch.empty(GIB, dtype=torch.uint8, pin_memory=True)
    host.random_(0, 255)
    target = torch.empty(GIB, dtype=torch.uint8, device=dev)
    best, median = timed(torch, lambda: target.copy_(host, non_blocking=True), 2, 10)
    torch.cuda.synchronize()
    assert torch.equal(target[:4096].cpu(), host[:4096]), "torch copy result is wrong"
    out["h2d_pinned"] = {"best_gbs": GIB / (best * 1e6), "median_gbs": GIB / (median * 1e6)}
    return out


def point(doc, bench_id, x):
    for b in doc.get("benchmarks", []):
        if b["id"] != bench_id:
            continue
        for p in b.get("points", []):
            if p["x"] == x and p["value"] is not None:
                return p["value"], b.get("check", "?")
        return None, b.get("check", "?")
    return None, "absent"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench_json", help="the output of `gpudoctor bench --json`")
    parser.add_argument("--json", help="also write the table as JSON here")
    args = parser.parse_args()
    with open(args.bench_json) as f:
        doc = json.load(f)
    t = torch_figures()

    rows = []  # (metric, gpudoctor, reference, unit, ratio, target, ok, gpudoctor check)

    def add(metric, ours, check, ref, unit, target, higher_is_better=True):
        if ours is None or ref is None or ref <= 0:
            rows.append((metric, ours, ref, unit, None, target, False, check))
            return
        ratio = ours / ref
        ok = ratio >= target if higher_is_better else ratio <= target
        rows.append((metric, ours, ref, unit, ratio, target, ok and check == "passed", check))

    triad, triad_check = point(doc, "memory.triad", GIB)
    add("fp32 triad, 1 GiB arrays (vs torch)", triad, triad_check, t["triad"]["best_gbs"], "GB/s", 0.98)
    gemm, gemm_check = point(doc, "gemm.bf16", 8192)
    add("bf16 GEMM 8192^3 (vs torch.matmul)", gemm, gemm_check, t["gemm_bf16"]["best_tflops"], "TFLOP/s", 0.97)
    h2d, h2d_check = point(doc, "transfer.h2d_pinned", GIB)
    add("pinned H2D 1 GiB (vs torch copy_)", h2d, h2d_check, t["h2d_pinned"]["best_gbs"], "GB/s", 0.98)
    ours, ours_check = point(doc, "latency.submit", 1)
    bare, _ = point(doc, "latency.driver_submit", 1)
    add("launch submit (vs bare driver call)", ours, ours_check, bare, "us", 1.10, higher_is_better=False)

    device = doc.get("device") or {}
    print(f"gpudoctor {doc.get('tool_version')} ({doc.get('level')}) on {device.get('name')}; "
          f"torch {t['torch_version']} on {t['device']}")
    print(f"torch medians: triad {t['triad']['median_gbs']:.0f} GB/s, bf16 {t['gemm_bf16']['median_tflops']:.0f} "
          f"TFLOP/s, pinned H2D {t['h2d_pinned']['median_gbs']:.1f} GB/s")
    header = ("metric", "gpudoctor", "reference", "unit", "ratio", "target", "check", "met")
    table = [header]
    for metric, o, r, unit, ratio, target, ok, check in rows:
        table.append((metric, "n/a" if o is None else f"{o:.2f}", "n/a" if r is None else f"{r:.2f}", unit,
                      "n/a" if ratio is None else f"{ratio:.3f}x",
                      (f"<= {target:.2f}x" if unit == "us" else f">= {target:.2f}x"), check, "yes" if ok else "NO"))
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"torch": t, "rows": [dict(zip(("metric", "gpudoctor", "reference", "unit", "ratio", "target",
                                                        "met", "check"), r)) for r in rows]}, f, indent=2)
    return 0 if all(r[6] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
