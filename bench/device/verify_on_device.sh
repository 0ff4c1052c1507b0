#!/usr/bin/env bash
# Builds gpudoctor on a GPU machine (the device tool's nvidia-h200 kind) and runs `gpudoctor verify` there:
# the quick and standard levels, each planted fault, and the RealGpu tests. The lead can rerun it with the
# device tool's `run`, carrying the third-party headers:
#   carry: [".thirdparty"]   command: bash bench/device/verify_on_device.sh
# where .thirdparty/ (listed in .git/info/exclude) holds copies made on the development machine:
#   mkdir -p .thirdparty/include && cp -rL /usr/include/{CLI,nlohmann,toml++} .thirdparty/include/ &&
#   cp -rL /usr/src/googletest .thirdparty/googletest
# Logs land in $OUT (at most 8 files come back): env.log, build.log, quick.txt, quick.json, standard.txt,
# faults.txt, tests.txt. The card's settings are never touched: gpudoctor only reads telemetry.
set -u
OUT=${OUT:-/tmp/gpudoctor-device-out}
mkdir -p "$OUT"
BUILD=build/device

{
  echo "== tools"; command -v cmake ninja c++ g++ clang++ 2>&1; cmake --version | head -1; c++ --version | head -1
  echo "== gpu"; nvidia-smi --query-gpu=name,pci.bus_id,driver_version,memory.total,clocks.sm,temperature.gpu,power.draw --format=csv 2>&1
  echo "== python"; command -v python3; python3 -c 'import sys, site; print(sys.prefix, site.getsitepackages())' 2>&1
  echo "== env"; env | grep -E '^(PATH|VIRTUAL_ENV|CONDA_PREFIX|CUDA_|LD_LIBRARY_PATH)=' 2>&1
} > "$OUT/env.log" 2>&1

OUT="$OUT" bash bench/device/build.sh --tests || exit 1
tail -2 "$OUT/build.log"
B=$BUILD/src/gpudoctor

run() {  # run NAME TIMEOUT ARGS...: one verify run, its report in $OUT/NAME and its exit code after it
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS
  timeout "$limit" "$B" verify "$@" > "$OUT/$name" 2>> "$OUT/stderr.log"
  local rc=$?
  echo "exit code $rc after $((SECONDS - start)) s: gpudoctor verify $*" >> "$OUT/$name"
}

echo "== verify --level quick"
run quick.txt 120 --level quick
cat "$OUT/quick.txt"
run quick.json 120 --level quick --json

echo "== planted faults"
: > "$OUT/faults.txt"
for fault in kernel-hang wrong-result oversize-alloc worker-crash; do
  run fault.tmp 150 --level quick --inject "$fault" --gate-timeout 20
  { echo "---- --inject $fault"; cat "$OUT/fault.tmp"; } >> "$OUT/faults.txt"
done
rm -f "$OUT/fault.tmp"
grep -E "^(---- |  kernel|  alloc|[0-9]+ gate|all gates|exit code)" "$OUT/faults.txt"

echo "== verify --level standard"
run standard.txt 200 --level standard
cat "$OUT/standard.txt"

echo "== tests"
{
  timeout 120 "$BUILD/tests/gpudoctor_tests" --gtest_filter='*RealGpu*'
  echo "RealGpu exit code $?"
  timeout 120 "$BUILD/tests/gpudoctor_tests" --gtest_brief=1 \
    --gtest_filter='*Gpu*:*Gate*:*Verify*:*LibrarySearch*:*WorkerProtocol*:*GemmCheck*:*Sustained*:-*RealGpu*'
  echo "GPU-free suites exit code $?"
} > "$OUT/tests.txt" 2>&1
grep -E "RealGpu gate|RealGpu telemetry|OK \]|FAILED|SKIPPED|exit code|PASSED" "$OUT/tests.txt" | head -40
