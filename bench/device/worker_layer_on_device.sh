#!/usr/bin/env bash
# Issue 15's "Done when" for the GPU worker layer: after the worker layer's changes (bench/gates functions
# split, the device crossing to workers as its PCI address, the gate result line written and read by
# verify's own gate codec, collectives' local and MPI modes split into named steps) `verify --level quick`,
# `bench --quick` and `collectives --quick` must give the same results as before. Builds gpudoctor (Release, no tests), runs the
# three with --json and prints the figures to compare with the last run's (verify 12/12 pass, triad 4377
# GB/s, bf16 GEMM 796 TFLOP/s, pinned H2D 55.5 GB/s, submit 3.43 us). With two GPUs or more it also runs
# verify under CUDA_VISIBLE_DEVICES in reverse order, naming the last GPU by PCI address, and checks that
# the report names that address (the worker maps the address to its own ordinal), and, where Open MPI's
# mpirun is installed, `mpirun -np 2 gpudoctor collectives --quick --no-p2p` (the MPI mode: one rank per
# GPU, rank 0 making the NCCL id) into mpi.json. The lead runs it with the
# device tool's `run`, carrying the third-party headers:
#   carry: [".thirdparty"]   command: bash bench/device/worker_layer_on_device.sh
# (.thirdparty/ as bench/device/verify_on_device.sh describes). Logs land in $OUT: build.log, verify.json,
# bench.json, collectives.json, reordered.json, mpi.json, stderr.log. The card's settings are never touched. The P2P
# matrix (collectives' "p2p") is printed too: one GPU gives only its diagonal.
set -u
OUT=${OUT:-/tmp/gpudoctor-device-out}
mkdir -p "$OUT"
BUILD=build/device

OUT="$OUT" bash bench/device/build.sh || exit 1
B=$BUILD/src/gpudoctor

run() {  # run FILE TIMEOUT ARGS...: one gpudoctor run, its JSON in $OUT/FILE; prints the exit code and time
  local file=$1 limit=$2
  shift 2
  local start=$SECONDS
  timeout "$limit" "$B" "$@" > "$OUT/$file" 2>> "$OUT/stderr.log"
  echo "exit code $? after $((SECONDS - start)) s: gpudoctor $*"
}

echo "== verify --level quick"
run verify.json 180 verify --level quick --json
python3 - "$OUT/verify.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
gates = r.get("gates", [])
passed = sum(g["status"] == "pass" for g in gates)
print(f"verify: {passed}/{len(gates)} pass; device {r.get('device', {}).get('pci_address')}; {r.get('verdict')}")
for g in gates:
    print(f"  {g['gate']:<10} {g['status']:<5} {g['summary'][:110]}")
PY

echo "== bench --quick"
run bench.json 240 bench --quick --json
python3 - "$OUT/bench.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"bench: device {r.get('device', {}).get('pci_address')}, {r.get('duration_s')} s, exit {r.get('exit_code')}")
for b in r.get("benchmarks", []):
    print(f"  {b['id']:<24} {b.get('best')!s:>10} {b['unit']:<8} {b.get('verdict')!s:<6} check {b.get('check')}")
want = {"memory.triad": 4377, "gemm.bf16": 796, "transfer.h2d_pinned": 55.5, "latency.submit": 3.43}
best = {b["id"]: b.get("best") for b in r.get("benchmarks", [])}
print("  against the last stop: " + ", ".join(f"{k} {best.get(k)} (was {v})" for k, v in want.items()))
PY

echo "== collectives --quick"
run collectives.json 300 collectives --quick --json
python3 - "$OUT/collectives.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except ValueError as e:
    sys.exit(f"collectives: no JSON ({e}); see stderr.log")
def walk(x):
    if isinstance(x, dict):
        if "op" in x and "size_bytes" in x:
            yield x
        for v in x.values():
            yield from walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v)
rows = list(walk(r))
print(f"collectives: {len(rows)} results")
largest = {}
for row in rows:
    if row["size_bytes"] >= largest.get(row["op"], {}).get("size_bytes", -1):
        largest[row["op"]] = row
for op, row in largest.items():
    print(f"  {op:<16} {row['size_bytes']:>12} B  busbw {row.get('busbw_gbs')} GB/s  time {row.get('time_us')} us"
          f"  {row.get('status', '')}")
# The P2P matrix now goes through the vendor-neutral Backend (CanAccessPeer / EnablePeerAccess / CopyPeer):
# with one GPU it is the diagonal only (a copy within the GPU); compare with the CUDA-table version's figures.
p2p = r.get("p2p") or {}
m = p2p.get("matrix") or {}
print(f"p2p: {p2p.get('status')} {p2p.get('reason') or ''} error={m.get('error')}")
for i, d in enumerate(m.get("devices", [])):
    print(f"  GPU{i} {d.get('pci_address')}: bandwidth {m['bandwidth_gbs'][i]} GB/s, latency {m['latency_us'][i]} us,"
          f" peer {m['peer_access'][i]}, correct {m['correct'][i]}")
PY

gpus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader 2>/dev/null | wc -l)
if [ "$gpus" -ge 2 ]; then
  echo "== verify under a reversed CUDA_VISIBLE_DEVICES, the last GPU named by its PCI address"
  # nvidia-smi writes 00000000:17:00.0; bus:device.function is enough for --device
  last=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader | tail -1 | tr 'A-F' 'a-f')
  last=${last: -7}
  order=$(seq $((gpus - 1)) -1 0 | paste -sd,)
  CUDA_VISIBLE_DEVICES=$order run reordered.json 180 verify --level quick --json --device "$last"
  python3 - "$OUT/reordered.json" "$last" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
got = r.get("device", {}).get("pci_address", "")
ctx = next((g["summary"] for g in r.get("gates", []) if g["gate"] == "context"), "")
ok = got[-7:] == sys.argv[2]
print(f"asked {sys.argv[2]}, report names {got}; context: {ctx}; {'same GPU' if ok else 'WRONG GPU'}")
PY
  if command -v mpirun > /dev/null 2>&1; then
    echo "== mpirun -np 2 collectives --quick --no-p2p (the MPI mode)"
    start=$SECONDS
    timeout 300 mpirun --allow-run-as-root -np 2 "$B" collectives --quick --no-p2p --json \
      > "$OUT/mpi.json" 2>> "$OUT/stderr.log"
    echo "exit code $? after $((SECONDS - start)) s: mpirun -np 2 gpudoctor collectives --quick --no-p2p --json"
    python3 - "$OUT/mpi.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except ValueError as e:
    sys.exit(f"mpi: no JSON ({e}); see stderr.log")
c = r.get("collectives") or {}
print(f"mpi: mode {r.get('mode')}, launcher {r.get('launcher')}, world {r.get('world_size')}, "
      f"collectives {c.get('status')} {c.get('reason') or ''}, {len(c.get('results', []))} results, "
      f"exit {r.get('exit_code')}")
for h in r.get("ranks", []):
    print(f"  rank {h.get('rank')} {h.get('host')} device {h.get('device')} {h.get('pci_address')} "
          f"{h.get('status')} {h.get('reason') or ''}")
PY
  else
    echo "== no mpirun on this machine: the MPI mode is not run (skipped)"
  fi
else
  echo "== one GPU: the reordering and MPI checks need nvidia-h200-x2 (skipped)"
fi
