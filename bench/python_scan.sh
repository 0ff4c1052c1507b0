#!/usr/bin/env bash
# How long gpudoctor takes to read a Python environment with a full PyTorch install: the environment's
# files, torch/version.py, the dist-info of every framework, and the section tables and fat-binary
# headers of torch's GPU libraries (libtorch_cuda.so is over a gigabyte; only headers are read). A
# benchmark, not a test: it prints figures to compare with the issue-4 target (< 200 ms).
#   bench/python_scan.sh [BINARY] [RUNS] [DIR]
# DIR is a venv or conda prefix or a site-packages folder; default /opt/torch/.venv when it exists, else
# Debian's python3-torch in /usr/lib/python3/dist-packages. Printed: the median of `info --json
# --python-env DIR`, the median of the same run without DIR (a minimal environment, so DIR is not found
# another way), and their difference: the scan of DIR alone.
#   GPUDOCTOR_BENCH_SYNTHETIC=N  also time a made-up site-packages whose libtorch_cuda.so holds N fat
#                                binary containers (copies of the fixture's), a stand-in for a real
#                                CUDA build on a machine without one (needs objcopy).
# Examples:
#   bench/python_scan.sh build/release/src/gpudoctor 21 /opt/torch/.venv
#   GPUDOCTOR_BENCH_SYNTHETIC=5000 bench/python_scan.sh build/py/src/gpudoctor 11
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-build/release/src/gpudoctor}"
RUNS="${2:-21}"
DIR="${3:-}"
if [ -z "$DIR" ]; then
  if [ -d /opt/torch/.venv ]; then DIR=/opt/torch/.venv; else DIR=/usr/lib/python3/dist-packages; fi
fi
[ -x "$BIN" ] || { echo "no binary at $BIN: build it first (./dev.sh run --version)" >&2; exit 3; }
[ -d "$DIR" ] || { echo "no folder $DIR" >&2; exit 3; }
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
DIR="$(cd "$DIR" && pwd)"

# Median wall time in microseconds of RUNS runs of the command given.
median_us() {
  "$@" >/dev/null 2>&1 || true  # warm the page cache
  local times=() t0 t1
  for _ in $(seq "$RUNS"); do
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (${#times[@]} + 1) / 2 ))p"
}

ms() { printf '%d.%03d ms' $(($1 / 1000)) $(($1 % 1000)); }

# A minimal environment: no VIRTUAL_ENV, CONDA_PREFIX or PATH entry leads to DIR, and the current
# folder is one without a .venv.
quiet_env=(env -i HOME=/nonexistent PATH=/nonexistent)

report() {  # report LABEL DIR
  local with without
  with=$(cd / && median_us "${quiet_env[@]}" "$BIN" info --json --python-env "$2")
  without=$(cd / && median_us "${quiet_env[@]}" "$BIN" info --json)
  local scan=$(( with > without ? with - without : 0 ))
  echo "$1 ($2), $RUNS runs, median:"
  echo "  info --json --python-env DIR  $(ms "$with")"
  echo "  info --json                   $(ms "$without")"
  echo "  the scan of DIR alone         $(ms "$scan")   (target < 200 ms)"
  if (cd / && "${quiet_env[@]}" "$BIN" info --json 2>/dev/null) | grep -qF "\"$2"; then
    echo "  (DIR was found without --python-env too, so both runs scan it and the difference means"
    echo "   nothing: the whole first run, $(ms "$with"), is the upper bound of the scan)"
  fi
  "$BIN" info --json --python-env "$2" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
for e in d["python_envs"]:
    t = e.get("torch") or {}
    libs = ", ".join("%s: %d cubins, %d ptx, %d amd" % (g["path"].rsplit("/", 1)[-1], len(g["cuda_cubins"]), len(g["cuda_ptx"]), len(g["amd"])) for g in t.get("gpu_code", []))
    print("  found %s: torch %s, arch list %s%s" % (e["site_packages"], t.get("version", "none"), " ".join(t.get("arch_list", [])) or "none", "; " + libs if libs else ""))
' 2>/dev/null || true
}

report "environment" "$DIR"

if [ -n "${GPUDOCTOR_BENCH_SYNTHETIC:-}" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  site="$work/lib/python3.12/site-packages"
  mkdir -p "$site/torch/lib"
  printf "__version__ = '2.11.0+cu130'\ncuda = '13.0'\n" > "$site/torch/version.py"
  fixture=tests/fixtures/binaries/cuda_sm75_sm90_ptx90.so
  objcopy -O binary --only-section=.nv_fatbin "$fixture" "$work/one.fatbin"
  python3 - "$work/one.fatbin" "$work/many.fatbin" "$GPUDOCTOR_BENCH_SYNTHETIC" <<'PY'
import sys
one = open(sys.argv[1], "rb").read()
one += bytes(-len(one) % 8)  # containers start 8-byte aligned
open(sys.argv[2], "wb").write(one * int(sys.argv[3]))
PY
  objcopy --update-section .nv_fatbin="$work/many.fatbin" "$fixture" "$site/torch/lib/libtorch_cuda.so"
  echo
  report "synthetic libtorch_cuda.so with $GPUDOCTOR_BENCH_SYNTHETIC containers ($(du -h "$site/torch/lib/libtorch_cuda.so" | cut -f1))" "$site"
fi
