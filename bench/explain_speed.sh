#!/usr/bin/env bash
# Speed of `gpudoctor explain -f` on a big log: generates a synthetic training log of about 100 MB in
# /tmp (realistic lines: training steps, data loading, NCCL INFO, kernel-log noise, warnings, a few
# known errors sprinkled in) and times the scan with a Release build. Target: under 1 s for 100 MB.
# A benchmark, not a test: it prints figures; it fails only when the tool fails.
#   bench/explain_speed.sh [BINARY] [MEGABYTES]
# Build first: cmake --preset release && cmake --build build/release -j2 --target gpudoctor
# Prints each run, the best of 3 (wall and CPU), MB/s, the start-up share and the machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-build/release/src/gpudoctor}"
MB="${2:-100}"
LOG="/tmp/gpudoctor_explain_bench_${MB}mb.log"
[ -x "$BIN" ] || { echo "no binary at $BIN (see the build line at the top of this script)" >&2; exit 3; }

if [ ! -s "$LOG" ] || [ "$(stat -c %s "$LOG")" -lt $((MB * 1000000)) ]; then
  echo "generating $LOG ($MB MB)..." >&2
  python3 - "$LOG" "$MB" <<'PY'
import random, sys
path, mb = sys.argv[1], int(sys.argv[2])
rnd = random.Random(42)
normal = [
  "[2026-12-02 10:{m:02d}:{s:02d}] epoch {e} step {i}/50000 loss {l:.4f} lr 3.0e-04 grad_norm {g:.3f} tokens/s {t}",
  "[rank{r}]: data loader worker {w} prefetched batch {i} in {ms} ms",
  "gpu-node-017:{p}:{p} [{r}] NCCL INFO Channel {c:02d}/32 : {r} -> {r2} via P2P/IPC",
  "kernel: [{k}.{u:06d}] eth0: link up, 100Gbps, full-duplex",
  "/home/alice/venv/lib/python3.12/site-packages/torch/utils/data/dataloader.py:617: UserWarning: This DataLoader will create {w} worker processes in total.",
  "INFO:root:checkpoint saved to /data/ckpt/step_{i}.pt ({g:.1f} GB)",
  "  File \"/home/alice/train.py\", line {line}, in forward",
  "Validation: accuracy {a:.4f} perplexity {l:.3f} at step {i}",
]
errors = [
  "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!",
  "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1031",
  "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 11.98 GiB of which 1.23 GiB is free.",
  "[drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_0.0.0 timeout, signaled seq=9910, emitted seq=9912",
  "NVRM: Xid (PCI:0000:01:00): 79, pid=1234, name=python, GPU has fallen off the bus.",
]
target = mb * 1000 * 1000
written = 0
i = 0
with open(path, "w") as f:
  while written < target:
    i += 1
    if i % 250000 == 0:
      line = rnd.choice(errors)
    else:
      line = rnd.choice(normal).format(m=i % 60, s=i % 60, e=i // 100000, i=i, l=rnd.random() * 3, g=rnd.random() * 5,
        t=rnd.randint(9000, 12000), r=rnd.randint(0, 7), r2=rnd.randint(0, 7), w=rnd.randint(0, 15), ms=rnd.randint(1, 90),
        p=rnd.randint(1000, 9000), c=rnd.randint(0, 31), k=rnd.randint(100, 99999), u=rnd.randint(0, 999999),
        line=rnd.randint(10, 900), a=rnd.random())
    f.write(line + "\n")
    written += len(line) + 1
PY
fi

size=$(stat -c %s "$LOG")
"$BIN" explain -f "$LOG" --sysroot tests/fixtures/sysroot/rx6700xt-desktop >/dev/null || true  # warm the page cache
best=""
best_cpu=""
TIMEFORMAT="%R %U %S"
for run in 1 2 3; do
  set +e
  t=$( { time "$BIN" explain -f "$LOG" --sysroot tests/fixtures/sysroot/rx6700xt-desktop --json \
           >/tmp/gpudoctor_explain_bench.json; echo "rc=$?" >&2; } 2>&1 )
  set -e
  rc=$(echo "$t" | sed -n 's/^rc=//p')
  read -r real user sys < <(echo "$t" | grep -v '^rc=' | tail -1)
  [ "$rc" -le 2 ] || { echo "gpudoctor explain failed (exit $rc)" >&2; exit 1; }
  ms=$(awk -v r="$real" 'BEGIN { printf "%d", r * 1000 }')
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
  echo "run $run: ${ms} ms wall, ${cpu} ms CPU"
  if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; best_cpu=$cpu; fi
done
# Start-up: the same command on a one-line log (loading the catalog and the knowledge base, compiling the
# regexes, building the prefilter); the rest of the best run is the scan itself.
TINY=/tmp/gpudoctor_explain_bench_tiny.log
echo "step 1 loss 0.5" >"$TINY"
startup=""
for run in 1 2 3; do
  t=$( { time "$BIN" explain -f "$TINY" --sysroot tests/fixtures/sysroot/rx6700xt-desktop --json >/dev/null; } 2>&1 ) || true
  read -r real user sys < <(echo "$t" | tail -1)
  ms=$(awk -v r="$real" 'BEGIN { printf "%d", r * 1000 }')
  if [ -z "$startup" ] || [ "$ms" -lt "$startup" ]; then startup=$ms; fi
done
scan=$(( best > startup ? best - startup : 1 ))
matches=$(python3 -c "import json; d=json.load(open('/tmp/gpudoctor_explain_bench.json')); print(len(d['matches']), d['input']['lines'], d['input']['prefilter_hits'], d['input']['regex_runs'])")
echo "log: $LOG, $((size / 1000000)) MB; matches, lines, prefilter hits, regex runs: $matches"
echo "best of 3: ${best} ms wall (${best_cpu} ms CPU) for $((size / 1000000)) MB ($(( size / 1000 / (best > 0 ? best : 1) )) MB/s); target < 1000 ms"
echo "start-up (one-line log, best of 3): ${startup} ms ($(( startup * 100 / (best > 0 ? best : 1) ))% of the best run); scan alone: ${scan} ms ($(( size / 1000 / scan )) MB/s)"
echo "machine: $(nproc) cores usable by this script, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(wall time on a loaded machine overstates the cost: compare the CPU figure with the wall one)"
