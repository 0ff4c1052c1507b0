#!/usr/bin/env bash
# Issue 34's one telemetry sampler on a GPU machine: builds gpudoctor with its tests (bench/device/build.sh),
# runs the real-GPU tests (the sustained gate and bench's readings now come from telemetry/'s GpuSampler),
# `verify --level quick --json`, `bench --quick --json` and `monitor --once --json` on GPU 0, and prints the
# telemetry each of them reports, one above the other, so their names, units and values can be compared.
# The lead runs it with the device tool's `run`, carrying the third-party headers:
#   carry: [".thirdparty"]   command: bash bench/device/one_sampler_on_device.sh
# (.thirdparty/ as bench/device/verify_on_device.sh describes). Logs land in $OUT. The card's settings are
# never touched: gpudoctor only reads telemetry.
set -u
OUT=${OUT:-/tmp/gpudoctor-device-out}
mkdir -p "$OUT"
BUILD=build/device
start=$SECONDS
OUT="$OUT" bash bench/device/build.sh --tests || exit 1
echo "== built in $((SECONDS - start)) s"
B=$BUILD/src/gpudoctor

echo "== real-GPU tests"
timeout 200 "$BUILD/tests/gpudoctor_tests" --gtest_filter='*RealGpu*:GpuSampler*:TelemetryAgreement*' > "$OUT/tests.txt" 2>&1
echo "tests exit code $?"
grep -E "^\[  (FAILED|SKIPPED|PASSED) |^\[==" "$OUT/tests.txt" | head -30

echo "== verify, bench, monitor"
timeout 120 "$B" verify --level quick --json > "$OUT/verify.json" 2> "$OUT/verify.err"; echo "verify exit $?"
timeout 120 "$B" bench --quick --json > "$OUT/bench.json" 2> "$OUT/bench.err"; echo "bench exit $?"
timeout 30 "$B" monitor --once --json > "$OUT/monitor.json" 2> "$OUT/monitor.err"; echo "monitor exit $?"
nvidia-smi --query-gpu=name,power.draw,power.limit,power.default_limit,temperature.gpu,clocks.sm,clocks.max.sm,pcie.link.gen.current,pcie.link.width.current,pcie.link.gen.max,pcie.link.width.max,ecc.errors.corrected.volatile.total,ecc.errors.uncorrected.volatile.total --format=csv > "$OUT/nvidia-smi.csv" 2>&1
cat "$OUT/nvidia-smi.csv"
python3 - "$OUT" <<'PY'
import json, sys, re
out = sys.argv[1]
def grep_telemetry(path):
    try:
        text = open(path).read()
    except OSError as e:
        return [str(e)]
    lines = []
    for m in re.finditer(r'"(power[a-z_]*|temperature[a-z_]*|sm_clock[a-z_]*|pcie_[a-z_]*|ecc_[a-z_]*|remapped_[a-z_]*|throttle_reasons)"\s*:\s*([^,\n]*)', text):
        lines.append(m.group(1) + "=" + m.group(2).strip())
    return lines[:40]
for name in ("monitor.json", "verify.json", "bench.json"):
    print("--", name)
    print("  " + "\n  ".join(grep_telemetry(out + "/" + name)))
PY
grep -iE "telemetry|watt| W\b|throttl" "$OUT/verify.json" "$OUT/bench.json" | head -20
