#!/usr/bin/env bash
# Builds gpudoctor on a GPU machine and runs what issue 9 measures there: `topo` beside `nvidia-smi topo -m`,
# the collective benchmarks (every op checked) and the GPU-to-GPU copy matrices, and torch.distributed's own
# all-reduce when a PyTorch with CUDA is installed (the same nccl-tests formula, for comparison). Works on one
# GPU (world size 1: every collective still runs and checks its data; busbw is 0 by the formula; the P2P
# matrix is the GPU's copy to itself) and on several. The lead runs it with the device tool's `run`:
#   carry: [".thirdparty"]   command: bash bench/device/multi_gpu_on_device.sh
# (.thirdparty/ as bench/device/verify_on_device.sh describes). At most 8 files come back in $OUT: env.log,
# build.log, topo.txt, topo.json, collectives.txt, collectives.json, p2p.txt, torch.txt.
set -u
OUT=${OUT:-/tmp/gpudoctor-device-out}
mkdir -p "$OUT"
BUILD=build/device

{
  echo "== gpu"; nvidia-smi --query-gpu=name,pci.bus_id,driver_version,memory.total --format=csv 2>&1
  echo "== nvidia-smi topo -m"; nvidia-smi topo -m 2>&1
  echo "== nccl"; ls /usr/lib/x86_64-linux-gnu/libnccl* 2>&1; python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version())' 2>&1
  echo "== mpi"; command -v mpirun 2>&1
} > "$OUT/env.log" 2>&1

OUT="$OUT" bash bench/device/build.sh || exit 1
B=$BUILD/src/gpudoctor

echo "== topo (compare with nvidia-smi topo -m in env.log)"
timeout 60 "$B" topo --links > "$OUT/topo.txt" 2>&1; echo "exit code $?" >> "$OUT/topo.txt"
timeout 60 "$B" topo --json > "$OUT/topo.json" 2>> "$OUT/topo.txt"
sed -n '/== nvidia-smi topo -m/,/== nccl/p' "$OUT/env.log"
cat "$OUT/topo.txt"

echo "== collectives --quick (all five ops, 8 B .. 1 GiB by x4, every result checked)"
timeout 900 "$B" collectives --quick --no-p2p > "$OUT/collectives.txt" 2>&1; echo "exit code $?" >> "$OUT/collectives.txt"
cat "$OUT/collectives.txt"
timeout 900 "$B" collectives --ops all_reduce --min-bytes 1M --max-bytes 1G --iters 20 --no-p2p --json \
  > "$OUT/collectives.json" 2>> "$OUT/collectives.txt"
echo "collectives --json exit code $?"

echo "== P2P matrices"
timeout 300 "$B" collectives --p2p-only > "$OUT/p2p.txt" 2>&1; echo "exit code $?" >> "$OUT/p2p.txt"
cat "$OUT/p2p.txt"

echo "== torch.distributed all-reduce (NCCL backend, one process per GPU), busbw with the nccl-tests formula"
if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  timeout 600 python3 bench/device/torch_allreduce.py > "$OUT/torch.txt" 2>&1; echo "exit code $?" >> "$OUT/torch.txt"
else
  echo "no PyTorch with CUDA here: skipped" > "$OUT/torch.txt"
fi
cat "$OUT/torch.txt"
