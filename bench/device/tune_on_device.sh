#!/usr/bin/env bash
# Builds gpudoctor (Release, the executable only) on a GPU machine (the device tool's nvidia-h200 kind) and runs
# bench/tune_compare.sh there: `gpudoctor tune --json` in the image's PyTorch (/opt/torch/.venv) beside a plain
# PyTorch ResNet-50 loop with the settings of tune's large-batch and knob-batch runs, then `tune --quick`; issue
# 17's targets (both ratios within 5%, tune under 3 min, --quick under 1 min). The lead runs it with the device
# tool's `run`, carrying the third-party headers:
#   carry: [".thirdparty"]   command: bash bench/device/tune_on_device.sh
# (.thirdparty/ as bench/device/verify_on_device.sh describes). Logs land in $OUT: build.log, tune.json,
# tune.log (progress and stderr), tune.txt (--quick as text), compare.txt.
set -u
OUT=${OUT:-/tmp/gpudoctor-device-out}
export OUT
mkdir -p "$OUT"
BUILD=build/device

OUT="$OUT" bash bench/device/build.sh || exit 1
tail -1 "$OUT/build.log"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,temperature.gpu,power.draw --format=csv 2>&1
bash bench/tune_compare.sh "$BUILD/src/gpudoctor" "${VENV:-/opt/torch/.venv}"
