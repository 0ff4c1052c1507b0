#!/usr/bin/env bash
# gpudoctor bench beside PyTorch, on a GPU machine (the device tool's nvidia-h200 kind): runs
# `gpudoctor bench --quick --json`, then bench/torch_compare.py, which measures the same operations with
# PyTorch and prints the table of ratios and targets (fp32 triad, bf16 GEMM 8192^3, pinned 1 GiB host to
# device, launch submit against the bare driver call). Also runs the standard level once, as text, for its
# timing and tables. A benchmark, not a test: it prints figures; the exit code is the comparison's (0 when
# every target is met).
#   bench/torch_compare.sh [GPUDOCTOR] [PYTHON]
# GPUDOCTOR defaults to build/release/src/gpudoctor, PYTHON to /opt/torch/.venv/bin/python when it exists
# (the device image's PyTorch), else python3. Files land in $OUT (default /tmp/gpudoctor-bench-out):
# quick.json, progress.log (both runs' stderr), standard.txt, compare.txt, compare.json.
set -u
cd "$(dirname "$0")/.."
BIN=${1:-build/release/src/gpudoctor}
PY=${2:-}
if [ -z "$PY" ]; then
  if [ -x /opt/torch/.venv/bin/python ]; then PY=/opt/torch/.venv/bin/python; else PY=python3; fi
fi
OUT=${OUT:-/tmp/gpudoctor-bench-out}
mkdir -p "$OUT"
[ -x "$BIN" ] || { echo "no gpudoctor binary at $BIN" >&2; exit 3; }

echo "== gpudoctor bench --quick --json"
start=$(date +%s%N)
"$BIN" bench --quick --json > "$OUT/quick.json" 2> "$OUT/progress.log"
rc=$?
end=$(date +%s%N)
echo "exit code $rc after $(( (end - start) / 1000000 )) ms (wall, process start to end)"
tail -1 "$OUT/progress.log"

echo "== PyTorch beside it"
"$PY" bench/torch_compare.py "$OUT/quick.json" --json "$OUT/compare.json" | tee "$OUT/compare.txt"
cmp_rc=${PIPESTATUS[0]}

echo "== gpudoctor bench (standard level)"
start=$(date +%s%N)
"$BIN" bench > "$OUT/standard.txt" 2>> "$OUT/progress.log"
rc=$?
end=$(date +%s%N)
echo "exit code $rc after $(( (end - start) / 1000000 )) ms (wall)" | tee -a "$OUT/standard.txt"
exit "$cmp_rc"
