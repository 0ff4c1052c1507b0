#!/usr/bin/env bash
# Issue 18's "Done when" on a GPU machine: while a load runs on GPU 0, `gpudoctor monitor --once --json` and
# `nvidia-smi --query-gpu` are taken at the same moment and printed one above the other, three times, so the
# clocks, memory, utilization, power and temperature can be compared. Then `serve --prometheus` answers one
# scrape there, and bench/scrape_speed.sh runs 10,000 scrapes on the live GPUs. Builds gpudoctor first (GCC
# 13 there, no clang). The lead runs it with the device tool's `run`, carrying the third-party headers:
#   carry: [".thirdparty"]   command: bash bench/device/monitor_check.sh
# (.thirdparty/ as bench/device/verify_on_device.sh describes). The load is a PyTorch matmul loop
# (/opt/torch/.venv/bin/python, or python3 with torch; PYTHON=... picks another), else `gpudoctor bench`.
# Logs land in $OUT: build.log, compare.txt, metrics.txt, scrape_speed.txt, load.log. The card's settings
# are never touched.
set -u
OUT=${OUT:-/tmp/gpudoctor-device-out}
mkdir -p "$OUT"
BUILD=build/device

OUT="$OUT" bash bench/device/build.sh || exit 1
B=$BUILD/src/gpudoctor

PYTHON=${PYTHON:-/opt/torch/.venv/bin/python}
[ -x "$PYTHON" ] || PYTHON=python3
echo "== load on GPU 0"
if "$PYTHON" -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  # bf16 matmuls for about 60 s: the GPU busy, its clocks up, a few GiB allocated.
  "$PYTHON" - > "$OUT/load.log" 2>&1 <<'PY' &
import time, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
end = time.time() + 60
while time.time() < end:
    for _ in range(50):
        c = a @ b
    torch.cuda.synchronize()
print("load done")
PY
  LOAD=$!
  echo "torch matmul loop (pid $LOAD)"
else
  timeout 90 "$B" bench --device 0 > "$OUT/load.log" 2>&1 &
  LOAD=$!
  echo "no torch with CUDA under $PYTHON: gpudoctor bench as the load (pid $LOAD)"
fi
sleep 8  # let the load reach its steady clocks

: > "$OUT/compare.txt"
for round in 1 2 3; do
  {
    echo "---- round $round, $(date -u +%H:%M:%S.%N)"
    "$B" monitor --once --json > "$OUT/m.tmp" 2>&1 &
    M=$!
    nvidia-smi --query-gpu=index,clocks.sm,clocks.mem,memory.used,memory.total,utilization.gpu,power.draw,temperature.gpu \
      --format=csv > "$OUT/n.tmp" 2>&1 &
    N=$!
    wait "$M" "$N"
    echo "gpudoctor monitor --once --json:"; cat "$OUT/m.tmp"
    echo "nvidia-smi --query-gpu:"; cat "$OUT/n.tmp"
    "$B" monitor --once
  } >> "$OUT/compare.txt" 2>&1
  sleep 2
done
rm -f "$OUT/m.tmp" "$OUT/n.tmp"
cat "$OUT/compare.txt"

echo "== one scrape of serve --prometheus"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 19400)
"$B" serve --prometheus "127.0.0.1:$PORT" 2>> "$OUT/metrics.txt" &
SERVER=$!
sleep 2
python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$PORT/metrics').read().decode())" \
  >> "$OUT/metrics.txt" 2>&1
kill -INT "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null
grep -E "^gpudoctor_(power_watts|sm_clock_mhz|memory_used_bytes|utilization_percent|temperature_celsius)\{gpu=\"0\"" \
  "$OUT/metrics.txt"
tail -1 "$OUT/metrics.txt"

echo "== 10,000 scrapes on the live GPUs"
bash bench/scrape_speed.sh "$B" 10000 / > "$OUT/scrape_speed.txt" 2>&1
cat "$OUT/scrape_speed.txt"

kill "$LOAD" 2>/dev/null
wait 2>/dev/null
echo "done"
